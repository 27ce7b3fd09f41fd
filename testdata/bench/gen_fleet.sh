#!/usr/bin/env bash
# gen_fleet.sh: a fleet of recordings for `bagscope catalog`'s benchmark (issue 27):
# N recordings (default 10,000) in folders of 100, a third each ROS 1 bags, MCAP files and
# rosbag2 folders (.db3 + metadata.yaml), small ones and, one in 100, large ones.
#
#   testdata/bench/gen_fleet.sh OUT [N]       # BAGSCOPE=./bagscope, BENCH_DIR=../bench
#
# The small ones are copies of real recordings (testdata/robot.bag, its MCAP made by
# `bagscope convert`, and rosbag2's own wbag test folder, five .db3 files), each with its own
# modification time; the large ones are hard links to the bench files (make bench-files): the
# 300 MB ROS 1 bag, the 1M-message MCAP and the 1M-message .db3 folder. Hard links cost no disk,
# and a catalogue reads only their indexes, as it reads every recording.
set -euo pipefail
out=${1:?usage: gen_fleet.sh OUT [N]}
n=${2:-10000}
here=$(cd "$(dirname "$0")/../.." && pwd)
bagscope=${BAGSCOPE:-$here/bagscope}
bench=${BENCH_DIR:-$here/../bench}
wbag=$here/../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag
mkdir -p "$out"
tmpl=$(mktemp -d)
trap 'rm -rf "$tmpl"' EXIT
cp "$here/testdata/robot.bag" "$tmpl/small.bag"
"$bagscope" convert "$tmpl/small.bag" "$tmpl/small.mcap" >/dev/null
for ((i = 0; i < n; i++)); do
	dir=$out/site$((i % 7))/day$((i / 100))
	mkdir -p "$dir"
	kind=$((i % 3))
	large=$((i % 100 == 99))
	name=$dir/rec$i
	if ((large)); then
		case $kind in
		0) ln -f "$bench/mixed.bag" "$name.bag" ;;
		1) ln -f "$bench/mixed_ros2_1m_zstd.mcap" "$name.mcap" ;;
		2) mkdir -p "$name" && for f in "$bench"/mixed_ros2_db3/*; do ln -f "$f" "$name/"; done ;;
		esac
	else
		case $kind in
		0) cp "$tmpl/small.bag" "$name.bag" ;;
		1) cp "$tmpl/small.mcap" "$name.mcap" ;;
		2) mkdir -p "$name" && cp "$wbag"/* "$name/" ;;
		esac
	fi
done
echo "gen_fleet: $n recordings in $out ($(du -sh "$out" | cut -f1) on disk)"
