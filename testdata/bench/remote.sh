#!/usr/bin/env bash
# Remote-reading benchmark (issue 25; BENCHMARKS.md): bagscope's commands on
# http:// URLs of the benchmark recordings, served by nginx through toxiproxy
# with a 50 ms round trip, beside the mcap CLI's published design (one suffix
# read of the last 250 kB) and beside downloading the file whole, in one run.
# Bytes and requests are counted by nginx (its access log), not by bagscope;
# round trips are the requests that began apart, more than half an RTT after
# the one before (see round_trips).
#
#   testdata/bench/remote.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# holds the bench files: mixed*.bag and images.bag (../shared/tools/
# gen_bench_bags.py), mixed_ros2_1m_*.mcap (testdata/bench/ros2gen),
# mixed_ros2_db3/ (testdata/bench/ros2db3). Missing ones are skipped.
#
# Rows:
#   info           `bagscope info URL`: requests, bytes, wall time (median of RUNS)
#   mcap design    one `Range: bytes=-256000` request (curl): the mcap CLI's open
#   download       the whole file (curl)
#   plot 10 s      `bagscope plot URL /imu.linear_acceleration.x --range 100:110`,
#                  beside the bytes of the chunks that hold /imu in that window
#                  (testdata/bench/remotebench window), or for a .db3 the
#                  pages SQLite reads to answer the window's query
#   check          `bagscope check --quick URL` under a bandwidth limit (BW kB/s),
#                  beside curl downloading the file under the same limit
#
# Environment: BUILD=/tmp/bagscope-bench-remote, RUNS=3, RTT=50 (ms), BW=20000
# (kB/s, the check rows). Needs go, curl, nginx, and the servers `make
# remote-servers` builds (toxiproxy).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=$(cd "${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}" && pwd)
build=${BUILD:-/tmp/bagscope-bench-remote}
runs=${RUNS:-3}
rtt=${RTT:-50}
bw=${BW:-20000}
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto} LANG=C.UTF-8

for tool in go curl nginx; do
	command -v "$tool" >/dev/null || { echo "remote.sh: $tool is missing" >&2; exit 1; }
done
mkdir -p "$build"
(cd "$repo" && make --no-print-directory remote-servers)
toxi=$HOME/.cache/bagscope-tools/toxiproxy-server-v2.5.0/toxiproxy-server
echo "== building bagscope, bagscope-gui and remotebench into $build" >&2
# plot renders its image through bagscope-gui, which the front runs from beside it.
(cd "$repo" && CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope" ./model/cli/bagscope && go build -tags no_emoji -o "$build/bagscope-gui" . &&
	go build -o "$build/remotebench" ./testdata/bench/remotebench)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 never opened" >&2; exit 1; }

run=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$run"; }
trap cleanup EXIT

ng=$(free_port)
cat >"$run/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $run/nginx.pid;
error_log $run/error.log warn;
events { worker_connections 256; }
http {
	log_format bench '\$body_bytes_sent \$status \$msec \$request_time';
	access_log $run/access.log bench;
	client_body_temp_path $run/body;
	proxy_temp_path $run/proxy;
	fastcgi_temp_path $run/fastcgi;
	uwsgi_temp_path $run/uwsgi;
	scgi_temp_path $run/scgi;
	default_type application/octet-stream;
	sendfile on;
	keepalive_requests 100000;
	server { listen 127.0.0.1:$ng; root $bench; }
}
EOF
nginx -p "$run" -c "$run/nginx.conf" -e "$run/error.log" &
pids+=($!)
wait_port "$ng"
tp=$(free_port)
"$toxi" -host 127.0.0.1 -port "$tp" >"$run/toxi.log" 2>&1 &
pids+=($!)
wait_port "$tp"
api() { curl -sf -X "$1" "http://127.0.0.1:$tp$2" ${3:+-H 'Content-Type: application/json' -d "$3"} >/dev/null; }
px=$(free_port)
api POST /proxies "{\"name\":\"nginx\",\"listen\":\"127.0.0.1:$px\",\"upstream\":\"127.0.0.1:$ng\",\"enabled\":true}"
api POST /proxies/nginx/toxics "{\"name\":\"rtt\",\"type\":\"latency\",\"stream\":\"downstream\",\"toxicity\":1,\"attributes\":{\"latency\":$rtt,\"jitter\":0}}"
base="http://127.0.0.1:$px"

# measure NAME CMD...: runs CMD RUNS times; prints the median wall time and,
# from nginx's log of the last run, the requests and body bytes.
measure() {
	local times=() t0 t1
	for _ in $(seq "$runs"); do
		: >"$run/access.log"
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>"$run/stderr" || true
		t1=$(date +%s.%N)
		times+=("$(echo "$t1 - $t0" | bc)")
	done
	local med
	med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
	local reqs bytes rounds
	reqs=$(wc -l <"$run/access.log")
	bytes=$(awk '{s += $1} END {print s + 0}' "$run/access.log")
	rounds=$(round_trips "$run/access.log")
	printf '%s %s %s %s\n' "$reqs" "$bytes" "$med" "$rounds"
}

