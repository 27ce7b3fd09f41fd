#!/usr/bin/env bash
# playmem.sh measures the real window while it plays a recording back
# (issue 14: "memory and idle CPU stay within BENCHMARKS.md's figures during
# five minutes of playback of the 1 GB images bag"). It starts bagscope-gui
# on BAG under its own Xvfb, waits for the background jobs, measures a
# minute of idle, then turns loop on (Alt+L), starts playback (Space) and
# samples every INTERVAL seconds for SECONDS: VmRSS, the peak VmHWM, and the
# CPU the process used in each interval (user+system, % of one core).
#
#	testdata/bench/playmem.sh [-d :92] [-t SECONDS] [-i INTERVAL] [-s shot.png] BIN BAG [GUI ARGS...]
#
# GUI ARGS go to the window before BAG, e.g. --tab Sensor to play with the
# Sensor tab showing (the default is the Topics tab).
#
# Defaults: 300 s of playback, 30 s samples. Needs Xvfb and xdotool (and
# ImageMagick's import for -s).
set -euo pipefail

disp=:92 secs=300 step=30 shot=
while getopts d:t:i:s: o; do
	case $o in
	d) disp=$OPTARG ;;
	t) secs=$OPTARG ;;
	i) step=$OPTARG ;;
	s) shot=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bin=$1 bag=$2
shift 2

export DISPLAY=$disp LANG=C.UTF-8
Xvfb "$disp" -screen 0 1400x900x24 >/dev/null 2>&1 &
xpid=$!
sleep 1
"$bin" "$@" "$bag" >/dev/null 2>&1 &
pid=$!
cleanup() {
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	kill "$xpid" 2>/dev/null || true
}
trap cleanup EXIT

hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
mem() { awk '/^VmHWM/ {h=$2} /^VmRSS/ {r=$2} END {printf "VmRSS %4d MB  VmHWM %4d MB", r/1024, h/1024}' "/proc/$pid/status"; }
# sample PHASE SECONDS: the CPU used over the next SECONDS, then memory.
sample() {
	local t0 w0 t1 w1
	t0=$(ticks) w0=$(date +%s.%N)
	sleep "$2"
	t1=$(ticks) w1=$(date +%s.%N)
	awk -v p="$1" -v a="$t0" -v b="$t1" -v s="$w0" -v e="$w1" -v hz="$hz" -v m="$(mem)" \
		'BEGIN {printf "%-18s CPU %5.1f%% of a core  %s\n", p, 100 * (b - a) / hz / (e - s), m}'
}

sleep 12 # the window draws; the byte count and message index finish
echo "== $bag $*"
sample "idle (60 s)" 60
win=$(xdotool search --sync --pid "$pid" | tail -1)
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
xdotool key --window "$win" alt+l
sleep 0.5
xdotool key --window "$win" space
for ((t = step; t <= secs; t += step)); do
	sample "playing, ${t} s" "$step"
done
[ -z "$shot" ] || { command -v import >/dev/null && import -window root "$shot"; } || echo "playmem.sh: no ImageMagick import, no picture" >&2
xdotool key --window "$win" space
sample "paused (30 s)" 30
