#!/usr/bin/env bash
# guimem.sh measures the real window's memory: it starts bagscope-gui on a bag
# under its own Xvfb, waits for the background jobs, then scrolls the Records
# tab (the wheel, clicking rows, Down) and the timeline (wheel zoom, arrow
# keys, clicking messages), then plays (Space, at 10x, for GUIMEM_PLAY
# seconds, default 20), and
# prints VmRSS and the peak VmHWM from /proc/PID/status after each phase.
# Arguments after BIN go to it, so plots are measured with --plot:
#
#	testdata/bench/guimem.sh [-d :91] [-s shot.png] BIN BAG
#	testdata/bench/guimem.sh BIN --plot /imu.linear_acceleration.x BAG
#
# Environment passes through, so MALLOC_ARENA_MAX=1 testdata/bench/guimem.sh ...
# compares settings; GUIMEM_LOG=FILE keeps the window's stderr (GODEBUG=gctrace=1),
# GUIMEM_SMAPS=PREFIX copies /proc/PID/smaps after each phase, and GUIMEM_HOOK
# is a command run after each phase ($pid and $phase are set). Needs Xvfb
# and xdotool (and ImageMagick's import for -s).
set -euo pipefail

disp=:91 shot=
while getopts d:s: o; do
	case $o in
	d) disp=$OPTARG ;;
	s) shot=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bin=$1
shift

export DISPLAY=$disp LANG=C.UTF-8
started_x=
if ! xdpyinfo >/dev/null 2>&1 && ! xdotool getdisplaygeometry >/dev/null 2>&1; then
	Xvfb "$disp" -screen 0 1400x900x24 >/dev/null 2>&1 &
	started_x=$!
	sleep 1
fi
"$bin" "$@" >/dev/null 2>"${GUIMEM_LOG:-/dev/null}" &
pid=$!
cleanup() {
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ -z "$started_x" ] || kill "$started_x" 2>/dev/null || true
}
trap cleanup EXIT

report() {
	[ -z "${GUIMEM_SMAPS:-}" ] || cp "/proc/$pid/smaps" "$GUIMEM_SMAPS.$1"
	phase=$1
	[ -z "${GUIMEM_HOOK:-}" ] || eval "$GUIMEM_HOOK" # may use $pid and $phase
	awk -v phase="$1" '/^VmHWM/ {h=$2} /^VmRSS/ {r=$2} END {printf "%-28s VmHWM %4d MB  VmRSS %4d MB\n", phase, h/1024, r/1024}' "/proc/$pid/status"
}

sleep 8 # the window draws; the byte count and message index finish
report opened
win=$(xdotool search --sync --pid "$pid" | tail -1)
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"

# Records: Ctrl+5, then the wheel over the list, clicking a row (its header
# and hex view show) every 20 notches, and the Down key.
xdotool key --window "$win" ctrl+5
sleep 1
xdotool mousemove --window "$win" 250 600 click 1
for _ in $(seq 25); do
	xdotool click --repeat 20 --delay 15 5
	xdotool click 1
	sleep 0.2
done
for _ in $(seq 30); do xdotool key --delay 30 Down; done
sleep 2
report records

# Timeline: zoom in and out about the mouse, pan with the keys.
xdotool mousemove --window "$win" 700 225
for _ in $(seq 15); do xdotool click --repeat 4 --delay 40 4; sleep 0.1; done
for _ in $(seq 15); do xdotool key --delay 40 Right Right Left; done
for _ in $(seq 15); do xdotool click --repeat 4 --delay 40 5; sleep 0.1; done
sleep 2
report timeline-zoom
# Then click messages on it (an image message's preview shows in Message).
for x in 300 500 700 900 1100; do
	xdotool mousemove --window "$win" $x 225 click 1
	sleep 0.5
done
xdotool key --window "$win" 0
sleep 2
report timeline-click
# Playback: Space plays from the current time; Alt+Up three times is 10x.
xdotool key --window "$win" Escape
xdotool key --window "$win" space
for _ in 1 2 3; do xdotool key --delay 100 alt+Up; done
sleep "${GUIMEM_PLAY:-20}"
report played
xdotool key --window "$win" space
[ -z "$shot" ] || import -window root "$shot"
