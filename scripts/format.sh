#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One formatter per language, configured in the repository: clang-format (.clang-format) for the
# C++ of core/, cli/, wasm/, bench/ and tests/; Prettier (.prettierrc.json) for the page's
# TypeScript, CSS and the JS tests.
#   scripts/format.sh           rewrite the files
#   scripts/format.sh --check   list the files that differ and exit 1 if any does
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(git ls-files 'core/*.cpp' 'core/*.hpp' 'cli/*.cpp' 'cli/*.hpp' 'wasm/*.cpp' 'bench/*.cpp' 'bench/*.hpp' 'tests/*.cpp' 'tests/*.hpp')
web=('web/src/**/*.{ts,tsx,css}' 'web/tests/**/*.{ts,tsx}' 'web/*.ts' 'tests/**/*.mjs' 'bench/*.mjs' 'scripts/*.mjs')
if [ "${1:-}" = "--check" ]; then
  status=0
  clang-format --dry-run -Werror "${cpp[@]}" || status=1
  npx prettier --check "${web[@]}" || status=1
  exit $status
fi
clang-format -i "${cpp[@]}"
npx prettier --write --log-level warn "${web[@]}"
