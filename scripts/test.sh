#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds everything, runs every test and ends with one summary line:
# "fitcheck: N passed, M failed". Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1

bash scripts/setup.sh --test || { echo "fitcheck: setup failed"; echo "0 passed, 1 failed"; exit 1; }
if ! bash scripts/build.sh; then
  echo "fitcheck: build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

passed=0
failed=0
log=$(mktemp)

# Native doctest suite (one line per test case in its summary).
./build/fitcheck_unit_tests --no-colors=true 2>&1 | tee "$log" | tail -n 4
cases=$(grep -E '^\[doctest\] test cases:' "$log" | tail -1)
if [ -n "$cases" ]; then
  passed=$((passed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) passed.*/\1/')))
  failed=$((failed + $(echo "$cases" | sed -E 's/.*\| *([0-9]+) failed.*/\1/')))
else
  failed=$((failed + 1))
fi

# Component and module tests of the page (Vitest + jsdom), counted from Vitest's JSON report.
report=$(mktemp)
npx vitest run --config web/vitest.config.ts --reporter=default --reporter=json --outputFile="$report" >"$log" 2>&1
status=$?
counts=$(node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r.numPassedTests, r.numFailedTests + r.numFailedTestSuites)' "$report" 2>/dev/null)
if [ -n "$counts" ]; then
  read -r p f <<<"$counts"
  echo "vitest: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
  [ "$f" -ne 0 ] && grep -E -B2 -A20 'FAIL' "$log" | head -80
  if [ $status -ne 0 ] && [ "$f" = 0 ]; then failed=$((failed + 1)); tail -20 "$log"; fi
else
  echo "vitest: no report"
  tail -20 "$log"
  failed=$((failed + 1))
fi
rm -f "$report"

# Node tests: the WebAssembly module, then the page in headless Chromium.
for suite in tests/node tests/e2e; do
  node --test --test-reporter=tap "$suite"/*.test.mjs >"$log" 2>&1
  status=$?
  grep -E '^# (pass|fail)|^not ok' "$log"
  [ $status -ne 0 ] && grep -E -A25 '^not ok' "$log" | head -80
  p=$(grep -E '^# pass' "$log" | awk '{print $3}')
  f=$(grep -E '^# fail' "$log" | awk '{print $3}')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ $status -ne 0 ] && [ "${f:-0}" = 0 ]; then failed=$((failed + 1)); tail -20 "$log"; fi
done

# One formatter per language (scripts/format.sh): a file that differs from its formatter's output
# is one failure, listed.
if bash scripts/format.sh --check >"$log" 2>&1; then
  echo "format: 1 passed, 0 failed"
  passed=$((passed + 1))
else
  grep -E '^\[warn\]|warning:|error:' "$log" | head -20
  echo "format: 0 passed, 1 failed (npm run format rewrites the files)"
  failed=$((failed + 1))
fi

# Sanitizer build of the doctest suite, fuzz regression inputs and a short run of every fuzz target
# (scripts/test-reliability.sh, docs/reliability.md).
bash scripts/test-reliability.sh 2>&1 | tee "$log" | grep -E '^(reliability|fuzz): |^\[doctest\] test cases|^TEST CASE|ERROR|SUMMARY'
counts=$(grep -E '^reliability: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
if [ -n "$counts" ]; then
  passed=$((passed + $(echo "$counts" | sed -E 's/^reliability: ([0-9]+) passed.*/\1/')))
  failed=$((failed + $(echo "$counts" | sed -E 's/.* ([0-9]+) failed$/\1/')))
else
  echo "reliability: no summary"
  tail -20 "$log"
  failed=$((failed + 1))
fi
rm -f "$log"

echo "fitcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
