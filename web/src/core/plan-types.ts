// SPDX-License-Identifier: MIT
// Types of the planners' options and reports (planReport, trainingPlanReport); re-exported by
// types.ts, whose `moduleExports` tests/node/wasm-module.test.mjs checks against the module.
/** Options of planReport, as the CLI's `fitcheck plan` flags without the dashes; lists comma-separated. */
export interface PlanOptions {
  gpus?: string;
  max_gpus?: number;
  gpus_per_node?: number;
  weights?: string;
  kv_dtypes?: string;
  batches?: string;
  prompt_len?: number;
  gen_len?: number;
  headroom?: number;
  ttft?: number;
  tpot?: number;
  objective?: 'lowest_latency' | 'highest_throughput' | 'lowest_cost' | 'fewest_gpus';
  keep?: number;
  prefill_chunk?: number;
  overhead_gib?: number;
}

export interface PlanCandidate {
  gpu: string;
  gpu_name: string;
  gpus: number;
  tp: number;
  pp: number;
  ep: number;
  weights: string;
  kv_dtype: string;
  batch: number;
  memory_bytes_per_gpu: number;
  budget_bytes_per_gpu: number;
  time_to_first_token_seconds: number;
  time_per_output_token_seconds: number;
  end_to_end_seconds: number;
  tokens_per_second: number;
  cost_per_million_output_tokens_usd: number;
  price_per_hour_usd: number;
}

export interface PlanReport {
  model_type: string;
  request: {
    gpus: string[];
    max_gpus: number;
    weights: string[];
    kv_dtypes: string[];
    batches: number[];
    prompt_len: number;
    gen_len: number;
    headroom: number;
    ttft: number;
    tpot: number;
    objective: string;
  };
  evaluated: number;
  feasible: number;
  best: PlanCandidate[];
  frontier: PlanCandidate[];
  notes: string[];
}

/** Options of trainingPlanReport, as the CLI's `fitcheck plan --mode training` flags without the dashes. */
export interface TrainingPlanOptions {
  gpus?: string;
  max_gpus?: number;
  gpus_per_node?: number;
  headroom?: number;
  global_batch_tokens?: number;
  micro_batch_sizes?: string;
  zero_stages?: string;
  recompute_modes?: string;
  /** Model chunks per GPU to try when pp > 1 (1: 1F1B, more: interleaved). */
  virtual_stages?: string;
  objective?: 'shortest_time' | 'highest_throughput' | 'lowest_cost' | 'fewest_gpus';
  keep?: number;
  precision?: string;
  optimizer?: string;
  /** The training framework profile (fitcheck train --framework). */
  framework?: string;
  seq_len?: number;
  train_tokens?: number;
  flops_efficiency?: number;
  overhead_gib?: number;
  /** GB/s each GPU has to other nodes, one direction (default 50: one 400 Gb/s NIC per GPU). */
  network_gb_per_s?: number;
}

export interface TrainingPlanCandidate {
  gpu: string;
  gpu_name: string;
  gpus: number;
  tp: number;
  pp: number;
  /** Model chunks per GPU: 1 is 1F1B, more the interleaved schedule. */
  virtual_stages: number;
  dp: number;
  cp: number;
  ep: number;
  sequence_parallel: boolean;
  zero: number;
  /** FSDP's sharding for frameworks that shard with it ('shard_grad_op', 'full_shard', 'hybrid_shard'); 'off' otherwise. */
  fsdp: string;
  /** HYBRID_SHARD: the dp x cp ranks that shard (one node's, or two or four nodes'); 0 otherwise. */
  fsdp_shard_group: number;
  micro_batch: number;
  /** Gradient accumulation: micro-batches per data-parallel rank per step. */
  micro_batches: number;
  recompute: string;
  memory_bytes_per_gpu: number;
  budget_bytes_per_gpu: number;
  step_seconds: number;
  tokens_per_second: number;
  mfu: number;
  train_seconds: number;
  train_gpu_hours: number;
  train_cost_usd: number;
  price_per_hour_usd: number;
}

export interface TrainingPlanReport {
  model_type: string;
  request: {
    gpus: string[];
    max_gpus: number;
    gpus_per_node: number;
    headroom: number;
    global_batch_tokens: number;
    seq_len: number;
    micro_batch_sizes: number[];
    zero_stages: number[];
    recompute_modes: string[];
    virtual_stages: number[];
    /** The framework profile whose rules every layout was weighed with. */
    framework: string;
    precision: string;
    optimizer: string;
    train_tokens: number;
    /** GB/s per GPU to other nodes the layouts were timed with. */
    network_gb_per_s: number;
    objective: string;
  };
  evaluated: number;
  feasible: number;
  best: TrainingPlanCandidate[];
  frontier: TrainingPlanCandidate[];
  notes: string[];
}
