#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# First run on a bare machine: warpbench-cli starts without a host C++ compiler (and without a
# GPU, where there is none), says which capability is missing and what to install, and what
# does not need it keeps working.
#   tests/packaging/first_run.sh [CLI] [PROJECT]
# Defaults: the installed /usr/bin/warpbench-cli and /usr/share/warpbench/examples/hello_gpu.wbproj.
set -uo pipefail
cli=${1:-/usr/bin/warpbench-cli}
project=${2:-/usr/share/warpbench/examples/hello_gpu.wbproj}
[[ -x $cli ]] || { echo "first_run: no executable $cli" >&2; exit 1; }
[[ -f $project ]] || { echo "first_run: no project $project" >&2; exit 1; }

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
failures=0
# A clean environment: PATH names an empty folder, so neither g++ nor clang++ (nor $CXX) is
# found; a fresh cache, so no kernel compiled earlier can stand in for the compiler.
mkdir -p "$home/empty-bin"
bare() { env -i HOME="$home" PATH="$home/empty-bin" WARPBENCH_CACHE_DIR="$home/cache" "$cli" "$@" 2>&1; }

# expect NAME WANTED_STATUS "text that must appear" -- ARGS...
expect() {
    local name=$1 want=$2 text=$3
    shift 4
    local out status
    out=$(bare "$@")
    status=$?
    printf '%s\n' "--- $name: warpbench-cli $* (exit $status)" "$out"
    if [[ $status -ne $want ]]; then
        echo "FAIL $name: exit status $status, expected $want"
        failures=$((failures + 1))
    elif [[ $out != *"$text"* ]]; then
        echo "FAIL $name: the output does not say \"$text\""
        failures=$((failures + 1))
    else
        echo "ok   $name"
    fi
}

expect version 0 "warpbench-cli " -- --version
expect help 0 "Exit codes" -- --help
# The CPU emulator without a host compiler: a compile error that says what to install.
expect no-compiler 2 "needs a host C++ compiler" -- run "$project" --backend cpu
expect no-compiler-hint 2 "install g++" -- run "$project" --backend cpu
# Devices are listed whatever is missing.
expect devices 0 "cpu:0" -- devices
devices=$(bare devices)
if [[ $devices == *"cuda: unavailable"* ]]; then
    # No GPU here: asking for CUDA is a runtime error naming the reason, not a crash.
    expect no-gpu 3 "CUDA backend is unavailable" -- run "$project" --backend cuda
else
    echo "skip no-gpu: a GPU is usable here ($(head -n1 <<<"$devices"))"
fi

if ((failures)); then
    echo "first_run: $failures check(s) failed"
    exit 1
fi
echo "first_run: all checks passed"
