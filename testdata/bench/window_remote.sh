#!/usr/bin/env bash
# window_remote.sh: the window on remote recordings (issue 25). Serves the
# bench files by nginx through toxiproxy with a RTT ms round trip, then
#   1. opens each under Xvfb for SECS seconds and prints what nginx sent
#      (requests and body bytes: what the window fetched on its own);
#   2. runs window.sh on their URLs (time to topics, RUNS runs).
#
#   testdata/bench/window_remote.sh [FILE...]   # names under BENCH_DIR
#   GUI=/tmp/bagscope-gui RUNS=5 SECS=20 RTT=50 testdata/bench/window_remote.sh mixed_ros2_1m_zstd.mcap
#
# LOGS=DIR keeps nginx's log of each first-SECS read there (bytes, status,
# time, Range header).
# Needs nginx, Xvfb, curl, python3 and toxiproxy (`make remote-servers`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=$(cd "${BAGSCOPE_BENCH_DIR:-$repo/../bench}" && pwd)
rtt=${RTT:-50}
secs=${SECS:-20}
export RUNS=${RUNS:-5}
export LANG=C.UTF-8
gui=${GUI:-}
if [[ -z $gui ]]; then
	gui=/tmp/bagscope-window-bench/bagscope-gui
	mkdir -p "$(dirname "$gui")"
	echo "== building $gui" >&2
	(cd "$repo" && go build -tags no_emoji -o "$gui" .)
fi
export GUI=$gui
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=(mixed_ros2_1m_zstd.mcap mixed.bag)
(cd "$repo" && make --no-print-directory remote-servers) >&2
toxi=$HOME/.cache/bagscope-tools/toxiproxy-server-v2.5.0/toxiproxy-server

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
	log_format bench '\$body_bytes_sent \$status \$msec \$http_range';
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

display=:$((80 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
for ((w = 0; w < 100; w++)); do
	[[ -S /tmp/.X11-unix/X${display#:} ]] && break
	sleep 0.1
done
home=$(mktemp -d)
mkdir -p "$home/.cache"
echo "== uptime: $(uptime); RTT $rtt ms injected by toxiproxy"
urls=()
for f in "${files[@]}"; do
	[[ -e $bench/$f ]] || { echo "window_remote.sh: $bench/$f is missing" >&2; exit 1; }
	u=$base/$f
	[[ -d $bench/$f ]] && u+=/metadata.yaml
	urls+=("$u")
	size=$(du -sb "$bench/$f" | cut -f1)
	: >"$run/access.log"
	HOME=$home DISPLAY=$display "$gui" --size 1280x800 "$u" >/dev/null 2>&1 &
	pid=$!
	sleep "$secs"
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	[[ -z ${LOGS:-} ]] || cp "$run/access.log" "$LOGS/$f.log"
	awk -v f="$f" -v s="$secs" -v size="$size" '{ n++; b += $1 } END { printf "%s: the window fetched %.1f MB in %d requests in its first %d s (the file: %.1f MB)\n", f, b/1e6, n, s, size/1e6 }' "$run/access.log"
done
"$here/window.sh" "${urls[@]}"
