#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes every CLI report (--json) over all fixture configs and an option grid into one folder,
# one file per run (stdout, stderr and exit status), so that a refactor can be checked byte for
# byte:  scripts/report-snapshot.sh /tmp/before; ...change...; scripts/report-snapshot.sh /tmp/after;
#        diff -r /tmp/before /tmp/after
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/report-snapshot.sh OUTPUT_DIR}
cli=${FITCHECK_CLI:-./build/fitcheck}
mkdir -p "$out"

run() {  # run NAME ARGS...
  local name=$1; shift
  "$cli" "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "exit $?" >>"$out/$name.out"
}

infer_grid=(
  "--json"
  "--json --gpu h100 --batch 8 --prompt-len 1024 --gen-len 256"
  "--json --gpu a100 --weights q4_k_m --kv-dtype fp8 --tp 2 --batch 4 --context 8192"
  "--json --gpu h100 --prefill-chunk 512 --batch 8 --context 4096"
  "--json --gpu h200 --pp 2 --tp 2 --weights gptq --batch 32 --prompt-len 2048 --gen-len 512"
  "--json --gpu l4 --weights awq --kv-block 16 --eager-attention --batch 2"
  "--json --gpu custom --custom-gpu-base h100 --custom-gpu-memory-gib 96 --batch 16"
)
train_grid=(
  "--json"
  "--json --gpu h100 --gpus 8 --zero 3"
  "--json --gpu a100 --tp 2 --pp 2 --dp 2 --recompute selective --sequence-parallel"
  "--json --gpu h100 --qlora --lora-rank 16 --recompute full --micro-batch 2 --seq-len 2048"
  "--json --gpu h200 --fsdp full_shard --gpus 16 --optimizer adam8bit --cp 2"
  "--json --gpu t4 --precision fp16-mixed --lora-rank 8"
  "--json --tp 2 --pp 4 --virtual-stages 2 --micro-batches 8 --recompute full --offload-optimizer --zero 2 --gpus 16"
)
i=0
for config in tests/fixtures/configs/*.json; do
  base=$(basename "$config" .json)
  run "$base.params" params "$config" --json
  j=0; for opts in "${infer_grid[@]}"; do run "$base.infer$j" infer "$config" $opts; j=$((j + 1)); done
  j=0; for opts in "${train_grid[@]}"; do run "$base.train$j" train "$config" $opts; j=$((j + 1)); done
  # The planners are slower: every third config.
  if [ $((i % 3)) -eq 0 ]; then
    run "$base.plan" plan "$config" --json --gpus h100,a100-sxm-80gb,l4 --max-gpus 8 --batches 1,8,64 --keep 10
    run "$base.plan-chunk" plan "$config" --json --gpus h100 --max-gpus 4 --batches 1,8 --prefill-chunk 512 --keep 10
    run "$base.plan-training" plan "$config" --json --mode training --gpus h100 --max-gpus 16 --keep 10
  fi
  i=$((i + 1))
done
run tm-default transformer-mem
run tm-pythia transformer-mem --num-layers=32 --sequence-length=2048 --num-attention-heads=32 --hidden-size=4096 \
  --batch-size-per-gpu=8 --checkpoint-activations --zero-stage=1 --partition-activations --tensor-parallel-size=2 \
  --num-gpus=128 --params=6900000000
run tm-infer transformer-mem --infer --zero-stage=3 --num-gpus=4
echo "report-snapshot: $(ls "$out" | wc -l) files in $out"
