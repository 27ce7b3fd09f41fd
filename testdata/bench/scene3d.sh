#!/usr/bin/env bash
# scene3d.sh: the 3D tab's frame rate in the real window while the user drags
# (issue 26: at least 20 frames/s with 300,000 points).
#
#   testdata/bench/scene3d.sh [FILE]     # default: make_lidar.py's 300,000-point drive
#   SECONDS_DRAG=10 GUI=/tmp/bagscope-gui SIZE=1280x800 testdata/bench/scene3d.sh
#
# Starts one Xvfb, opens FILE on the 3D tab with BAGSCOPE_TIMING=1 (each
# second the tab drew, it prints its frames and the renderer's time:
# ui/sceneview/canvas.go), waits for the scene, then drags across the scene
# with xdotool (button held, the pointer moving every 5 ms) for
# SECONDS_DRAG seconds (the sleeps' total: slower under load), and prints those lines with `uptime` before and
# after. Frames are what Fyne painted (upload included): the drag asks for
# one per move; Fyne paints at most 60 a second.
#
# Needs: Xvfb, xdotool, go (unless GUI is given), python3 with numpy and
# rosbag (for the default drive).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
gui=${GUI:-}
size=${SIZE:-1280x800}
drag=${SECONDS_DRAG:-10}
tmp=$(mktemp -d)
if [[ -z $gui ]]; then
	gui=$tmp/bagscope-gui
	(cd "$repo" && go build -o "$gui" .)
fi
file=${1:-}
if [[ -z $file ]]; then
	file=$tmp/lidar.bag
	/usr/bin/python3 "$repo/model/scene/testdata/make_lidar.py" "$file" 300000
fi
display=:$((80 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; [[ -n ${pid:-} ]] && kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
sleep 1
echo "== uptime before: $(uptime)"
DISPLAY=$display BAGSCOPE_TIMING=1 "$gui" --size "$size" --tab 3D --select /points@2.5 "$file" 2>"$tmp/err" &
pid=$!
sleep 8 # the window, the index, the transforms, the cloud
w=${size%x*}
h=${size#*x}
# The scene's canvas is right of the topic list, below the bars: a point
# in it, in the window at 0,0.
x=$((w * 6 / 10))
y=$((h * 3 / 4))
export DISPLAY=$display
win=$(xdotool search --sync --onlyvisible --pid $pid | head -1)
xdotool windowmove "$win" 0 0
sleep 0.5
xdotool mousemove $x $y mousedown 1
# One xdotool for the whole drag (a process per move would cost more than
# the frames): 3 pixels right every 5 ms, then back, in steps of 20.
steps=$((drag * 1000 / 5))
cmd=()
for ((i = 0; i < steps; i++)); do
	if (((i / 20) % 2 == 0)); then cmd+=(mousemove_relative -- 3 0 sleep 0.005); else cmd+=(mousemove_relative -- -3 0 sleep 0.005); fi
done
xdotool "${cmd[@]}"
xdotool mouseup 1
sleep 1.2
grep 'timing: 3D' "$tmp/err" || { echo "no frames timed:"; cat "$tmp/err"; }
echo "== uptime after: $(uptime)"
