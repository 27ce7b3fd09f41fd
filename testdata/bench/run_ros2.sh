#!/usr/bin/env bash
# Benchmark bagscope on a 1M-message ROS 2 MCAP (zstd and lz4 chunks) against
# the mcap Go library's own indexed reader and @mcap/core +
# @foxglove/rosmsg2-serialization in node, side by side in one run, and print
# a Markdown table of medians, ratios and peak RSS (issue 12; BENCHMARKS.md).
#
#   testdata/bench/run_ros2.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# gets mixed_ros2_zstd.mcap and mixed_ros2_lz4.mcap, made by
# testdata/bench/ros2mcap when missing (1,000,000 messages, ~70 MB each).
#
# Environment: BUILD=/tmp/bagscope-bench (binaries and results), RUNS=10,
# ROUNDS=3 (bagscope and the Go peer take turns), NODE_RUNS=2, NODE=1 (0
# skips node). Needs go, hyperfine, GNU time, taskset, node and `make oracles`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench}
runs=${RUNS:-10}
rounds=${ROUNDS:-3}
node_runs=${NODE_RUNS:-2}
use_node=${NODE:-1}
py=/usr/bin/python3
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
export BAGSCOPE_ORACLES=${BAGSCOPE_ORACLES:-$HOME/.cache/bagscope-npm/node_modules}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for tool in go hyperfine /usr/bin/time taskset; do
	command -v "$tool" >/dev/null || { echo "run_ros2.sh: $tool is missing (apt-get install -y hyperfine time)" >&2; exit 1; }
done
mkdir -p "$build" "$bench"
echo "== building bagscope and the peers into $build" >&2
(cd "$repo" && go build -o "$build/bagscope" ./model/cli/bagscope &&
	go build -o "$build/ros2decode" ./testdata/bench/ros2decode &&
	go build -o "$build/mcapread" ./testdata/bench/mcapread &&
	go build -o "$build/ros2mcap" ./testdata/bench/ros2mcap)
if [[ ! -f $bench/mixed_ros2_zstd.mcap || ! -f $bench/mixed_ros2_lz4.mcap ]]; then
	echo "== writing the benchmark MCAPs into $bench" >&2
	"$build/ros2mcap" "$bench" >&2
fi

measure() { # JSON N CMD...
	local json=$1 n=$2
	shift 2
	hyperfine -N --style none --warmup 1 --runs "$n" --export-json "$json" "$*" >/dev/null 2>&1 || echo "FAIL"
}
median() {
	$py -c 'import json,statistics,sys; print("%.4f" % statistics.median([t for f in sys.argv[1:] for t in json.load(open(f))["results"][0]["times"]]))' "$@" 2>/dev/null || echo FAIL
}
cpu() { # mean user+sys seconds over the runs of the JSON files
	$py -c 'import json,statistics,sys; r=[json.load(open(f))["results"][0] for f in sys.argv[1:]]; print("%.3f" % statistics.mean([x["user"]+x["system"] for x in r]))' "$@" 2>/dev/null || echo "?"
}
peak() {
	local kb
	kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
	[[ $kb =~ ^[0-9]+$ ]] && echo $((kb / 1024)) || echo "?"
}
ratio() { $py -c 'import sys; a,b=sys.argv[1:]; print("%.2fx" % (float(a)/float(b)) if "FAIL" not in (a,b) and a != "-" and float(b)>0 else "-")' "$1" "$2"; }

out=$build/results_ros2.md
{
	echo "| workload | bagscope (s) | mcap Go library (s) | node (s) | library/bagscope | node/bagscope | CPU user+sys bagscope / library (s) | peak RSS bagscope / library / node (MB) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
} >"$out"
for c in zstd lz4; do
	f=$bench/mixed_ros2_$c.mcap
	cat "$f" >/dev/null
	# info: bagscope only (the library has no summary command).
	measure "$build/info-$c.json" "$runs" "$build/bagscope" info "$f" >/dev/null
	t=$(median "$build/info-$c.json")
	echo "| info, $c | $t | | | | | | $(peak "$build/bagscope" info "$f") / / |" >>"$out"
	# read: the seam's time-ordered iterator; decode: the same, each message
	# validated on the consuming goroutine; check: check's payload pass
	# (model.CheckPayloads), decoded on the chunk-decompressing goroutines;
	# check1: the same and the library both on one core (taskset -c 0).
	for w in read decode check check1; do
		bs=("$build/ros2decode") go=("$build/mcapread")
		case $w in
		read) bs+=(-read) ;;
		check) bs+=(-check) ;;
		check1) bs=(taskset -c 0 "$build/ros2decode" -check) go=(taskset -c 0 "$build/mcapread") ;;
		esac
		js_bs=() js_go=()
		for ((r = 1; r <= rounds; r++)); do
			js_bs+=("$build/$w-$c-bs.$r.json")
			js_go+=("$build/$w-$c-go.$r.json")
			measure "${js_bs[-1]}" "$runs" "${bs[@]}" "$f" >/dev/null
			measure "${js_go[-1]}" "$runs" "${go[@]}" "$f" >/dev/null
		done
		t_bs=$(median "${js_bs[@]}") t_go=$(median "${js_go[@]}")
		t_node=- m_node=
		if [[ $use_node == 1 && $w == decode ]]; then
			measure "$build/node-$c.json" "$node_runs" node "$here/mcap_decode.mjs" "$f" >/dev/null
			t_node=$(median "$build/node-$c.json")
			m_node=$(peak node "$here/mcap_decode.mjs" "$f")
		fi
		case $w in
		read) name="every message read (the seam's iterator, time order)" ;;
		decode) name="every message read and decoded in time order (the library only reads)" ;;
		check) name="every message read and decoded by check's payload pass (the library only reads)" ;;
		check1) name="the same, both on one core (taskset -c 0)" ;;
		esac
		echo "| $name, $c | $t_bs | $t_go | $t_node | $(ratio "$t_go" "$t_bs") | $(ratio "$t_node" "$t_bs") | $(cpu "${js_bs[@]}") / $(cpu "${js_go[@]}") | $(peak "${bs[@]}" "$f") / $(peak "${go[@]}" "$f") / $m_node |" >>"$out"
	done
done
{
	echo
	echo "Medians of $rounds rounds of $runs runs (node: $node_runs) with hyperfine -N, bagscope and the library taking turns; page cache warm; CPU is the mean user+sys per run."
	echo "bagscope: testdata/bench/ros2decode (-read: the storage seam's iterator; default: each message validated, rosmsg.Plan.Validate, as it comes; -check: model.CheckPayloads, the payload pass of bagscope check). Library: testdata/bench/mcapread (mcap.Reader.Messages with UsingIndex, log-time order). node: testdata/bench/mcap_decode.mjs."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
} >>"$out"
cat "$out"
