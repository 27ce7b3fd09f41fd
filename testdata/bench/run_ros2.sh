#!/usr/bin/env bash
# Benchmark bagscope's commands on 1M-message ROS 2 MCAPs against the mcap Go
# library's own indexed reader (the peer: every message read, not decoded, on
# one goroutine), side by side in one run, and print a Markdown table of
# medians, CPU, ratios and peak RSS (issues 12 and 29; BENCHMARKS.md).
#
#   testdata/bench/run_ros2.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# gets, made by testdata/bench/ros2mcap when missing, the same 1,000,000
# messages in four files: mixed_ros2_1m_{zstd,lz4}.mcap (1 MiB chunks, as
# rosbag2 and the mcap writers write them, noisy values, ~220 MB) and
# mixed_ros2_{zstd,lz4}.mcap (4 MiB chunks, the earlier benchmarks' values,
# ~70 MB).
#
# Rows, each file: the commands users run (check, check --quick, verify,
# plot --stats of one field, cat) against the library reading every
# message; `info` against a bare Go binary (testdata/bench/bare: the
# start-up floor); and the floor of the reading itself, every chunk only
# decompressed on one goroutine (mcapread -floor): its CPU divided by the
# cores is the least any reader can take.
#
# Environment: BUILD=/tmp/bagscope-bench (binaries and results), RUNS=10,
# SLOW_RUNS=3 (cat), ROUNDS=3 (bagscope and the peer take turns, round by
# round), FILES="1m_zstd 1m_lz4 zstd lz4" (which files), ONLY=REGEX (rows
# whose name matches), NODE=0 (1 adds @mcap/core + rosmsg2-serialization in
# node, decoding every message; needs `make oracles`), BASE=DIR (a second
# bagscope binary, e.g. an older commit's, timed beside the first).
# Needs go, hyperfine and GNU time.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench}
runs=${RUNS:-10}
slow_runs=${SLOW_RUNS:-3}
rounds=${ROUNDS:-3}
files=${FILES:-1m_zstd 1m_lz4 zstd lz4}
use_node=${NODE:-0}
py=/usr/bin/python3
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
export BAGSCOPE_ORACLES=${BAGSCOPE_ORACLES:-$HOME/.cache/bagscope-npm/node_modules}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for tool in go hyperfine /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "run_ros2.sh: $tool is missing (apt-get install -y hyperfine time)" >&2; exit 1; }
done
mkdir -p "$build" "$bench"
echo "== building bagscope and the peers into $build" >&2
(cd "$repo" && CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope" ./model/cli/bagscope &&
	go build -o "$build/mcapread" ./testdata/bench/mcapread &&
	go build -o "$build/bare" ./testdata/bench/bare &&
	go build -o "$build/ros2mcap" ./testdata/bench/ros2mcap)
need=0
for c in $files; do [[ -f $bench/mixed_ros2_$c.mcap ]] || need=1; done
if ((need)); then
	echo "== writing the benchmark MCAPs into $bench" >&2
	"$build/ros2mcap" "$bench" >&2
fi

# measure JSON N CMD...: one hyperfine batch (stdout to /dev/null).
measure() {
	local json=$1 n=$2
	shift 2
	local warm=1
	((n > 3)) || warm=0
	hyperfine -N --style none --warmup "$warm" --runs "$n" --export-json "$json" --output=null "$*" >/dev/null 2>&1 || echo "FAIL"
}
median() {
	$py -c 'import json,statistics,sys; print("%.4f" % statistics.median([t for f in sys.argv[1:] for t in json.load(open(f))["results"][0]["times"]]))' "$@" 2>/dev/null || echo FAIL
}
cpu() { # mean user+sys seconds per run over the JSON files
	$py -c 'import json,sys; r=[json.load(open(f))["results"][0] for f in sys.argv[1:]]; n=sum(len(x["times"]) for x in r); print("%.3f" % (sum((x["user"]+x["system"])*len(x["times"]) for x in r)/n))' "$@" 2>/dev/null || echo "?"
}
peak() {
	local kb
	kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
	[[ $kb =~ ^[0-9]+$ ]] && echo $((kb / 1024)) || echo "?"
}
ratio() { $py -c 'import sys; a,b=sys.argv[1:]; print("%.2fx" % (float(a)/float(b)) if "FAIL" not in (a,b) and "-" not in (a,b) and "?" not in (a,b) and float(b)>0 else "-")' "$1" "$2"; }
load() { cut -d' ' -f1 /proc/loadavg; }

