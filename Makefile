# bagscope: build, test, run and install. GNU make.
#
#   make deps     install missing Debian packages (apt-get), download Go modules
#   make build    build ./bagscope (headless commands, static, no Fyne), ./bagscope-gui (the window),
#                 ./bagscope-tables (export, catalog) and ./bagscope-sql (sql);
#                 installs the missing Debian packages first (make apt-deps)
#   make run      open the sample bag in the window (or print its info without a display)
#   make test     gofmt, then go vet, staticcheck and the import checks beside go test -race and each benchmark once (under Xvfb if no display)
#   make test-long  the long sweeps whole: every shared recording, every damaged copy (make test runs a fixed sample)
#   make fuzz     run every fuzz target for FUZZTIME each (default 10m) and print its executions
#   make bench    Go benchmarks once, then the commands vs the peers: C++/Python rosbag, mcap, sqlite3 (BENCHMARKS.md)
#   make install  install the binaries, man pages, shell completions, icon, desktop entry and MIME type (PREFIX=/usr/local)
#   make package  build a Linux package with the fyne tool (slow)
#   make screenshots  remake the README's window pictures (assets/screenshots) under Xvfb

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
# Recipes print their own phase headers; the commands themselves are not echoed.
.SILENT:
.DEFAULT_GOAL := build

# /usr/local/go/go.env says GOTOOLCHAIN=local; go.mod may need a newer Go.
export GOTOOLCHAIN := auto
# Fyne warns "Error parsing user locale C" without a UTF-8 locale.
export LANG := C.UTF-8

PREFIX ?= /usr/local
DESTDIR ?=
# staticcheck is pinned here, not in go.mod: 2026.2.2 (module v0.8.2) knows go1.27.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(HOME)/.cache/bagscope-tools/staticcheck-$(STATICCHECK_VERSION)/staticcheck
# vet, staticcheck and the tests all build with -race, so the cgo packages under
# Fyne (go-gl, 4-5 minutes cold) are compiled once, not once with and once without.
LINT_FLAGS := -race

# Debian packages: cgo + GL/X11/Wayland headers for Fyne, Xvfb for the window tests,
# the reference rosbag for the bag tests, PyYAML and NumPy for the `ros2 topic echo` oracle,
# nginx for the remote-reading tests (HTTP ranges; the tests start their own), the
# desktop tools for install (gio checks it), dbus for the Open dialog's portal test,
# and xdotool and xwininfo (x11-utils) to move and read a real window in a test.
APT_PKGS := gcc libc6-dev pkg-config libgl-dev libx11-dev libxcursor-dev libxrandr-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev \
	xvfb xauth \
	python3-rosbag python3-sensor-msgs python3-geometry-msgs python3-nav-msgs \
	python3-tf2-msgs python3-rosgraph-msgs python3-diagnostic-msgs python3-visualization-msgs python3-roslz4 python3-yaml python3-numpy \
	nginx-light \
	shared-mime-info desktop-file-utils xdg-utils libglib2.0-bin dbus xdotool x11-utils \
	zsh fish bash-completion \
	ffmpeg

# Packages that must never import Fyne. They include model/cli/bagscope, the
# command-line front: it starts in ~4 ms because it links neither Fyne nor its
# GL/X11 libraries.
HEADLESS_PKGS := ./bag/... ./model/... $(if $(wildcard plot/*.go plot/*/*.go),./plot/...)

export BAGSCOPE_ORACLES = $(ORACLE_DIR)/node_modules

.PHONY: oracles remote-servers deps apt-deps build run test test-long gofmt lint unit fuzz bench install install-desktop package clean screenshots

deps: apt-deps
	# The modules this platform builds and tests, not `go mod download`'s
	# every module: DuckDB's static libraries of all five platforms are
	# ~573 MB, and a build links one.
	go list -deps -test ./... >/dev/null
	$(MAKE) --no-print-directory oracles remote-servers
	echo "== deps done in $${SECONDS}s"

