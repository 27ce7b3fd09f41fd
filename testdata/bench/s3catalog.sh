#!/usr/bin/env bash
# S3 catalogue benchmark (issue 27; BENCHMARKS.md): `bagscope catalog s3://PREFIX` over a part of
# the generated fleet (testdata/bench/gen_fleet.sh), uploaded to versitygw on loopback: requests
# and bytes per recording for a cold run and for an unchanged re-run (the client's counters, as
# `catalog --json` reports them under "fetched"), wall time and peak memory.
#
#   testdata/bench/s3catalog.sh [FLEET] [DIRS...]
#
# FLEET defaults to ../bench/fleet beside the checkout; DIRS (below FLEET) to five folders of
# small recordings and three holding one large recording each (the 300 MB ROS 1 bag, the
# 1M-message MCAP, the 1M-message .db3 folder). Environment: BUILD=/tmp/bagscope-bench-s3cat.
# Needs go, and versitygw (`make remote-servers`).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
fleet=$(cd "${1:-$repo/../bench/fleet}" && pwd)
shift || true
dirs=("$@")
((${#dirs[@]})) || dirs=(site0/day0 site0/day1 site0/day2 site0/day3 site0/day4 site1/day0 site3/day1 site5/day2)
build=${BUILD:-/tmp/bagscope-bench-s3cat}
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto} LANG=C.UTF-8
(cd "$repo" && make --no-print-directory remote-servers)
vgw=$HOME/.cache/bagscope-tools/versitygw-v1.8.0/versitygw
mkdir -p "$build"
# The full command line (the front hands catalog to it): it links parquet-go and the AWS SDK.
(cd "$repo" && go build -o "$build/bagscope" ./model/cli/bagscope && go build -o "$build/s3upload" ./testdata/bench/s3upload)

run=$(mktemp -d)
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$run"; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$run/data" "$run/side"
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret-key AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true \
	AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
env -i PATH="$PATH" HOME="$run" "$vgw" --access bench --secret bench-secret-key --region us-east-1 --port "127.0.0.1:$port" \
	--quiet posix --sidecar "$run/side" "$run/data" &
pid=$!
for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
ep=http://127.0.0.1:$port
srcs=()
for d in "${dirs[@]}"; do srcs+=("$fleet/$d"); done
echo "== uploading ${dirs[*]}" >&2
"$build/s3upload" "$ep" fleet "" "$fleet" "${dirs[@]}" >&2
cat=$run/cat
summary='import json, sys
r = json.load(sys.stdin)
f = r.get("fetched") or {"requests": 0, "bytes": 0}
n = r["recordings"]
print("%d recordings (%d read, %d unchanged, %d failed): %d requests, %d bytes; per recording %.2f requests, %.1f kB"
      % (n, r["read"], r["unchanged"], r["failed"], f["requests"], f["bytes"], f["requests"] / n, f["bytes"] / n / 1000))'
one() {
	echo "== $1 (load: $(cut -d' ' -f1-3 /proc/loadavg))"
	/usr/bin/time -f "wall %e s, user %U s, sys %S s, peak %M kB" -o "$run/time" \
		"$build/bagscope" catalog --json "${2:-s3://fleet/}" --endpoint-url "$ep" -o "${3:-$cat}" ${JOBS:+--jobs $JOBS} >"$run/out.json" || true
	python3 -c "$summary" <"$run/out.json"
	cat "$run/time"
}
one "cold: no catalogue"
one "unchanged re-run"
echo "== bytes of what was catalogued: $(find "${srcs[@]}" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')"
# Each large recording alone (a file over 100 MB, or the rosbag2 folder holding one), cold.
find "${srcs[@]}" -type f -size +100M | sort | while read -r f; do
	rel=${f#"$fleet"/}
	url=s3://fleet/$rel
	if [[ -f $(dirname "$f")/metadata.yaml ]]; then url=s3://fleet/$(dirname "$rel")/; fi
	one "alone, cold: $url ($(stat -c %s "$f") bytes)" "$url" "$run/alone-$(basename "$f")"
done