bs=$build/bagscope
base=${BASE:-}
out=$build/results_ros2.md
{
	echo "| file | workload | bagscope (s) | peer (s) | peer/bagscope | CPU bagscope / peer (s) | bagscope CPU/wall | peak RSS bagscope / peer (MB) | load |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
} >"$out"
# row FILE NAME N PEER-CMD -- BAGSCOPE-CMD: one row, both commands taking
# turns for ROUNDS rounds of N runs.
row() {
	local file=$1 name=$2 n=$3
	shift 3
	local peer=()
	while [[ $1 != -- ]]; do peer+=("$1"); shift; done
	shift
	local cmd=("$@")
	[[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && return
	echo "== $file: $name" >&2
	local slug
	slug=$(echo "$file-$name" | tr -c 'a-zA-Z0-9_\n' '_')
	local js_bs=() js_go=() l0
	l0=$(load)
	for ((r = 1; r <= rounds; r++)); do
		js_bs+=("$build/$slug-bs.$r.json")
		js_go+=("$build/$slug-peer.$r.json")
		measure "${js_bs[-1]}" "$n" "${cmd[@]}" >/dev/null
		measure "${js_go[-1]}" "$n" "${peer[@]}" >/dev/null
	done
	local t_bs t_go c_bs
	t_bs=$(median "${js_bs[@]}") t_go=$(median "${js_go[@]}")
	c_bs=$(cpu "${js_bs[@]}")
	echo "| $file | $name | $t_bs | $t_go | $(ratio "$t_go" "$t_bs") | $c_bs / $(cpu "${js_go[@]}") | $(ratio "$c_bs" "$t_bs") | $(peak "${cmd[@]}") / $(peak "${peer[@]}") | $l0-$(load) |" >>"$out"
}
for c in $files; do
	f=$bench/mixed_ros2_$c.mcap
	[[ -f $f ]] || { echo "== skipping $f: not found" >&2; continue; }
	cat "$f" >/dev/null # page cache warm
	lib=("$build/mcapread" "$f")
	row "$c" "info (peer: a bare Go binary)" "$runs" "$build/bare" -- "$bs" info "$f"
	row "$c" "floor: every chunk decompressed, one goroutine (peer: the library's read)" "$runs" "${lib[@]}" -- "$build/mcapread" -floor "$f"
	row "$c" "check" "$runs" "${lib[@]}" -- "$bs" check "$f"
	row "$c" "check --quick" "$runs" "${lib[@]}" -- "$bs" check --quick "$f"
	row "$c" "verify" "$runs" "${lib[@]}" -- "$bs" verify "$f"
	row "$c" "plot --stats /imu.linear_acceleration.x" "$runs" "${lib[@]}" -- "$bs" plot --stats "$f" /imu.linear_acceleration.x
	row "$c" "cat (every message as text)" "$slow_runs" "${lib[@]}" -- "$bs" cat "$f"
	if [[ -n $base ]]; then
		row "$c" "base: check" "$runs" "$base" check "$f" -- "$bs" check "$f"
		row "$c" "base: verify" "$runs" "$base" verify "$f" -- "$bs" verify "$f"
		row "$c" "base: plot --stats" "$runs" "$base" plot --stats "$f" /imu.linear_acceleration.x -- "$bs" plot --stats "$f" /imu.linear_acceleration.x
	fi
	if [[ $use_node == 1 ]]; then
		row "$c" "every message decoded (peer: node, @mcap/core + rosmsg2-serialization)" 2 node "$here/mcap_decode.mjs" "$f" -- "$bs" check "$f"
	fi
done
{
	echo
	echo "Medians of $rounds rounds of $runs runs (cat: $slow_runs) with hyperfine -N, bagscope and the peer taking turns round by round; page cache warm; CPU is the mean user+sys per run; load is the 1-minute load average before and after the row."
	echo "Peer: testdata/bench/mcapread (mcap.Reader.Messages with UsingIndex, log-time order, one goroutine, reading only), unless the row names another. bagscope: the command-line front (./model/cli/bagscope)${base:+; base: $base}."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
} >>"$out"
cat "$out"
