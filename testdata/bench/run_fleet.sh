#!/usr/bin/env bash
# run_fleet.sh: issue 27's benchmarks, side by side in one run (BENCHMARKS.md, "Many recordings").
#
#   testdata/bench/run_fleet.sh [BENCH_DIR [FLEET_DIR]]     # BAGSCOPE=./bagscope, RUNS=3
#
# 1. diff of two 1M-message recordings (the same messages, other compressions) against verify of each.
# 2. catalog of FLEET_DIR (testdata/bench/gen_fleet.sh makes it): cold, then unchanged (with --jobs 2).
# 3. sql over messages() of one topic against export of that topic + DuckDB reading its Parquet.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bench=${1:-$here/../bench}
fleet=${2:-}
bs=${BAGSCOPE:-$here/bagscope}
runs=${RUNS:-3}
t() { /usr/bin/time -f "%e s wall, %U+%S s CPU, %M KB max RSS" "$@" 2>&1 >/dev/null | tail -1; }
echo "== $(uptime)"
for pair in "mixed.bag mixed_lz4.bag" "mixed_ros2_1m_lz4.mcap mixed_ros2_1m_zstd.mcap"; do
	set -- $pair
	for ((r = 0; r < runs; r++)); do
		echo "verify $1: $(t "$bs" verify "$bench/$1")"
		echo "verify $2: $(t "$bs" verify "$bench/$2")"
		echo "diff $1 $2: $(t "$bs" diff "$bench/$1" "$bench/$2")"
	done
done
if [[ -n $fleet ]]; then
	cat=$(mktemp -d)
	echo "catalog $fleet (cold): $(t "$bs" catalog "$fleet" -o "$cat/c" --jobs 2)"
	echo "catalog $fleet (unchanged): $(t "$bs" catalog "$fleet" -o "$cat/c" --jobs 2)"
	rm -rf "$cat"
fi
lake=$(mktemp -d)
trap 'rm -rf "$lake"' EXIT
in=$bench/mixed_ros2_1m_zstd.mcap
q='count(*) AS n, avg("linear_acceleration.x") AS ax, max(log_time) AS last'
for ((r = 0; r < runs; r++)); do
	rm -rf "$lake/x"
	echo "export /imu: $(t "$bs" export "$in" "$lake/x" --topics /imu)"
	echo "sql over its Parquet: $(t "$bs" sql "SELECT $q FROM read_parquet('$lake/x/imu.parquet')")"
	echo "sql over messages(): $(t "$bs" sql "SELECT $q FROM messages('$in', '/imu')")"
done
echo "== $(uptime)"
