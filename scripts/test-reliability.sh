#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reliability checks, run by scripts/test.sh (docs/reliability.md):
#   1. the whole doctest suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#      (build-sanitize/ or SANITIZE_BUILD_DIR, -DFITCHECK_SANITIZE=ON; the CLI it runs is sanitized too);
#   2. every committed fuzz regression input, then every libFuzzer target for a short run
#      (FUZZ_SECONDS, default 20 s each), in build-fuzz-ci/ so that a long campaign's corpus and
#      logs in build-fuzz/ stay as they are (scripts/fuzz.sh).
# Ends with "reliability: N passed, M failed" (doctest cases, regression inputs, fuzz runs) and
# exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1
jobs=${FITCHECK_JOBS:-2}
build=${SANITIZE_BUILD_DIR:-build-sanitize}
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# 1. Sanitizer build of the doctest suite. -O1, as the sanitizers' documentation advises for a
# usable speed; -g1 keeps the line numbers of a report at a fraction of -g's compile time.
echo "reliability: building $build (ASan + UBSan)"
if cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=-O1 -g1" -DFITCHECK_SANITIZE=ON >"$log" 2>&1 &&
   cmake --build "$build" -j "$jobs" >"$log" 2>&1; then
  "$build/fitcheck_unit_tests" --no-colors=true >"$log" 2>&1
  tail -n 3 "$log"
  cases=$(grep -E '^\[doctest\] test cases:' "$log" | tail -1)
  if [ -n "$cases" ]; then
    passed=$((passed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) passed.*/\1/')))
    failed=$((failed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) failed.*/\1/')))
    grep -E -A6 '^TEST CASE:' "$log" | head -60
  else  # no summary: the suite died (a sanitizer report ends it)
    failed=$((failed + 1))
    grep -E -A3 'ERROR|runtime error|SUMMARY|TEST CASE' "$log" | head -40
  fi
else
  echo "reliability: sanitizer build failed"
  tail -20 "$log"
  failed=$((failed + 1))
fi

# 2. Regression inputs and a short run of every fuzz target.
FUZZ_OUT=${FUZZ_OUT:-build-fuzz-ci} bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}" >"$log" 2>&1
status=$?
grep -E '^fuzz: ' "$log"
summary=$(grep -E '^fuzz: [0-9]+ executions in .* checks passed, [0-9]+ failed' "$log" | tail -1)
if [ -n "$summary" ]; then
  passed=$((passed + $(echo "$summary" | sed -E 's/.*; ([0-9]+) checks passed.*/\1/')))
  fuzz_failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) failed$/\1/')
  failed=$((failed + fuzz_failed))
  if [ $status -ne 0 ] && [ "$fuzz_failed" -eq 0 ]; then failed=$((failed + 1)); fi
else
  failed=$((failed + 1))
  tail -20 "$log"
fi

echo "reliability: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