# The Debian packages alone: what `build` needs on a fresh machine (the
# C compiler and GL/X11/Wayland headers for Fyne), without the Go modules
# and npm oracles `deps` also fetches.
apt-deps:
	missing=()
	for p in $(APT_PKGS); do
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$$p")
	done
	if (( $${#missing[@]} )); then
		echo "deps: installing $${missing[*]}"
		sudo=; [[ $$(id -u) == 0 ]] || sudo=sudo
		$$sudo apt-get update -qq
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$${missing[@]}" </dev/null
	fi

# The ROS 2 oracles: independent readers from the npm registry (@mcap/core,
# @foxglove/rosmsg2-serialization, ...) that the tests compare bagscope with.
# They are installed into the user's cache, never into the repository, from
# the pinned testdata/oracle/package-lock.json.
ORACLE_DIR ?= $(HOME)/.cache/bagscope-npm
oracles:
	if ! command -v npm >/dev/null; then
		echo "oracles: installing nodejs and npm"
		sudo=; [[ $$(id -u) == 0 ]] || sudo=sudo
		$$sudo apt-get update -qq
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm </dev/null
	fi
	mkdir -p "$(ORACLE_DIR)"
	if ! cmp -s testdata/oracle/package-lock.json "$(ORACLE_DIR)/package-lock.json" || [[ ! -d "$(ORACLE_DIR)/node_modules" ]]; then
		echo "oracles: npm ci into $(ORACLE_DIR)"
		cp testdata/oracle/package.json testdata/oracle/package-lock.json "$(ORACLE_DIR)/"
		(cd "$(ORACLE_DIR)" && npm ci --no-audit --no-fund --loglevel=error)
	fi

# The servers the remote-reading tests start on 127.0.0.1 (bag/remote/remotetest):
# an S3-compatible gateway and a fault-injecting TCP proxy, built from the module
# proxy at pinned versions into the user's cache, never into the repository. The
# tests build them too when they are missing; building them here keeps that out
# of the tests' time.
TOOLS_DIR := $(HOME)/.cache/bagscope-tools
VERSITYGW_VERSION := v1.8.0
TOXIPROXY_VERSION := v2.5.0
remote-servers:
	build() {
		local name=$$1 pkg=$$2 version=$$3 dir="$(TOOLS_DIR)/$$1-$$3"
		[[ -x "$$dir/$$name" ]] && return 0
		echo "remote-servers: building $$pkg@$$version into $$dir"
		local tmp; tmp=$$(mktemp -d)
		(cd "$$tmp" && GOBIN="$$tmp" CGO_ENABLED=0 go install "$$pkg@$$version")
		mkdir -p "$$dir" && mv "$$tmp/$$(basename "$$pkg")" "$$dir/$$name" && rm -rf "$$tmp"
	}
	build versitygw github.com/versity/versitygw/cmd/versitygw $(VERSITYGW_VERSION)
	build toxiproxy-server github.com/Shopify/toxiproxy/v2/cmd/server $(TOXIPROXY_VERSION)

# Four binaries: bagscope-gui is the whole program (the window and every
# command; it is what `go build .` and `fyne package` make), bagscope the fast
# front for the commands, which executes bagscope-gui beside it for the window,
# bagscope-tables (the front with the Parquet writer, FRONT_TAGS plus
# bagscope_tables: model/cli/bagscope-tables) for export and catalog, and
# bagscope-sql (DuckDB) for sql.
# The window is built without Fyne's bundled colour emoji font (no_emoji): it
# costs ~20 MB of memory in every window (BENCHMARKS.md, GUI memory), and
# emoji in a bag's strings are rare; they show as boxes.
GUI_TAGS ?= no_emoji
# The front is built without the AWS SDK (bagscope_front): its package
# initialisers cost every command 665 KB before main; a command line that
# names an s3:// or gs:// URL runs in bagscope-gui (bag/remote/s3_front.go),
# export and catalog of such a URL too.
FRONT_TAGS ?= bagscope_front
# --version names the commit (GOFLAGS may say -buildvcs=false).
COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || c=$$c-dirty; echo $$c; })
LDFLAGS := -X github.com/bagscope/bagscope/model/cli.commit=$(COMMIT)
build: apt-deps
	echo "go build -tags $(GUI_TAGS) -o bagscope-gui . && go build -tags $(FRONT_TAGS) -o bagscope ./model/cli/bagscope"
	go build -tags "$(GUI_TAGS)" -ldflags "$(LDFLAGS)" -o bagscope-gui .
	CGO_ENABLED=0 go build -tags "$(FRONT_TAGS)" -ldflags "$(LDFLAGS)" -o bagscope ./model/cli/bagscope
	echo "go build -tags $(FRONT_TAGS),bagscope_tables -o bagscope-tables ./model/cli/bagscope-tables"
	CGO_ENABLED=0 go build -tags "$(FRONT_TAGS),bagscope_tables" -ldflags "$(LDFLAGS)" -o bagscope-tables ./model/cli/bagscope-tables
	echo "go build -o bagscope-sql ./model/cli/bagscope-sql"
	go build -ldflags "$(LDFLAGS)" -o bagscope-sql ./model/cli/bagscope-sql

run: deps build
	if [[ -n "$${DISPLAY:-}" || -n "$${WAYLAND_DISPLAY:-}" ]]; then
		./bagscope --sample
	else
		echo 'make run: no display (DISPLAY and WAYLAND_DISPLAY are unset): showing `bagscope info assets/sample.bag` instead; run `make run` from a desktop session to open the window.'
		./bagscope info assets/sample.bag
	fi

# The lint (vet, staticcheck, the import checks: 66 s on an idle machine,
# 260 s at load 11-17, partly on one core) runs beside the tests, not
# before them: its output is kept and printed after the tests', and either
# failing fails make test. gofmt (a second) runs first, so a file left
# unformatted stops the run before any test starts.
test: deps gofmt
	lintlog=$$(mktemp "$${TMPDIR:-/tmp}/bagscope-lint.XXXXXX")
	trap 'rm -f "$$lintlog"' EXIT
	echo "== lint beside the tests (its output follows theirs)"
	$(MAKE) --no-print-directory lint >"$$lintlog" 2>&1 &
	lintpid=$$!
	unit=0
	$(MAKE) --no-print-directory unit || unit=$$?
	lint=0
	wait "$$lintpid" || lint=$$?
	cat "$$lintlog"
	if (( lint != 0 )); then echo "== make test: the lint failed (exit $$lint)"; fi
	if (( unit != 0 )); then echo "== make test: the tests failed (exit $$unit)"; fi
	(( lint == 0 && unit == 0 ))

gofmt:
	echo "== gofmt"
	bad=$$(gofmt -l .)
	if [[ -n "$$bad" ]]; then echo "gofmt: these files need formatting:"; echo "$$bad"; exit 1; fi

lint: gofmt
	echo "== go vet ($${SECONDS}s)"
	go vet $(LINT_FLAGS) ./...
	echo "== staticcheck $(STATICCHECK_VERSION) ($${SECONDS}s)"
	if [[ ! -x "$(STATICCHECK)" ]]; then
		GOBIN="$(dir $(STATICCHECK))" go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	fi
	GOFLAGS="$$(go env GOFLAGS) $(LINT_FLAGS)" "$(STATICCHECK)" ./...
	echo "== no Fyne below ui/ ($${SECONDS}s)"
	if go list -deps $(HEADLESS_PKGS) | grep '^fyne\.io'; then
		echo "these packages must not import Fyne: $(HEADLESS_PKGS)"; exit 1
	fi
	echo "== the command-line front links no gonum/plot ($${SECONDS}s)"
	if go list -deps ./model/cli/bagscope | grep '^gonum\.org/v1/plot'; then
		echo "./model/cli/bagscope must not import gonum/plot (plot/render): its initialisers slow every command; see model/cli/render_hook.go"; exit 1
	fi
	echo "== the command-line front links no DuckDB ($${SECONDS}s)"
	if go list -deps ./model/cli/bagscope . | grep '^github\.com/duckdb/'; then
		echo "./model/cli/bagscope and the window must not link DuckDB: bagscope sql executes bagscope-sql (model/cli/sql.go)"; exit 1
	fi
	echo "== the front as make build makes it (-tags $(FRONT_TAGS)): vet, no AWS SDK, no Parquet ($${SECONDS}s)"
	go vet $(LINT_FLAGS) -tags "$(FRONT_TAGS)" ./bag/remote/ ./model/cli/bagscope/
	if go list -deps -tags "$(FRONT_TAGS)" ./model/cli/bagscope | grep '^github\.com/aws/'; then
		echo "./model/cli/bagscope built with -tags $(FRONT_TAGS) must not link the AWS SDK: see bag/remote/s3_front.go"; exit 1
	fi
	if go list -deps -tags "$(FRONT_TAGS)" ./model/cli/bagscope | grep -E '^(github\.com/parquet-go/|google\.golang\.org/protobuf)'; then
		echo "./model/cli/bagscope built with -tags $(FRONT_TAGS) must not link Parquet: export and catalog run in bagscope-tables (model/cli/tables_front.go)"; exit 1
	fi
	echo "== bagscope-tables as make build makes it: vet, no Fyne, gonum/plot, AWS SDK nor DuckDB ($${SECONDS}s)"
	go vet $(LINT_FLAGS) -tags "$(FRONT_TAGS),bagscope_tables" ./model/cli/bagscope-tables/
	if go list -deps -tags "$(FRONT_TAGS),bagscope_tables" ./model/cli/bagscope-tables | grep -E '^(fyne\.io|gonum\.org/v1/plot|github\.com/aws/|github\.com/duckdb/)'; then
		echo "./model/cli/bagscope-tables must link none of these: its start is part of export's and catalog's memory (model/cli/bagscope-tables/main.go)"; exit 1
	fi
	echo "== lint done in $${SECONDS}s"

# The long sweeps: `make test` runs a fixed sample of each, `make test-long`
# (-long) every case. The sweeps of model/cli over the shared recordings read
# one in 4 of them per format and every damaged one, not the ROS 1 bags of
# over 2 MiB uncompressed (sampleShared, allBags in
# model/cli/helpers_test.go); each compares with the reference or an npm
# oracle. The damage sweeps (bag/sweeptest) run one in N of their cases
# within each class, so every format and every kind of damage is covered:
# TestDamageSweep 2 of its 40 offsets per kind of damage (1 for the bz2 bag),
# TestSweepCutAndCorrupt one in 3 of each fixture's cuts and flips,
# TestCutEverywhere one in 4 cut offsets, TestFlipBytesInEveryRecord ~54
# spots of each multi-chunk bag, TestScanKilledRecordings one in 3 cuts of
# each killed recording and half its comparisons with rosbag reindex,
# TestCatMCAPMatchesOracle one in 2 cut copies of each generated fixture,
# bag/ros1's TestMessagesMatchReference one in 3 shared bags (and every
# fixture and damaged one) against the reference,
# TestOnePassSaysWhatTheDoctorSays half of each recording's damaged copies
# (onePassEvery; 252 s whole at load 17), and ui's TestHelpKeys one in 3 of
# the keys Help lists (helpKeysEvery; each key is a window of its own),
# TestRemoteCatEqualsLocal one recording of each format and layout per
# server (remoteSample), model/tf's TestHistoryLookupSeriesEqualsRead one
# in 3 of each recording's pairs of frames (histSeriesEvery) and
# TestLookupSeriesMatchesReference one in 2 of them read again in
# stretches (stretchEvery).
# TestHeadlessCommandsMemory runs check and plot --stats on an MCAP of 1M
# tiny messages, with -long every headless command on 4M, MCAP and ROS 1
# (peak RSS at most 64 MiB, issue 29).
# BAGSCOPE_SAMPLE=K runs another fixed sample.
# One of them whole:  go test -race -run '^TestDamageSweep$$' ./model/cli/ -long
LONG_SWEEPS := TestCatJSONMatchesReference|TestCatDB3MatchesOracle|TestCatMCAPMatchesOracle|TestInfoTextMatchesRosbag|TestInfoJSONMatchesReference|TestInfoFreqMatchesReference|TestInfoFreqMCAP|TestVerifyCountsMatchInfo|TestRemoteCatEqualsLocal|TestDamageSweep|TestSweepCutAndCorrupt|TestCutEverywhere|TestFlipBytesInEveryRecord|TestHeadlessCommandsMemory|TestScanKilledRecordings|TestMessagesMatchReference|TestOnePassSaysWhatTheDoctorSays|TestHelpKeys|TestDecodeLZ4FrameDamage|TestDecompressionBomb|TestVouchedDoctorSaysTheSame|TestReadVouchesAreTheWalks|TestVisitVouchesAreTheWalks|TestCheckCleanBags|TestWalkAndIndexAgree|TestVouchedDoctorOnDamage|TestFastPathGenerated|TestHistoryLookupSeriesEqualsRead|TestLookupSeriesMatchesReference
# The packages that hold them (each test binary knows -long).
LONG_PKGS := ./model/cli/ ./bag/ros1/ ./ui/ ./model/tf/ ./bag/db3/

# The shared-recording sweeps take about 6 minutes on a quiet 2-core
# machine (over 25 at load 15), the whole damage sweep about 33 more.
# The timeout is well above that, yet short enough that a hang fails inside
# CI's 90 minutes and names the test that hung (.ci/gotest prints the tests
# still running).
LONG_TIMEOUT ?= 60m

test-long: deps
	echo "== go test -race -long (every shared recording, every case of the damage sweeps)"
	CI="$${CI:-}" .ci/gotest -race -timeout $(LONG_TIMEOUT) -run '^($(LONG_SWEEPS))$$' $(LONG_PKGS) -long
	echo "== long sweeps done in $${SECONDS}s"

# The window tests need an X display: use Xvfb when there is none.
# Every benchmark runs once too, so they keep compiling and working, in the
# same test binaries as the tests (a second `go test -bench` linked ~30
# race test binaries again and took 139 s of the 1,076 in ci5), asked of
# the test binaries after -args: given to go test itself, -bench makes it
# run the packages one at a time ("benchmarks run in serial", after every
# build), which had made the whole test stage serial (ci13: 1,375 s of
# tests, the sum of the packages' 1,394 s). BAGSCOPE_BENCH_DIR=/nonexistent
# keeps them on the fixtures and small generated inputs (make bench uses
# the large files).
#
# The packages now run two at a time (go test's -p is the number of
# cores), and go test starts their test binaries in the order of its
# package list: ./... alone is alphabetical and puts ui, the longest (582 s
# in ci16, model/cli 431 s, bag/ros1 113 s), last, to run alone on one core
# at the end. UNIT_PKGS lists the longest first (then ./..., which adds the
# rest once), so the short ones fill the other core meanwhile.
UNIT_PKGS := ./ui/ ./model/cli/ ./bag/ros1/ ./model/tf/ ./bag/db3/ . ./model/ ./model/query/ ./bag/mcap/ ./bag/ ./...
unit:
	xvfb=()
	if [[ -z "$${DISPLAY:-}" && -z "$${WAYLAND_DISPLAY:-}" ]]; then
		xvfb=(xvfb-run -a -s "-screen 0 1400x900x24")
	fi
	echo "== go test -race, and every benchmark once $${xvfb[*]:+(under xvfb-run)}"
	CI="$${CI:-}" BAGSCOPE_BENCH_DIR=/nonexistent "$${xvfb[@]}" .ci/gotest -race -timeout 50m $(UNIT_PKGS) -args -test.bench=. -test.benchtime=1x
	echo "== tests done in $${SECONDS}s"

# Every fuzz target of the repository (func FuzzX in a _test.go file), one
# after the other for FUZZTIME each. -fuzzminimizetime is bounded: with the
# default (60s per new input) minimizing ate the run and FuzzOpen made 23
# executions in 4 minutes. Each target's last line (its executions) is
# printed at the end; the corpus of new inputs stays in the Go cache, and a
# crasher is written under the package's testdata/fuzz/ and fails the run.
FUZZTIME ?= 10m
FUZZ_LOG ?= $(or $(TMPDIR),/tmp)/bagscope-fuzz.log
fuzz:
	: > "$(FUZZ_LOG)"
	grep -rn --include='*_test.go' '^func Fuzz' . | sort | while IFS=: read -r file _ decl; do
		name=$${decl#func }; name=$${name%%(*}
		dir=$$(dirname "$$file")
		echo "== $$dir $$name for $(FUZZTIME)" | tee -a "$(FUZZ_LOG)"
		go test -run '^$$' -fuzz "^$$name$$" -fuzztime "$(FUZZTIME)" -fuzzminimizetime 10x "$$dir" 2>&1 | tee -a "$(FUZZ_LOG)" | grep -E '^(fuzz: elapsed|--- FAIL|ok|FAIL)' | tail -n 3
	done
	echo "== executions (last report of each target)"
	awk '/^== /{t=$$2" "$$3} /^fuzz: elapsed/{if (match($$0, /execs: [0-9]+/)) n[t]=substr($$0, RSTART+7, RLENGTH-7)} END{for (k in n) print k": "n[k]" executions in $(FUZZTIME)"}' "$(FUZZ_LOG)" | sort
	! grep -q -e '^--- FAIL' -e '^FAIL' "$(FUZZ_LOG)"

# The benchmark recordings live outside the repo, in BENCH_DIR: the ROS 1
# bags written by the real rosbag writer (../shared/tools/gen_bench_bags.py),
# the ROS 2 MCAPs (1 MiB chunks as rosbag2 writes them, and 4 MiB) and the
# .db3 folder, each made when missing by the scripts below.
BENCH_DIR ?= ../bench
BENCH_GEN ?= ../shared/tools/gen_bench_bags.py
BENCH_PKGS := hyperfine time g++ librosbag-storage-dev libsensor-msgs-dev pluginlib-dev sqlite3 python3-pandas

# Go benchmarks once each, then the commands users run against the peers,
# side by side in one run each (BENCHMARKS.md): ROS 1 against the C++ and
# Python rosbag (testdata/bench/run.sh), ROS 2 MCAP against the mcap Go
# library (run_ros2.sh), .db3 against the sqlite3 shell (run_db3.sh), start-up
# against a bare Go binary (startup.sh).
bench: deps
	$(MAKE) --no-print-directory APT_PKGS="$(BENCH_PKGS)" apt-deps
	echo "== go test -bench"
	go test -run '^$$' -bench . -benchtime=1x ./...
	mkdir -p "$(BENCH_DIR)"
	if [[ -f "$(BENCH_GEN)" ]]; then
		[[ -f "$(BENCH_DIR)/mixed.bag" ]] || /usr/bin/python3 "$(BENCH_GEN)" mixed "$(BENCH_DIR)"
		for c in lz4 bz2; do [[ -f "$(BENCH_DIR)/mixed_$$c.bag" ]] || /usr/bin/python3 "$(BENCH_GEN)" recompress "$(BENCH_DIR)" $$c; done
		[[ -f "$(BENCH_DIR)/images.bag" ]] || /usr/bin/python3 "$(BENCH_GEN)" images "$(BENCH_DIR)"
	fi
	echo "== uptime: $$(uptime)"
	echo "== ROS 1: bagscope against the C++ and Python rosbag on $(BENCH_DIR)"
	testdata/bench/run.sh "$(BENCH_DIR)"
	echo "== ROS 2 MCAP: bagscope against the mcap Go library"
	testdata/bench/run_ros2.sh "$(BENCH_DIR)"
	echo "== ROS 2 .db3: bagscope against the sqlite3 shell"
	testdata/bench/run_db3.sh "$(BENCH_DIR)"
	echo "== start-up: the headless front against a bare Go binary"
	testdata/bench/startup.sh
	echo "== the window: time to topics (Xvfb)"
	BAGSCOPE_BENCH_DIR="$(BENCH_DIR)" testdata/bench/window.sh
	echo "== find and export against check's pass, the node and pandas peers"
	testdata/bench/run_findexport.sh "$(BENCH_DIR)"
	echo "== uptime: $$(uptime)"

install: build
	echo "== install to $(DESTDIR)$(PREFIX)"
	install -Dm755 bagscope "$(DESTDIR)$(PREFIX)/bin/bagscope"
	install -Dm755 bagscope-gui "$(DESTDIR)$(PREFIX)/libexec/bagscope/bagscope-gui"
	install -Dm755 bagscope-tables "$(DESTDIR)$(PREFIX)/libexec/bagscope/bagscope-tables"
	install -Dm755 bagscope-sql "$(DESTDIR)$(PREFIX)/libexec/bagscope/bagscope-sql"
	# Man pages (one per command) and bash, zsh and fish completions, made
	# from the command line's own help.
	mandir=$$(mktemp -d)
	go run ./model/cli/mangen "$$mandir"
	for m in "$$mandir"/*.1; do install -Dm644 "$$m" "$(DESTDIR)$(PREFIX)/share/man/man1/$$(basename "$$m")"; done
	rm -rf "$$mandir"
	./bagscope completion bash | install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/bagscope"
	./bagscope completion zsh | install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_bagscope"
	./bagscope completion fish | install -Dm644 /dev/stdin "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/bagscope.fish"
	$(MAKE) --no-print-directory install-desktop

# The desktop entry, icon and MIME types. With DESTDIR (a package) they go
# under PREFIX/share for every user, and no default is set. Otherwise they
# are installed for the user who ran make, under sudo too (SUDO_USER: into
# that user's ~/.local/share, owned by that user, and xdg-mime run as that
# user, never setting root's defaults): bagscope becomes *an* application
# for .bag, .bag.active, .mcap, .db3 and rosbag2's metadata.yaml (a rosbag2
# folder opens through any of its files), and the default only for .bag,
# .bag.active and .mcap. It never claims folders (inode/directory) or
# every metadata.yaml: that type is known by its first line,
# "rosbag2_bagfile_information:" (assets/bagscope-mime.xml).
# INSTALL_HOME names the home to install into instead of the user's.
install-desktop:
	if [[ -n "$(DESTDIR)" ]]; then
		data="$(DESTDIR)$(PREFIX)/share"
		install -Dm644 assets/icon.png "$$data/icons/hicolor/256x256/apps/bagscope.png"
		sed 's|^Exec=.*|Exec=$(PREFIX)/bin/bagscope %F|' assets/bagscope.desktop | install -Dm644 /dev/stdin "$$data/applications/bagscope.desktop"
		install -Dm644 assets/bagscope-mime.xml "$$data/mime/packages/bagscope.xml"
		exit 0
	fi
	user=; home="$${HOME:?}"
	if [[ $$(id -u) == 0 && -n "$${SUDO_USER:-}" && "$${SUDO_USER}" != root ]]; then
		user=$$SUDO_USER
		home=$$(getent passwd "$$user" | cut -d: -f6)
	fi
	home="$${INSTALL_HOME:-$$home}"
	if [[ -n "$$user" ]]; then
		# Under sudo the user's own XDG variables are not there: the defaults.
		data="$$home/.local/share" config="$$home/.config"
		as_user() { runuser -u "$$user" -- env HOME="$$home" XDG_DATA_HOME="$$data" XDG_CONFIG_HOME="$$config" "$$@"; }
	else
		data="$${XDG_DATA_HOME:-$$home/.local/share}" config="$${XDG_CONFIG_HOME:-$$home/.config}"
		as_user() { env HOME="$$home" XDG_DATA_HOME="$$data" XDG_CONFIG_HOME="$$config" "$$@"; }
	fi
	echo "== desktop entry and MIME types for $${user:-$$(id -un)} in $$data"
	# Copied through a pipe, so the files are made (and owned) by the user.
	put() { as_user install -Dm644 /dev/stdin "$$2" <"$$1"; }
	put assets/icon.png "$$data/icons/hicolor/256x256/apps/bagscope.png"
	sed 's|^Exec=.*|Exec=$(PREFIX)/bin/bagscope %F|' assets/bagscope.desktop >"$${TMPDIR:-/tmp}/bagscope.desktop.$$$$"
	put "$${TMPDIR:-/tmp}/bagscope.desktop.$$$$" "$$data/applications/bagscope.desktop"
	rm -f "$${TMPDIR:-/tmp}/bagscope.desktop.$$$$"
	put assets/bagscope-mime.xml "$$data/mime/packages/bagscope.xml"
	as_user update-mime-database "$$data/mime"
	as_user update-desktop-database "$$data/applications"
	as_user mkdir -p "$$config"
	as_user xdg-mime default bagscope.desktop application/x-rosbag application/x-mcap
	echo "installed: .bag and .mcap files open with bagscope; .db3 files and rosbag2 metadata.yaml offer it (Open With)"

# The package holds the whole program alone (main.go, under the app's name):
# it runs every command itself, export and catalog included (it links
# Parquet), so it needs neither the front nor bagscope-tables.
package:
	echo "== fyne package -os linux --tags $(GUI_TAGS)"
	go tool fyne package -os linux --tags "$(GUI_TAGS)"

clean:
	rm -f bagscope bagscope-gui bagscope-tables bagscope-sql bagscope.tar.xz

# The README's pictures of the window, each made by the real binary with --screenshot.
SHOTS := assets/screenshots
CUT_BAG := ../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag
screenshots: build
	shot() {
		out=$(SHOTS)/$$1.png; shift
		echo "== $$out: bagscope $$*"
		xvfb-run -a -s "-screen 0 1400x900x24" ./bagscope --screenshot "$$out" "$$@" 2> >(grep -v -e XDG_RUNTIME_DIR -e 'Fyne error' -e 'Cause:' -e 'At:' >&2)
	}
	shot sample --sample
	shot small --size 1024x640 --plot '/joint_states.position[*]' --select /joint_states@4 testdata/arm7.bag
	# A 2560x1440 screen at scale 2, as a HiDPI desktop sets FYNE_SCALE.
	FYNE_SCALE=2 shot hidpi --size 2560x1440 --plot '/joint_states.position[*]' --select /joint_states@4 testdata/arm7.bag
	shot message --tab Message --select /imu@12.3 --sample
	shot image --tab Message --select /raspicam_node/image/compressed@0 ../shared/bags/UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag
	shot plots --plot /imu.linear_acceleration.x,/imu.angular_velocity.z --plot /odom.twist.twist.linear.x --select /imu@7 --sample
	shot xy --plot '/odom.pose.pose.position.x vs /odom.pose.pose.position.y' --plot '/joint_states.position[*]' --select /odom@6.5 testdata/robot.bag
	shot chunk --tab Chunk --select /imu@12.3 --sample
	shot tf --size 1024x640 --tab TF --select /tf@6.5 testdata/tf.bag
	shot diagnostics --tab Diagnostics --select /diagnostics@9.5 testdata/diag.bag
	shot find --size 1024x640 --find 'level >= ERROR' testdata/robot.bag
	shot records --tab Records --select /imu@12.3 --sample
	shot library --library testdata
	shot library-query --library --query $$'-- The busiest topics across the library, with their rates and gaps\nSELECT r.path, t.topic, t.type, t.messages,\n       round(t.rate, 1) AS rate_hz, t.gaps, t.longest_gap\nFROM topics t JOIN recordings r USING (path)\nWHERE t.messages >= 100\nORDER BY t.messages DESC' testdata
	shot timeline --select /imu@0.5 testdata/lz4-multichunk.bag
	# The Diff tab against a copy the reference rosbag wrote with one
	# /odom message changed, made beside the sources (a relative path).
	rm -rf compared && mkdir compared
	/usr/bin/python3 testdata/oracle/diff_variant.py testdata/robot.bag compared/robot-edited.bag change /odom 7 pose.pose.position.x 0.5 >/dev/null
	shot diff --compare compared/robot-edited.bag testdata/robot.bag
	rm -rf compared
	shot scanned $(CUT_BAG)
	shot findings --tab Findings $(CUT_BAG)
	shot sensor-image --tab Sensor --select /raspicam_node/image/compressed@0 ../shared/bags/UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag
	shot sensor-scan --tab Sensor --select /scan@3 ../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag
	shot sensor-cloud --tab Sensor --select /pointcloud2@0 ../shared/bags/swri-robotics__bag-reader-java/src/test/resources/PointCloud2.bag
	shot sensor-depth --tab Sensor --select /depth/image_float@0.1 testdata/depth.bag
	shot log --tab Log --select /rosout@1.6 ../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap
	shot ros2-topics --tab Topics testdata/ros2-mixed.mcap
	shot ros2-message --tab Message --select /odom@4.2 testdata/ros2-mixed.mcap
	shot ros2-plots --plot /imu.linear_acceleration.z,/imu.angular_velocity.z --plot /odom.pose.pose.position.x,/odom.pose.pose.position.y --select /imu@4.2 testdata/ros2-mixed.mcap
	shot ros2-chunk --tab Chunk --select /imu@4.2 testdata/ros2-mixed.mcap
	shot ros2-records --tab Records --select /imu@4.2 testdata/ros2-mixed.mcap
	shot ros2-findings --tab Findings testdata/ros2-mixed.mcap
	shot ros2-db3 --tab Message --select /imu@1 ../shared/bags/facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3
	# The damage pictures open damaged copies made in a folder beside the
	# pictures' sources, by a relative path: the window shows the path it
	# was given, and a /tmp path would show in the picture.
	rm -rf damaged && mkdir damaged
	head -c 497555 testdata/ros2-mixed.mcap >damaged/cut.mcap
	shot damage-cut-mcap damaged/cut.mcap
	rm -rf damaged
