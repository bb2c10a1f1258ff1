#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what fitcheck needs on Debian 12, skipping what is already there.
#   scripts/setup.sh          build tools: g++, cmake, ninja, emscripten, nlohmann-json, doctest, npm packages,
#                             and Chromium (the build draws the page's default view into index.html)
#   scripts/setup.sh --test   the same plus clang-format for the
#                             format check, and clang 14 with its libFuzzer and sanitizer runtimes
#                             for the fuzz targets
set -euo pipefail
cd "$(dirname "$0")/.."

packages=()
have() { command -v "$1" >/dev/null 2>&1; }
have g++ || packages+=(g++)
have cmake || packages+=(cmake)
have ninja || packages+=(ninja-build)
have em++ || packages+=(emscripten)
have python3 || packages+=(python3)
[ -f /usr/include/nlohmann/json.hpp ] || packages+=(nlohmann-json3-dev)
[ -f /usr/include/doctest/doctest.h ] || packages+=(doctest-dev)
have chromium || packages+=(chromium)
if [ "${1:-}" = "--test" ]; then
  have clang-format || packages+=(clang-format)
  have clang++-14 || packages+=(clang-14)
  ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || packages+=(libclang-rt-14-dev)
fi

if [ ${#packages[@]} -gt 0 ]; then
  echo "fitcheck setup: installing Debian packages: ${packages[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "fitcheck setup: these need root (apt-get install ${packages[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi

# npm packages exactly as locked; reinstall only when the lock file changed.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "fitcheck setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
