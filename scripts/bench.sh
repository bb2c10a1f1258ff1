#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds what the benchmarks need and runs bench/run.mjs (BENCH_RUNS=5 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
bash scripts/build.sh
cmake --build build --target fitcheck_bench -j 2
NODE_PATH=/usr/share/nodejs cmake --build build-wasm --target fitcheck_bench_wasm -j 2
node bench/run.mjs
