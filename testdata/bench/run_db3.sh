#!/usr/bin/env bash
# Benchmark bagscope on a 1M-message rosbag2 .db3 folder against the sqlite3
# shell (the floor for SQLite) and @foxglove/rosbag2-web + rosmsg2-serialization
# in node, side by side in one run, and print a Markdown table of medians,
# ratios and peak RSS (issue 13; BENCHMARKS.md).
#
#   testdata/bench/run_db3.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# gets mixed_ros2_db3/ (metadata.yaml + mixed_ros2_db3_0.db3, schema v4,
# ~290 MB), made by testdata/bench/ros2db3 when missing: the same 1,000,000
# messages as the ROS 2 MCAP benchmark.
#
# Workloads and targets (issue 13):
#   topics on screen   `bagscope info FOLDER` (metadata.yaml is there)     <= 50 ms
#   every message      testdata/bench/ros2decode FOLDER (read and decode)  <= 1.5x the floor,
#                      against `sqlite3 FILE 'SELECT data FROM messages     >= 10x faster than node
#                      ORDER BY timestamp' > /dev/null` and node
#                      (testdata/bench/ros2db3/db3_decode.mjs)
# plus ros2decode -read (read only) for reference.
#
# Environment: BUILD=/tmp/bagscope-bench (binaries and results), RUNS=10,
# ROUNDS=3 (bagscope and sqlite3 take turns), NODE_RUNS=3, NODE=1 (0 skips
# node). Needs go, hyperfine, GNU time, sqlite3, node and `make oracles`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench}
runs=${RUNS:-10}
rounds=${ROUNDS:-3}
node_runs=${NODE_RUNS:-3}
use_node=${NODE:-1}
py=/usr/bin/python3
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
export BAGSCOPE_ORACLES=${BAGSCOPE_ORACLES:-$HOME/.cache/bagscope-npm/node_modules}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
for tool in go hyperfine /usr/bin/time sqlite3; do
	command -v "$tool" >/dev/null || { echo "run_db3.sh: $tool is missing (apt-get install -y hyperfine time sqlite3)" >&2; exit 1; }
done
mkdir -p "$build" "$bench"
echo "== building bagscope and the benchmark programs into $build" >&2
(cd "$repo" && CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope" ./model/cli/bagscope &&
	go build -o "$build/ros2decode" ./testdata/bench/ros2decode &&
	go build -o "$build/ros2db3" ./testdata/bench/ros2db3)
dir=$bench/mixed_ros2_db3
db=$dir/mixed_ros2_db3_0.db3
if [[ ! -f $db || ! -f $dir/metadata.yaml ]]; then
	echo "== writing the benchmark .db3 into $dir" >&2
	"$build/ros2db3" "$bench" >&2
fi
# The same messages must come out of every reader.
want=$(sqlite3 "$db" 'SELECT count(*) FROM messages')
got=$("$build/ros2decode" "$dir" | cut -d' ' -f1)
[[ $got == "$want" ]] || { echo "run_db3.sh: ros2decode read $got messages, the file has $want" >&2; exit 1; }

measure() { # JSON N CMD...
	local json=$1 n=$2
	shift 2
	hyperfine -N --style none --warmup 1 --runs "$n" --export-json "$json" "$@" >/dev/null 2>&1 || echo "FAIL"
}
median() {
	$py -c 'import json,statistics,sys; print("%.4f" % statistics.median([t for f in sys.argv[1:] for t in json.load(open(f))["results"][0]["times"]]))' "$@" 2>/dev/null || echo FAIL
}
peak() {
	local kb
	kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
	[[ $kb =~ ^[0-9]+$ ]] && echo $((kb / 1024)) || echo "?"
}
ratio() { $py -c 'import sys; a,b=sys.argv[1:]; print("%.2fx" % (float(a)/float(b)) if "FAIL" not in (a,b) and "-" not in (a,b) and float(b)>0 else "-")' "$1" "$2"; }
ms() { $py -c 'import sys; print("%.1f ms" % (float(sys.argv[1])*1000) if sys.argv[1] not in ("FAIL","-") else sys.argv[1])' "$1"; }

cat "$db" >/dev/null # page cache warm
sql='SELECT data FROM messages ORDER BY timestamp'
js_info=() js_bs=() js_read=() js_sq=()
for ((r = 1; r <= rounds; r++)); do
	js_info+=("$build/db3-info.$r.json")
	js_bs+=("$build/db3-decode-bs.$r.json")
	js_read+=("$build/db3-read-bs.$r.json")
	js_sq+=("$build/db3-sqlite3.$r.json")
	measure "${js_info[-1]}" "$runs" "$build/bagscope info $dir"
	measure "${js_sq[-1]}" "$runs" "sqlite3 $db '$sql'"
	measure "${js_bs[-1]}" "$runs" "$build/ros2decode $dir"
	measure "${js_read[-1]}" "$runs" "$build/ros2decode -read $dir"
done
t_info=$(median "${js_info[@]}") t_bs=$(median "${js_bs[@]}") t_read=$(median "${js_read[@]}") t_sq=$(median "${js_sq[@]}")
t_node=- m_node=
if [[ $use_node == 1 ]]; then
	measure "$build/db3-node.json" "$node_runs" "node $here/ros2db3/db3_decode.mjs $db"
	t_node=$(median "$build/db3-node.json")
	m_node=$(peak node "$here/ros2db3/db3_decode.mjs" "$db")
fi
m_sq=$(peak sqlite3 "$db" "$sql")

out=$build/results_db3.md
{
	echo "| workload | bagscope | sqlite3 shell (floor) | node (rosbag2-web) | bagscope/sqlite3 | node/bagscope | peak RSS bagscope / sqlite3 / node (MB) | target |"
	echo "|---|---:|---:|---:|---:|---:|---:|---|"
	echo "| topics on screen: \`bagscope info\` of the folder | $(ms "$t_info") | | | | | $(peak "$build/bagscope" info "$dir") / / | <= 50 ms |"
	echo "| every message read and decoded | ${t_bs} s | ${t_sq} s | ${t_node} s | $(ratio "$t_bs" "$t_sq") | $(ratio "$t_node" "$t_bs") | $(peak "$build/ros2decode" "$dir") / $m_sq / $m_node | <= 1.5x sqlite3, >= 10x node |"
	echo "| every message read (not decoded) | ${t_read} s | ${t_sq} s | | $(ratio "$t_read" "$t_sq") | | $(peak "$build/ros2decode" -read "$dir") / $m_sq / | |"
	echo
	echo "$want messages, $(du -m "$db" | cut -f1) MB (.db3 schema v4, written by testdata/bench/ros2db3). Medians of $rounds rounds of $runs runs (node: $node_runs) with hyperfine -N, the programs taking turns; page cache warm."
	echo "bagscope: \`bagscope info FOLDER\`; testdata/bench/ros2db3's folder through testdata/bench/ros2decode (model.OpenStorage, the storage seam's iterator in timestamp order, rosmsg.Plan.Validate on every message). Floor: \`sqlite3 FILE '$sql'\` to /dev/null ($(sqlite3 --version | cut -d' ' -f1)). node: testdata/bench/ros2db3/db3_decode.mjs ($(node --version))."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
} >"$out"
cat "$out"
