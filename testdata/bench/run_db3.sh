#!/usr/bin/env bash
# Benchmark bagscope on a 1M-message rosbag2 .db3 folder against the sqlite3
# shell (the floor for SQLite) and @foxglove/rosbag2-web + rosmsg2-serialization
# in node, side by side in one run, and print a Markdown table of medians,
# CPU, ratios and peak RSS (issues 13 and 29; BENCHMARKS.md).
#
#   testdata/bench/run_db3.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# gets mixed_ros2_db3/ (metadata.yaml + mixed_ros2_db3_0.db3, schema v4,
# ~290 MB), made by testdata/bench/ros2db3 when missing: the same 1,000,000
# messages as the ROS 2 MCAP benchmark.
#
# Workloads and targets (issues 13, 29), all in one hyperfine run a round
# beside `sqlite3 FILE 'SELECT data FROM messages ORDER BY timestamp'`:
#   topics on screen   `bagscope info FOLDER` (metadata.yaml is there)     <= 50 ms
#   what users run     `bagscope cat FOLDER` (every message as text, to /dev/null),
#                      `bagscope verify FOLDER`, `bagscope plot --stats FOLDER
#                      /imu.linear_acceleration.x`
#   every message      testdata/bench/ros2decode FOLDER (read and decode)  <= 1.2x the floor,
#                      and node (testdata/bench/ros2db3/db3_decode.mjs)    >= 10x faster than node
# plus ros2decode -read (read only) for reference.
#
# Environment: BUILD=/tmp/bagscope-bench (binaries and results), RUNS=5,
# ROUNDS=3 (the programs take turns round by round), NODE_RUNS=3, NODE=1
# (0 skips node). Needs go, hyperfine, GNU time, sqlite3, node and
# `make oracles`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench}
runs=${RUNS:-5}
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
# median K JSON...: the median wall time of command K over every run of
# every round; cpu K JSON...: the median over the rounds of its mean user +
# system time.
median() {
	local k=$1
	shift
	$py -c 'import json,statistics,sys; k=int(sys.argv[1]); print("%.4f" % statistics.median([t for f in sys.argv[2:] for t in json.load(open(f))["results"][k]["times"]]))' "$k" "$@" 2>/dev/null || echo FAIL
}
cpu() {
	local k=$1
	shift
	$py -c 'import json,statistics,sys; k=int(sys.argv[1]); print("%.4f" % statistics.median([r["user"]+r["system"] for f in sys.argv[2:] for r in [json.load(open(f))["results"][k]]]))' "$k" "$@" 2>/dev/null || echo FAIL
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
field=/imu.linear_acceleration.x
# One hyperfine run a round: the floor first, then what users run, then
# the benchmark programs. K is each one's place in the run.
names=("sqlite3 shell: \`SELECT data … ORDER BY timestamp\`"
	"\`bagscope cat FOLDER\` (every message as text)"
	"\`bagscope verify FOLDER\`"
	"\`bagscope plot --stats FOLDER $field\`"
	"ros2decode: every message read and decoded"
	"ros2decode -read: every message read, not decoded"
	"\`bagscope info FOLDER\` (topics on screen)")
cmds=("sqlite3 $db '$sql'"
	"$build/bagscope cat $dir"
	"$build/bagscope verify $dir"
	"$build/bagscope plot --stats $dir $field"
	"$build/ros2decode $dir"
	"$build/ros2decode -read $dir"
	"$build/bagscope info $dir")
js=()
for ((r = 1; r <= rounds; r++)); do
	js+=("$build/db3-round.$r.json")
	measure "${js[-1]}" "$runs" "${cmds[@]}"
done
t_sq=$(median 0 "${js[@]}") c_sq=$(cpu 0 "${js[@]}")
t_node=- m_node=
if [[ $use_node == 1 ]]; then
	measure "$build/db3-node.json" "$node_runs" "node $here/ros2db3/db3_decode.mjs $db"
	t_node=$(median 0 "$build/db3-node.json")
	m_node=$(peak node "$here/ros2db3/db3_decode.mjs" "$db")
fi
m_sq=$(peak sqlite3 "$db" "$sql")

out=$build/results_db3.md
{
	echo "| workload | wall (median) | CPU user+sys | wall / sqlite3 | CPU / sqlite3 | peak RSS (MB) |"
	echo "|---|---:|---:|---:|---:|---:|"
	echo "| ${names[0]} | ${t_sq} s | ${c_sq} s | 1.00x | 1.00x | $m_sq |"
	for k in 1 2 3 4 5; do
		t=$(median $k "${js[@]}") c=$(cpu $k "${js[@]}")
		read -r -a argv <<<"${cmds[$k]}"
		echo "| ${names[$k]} | ${t} s | ${c} s | $(ratio "$t" "$t_sq") | $(ratio "$c" "$c_sq") | $(peak "${argv[@]}") |"
	done
	t_info=$(median 6 "${js[@]}")
	echo "| ${names[6]} | $(ms "$t_info") | $(ms "$(cpu 6 "${js[@]}")") | | | $(peak "$build/bagscope" info "$dir") |"
	if [[ $use_node == 1 ]]; then
		t_bs=$(median 4 "${js[@]}")
		echo "| node (rosbag2-web + rosmsg2-serialization): every message read and decoded | ${t_node} s | | $(ratio "$t_node" "$t_sq") | | $m_node |"
		echo
		echo "node / ros2decode: $(ratio "$t_node" "$t_bs") (target >= 10x)."
	fi
	echo
	echo "$want messages, $(du -m "$db" | cut -f1) MB (.db3 schema v4, written by testdata/bench/ros2db3). Medians of $rounds rounds of $runs runs$([[ $use_node == 1 ]] && echo " (node: $node_runs)") with hyperfine -N (output to /dev/null), every command in one hyperfine run a round; CPU is the median over the rounds of hyperfine's mean user + system time; page cache warm."
	echo "ros2decode: testdata/bench/ros2decode (model.OpenStorage, the storage seam's iterator in timestamp order, rosmsg.Plan.Validate on every message). Floor: \`sqlite3 FILE '$sql'\` to /dev/null ($(sqlite3 --version | cut -d' ' -f1)).$([[ $use_node == 1 ]] && echo " node: testdata/bench/ros2db3/db3_decode.mjs ($(node --version)).")"
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')."
} >"$out"
cat "$out"
