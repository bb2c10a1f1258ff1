#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reliability checks for CI (called by scripts/test.sh):
#   1. the whole doctest suite built with AddressSanitizer + UndefinedBehaviorSanitizer
#      (build-sanitize/, -DFITCHECK_SANITIZE=ON), the CLI it runs sanitized too;
#   2. every libFuzzer target for a short run (FUZZ_SECONDS, default 20 s each) after replaying the
#      committed regression inputs (scripts/fuzz.sh).
# The bad-input Node and browser suites (tests/node, tests/e2e) run with the other Node tests.
# Ends with "reliability: N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1
jobs=${FITCHECK_JOBS:-2}
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# doctest's summary line -> passed/failed counts; a missing summary is one failure.
count_doctest() {
  local cases
  cases=$(grep -E '^\[doctest\] test cases:' "$log" | tail -1)
  if [ -z "$cases" ]; then
    failed=$((failed + 1))
    grep -E 'ERROR|runtime error|SUMMARY' "$log" | head -10
    return
  fi
  passed=$((passed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) passed.*/\1/')))
  failed=$((failed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) failed.*/\1/')))
}

# 1. Sanitizer build of the doctest suite.
echo "reliability: building build-sanitize (ASan + UBSan)"
if cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFITCHECK_SANITIZE=ON >"$log" 2>&1 &&
   cmake --build build-sanitize -j "$jobs" >"$log" 2>&1; then
  ./build-sanitize/fitcheck_unit_tests --no-colors=true >"$log" 2>&1
  tail -n 3 "$log"
  count_doctest
  # Until CMakeLists.txt lists the reliability suites in fitcheck_unit_tests, build them here
  # against the sanitized core.
  extra=()
  for suite in tests/unit/bad_input_test.cpp tests/unit/invariants_test.cpp; do
    grep -q "$suite" CMakeLists.txt || extra+=("$suite")
  done
  if [ ${#extra[@]} -gt 0 ]; then
    printf '#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n' >build-sanitize/reliability_main.cpp
    if g++ -std=c++20 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
         -Icore/include -Itests/unit -isystem build-sanitize/deb-include \
         -DFITCHECK_SHARED_CONFIGS_DIR="\"$PWD/../shared/configs\"" \
         -DFITCHECK_FIXTURE_CONFIGS_DIR="\"$PWD/tests/fixtures/configs\"" \
         -DFITCHECK_CLI_PATH="\"$PWD/build-sanitize/fitcheck\"" \
         build-sanitize/reliability_main.cpp "${extra[@]}" tests/unit/test_support.cpp build-sanitize/libfitcheck_core.a \
         -o build-sanitize/fitcheck_reliability_tests >"$log" 2>&1; then
      ./build-sanitize/fitcheck_reliability_tests --no-colors=true >"$log" 2>&1
      tail -n 3 "$log"
      count_doctest
    else
      echo "reliability: the reliability suites did not build"; tail -20 "$log"
      failed=$((failed + 1))
    fi
  fi
else
  echo "reliability: sanitizer build failed"; tail -20 "$log"
  failed=$((failed + 1))
fi

# 2. Short fuzzing run of every target (regression inputs first).
bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}" >"$log" 2>&1
status=$?
grep -E '^fuzz: ' "$log"
targets=$(grep -E '^fuzz: [a-z]+: [0-9]+ executions' "$log" | wc -l)
fuzz_failed=$(grep -E '^fuzz: [0-9]+ executions in' "$log" | sed -E 's/.* ([0-9]+) failed/\1/')
if [ -z "$fuzz_failed" ]; then
  failed=$((failed + 1))
  tail -20 "$log"
else
  failed=$((failed + fuzz_failed))
  passed=$((passed + targets - (fuzz_failed > targets ? targets : fuzz_failed)))
  [ $status -ne 0 ] && [ "$fuzz_failed" -eq 0 ] && failed=$((failed + 1))
fi

echo "reliability: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
