#!/usr/bin/env bash
# Benchmark bagscope's headless commands against the reference readers (C++
# rosbag_storage and Python rosbag) on the benchmark bags, side by side in one
# run, and print a Markdown table of medians, ratios reference/bagscope and
# peak RSS. Called by `make bench`; see BENCHMARKS.md.
#
#   testdata/bench/run.sh [BENCH_DIR]
#
# BENCH_DIR holds mixed.bag, mixed_lz4.bag, mixed_bz2.bag and images.bag, made by
# ../shared/tools/gen_bench_bags.py (default: $BAGSCOPE_BENCH_DIR, else ../bench
# beside the checkout). Missing bags are skipped.
#
# Environment:
#   BUILD=/tmp/bagscope-bench  where bagscope and the C++ peers are built, and results go
#   RUNS=10 SLOW_RUNS=3 PY_RUNS=2  hyperfine runs for bagscope/C++, for the bz2 row, and for
#                              Python (the slow runs get no warm-up run)
#   ROUNDS=3                   batches of RUNS for bagscope and C++, taking turns
#   PYTHON=1                   0 skips the Python reference (the slowest part)
#   ONLY=REGEX                 run only the workloads whose name matches (e.g. ONLY=imu)
#   BASE=BIN                   another bagscope binary (e.g. an older commit's, built from a
#                              `git worktree`) timed in the same rounds: two more columns
# Needs: go, g++, hyperfine, GNU time, librosbag-storage-dev, libsensor-msgs-dev,
# pluginlib-dev, python3-rosbag (apt-get install -y hyperfine time g++ librosbag-storage-dev
# libsensor-msgs-dev pluginlib-dev python3-rosbag).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
bench=${1:-${BAGSCOPE_BENCH_DIR:-$repo/../bench}}
build=${BUILD:-/tmp/bagscope-bench}
runs=${RUNS:-10}
slow_runs=${SLOW_RUNS:-3}
py_runs=${PY_RUNS:-2}
rounds=${ROUNDS:-3}
python=${PYTHON:-1}
py=/usr/bin/python3
export GOTOOLCHAIN=${GOTOOLCHAIN:-auto}

missing=()
for tool in go g++ hyperfine /usr/bin/time; do
	command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -e /usr/include/rosbag/view.h ]] || missing+=(librosbag-storage-dev)
