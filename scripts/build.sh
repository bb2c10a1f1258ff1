#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the native CLI and tests (build/), the WebAssembly core (build-wasm/) and the page (web/dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${FITCHECK_JOBS:-2}

# A build/ configured by hand with another generator (Unix Makefiles) cannot be reconfigured with
# Ninja: start that one afresh.
if [ -f build/CMakeCache.txt ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' build/CMakeCache.txt; then
  rm -rf build/CMakeCache.txt build/CMakeFiles
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"

# Emscripten's JS optimizer needs Debian's acorn (node-acorn) on NODE_PATH.
export NODE_PATH=/usr/share/nodejs
if [ ! -f build-wasm/build.ninja ]; then
  emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build build-wasm -j "$jobs"
mkdir -p web/src/generated
cp build-wasm/fitcheck.mjs build-wasm/fitcheck.wasm build-wasm/fitcheck-inference.mjs build-wasm/fitcheck-inference.wasm web/src/generated/

npx tsc -p web
# The page (dist/index.html + assets/), then into the same dist/: the self-contained offline page
# (dist/fitcheck.html) and the <fitcheck-calculator> custom element (dist/fitcheck-element.js).
npx vite build web --logLevel warn
# The default view drawn into dist/index.html by the built page and its core (headless Chromium).
node scripts/prerender.mjs
npx vite build -c web/vite.offline.config.ts --logLevel warn
npx vite build -c web/vite.element.config.ts --logLevel warn
echo "fitcheck build: web/dist is ready"
