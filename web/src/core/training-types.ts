// SPDX-License-Identifier: MIT
// Types of the training report and its options (trainingReport); re-exported by types.ts.
import type { MemoryTerm, CapacityAnswer } from './inference-types';

/** Options of trainingReport, as the CLI's `fitcheck train` flags without the dashes. */
export interface TrainingOptions {
  /** megatron | deepspeed | torchtitan | torchtune | litgpt | automodel | hf (the core's default). */
  framework?: string;
  /** allocated | reserved (default: the statistic the framework prints). */
  memory_statistic?: string;
  gpu?: string;
  gpus?: number;
  tp?: number;
  pp?: number;
  dp?: number;
  ep?: number;
  cp?: number;
  sequence_parallel?: boolean;
  virtual_stages?: number;
  /** Megatron-Core's split flags: the embedding (the output layer and loss) takes one layer's slot of the pipeline split. */
  account_for_embedding_in_pipeline_split?: boolean;
  account_for_loss_in_pipeline_split?: boolean;
  /** 1f1b | interleaved | zero-bubble (ZB-H1). */
  pipeline_schedule?: string;
  micro_batches?: number;
  zero?: number;
  fsdp?: string;
  fsdp_shard_group?: number;
  offload_optimizer?: boolean;
  offload_params?: boolean;
  reduce_bucket?: number;
  allgather_bucket?: number;
  precision?: string;
  master_weights?: boolean;
  fp32_gradients?: boolean;
  optimizer?: string;
  adafactor_first_moment?: boolean;
  micro_batch?: number;
  seq_len?: number;
  recompute?: string;
  recompute_method?: string;
  recompute_num_layers?: number;
  recompute_frequency?: number;
  /** Megatron's --recompute-modules under selective: a comma list of core_attn, moe_act, layernorm, ... */
  recompute_modules?: string;
  /** DeepSpeed's partition_activations / Megatron's distribute_saved_activations, with recompute full. */
  partition_activations?: boolean;
  distribute_saved_activations?: boolean;
  /** Megatron's --cpu-offloading-num-layers (pp 1, no recompute). */
  cpu_offloading_num_layers?: number;
  eager_attention?: boolean;
  dropout?: boolean;
  lora_rank?: number;
  lora_modules?: string;
  qlora?: boolean;
  lora_dropout?: boolean;
  /** DoRA: a trained magnitude per output of each adapted matrix (PEFT use_dora; hf and torchtune). */
  dora?: boolean;
  overhead_gib?: number;
  /** Step time (with a GPU). */
  global_batch_tokens?: number;
  train_tokens?: number;
  flops_efficiency?: number;
  attention_efficiency?: number;
  overlap?: boolean;
  price_per_gpu_hour?: number;
  /** GB/s each GPU has to other nodes, one direction (default 50: one 400 Gb/s NIC per GPU). */
  network_gb_per_s?: number;
}

export interface TrainingTimeReport {
  global_batch_tokens: number;
  micro_batches: number;
  step_seconds: number;
  tokens_per_second: number;
  tokens_per_second_per_gpu: number;
  mfu: number;
  hfu: number;
  achieved_flops_per_second_per_gpu: number;
  model_flops_per_step: number;
  hardware_flops_per_step: number;
  pipeline_bubble_fraction: number;
  data_parallel_exposed_seconds: number;
  microbatch_matmul_seconds: number;
  microbatch_attention_seconds: number;
  microbatch_memory_seconds: number;
  microbatch_memory_bytes: number;
  microbatch_moe_token_bytes: number;
  microbatch_dora_bytes: number;
  expert_gemm_slowdown: number;
  elementwise_kernels: 'eager' | 'compiled' | 'fused';
  train_tokens: number;
  train_seconds: number;
  train_days: number;
  train_gpu_hours: number;
  train_cost_usd: number;
  flops_efficiency: number;
  attention_efficiency: number;
  attention_kernel: 'sdpa' | 'flash-attn' | 'cudnn';
  lines: string[];
  assumptions: string[];
}

export interface TrainingReport {
  model_type: string;
  framework: string;
  workload: {
    precision: string;
    fp32_master_weights: boolean;
    fp32_gradients: boolean;
    optimizer: string;
    micro_batch: number;
    seq_len: number;
    recompute: string;
    recompute_method: string;
    recompute_num_layers: number;
    recompute_frequency: number;
    /** Megatron's selective modules (empty unless recompute is selective). */
    recompute_modules: string[];
    flash_attention: boolean;
    dropout: boolean;
    zero: number;
    fsdp: string;
    fsdp_shard_group: number;
    offload_optimizer: boolean;
    offload_params: boolean;
    lora_rank: number;
    lora_modules: string[];
    qlora: boolean;
    lora_dropout: boolean;
    dora: boolean;
    optimizer_in_backward: boolean;
    offload_activations: boolean;
    compile: boolean;
    eager_loss: boolean;
    paged_optimizer: boolean;
    overhead_bytes: number;
  };
  parallel: {
    gpus: number;
    tp: number;
    pp: number;
    dp: number;
    ep: number;
    cp: number;
    sequence_parallel: boolean;
    tp_comm_overlap: boolean;
    ep_comm_overlap: boolean;
    /** How MoE tokens reach their experts' ranks: NCCL all-to-all (a copy per expert) or DeepEP (a copy per rank, one RDMA copy per node). */
    moe_dispatcher: 'alltoall' | 'deepep';
    /** How the router spreads a token's experts: at random, or round robin (NeMo AutoModel's fake balanced gate). */
    moe_routing: 'random' | 'round-robin';
    virtual_stages: number;
    account_for_embedding_in_pipeline_split: boolean;
    account_for_loss_in_pipeline_split: boolean;
    pipeline_schedule: '1f1b' | 'interleaved' | 'zero-bubble';
    sharding_degree: number;
    expert_sharding_degree: number;
    busiest_stage: number;
    micro_batches_in_flight: number;
  };
  total_params: number;
  trainable_params: number;
  weight_bytes: number;
  gradient_bytes: number;
  optimizer_bytes: number;
  master_weight_bytes: number;
  activation_bytes: number;
  communication_bytes: number;
  overhead_bytes: number;
  /** Gradients allocated as activations are freed (torchtune, LitGPT): subtracted from the sum. */
  backward_overlap_bytes: number;
  /** The statistic memory_statistic names: allocated_bytes_per_gpu or reserved_bytes_per_gpu. */
  total_bytes_per_gpu: number;
  memory_statistic: 'allocated' | 'reserved';
  allocated_bytes_per_gpu: number;
  reserved_bytes_per_gpu: number;
  cpu_offload_bytes: number;
  model_state_bytes_per_parameter: number;
  optimizer_bytes_per_parameter: string;
  /** null without a GPU. */
  max_micro_batch_size: number | null;
  /** The longest sequence that fits at the workload's micro-batch; null without a GPU. */
  max_sequence_tokens: number | null;
  terms: MemoryTerm[];
  layer_activation_terms: MemoryTerm[];
  gpu?: { id: string; name: string; memory_bytes: number; gpu_working_set_bytes?: number };
  fits?: boolean;
  headroom_bytes?: number;
  capacity?: { max_micro_batch_size: CapacityAnswer; max_sequence_tokens: CapacityAnswer };
  /** Step time, MFU and time to train: present when a GPU is chosen. */
  time?: TrainingTimeReport;
  assumptions: string[];
}
