// SPDX-License-Identifier: MIT
// The model-parallel degrees each training framework runs beside data parallelism and its sharding,
// each with its source: the training planner searches only these (framework_parallelism).
#include "fitcheck/training_framework.hpp"

namespace fitcheck {
namespace {

constexpr FrameworkParallelism kMegatronParallelism{
    .rule =
        "tensor, pipeline (with interleaving), context and expert parallelism: Megatron-Core parallelizes over "
        "all four; its distributed optimizer shards optimizer states as ZeRO-1 does"};
// torchtitan and NeMo AutoModel shard with FSDP2 (fully_shard per block): no ZeRO-1 counterpart.
constexpr FrameworkParallelism kTorchDistributedParallelism{
    .shards_with_fsdp = true,
    .hybrid_shard = true,
    .rule =
        "tensor, pipeline (with interleaving), context and expert parallelism, data parallelism sharded by FSDP2, "
        "within a replicate group (HSDP) or not: pytorch/torchtitan 9dec370 torchtitan/parallelisms/"
        "parallelize_llama.py apply_fsdp (fully_shard per TransformerBlock, reshard_after_forward = not "
        "pp_enabled; the (dp_replicate, dp_shard_cp) mesh of parallel_dims.py for HSDP); NVIDIA-NeMo/Automodel "
        "cb976544 components/distributed/parallelizer.py (fully_shard, reshard_after_forward=False under "
        "pipelining; FSDP2Manager dp_replicate_size, 05656796 components/distributed/fsdp2.py)"};
// Megatron-DeepSpeed runs Megatron's tensor and pipeline parallelism under DeepSpeed, whose
// pipeline engine refuses the sharded-gradient stages.
constexpr FrameworkParallelism kDeepSpeedParallelism{
    .max_zero_stage_with_pipeline = 1,
    .rule =
        "pipeline parallelism with ZeRO 0 or 1 only: deepspeedai/DeepSpeed edaa7221 "
        "deepspeed/runtime/pipe/engine.py l.77 (\"ZeRO-2 and ZeRO-3 are incompatible with pipeline "
        "parallelism\")"};
// The Trainer trains through Accelerate, whose ND-parallel configuration has no pipeline or
// expert dimension.
constexpr FrameworkParallelism kAccelerateParallelism{
    .pipeline = false,
    .expert = false,
    .rule =
        "no pipeline or expert parallelism: huggingface/accelerate 16cb6eb8 src/accelerate/parallelism_config.py "
        "ParallelismConfig has dp_replicate, dp_shard, tp, cp and sp sizes only"};
constexpr FrameworkParallelism kTorchtuneParallelism{
    .tensor_with_lora = false,
    .pipeline = false,
    .expert = false,
    .shards_with_fsdp = true,
    .hybrid_shard = true,
    .rule =
        "no pipeline or expert parallelism, tensor parallelism without LoRA only, data parallelism sharded by "
        "FSDP2, within a replicate group (HSDP) or not: pytorch/torchtune bd2a0fc7 "
        "recipes/full_finetune_distributed.py reads tensor_parallel_dim, context_parallel_dim and "
        "data_parallel_replicate_dim (l.170), recipes/lora_finetune_distributed.py asserts tensor_parallel_dim 1; "
        "torchtune/training/_distributed.py shard_model applies fully_shard"};
constexpr FrameworkParallelism kLitgptParallelism{
    .tensor = false,
    .tensor_with_lora = false,
    .pipeline = false,
    .context = false,
    .expert = false,
    .shards_with_fsdp = true,
    .rule =
        "data parallelism (FSDP, FULL_SHARD) only: Lightning-AI/litgpt 26857050 litgpt/finetune/full.py "
        "FSDPStrategy (l.108, no sharding_strategy: FULL_SHARD), litgpt/finetune/lora.py "
        "ModelParallelStrategy(tensor_parallel_size=1)"};

}  // namespace

const FrameworkParallelism& framework_parallelism(TrainingFramework framework) {
  switch (framework) {
    case TrainingFramework::deepspeed:
      return kDeepSpeedParallelism;
    case TrainingFramework::hf:
      return kAccelerateParallelism;
    case TrainingFramework::torchtune:
      return kTorchtuneParallelism;
    case TrainingFramework::litgpt:
      return kLitgptParallelism;
    case TrainingFramework::torchtitan:
    case TrainingFramework::automodel:
      return kTorchDistributedParallelism;
    default:
      return kMegatronParallelism;
  }
}

}  // namespace fitcheck
