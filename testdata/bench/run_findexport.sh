#!/usr/bin/env bash
# Benchmark issue 24's goals side by side in one run, on the 1M-message bench
# files (BENCHMARKS.md, "Find and export"):
#
#   - find against check, goal: find ≤ 1.2x, in two rows each: what users
#     run, `bagscope find FILE EXPR` against `bagscope check FILE` (check has
#     no topic option, so it decodes every topic and find one or two; both
#     run the quick doctor), and find against check's bare decoding pass on
#     the same topics (testdata/bench/findbench: bag.VisitMessages +
#     model.PayloadCheck, as `bagscope check` runs it, without the doctor);
#   - `export --format parquet` of a ROS 2 MCAP against @mcap/core +
#     @foxglove/rosmsg2-serialization + hyparquet-writer
#     (testdata/bench/export_node.mjs), goal: ≥ 5x faster;
#   - `export --format parquet` of a ROS 1 bag against rosbag + pandas
#     (testdata/bench/export_pandas.py), goal: ≥ 10x faster;
#   - `export --format csv` against the same peers writing CSV
#     (EXPORT_FORMAT=csv: a line a message in node, pandas' to_csv).
#
#   testdata/bench/run_findexport.sh [BENCH_DIR]
#
# BENCH_DIR (default $BAGSCOPE_BENCH_DIR, else ../bench beside the checkout)
# must hold mixed.bag (testdata/bench/run.sh writes it) and
# mixed_ros2_1m_{zstd,lz4}.mcap (run_ros2.sh writes them). Each command runs
# RUNS times (default 5; PEER_RUNS=3 for the node and Python peers), the
# sides taking turns; the table gives the median wall time, the median CPU
# (user+system), the peak RSS and the ratios. Needs go, node with `make
# oracles`, /usr/bin/python3 with python3-rosbag and python3-pandas, and GNU
# time. FIND_ONLY=1 runs the find rows alone, EXPORT_ONLY=1 the export rows.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench-fx}
runs=${RUNS:-5}
peer_runs=${PEER_RUNS:-3}
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}
export BAGSCOPE_ORACLES=${BAGSCOPE_ORACLES:-$HOME/.cache/bagscope-npm/node_modules}
py=${PYTHON:-/usr/bin/python3}

for f in mixed.bag mixed_ros2_1m_zstd.mcap mixed_ros2_1m_lz4.mcap; do
	[[ -f $bench/$f ]] || { echo "run_findexport.sh: $bench/$f is missing (run.sh and run_ros2.sh write it)" >&2; exit 1; }
