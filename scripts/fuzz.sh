#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets of tests/fuzz with clang 14 (-fsanitize=fuzzer,address,undefined)
# into build-fuzz/, replays the committed regression inputs, then runs each target for
# SECONDS_PER_TARGET (default 60), FUZZ_PARALLEL targets at a time (default: the number of cores).
# Each committed regression input is one check, each target's run another; prints executions per
# target and a closing line "fuzz: N executions in T targets; P checks passed, M failed", and exits
# non-zero when an input crashed a target, hung it or broke one of its invariants.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
#   FUZZ_TARGETS="config inference" scripts/fuzz.sh 600
#   FUZZ_SECONDS_inference=3600 scripts/fuzz.sh 600     (one target longer than the others)
#   FUZZ_OUT=build-fuzz-ci scripts/fuzz.sh 20                 (another build and corpus folder)
# A failing input is saved as build-fuzz/artifacts/<target>/crash-*; rerun it with
#   build-fuzz/fuzz_<target> build-fuzz/artifacts/<target>/crash-...
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=${FUZZ_OUT:-build-fuzz}  # objects, binaries, corpus, logs and artifacts
parallel=${FUZZ_PARALLEL:-$(nproc)}
timeout_per_input=${FUZZ_TIMEOUT:-10}  # seconds; the page recomputes on every keystroke

