#!/usr/bin/env bash
# startup.sh: start-up of the headless commands against a bare Go binary
# (issue 29: `info` at most 1.5x the wall time of a bare Go binary).
#
#   testdata/bench/startup.sh
#   BASE=1860ace testdata/bench/startup.sh     # also the fronts of that commit, side by side
#
# Builds into $BUILD (default /tmp/bagscope-startup): the bare Go binary
# (testdata/bench/bare, same toolchain), a binary that links what the
# front links and calls none of it (testdata/bench/linked), the command-line front as `make
# build` makes it (./model/cli/bagscope, no Fyne) and the full binary
# (bagscope-gui, the window's); then times with hyperfine, in one run:
# `bare`, `bagscope --version`, `bagscope info` on a small ROS 1 bag and
# `info` and `cat --json` on a small ROS 2 .db3 and MCAP (with BASE, each
# next to BASE's front), and `bagscope-gui info` on the ROS 1 bag. It
# prints each mean against bare's, and what the package initialisers cost
# before main (GODEBUG=inittrace=1: how many, their clock, bytes
# allocated), with `uptime` before and after.
#
# Needs: go, hyperfine, python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${BUILD:-/tmp/bagscope-startup}
runs=${RUNS:-200}
mkdir -p "$build"
for tool in go hyperfine python3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "startup.sh: missing $tool (apt-get install -y hyperfine)" >&2; exit 2; }
done

echo "== building into $build" >&2
(cd "$repo" && go build -o "$build/bare" ./testdata/bench/bare &&
	CGO_ENABLED=0 go build -tags bagscope_front -o "$build/linked" ./testdata/bench/linked &&
	CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope" ./model/cli/bagscope &&
	go build -tags no_emoji -o "$build/bagscope-gui" .)
if [[ -n "${BASE:-}" ]]; then
	src="$build/base-src"
	rm -rf "$src" && mkdir -p "$src"
	git -C "$repo" archive "$BASE" | tar -x -C "$src"
	(cd "$src" && CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope-base" ./model/cli/bagscope &&
		go build -tags no_emoji -o "$build/bagscope-gui-base" .)
fi

ros1=$repo/assets/sample.bag
ros2db3=$repo/../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/talker/talker.db3
ros2mcap=$repo/../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/mcap/talker/talker.mcap
# Each front command, then (with BASE) the same on BASE's front, so that no
# format's start-up can get slower unseen.
fronts=("--version" "info $ros1")
[[ -f $ros2db3 ]] && fronts+=("info $ros2db3" "cat --json $ros2db3")
[[ -f $ros2mcap ]] && fronts+=("info $ros2mcap" "cat --json $ros2mcap")
cmds=("$build/bare" "$build/linked")
for f in "${fronts[@]}"; do
	cmds+=("$build/bagscope $f")
	[[ -n "${BASE:-}" ]] && cmds+=("$build/bagscope-base $f")
done
cmds+=("$build/bagscope-gui info $ros1")
[[ -n "${BASE:-}" ]] && cmds+=("$build/bagscope-gui-base info $ros1")

echo "== page faults and peak RSS (GNU time, one run each)"
for c in "${cmds[@]}"; do
	/usr/bin/time -f "%R minor faults %M KB  $c" $c 2>&1 >/dev/null | tail -1 | sed "s|$build/||"
done
echo "== uptime: $(uptime)"
hyperfine -N --warmup 20 --runs "$runs" --export-json "$build/startup.json" "${cmds[@]}" >/dev/null
python3 - "$build/startup.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
bare = res[0]["mean"]
cpu0 = res[0]["user"] + res[0]["system"]
print("%-70s %9s %9s %7s %8s %7s" % ("command", "mean ms", "min ms", "x bare", "CPU ms", "x bare"))
for r in res:
    cpu = r["user"] + r["system"]
    print("%-70s %9.2f %9.2f %7.2f %8.2f %7.2f" % (r["command"].replace(sys.argv[1].rsplit("/", 1)[0] + "/", ""),
                                       r["mean"] * 1e3, r["min"] * 1e3, r["mean"] / bare, cpu * 1e3, cpu / cpu0))
EOF
echo "== package initialisers before main (GODEBUG=inittrace=1, 5 runs: count, clock ms, KB allocated)"
for b in bagscope bagscope-gui ${BASE:+bagscope-base bagscope-gui-base}; do
	for _ in 1 2 3 4 5; do
		GODEBUG=inittrace=1 "$build/$b" info "$ros1" 2>&1 >/dev/null | awk -v b="$b" '/^init /{n++; ms+=$5; kb+=$8/1024} END {printf "%-18s %4d inits %6.1f ms %7.0f KB\n", b, n, ms, kb}'
	done
done
echo "== uptime: $(uptime)"