done
mkdir -p "$build"
(cd "$repo" && go build -o "$build/bagscope" ./model/cli/bagscope && go build -o "$build/findbench" ./testdata/bench/findbench)
out=$build/out
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# measure NAME N CMD...: runs CMD N times, appending "wall cpu rss" lines to $build/NAME.times.
measure() {
	local name=$1 n=$2
	shift 2
	for ((i = 0; i < n; i++)); do
		rm -rf "$out"
		/usr/bin/time -f "%e %U %S %M" -o "$build/t" "$@" >/dev/null 2>"$build/err" || {
			# find exits 1 with no hits; export exits 1 on loss: the output says which.
			grep -q "hits\|rows" "$build/err" "$build/t" 2>/dev/null || { cat "$build/err" >&2; exit 1; }
		}
		awk '{printf "%s %.2f %d\n", $1, $2+$3, $4}' "$build/t" >>"$build/$name.times"
	done
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
col() { awk -v c="$2" '{print $c}' "$build/$1.times" | median; }
row() { # row LABEL OURS PEER
	local ow oc pw pc
	ow=$(col "$2" 1) oc=$(col "$2" 2) pw=$(col "$3" 1) pc=$(col "$3" 2)
	printf '| %s | %s s, %s s CPU, %d MB | %s s, %s s CPU, %d MB | %.1fx | %.1fx |\n' "$1" "$ow" "$oc" \
		$(($(col "$2" 3) / 1024)) "$pw" "$pc" $(($(col "$3" 3) / 1024)) \
		"$(echo "$pw / $ow" | bc -l)" "$(echo "$pc / $oc" | bc -l)"
}
# rowf LABEL FIND CHECK: find's time over the decoding pass's (goal ≤ 1.2x).
rowf() {
	local ow oc pw pc
	ow=$(col "$2" 1) oc=$(col "$2" 2) pw=$(col "$3" 1) pc=$(col "$3" 2)
	printf '| %s | %s s, %s s CPU, %d MB | %s s, %s s CPU, %d MB | %.2fx | %.2fx |\n' "$1" "$ow" "$oc" \
		$(($(col "$2" 3) / 1024)) "$pw" "$pc" $(($(col "$3" 3) / 1024)) \
		"$(echo "$ow / $pw" | bc -l)" "$(echo "$oc / $pc" | bc -l)"
}
rm -f "$build"/*.times

[[ ${EXPORT_ONLY:-} ]] && runs=0
for c in 1m_zstd 1m_lz4; do
	f=$bench/mixed_ros2_$c.mcap
	for ((r = 0; r < runs; r++)); do
		measure "find_$c" 1 "$build/bagscope" find "$f" '/imu.linear_acceleration.z > 12 || /imu.angular_velocity.x < -50'
		measure "check_$c" 1 "$build/findbench" -topics /imu "$f"
		measure "findo_$c" 1 "$build/bagscope" find "$f" 'norm(/odom.twist.twist.linear) > 100'
		measure "checko_$c" 1 "$build/findbench" -topics /odom "$f"
		measure "checkcmd_$c" 1 "$build/bagscope" check "$f"
	done
done
for ((r = 0; r < runs; r++)); do
	measure find_bag 1 "$build/bagscope" find "$bench/mixed.bag" '/imu.linear_acceleration.z > 12 || /imu.angular_velocity.x < -50'
	measure check_bag 1 "$build/findbench" -topics /imu "$bench/mixed.bag"
	measure checkcmd_bag 1 "$build/bagscope" check "$bench/mixed.bag"
done
[[ ${FIND_ONLY:-} ]] && peer_runs=0
for ((r = 0; r < peer_runs; r++)); do
	measure export_zstd 1 "$build/bagscope" export "$bench/mixed_ros2_1m_zstd.mcap" "$out" --topics /imu,/odom
	measure node_zstd 1 node --no-concurrent-recompilation "$repo/testdata/bench/export_node.mjs" "$bench/mixed_ros2_1m_zstd.mcap" "$out" /imu /odom
	measure export_bag 1 "$build/bagscope" export "$bench/mixed.bag" "$out" --topics /imu,/odom
	measure pandas_bag 1 "$py" "$repo/testdata/bench/export_pandas.py" "$bench/mixed.bag" "$out" /imu /odom
	measure exportc_zstd 1 "$build/bagscope" export "$bench/mixed_ros2_1m_zstd.mcap" "$out" --format csv --topics /imu,/odom
	measure nodec_zstd 1 env EXPORT_FORMAT=csv node --no-concurrent-recompilation "$repo/testdata/bench/export_node.mjs" "$bench/mixed_ros2_1m_zstd.mcap" "$out" /imu /odom
	measure exportc_bag 1 "$build/bagscope" export "$bench/mixed.bag" "$out" --format csv --topics /imu,/odom
	measure pandasc_bag 1 env EXPORT_FORMAT=csv "$py" "$repo/testdata/bench/export_pandas.py" "$bench/mixed.bag" "$out" /imu /odom
done
written=$("$py" -c 'import pyarrow' 2>/dev/null && echo "written by pyarrow" || echo "built, not written: no pyarrow, so a lower bound")

echo "Load average before: $load0; after: $(cut -d' ' -f1-3 /proc/loadavg). $(nproc) cores. Medians of $runs runs (peers $peer_runs)."
echo
if [[ -z ${EXPORT_ONLY:-} ]]; then
echo "| find | bagscope find | bagscope check FILE (all topics), or check's decoding pass of the topic (findbench) | find / check, wall | CPU |"
echo "|---|---|---|---|---|"
rowf "find /imu (2 terms), ROS 2 MCAP zstd, vs \`check FILE\`" find_1m_zstd checkcmd_1m_zstd
rowf "find /odom (norm), ROS 2 MCAP zstd, vs \`check FILE\`" findo_1m_zstd checkcmd_1m_zstd
rowf "find /imu (2 terms), ROS 2 MCAP lz4, vs \`check FILE\`" find_1m_lz4 checkcmd_1m_lz4
rowf "find /odom (norm), ROS 2 MCAP lz4, vs \`check FILE\`" findo_1m_lz4 checkcmd_1m_lz4
rowf "find /imu (2 terms), ROS 1 mixed.bag, vs \`check FILE\`" find_bag checkcmd_bag
rowf "find /imu (2 terms), ROS 2 MCAP zstd, vs check's decoding of /imu" find_1m_zstd check_1m_zstd
rowf "find /odom (norm), ROS 2 MCAP zstd, vs check's decoding of /odom" findo_1m_zstd checko_1m_zstd
rowf "find /imu (2 terms), ROS 2 MCAP lz4, vs check's decoding of /imu" find_1m_lz4 check_1m_lz4
rowf "find /odom (norm), ROS 2 MCAP lz4, vs check's decoding of /odom" findo_1m_lz4 checko_1m_lz4
rowf "find /imu (2 terms), ROS 1 mixed.bag, vs check's decoding of /imu" find_bag check_bag
[[ ${FIND_ONLY:-} ]] && exit 0
echo
fi
echo "| export | bagscope export | peer | peer / bagscope, wall | CPU |"
echo "|---|---|---|---|---|"
row "export Parquet /imu+/odom, ROS 2 MCAP zstd, vs node (@mcap/core + rosmsg2-serialization + hyparquet-writer)" export_zstd node_zstd
row "export Parquet /imu+/odom, ROS 1 mixed.bag, vs rosbag + pandas (tables $written)" export_bag pandas_bag
row "export CSV /imu+/odom, ROS 2 MCAP zstd, vs node writing CSV" exportc_zstd nodec_zstd
row "export CSV /imu+/odom, ROS 1 mixed.bag, vs rosbag + pandas to_csv" exportc_bag pandasc_bag