# clang 14 and its libFuzzer runtime (Debian: libclang-rt-14-dev); nlohmann-json for the core.
need=()
command -v clang++-14 >/dev/null 2>&1 || need+=(clang-14)
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
[ -f /usr/include/nlohmann/json.hpp ] || need+=(nlohmann-json3-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "fuzz: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -ne 0 ]; then echo "fuzz: these need root (apt-get install ${need[*]})" >&2; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || exit 1
fi

targets=(config inference options training plan training_plan checkpoint serving)
if [ -n "${FUZZ_TARGETS:-}" ]; then read -r -a targets <<<"$FUZZ_TARGETS"; fi

# The core and the targets as CMake builds them (FITCHECK_FUZZ in CMakeLists.txt), with clang 14.
mkdir -p "$out/logs"
echo "fuzz: building ${#targets[@]} targets with clang 14 (ASan + UBSan) in $out/cmake"
build_failed=0
cmake -S . -B "$out/cmake" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=None \
  "-DCMAKE_CXX_FLAGS=-O2 -g" -DFITCHECK_FUZZ=ON >"$out/logs/cmake.log" 2>&1 || build_failed=1
if [ $build_failed -eq 0 ]; then
  cmake --build "$out/cmake" -j "$parallel" --target "${targets[@]/#/fuzz_}" >>"$out/logs/cmake.log" 2>&1 || build_failed=1
fi
if [ $build_failed -ne 0 ]; then
  tail -30 "$out/logs/cmake.log"
  echo "fuzz: build failed"
  echo "fuzz: 0 executions in ${#targets[@]} targets; 0 checks passed, 1 failed"
  exit 1
fi
for target in "${targets[@]}"; do ln -sf "cmake/fuzz_$target" "$out/fuzz_$target"; done

# Seed corpora: the real configs (tests/fixtures/configs), the
# option seeds, and for the estimate targets each config behind an option block.
seeds=$out/seeds
rm -rf "$seeds" && mkdir -p "$seeds/configs" "$seeds/workloads"
cp tests/fixtures/configs/*.json "$seeds/configs/"
mapfile -t option_seeds < <(ls tests/fuzz/seeds/options/*.txt)
i=0
for config in tests/fixtures/configs/*.json; do
  [ -f "$config" ] || continue
  for k in 0 1; do
    block=${option_seeds[$(((i + k * 3) % ${#option_seeds[@]}))]}
    { cat "$block"; printf '%%%%\n'; cat "$config"; } >"$seeds/workloads/$(basename "${config%.json}")-$k.txt"
  done
  i=$((i + 1))
done
for kind in training plan training_plan serving; do  # each config behind one of the target's option blocks
  mkdir -p "$seeds/$kind"
  mapfile -t blocks < <(ls tests/fuzz/seeds/$kind/*.txt)
  i=0
  for config in tests/fixtures/configs/*.json; do
    block=${blocks[$((i % ${#blocks[@]}))]}
    { cat "$block"; printf '%%%%\n'; cat "$config"; } >"$seeds/$kind/$(basename "${config%.json}").txt"
    i=$((i + 1))
  done
done
seed_dirs() {
  case $1 in
    config) echo "$seeds/configs tests/fuzz/seeds/json" ;;
    inference) echo "$seeds/workloads $seeds/configs" ;;
    options) echo "tests/fuzz/seeds/options" ;;
    training) echo "$seeds/training $seeds/configs" ;;
    plan) echo "$seeds/plan tests/fuzz/seeds/plan" ;;
    training_plan) echo "$seeds/training_plan tests/fuzz/seeds/training_plan" ;;
    checkpoint) echo "tests/fuzz/seeds/checkpoint" ;;
    serving) echo "$seeds/serving tests/fuzz/seeds/serving" ;;
  esac
}

passed=0
failed=0
total_executions=0
# Committed regression inputs: each must now pass, each in its own process so that a failure names
# its input and the others still run.
for target in "${targets[@]}"; do
  dir=tests/fuzz/regressions/$target
  [ -d "$dir" ] || continue
  mapfile -t inputs < <(find "$dir" -type f | sort)
  bad=0
  for input in "${inputs[@]}"; do
    log=$out/logs/$target-regression-$(basename "$input").log
    "$out/fuzz_$target" -timeout="$timeout_per_input" -rss_limit_mb=4096 "$input" >"$log" 2>&1
    status=$?
    if [ $status -eq 0 ]; then
      passed=$((passed + 1))
    else
      reason=$(grep -m1 -oE 'fuzz invariant broken: .*|ERROR: libFuzzer: [a-z0-9 -]+|ERROR: AddressSanitizer: [a-z-]+|runtime error: .*' "$log")
      echo "fuzz: $target: regression input $input fails: ${reason:-exit status $status} (log: $log)"
      failed=$((failed + 1))
      bad=$((bad + 1))
    fi
  done
  [ ${#inputs[@]} -gt 0 ] && echo "fuzz: $target: $((${#inputs[@]} - bad)) of ${#inputs[@]} regression inputs pass"
done

run_target() {
  local target=$1 corpus=$out/corpus/$1 override=FUZZ_SECONDS_$1
  mkdir -p "$corpus" "$out/artifacts/$target"
  # shellcheck disable=SC2046
  "$out/fuzz_$target" -max_total_time="${!override:-$seconds}" -timeout="$timeout_per_input" -rss_limit_mb=4096 -max_len=8192 \
    -dict=tests/fuzz/fitcheck.dict -artifact_prefix="$out/artifacts/$target/" -print_final_stats=1 \
    "$corpus" $(seed_dirs "$target") >"$out/logs/$target.log" 2>&1
}
echo "fuzz: running ${targets[*]} for $seconds s each, $parallel at a time"
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
  run_target "$target" &
done
wait

for target in "${targets[@]}"; do
  log=$out/logs/$target.log
  executions=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
  executions=${executions:-0}
  total_executions=$((total_executions + executions))
  corpus_files=$(find "$out/corpus/$target" -type f | wc -l)
  crashes=$(find "$out/artifacts/$target" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) -newer "$out/fuzz_$target" | wc -l)
  per_second=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' | tail -1)
  echo "fuzz: $target: $executions executions (${per_second:-0} per second), corpus $corpus_files inputs, $crashes failing inputs"
  if [ "$crashes" -gt 0 ] || [ "$executions" -eq 0 ] || grep -qE '==ERROR|fuzz invariant broken|runtime error|deadly signal|Timeout' "$log"; then
    # Prefixed with "fuzz: " so that the reason and the input reach CI's log (test-reliability.sh
    # keeps those lines), even where the build folder is deleted after the run.
    grep -E 'fuzz invariant broken|SUMMARY|runtime error|Test unit written' "$log" | head -6 | sed "s/^/fuzz: $target: /"
    find "$out/artifacts/$target" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) \
      -newer "$out/fuzz_$target" | head -3 | while read -r artifact; do
      echo "fuzz: $target: failing input $(basename "$artifact"), first 256 bytes in hex: $(head -c 256 "$artifact" | od -An -v -tx1 | tr -s ' \n' ' ')"
    done
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "fuzz: $total_executions executions in ${#targets[@]} targets; $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