[[ -e /usr/include/pluginlib/pluginlib/class_loader.hpp ]] || missing+=(pluginlib-dev)
if ((${#missing[@]})); then
	echo "run.sh: missing ${missing[*]}; apt-get install -y hyperfine time g++ librosbag-storage-dev libsensor-msgs-dev pluginlib-dev" >&2
	exit 1
fi
mkdir -p "$build"

echo "== building bagscope and the C++ peers into $build" >&2
# bagscope as `make build` makes it: the command-line front without Fyne.
(cd "$repo" && CGO_ENABLED=0 go build -tags bagscope_front -o "$build/bagscope" ./model/cli/bagscope)
# rosbag/bag.h pulls in pluginlib and class_loader, whose Debian headers sit one
# directory down and need the ROS 2 utility headers beside them.
cxxflags=(-O2 -std=c++17)
for d in pluginlib class_loader rcpputils rcutils ament_index_cpp; do
	[[ -d /usr/include/$d ]] && cxxflags+=("-I/usr/include/$d")
done
libs=(-lrosbag_storage -lroscpp_serialization -lrostime -lcpp_common -lconsole_bridge -lboost_filesystem)
for p in read_all imu_sum; do
	if [[ ! -x $build/$p || $here/$p.cpp -nt $build/$p ]]; then
		g++ "${cxxflags[@]}" -o "$build/$p" "$here/$p.cpp" "${libs[@]}"
	fi
done

bs=$build/bagscope
rows=() # name|bag|bagscope command|C++ command|Python command|note
for b in mixed images; do
	rows+=("summary (info), $b.bag|$b.bag|$bs info @|$build/read_all --summary @|/usr/bin/rosbag info @|")
done
for b in mixed mixed_lz4 mixed_bz2 images; do
	rows+=("every message, $b.bag|$b.bag|$bs verify @|$build/read_all @|$py $here/py_read_all.py @|")
done
# The doctor, whole and quick, against the C++ reader reading every message.
for b in mixed mixed_lz4; do
	rows+=("check, $b.bag|$b.bag|$bs check @|$build/read_all @||bagscope: check FILE (every record cross-checked, every message decoded); the C++ peer reads every message")
	rows+=("check --quick, $b.bag|$b.bag|$bs check --quick @|$build/read_all @||bagscope: check --quick FILE (the structure only)")
done
# The field itself with `plot` (which writes every value to CSV and renders an
# SVG, its cheaper image format), or, before plot existed, a read of /imu only.
if "$bs" help | grep -q '^  plot '; then
	imu_bs="$bs plot --csv $build/imu.csv @ /imu.linear_acceleration.x"
	imu_note="bagscope: plot --csv OUT.csv FILE /imu.linear_acceleration.x (every value, with its time, to CSV; the C++ peer only sums them)"
else
	imu_bs="$bs verify --topic /imu @"
	imu_note="bagscope: verify --topic /imu (read + CRC only; field extraction command pending)"
fi
rows+=("/imu.linear_acceleration.x, mixed.bag|mixed.bag|$imu_bs|$build/imu_sum @|$py $here/py_imu_sum.py @|$imu_note")
# The same read with the work the C++ peer does: the values summed (and their
# count, min, max and mean), nothing written. Python is timed once, above.
if "$bs" plot --help 2>&1 | grep -q -- '-stats'; then
	rows+=("/imu.linear_acceleration.x sum, mixed.bag|mixed.bag|$bs plot --stats @ /imu.linear_acceleration.x|$build/imu_sum @||bagscope: plot --stats FILE /imu.linear_acceleration.x (count, min, max, mean and sum, as the C++ peer sums)")
fi

# measure JSON N CMD...: one hyperfine batch of N runs, exported to JSON;
# prints FAIL if the command failed.
measure() {
	local json=$1 n=$2
	shift 2
	local warm=1
	((n > 3)) || warm=0
	hyperfine -N --style none --warmup "$warm" --runs "$n" --export-json "$json" "$*" >/dev/null 2>&1 || echo "FAIL"
}
# stats median|cpu JSON...: the median time of every run in the exports, or
# their mean user+system time, in seconds.
stats() {
	$py - "$@" <<-'EOF' 2>/dev/null || echo "FAIL"
		import json, statistics, sys
		kind, files = sys.argv[1], sys.argv[2:]
		rs = [json.load(open(f))["results"][0] for f in files]
		if kind == "median":
		    print("%.4f" % statistics.median([t for r in rs for t in r["times"]]))
		else:
		    n = sum(len(r["times"]) for r in rs)
		    print("%.3f" % (sum((r["user"] + r["system"]) * len(r["times"]) for r in rs) / n))
	EOF
}
# peak CMD...: peak resident set size of one run, in MB.
peak() {
	local kb
	kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
	[[ $kb =~ ^[0-9]+$ ]] && echo $((kb / 1024)) || echo "?"
}
ratio() { $py -c 'import sys; a,b=sys.argv[1:]; print("%.2fx" % (float(a)/float(b)) if a not in ("FAIL","-") and b not in ("FAIL","-") and float(b)>0 else "-")' "$1" "$2"; }

out=$build/results.md
{
	echo "| workload | bagscope (s) | C++ (s) | Python (s) | C++/bagscope | Python/bagscope | CPU user+sys bagscope / C++ (s) | peak RSS bagscope / C++ (MB) |${BASE:+ base (s) | base/bagscope |} load |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|${BASE:+---:|---:|}---:|"
} >"$out"
notes=()
for row in "${rows[@]}"; do
	IFS='|' read -r name bag cmd_bs cmd_cpp cmd_py note <<<"$row"
	file=$bench/$bag
	[[ -n ${ONLY:-} && ! $name =~ $ONLY ]] && continue
	if [[ ! -f $file ]]; then
		echo "== skipping $name: $file not found" >&2
		continue
	fi
	cat "$file" >/dev/null # page cache warm
	echo "== $name" >&2
	slug=$(echo "$name" | tr -c 'a-zA-Z0-9_\n' '_')
	n=$runs
	[[ $bag == *bz2* ]] && n=$((slow_runs < runs ? slow_runs : runs))
	# bagscope and C++ take turns, ROUNDS batches each, so that a change in
	# the host's load between two batches cannot bias their ratio.
	js_bs=() js_cpp=() js_base=() failed=
	l0=$(cut -d' ' -f1 /proc/loadavg)
	for ((r = 1; r <= rounds; r++)); do
		js_bs+=("$build/$slug-bagscope.$r.json")
		js_cpp+=("$build/$slug-cpp.$r.json")
		[[ $(measure "${js_bs[-1]}" "$n" ${cmd_bs//@/$file}) == FAIL ]] && failed+=" bagscope"
		[[ $(measure "${js_cpp[-1]}" "$n" ${cmd_cpp//@/$file}) == FAIL ]] && failed+=" C++"
		if [[ -n ${BASE:-} ]]; then
			js_base+=("$build/$slug-base.$r.json")
			cmd_base=${cmd_bs/#$bs/$BASE}
			[[ $(measure "${js_base[-1]}" "$n" ${cmd_base//@/$file}) == FAIL ]] && failed+=" base"
		fi
	done
	t_bs=$(stats median "${js_bs[@]}") t_cpp=$(stats median "${js_cpp[@]}")
	[[ $failed == *bagscope* ]] && t_bs=FAIL
	[[ $failed == *C++* ]] && t_cpp=FAIL
	t_py=-
	if [[ $python == 1 && -n $cmd_py ]]; then
		t_py=$(measure "$build/$slug-python.json" "$py_runs" ${cmd_py//@/$file})
		[[ $t_py == FAIL ]] || t_py=$(stats median "$build/$slug-python.json")
	fi
	m_bs=$(peak ${cmd_bs//@/$file})
	m_cpp=$(peak ${cmd_cpp//@/$file})
	[[ -n $note ]] && notes+=("$name: $note")
	c_bs=$(stats cpu "${js_bs[@]}")
	c_cpp=$(stats cpu "${js_cpp[@]}")
	basecols=
	if [[ -n ${BASE:-} ]]; then
		t_base=$(stats median "${js_base[@]}")
		[[ $failed == *base* ]] && t_base=FAIL
		basecols=" $t_base | $(ratio "$t_base" "$t_bs") |"
	fi
	echo "| $name | $t_bs | $t_cpp | $t_py | $(ratio "$t_cpp" "$t_bs") | $(ratio "$t_py" "$t_bs") | $c_bs / $c_cpp | $m_bs / $m_cpp |$basecols $l0-$(cut -d' ' -f1 /proc/loadavg) |" >>"$out"
done
{
	echo
	echo "Medians of $rounds rounds of $runs runs (bz2: $slow_runs; Python: one round of $py_runs; no warm-up run when 3 or fewer) with hyperfine -N, bagscope and C++ taking turns round by round; page cache warm."
	[[ -n ${BASE:-} ]] && echo "Base: $BASE, timed in the same rounds as bagscope."
	echo "Load is the 1-minute load average before and after the row."
	echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	for n in "${notes[@]}"; do echo "- $n"; done
} >>"$out"
cat "$out"