# round_trips LOG: the round trips of nginx's log, as the client waited for
# them: a request that began (its log time less its duration) more than
# half an RTT after the previous one began waited for an answer, so starts
# another round trip; requests begun together (a head and a suffix, the
# parts of a read-ahead) are one.
round_trips() {
	local half
	half=$(echo "$rtt / 2000" | bc -l)
	awk '{printf "%.3f\n", $3 - $4}' "$1" | sort -n |
		awk -v half="$half" 'NR == 1 || $1 - last > half {n++} {last = $1} END {print n + 0}'
}

row() { printf '| %s | %s | %s | %s | %s | %s |\n' "$@"; }
kb() { awk -v b="$1" 'BEGIN {printf "%.1f kB", b / 1000}'; }
ms() { awk -v s="$1" 'BEGIN {printf "%.0f ms", s * 1000}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; RTT $rtt ms injected by toxiproxy; median of $runs runs"
echo
echo "| recording | what | requests | round trips | fetched | time |"
echo "|---|---|---|---|---|---|"
files=(mixed_ros2_1m_zstd.mcap mixed_ros2_1m_lz4.mcap mixed.bag mixed_lz4.bag images.bag mixed_ros2_db3/metadata.yaml mixed_ros2_db3/mixed_ros2_db3_0.db3)
for f in "${files[@]}"; do
	[[ -e "$bench/$f" ]] || { echo "| $f | missing: skipped | | | |"; continue; }
	size=$(stat -c %s "$bench/$f")
	read -r q b t r < <(measure "$build/bagscope" info "$base/$f")
	row "$f ($(kb "$size"))" "bagscope info" "$q" "$r" "$(kb "$b")" "$(ms "$t")"
	read -r q b t r < <(measure curl -sf -o /dev/null -r -256000 "$base/$f")
	row "" "mcap CLI design: one 250 kB suffix read" "$q" "$r" "$(kb "$b")" "$(ms "$t")"
	[[ -n "${SKIP_DOWNLOAD:-}" ]] && continue
	read -r q b t r < <(measure curl -sf -o /dev/null "$base/$f")
	row "" "download whole" "$q" "$r" "$(kb "$b")" "$(ms "$t")"
done
echo
echo "| recording | plot /imu.linear_acceleration.x, 10 s window (100-110 s) | requests | round trips | fetched | time | chunks holding it |"
echo "|---|---|---|---|---|---|---|"
# A .db3 is opened by its folder's metadata.yaml; what holds the window is
# the pages SQLite itself reads for it (remotebench window FILE.db3).
for f in mixed_ros2_1m_zstd.mcap mixed.bag mixed_lz4.bag mixed_ros2_db3/metadata.yaml; do
	[[ -e "$bench/$f" ]] || continue
	src=$f
	[[ $f == */metadata.yaml ]] && src=$(dirname "$f")/$(basename "$(dirname "$f")")_0.db3
	read -r n cb < <("$build/remotebench" window "$bench/$src" /imu 100 110)
	read -r q b t r < <(measure "$build/bagscope" plot "$base/$f" /imu.linear_acceleration.x --range 100:110 -o "$run/plot.png")
	# The opening (a suffix, the first block, the index) is info's; the
	# window's own bytes are the rest.
	read -r oq ob ot or < <(measure "$build/bagscope" info "$base/$f")
	printf '| %s | bagscope plot | %s | %s | %s (%.2fx; %.2fx without the opening'"'"'s %s) | %s | %s chunks, %s |\n' "$f" "$q" "$r" "$(kb "$b")" "$(echo "$b / $cb" | bc -l)" "$(echo "($b - $ob) / $cb" | bc -l)" "$(kb "$ob")" "$(ms "$t")" "$n" "$(kb "$cb")"
done
echo "(chunks holding it: for the .db3, the pages SQLite reads for the window)"
echo
api POST /proxies/nginx/toxics "{\"name\":\"bw\",\"type\":\"bandwidth\",\"stream\":\"downstream\",\"toxicity\":1,\"attributes\":{\"rate\":$bw}}"
echo "| recording | full read under $bw kB/s | requests | fetched | time | share of the link |"
echo "|---|---|---|---|---|---|"
for f in mixed_ros2_zstd.mcap mixed_lz4.bag mixed.bag; do
	[[ -e "$bench/$f" ]] || continue
	read -r q b t r < <(measure curl -sf -o /dev/null "$base/$f")
	link=$t
	printf '| %s | curl, one request | %s | %s | %s | |\n' "$f" "$q" "$(kb "$b")" "$(ms "$t")"
	read -r q b t r < <(measure "$build/bagscope" check --quick "$base/$f")
	printf '| | bagscope check --quick | %s | %s | %s | %.0f%% |\n' "$q" "$(kb "$b")" "$(ms "$t")" "$(echo "100 * $link / $t" | bc -l)"
	read -r q b t r < <(measure "$build/bagscope" check --quick "$bench/$f")
	printf '| | (the same check of the local file) | | | %s | |\n' "$(ms "$t")"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
