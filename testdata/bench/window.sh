#!/usr/bin/env bash
# window.sh: how long the window takes to show a recording's topics, from
# the moment the process starts (issue 29: within 0.5 s).
#
#   testdata/bench/window.sh [FILE...]      # default: the embedded sample and the bench files
#   RUNS=10 GUI=/tmp/bagscope-gui testdata/bench/window.sh /work/bench/mixed.bag
#   BAGSCOPE_BENCH_DIR=/work/bench testdata/bench/window.sh   # bench files from there (default ../bench)
#
# Starts one Xvfb, then runs bagscope-gui FILE on it RUNS times with
# BAGSCOPE_TIMING=1, which makes the window print the wall-clock moment the
# topics panel entered the window (ui/timing.go; the frame that draws it
# follows within one refresh). Each run is timed from just before exec to
# that moment, then the window is killed. Prints min, median and max per
# file, with `uptime` before and after.
#
# Needs: Xvfb, go (unless GUI is given), python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
runs=${RUNS:-10}
gui=${GUI:-}
if [[ -z $gui ]]; then
	gui=/tmp/bagscope-window-bench/bagscope-gui
	mkdir -p "$(dirname "$gui")"
	echo "== building $gui" >&2
	(cd "$repo" && go build -tags no_emoji -o "$gui" .)
fi
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
	files=("$repo/assets/sample.bag")
	bench=${BAGSCOPE_BENCH_DIR:-$repo/../bench}
	for f in mixed.bag mixed_lz4.bag mixed_ros2_1m_zstd.mcap mixed_ros2_db3; do
		[[ -e $bench/$f ]] && files+=("$bench/$f")
	done
fi

display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for ((w = 0; w < 100; w++)); do # the server is up when its socket is
	[[ -S /tmp/.X11-unix/X${display#:} ]] && break
	sleep 0.1
done

home=$(mktemp -d) # fresh preferences: no restored layout, no recent files
mkdir -p "$home/.cache"
echo "== uptime: $(uptime)"
for f in "${files[@]}"; do
	rows=""
	for ((i = 0; i < runs; i++)); do
		log=$(mktemp)
		start=$(date +%s%N)
		HOME=$home DISPLAY=$display BAGSCOPE_TIMING=1 "$gui" --size 1280x800 "$f" 2>"$log" &
		pid=$!
		for ((w = 0; w < 600; w++)); do # at most 60 s
			grep -q '^bagscope: timing: topics shown at ' "$log" && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		kill $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		if ! grep -q '^bagscope: timing: topics shown at ' "$log"; then
			echo "window.sh: $f: the topics were not shown:" >&2
			cat "$log" >&2
			exit 1
		fi
		rows+=$(sed -n "s/^bagscope: timing: \(.*\) at \([0-9]*\)$/$i\t\1\t\2/p" "$log")$'\n'
		rows+="$i"$'\t'"start"$'\t'"$start"$'\n'
		rm -f "$log"
	done
	# Each milestone in ms from the exec: main (package initialisers done),
	# window made (the loading panel in the window), recording opened (its
	# index read, off the UI goroutine), topics shown.
	printf '%s' "$rows" | python3 -c '
import sys, statistics, collections
runs = collections.defaultdict(dict)
for line in sys.stdin:
    if line.strip():
        i, what, ns = line.rstrip("\n").split("\t")
        runs[i][what] = int(ns)
ms = collections.defaultdict(list)
for r in runs.values():
    for what, ns in r.items():
        if what != "start":
            ms[what].append((ns - r["start"]) / 1e6)
t = sorted(ms["topics shown"])
parts = ", ".join(f"{w} {statistics.median(ms[w]):.0f}" for w in ("main", "window made", "recording opened") if ms[w])
print(f"{sys.argv[1]}: topics shown in {statistics.median(t):.0f} ms (median of {len(t)}; min {t[0]:.0f}, max {t[-1]:.0f}; medians: {parts} ms)")
' "$(basename "$f")"
done
echo "== uptime: $(uptime)"
rm -rf "$home"
