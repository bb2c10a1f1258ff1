// SPDX-License-Identifier: MIT
// Types of the serving simulation's options and report (servingReport; docs/serving.md);
// re-exported by types.ts, whose `moduleExports` tests/node/wasm-module.test.mjs checks against the module.
import type { EngineId, InferenceOptions } from './inference-types';

/** Options of servingReport: the inference options the simulation does not set itself, plus the load and scheduler. */
export interface ServingOptions extends Omit<InferenceOptions, 'batch' | 'context' | 'prefill_chunk' | 'kv_block'> {
  gpu: string;
  /** The engine profile (docs/serving.md); vllm when absent. */
  engine?: EngineId;
  /** Closed loop: this many requests at once. Give this or arrival_rate. */
  concurrency?: number;
  /** Poisson arrivals, requests per second. */
  arrival_rate?: number;
  requests?: number;
  max_num_seqs?: number;
  max_num_batched_tokens?: number;
  seed?: number;
  length_distribution?: 'fixed' | 'uniform' | 'normal';
  /** Request lengths replayed in order instead of drawn: a benchmark result JSON (input_lens, output_lens) or lines "prompt,output". */
  request_lengths?: string;
  prompt_spread?: number;
  gen_spread?: number;
  /** Fixed CPU and launch time added to every step, milliseconds (0). */
  step_overhead_ms?: number;
  /** Fixed time before a request reaches the scheduler (HTTP, tokenization), milliseconds (the engine's). */
  request_overhead_ms?: number;
  /** Decode-only steps of at most this many sequences replay a CUDA graph (0: none; the engine's). */
  cuda_graph_max_batch?: number;
}

export interface ServingReport {
  output_tokens_per_second: number;
  requests_per_second: number;
  ttft_seconds_p50: number;
  ttft_seconds_p90: number;
  ttft_seconds_p99: number;
  tpot_seconds_p50: number;
  tpot_seconds_p90: number;
  tpot_seconds_p99: number;
  ttft_seconds_p95: number;
  tpot_seconds_p95: number;
  ttft_seconds_mean: number;
  tpot_seconds_mean: number;
  e2e_seconds_mean: number;
  queue_seconds_mean: number;
  input_tokens_per_second: number;
  duration_seconds: number;
  mean_running_batch: number;
  mean_step_tokens: number;
  max_running: number;
  steps: number;
  requests: number;
  prompt_tokens: number;
  output_tokens: number;
  kv_limited: boolean;
  preemptions: number;
  peak_kv_blocks_used: number;
  model_type: string;
  engine: EngineId;
  scheduler: {
    max_num_seqs: number;
    max_num_batched_tokens: number;
    kv_block_tokens: number;
    kv_capacity_blocks: number;
    kv_capacity_tokens: number;
    kv_budget_bytes: number;
    non_kv_bytes: number;
    kv_block_bytes: number;
    step_overhead_seconds: number;
    launch_seconds_per_layer: number;
    cuda_graph_max_batch: number;
    chunked_prefill: boolean;
    continuous_batching: boolean;
    reserve_whole_request: boolean;
    reserve_estimated_output: boolean;
    prefill_first: boolean;
    request_overhead_seconds: number;
    hbm_efficiency: number;
    flops_efficiency: number;
  };
  load: {
    requests: number;
    concurrency: number;
    arrival_rate: number;
    prompt_len: number;
    gen_len: number;
    length_distribution: 'fixed' | 'uniform' | 'normal' | 'trace';
    /** Requests in the replayed trace (0: lengths drawn). */
    trace_requests: number;
    prompt_spread: number;
    gen_spread: number;
    seed: number;
  };
  workload: {
    gpu: string;
    weights: string;
    kv_dtype: string;
    tp: number;
    pp: number;
    ep: number;
    gpu_memory_utilization: number;
  };
  assumptions: string[];
}
