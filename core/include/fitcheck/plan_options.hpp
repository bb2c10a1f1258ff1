// SPDX-License-Identifier: MIT
// The planners' requests as option lists (the CLI's flags, the page's fields), read as
// options.hpp reads an inference request: every key consumed, refusals name the key.
#pragma once

#include "fitcheck/model.hpp"
#include "fitcheck/options.hpp"
#include "fitcheck/planner.hpp"

namespace fitcheck {

// Keys: gpus (comma-separated ids), max_gpus, gpus_per_node, weights (comma-separated formats;
// default: the checkpoint's stored format), kv_dtypes, batches (comma-separated), prompt_len,
// gen_len, headroom, ttft, tpot (seconds), objective, keep, prefill_chunk, overhead_gib.
// Throws OptionError naming the key.
InferencePlanRequest parse_plan_options(const ModelDescription& model, const OptionList& options);

// Keys: gpus (comma-separated ids), max_gpus, gpus_per_node, headroom, global_batch_tokens,
// micro_batch_sizes, zero_stages, recompute_modes (comma lists), objective, keep, the custom
// accelerator keys when gpus names custom (options.hpp kCustomGpuKeys); and the
// `fitcheck train` keys precision, master_weights, fp32_gradients, optimizer,
// adafactor_first_moment, seq_len, eager_attention, dropout, lora_rank, lora_modules, qlora,
// lora_dropout, dora, overhead_gib, train_tokens, flops_efficiency, overlap, framework, memory_statistic,
// attention_efficiency, pipeline_schedule. Throws OptionError.
TrainingPlanRequest parse_training_plan_options(const OptionList& options);

}  // namespace fitcheck
