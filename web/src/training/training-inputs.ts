// SPDX-License-Identifier: MIT
// The training workload, as typed: the core parses and validates every value (fitcheck train).
import type { TrainingOptions } from '../core/types';
import { customGpuId, customGpuOptions, defaultCustomGpu, type CustomGpuFields } from '../gpu/custom-gpu';

/** With gpu = 'custom', the custom_gpu_* fields define it (custom-gpu.ts). */
export interface TrainingWorkload extends CustomGpuFields {
  /** The framework whose rules the core applies: hf (the core's default), megatron, deepspeed, torchtitan, torchtune, litgpt, automodel. */
  framework: string;
  gpu: string;
  gpus: string;
  tp: string;
  pp: string;
  /** Empty: gpus / (tp x pp x cp). */
  dp: string;
  ep: string;
  cp: string;
  sequence_parallel: boolean;
  /** Pipeline schedule: empty (the core's 1f1b), 1f1b, interleaved (with virtual_stages), zero-bubble. */
  pipeline_schedule: string;
  /** Model chunks per GPU of the interleaved schedule; empty: 1. */
  virtual_stages: string;
  /** Micro-batches per step; empty: the core's (at least pp). */
  micro_batches: string;
  /** The embedding (the output layer and loss) takes one layer's slot of the pipeline split (Megatron-Core). */
  account_for_embedding_in_pipeline_split: boolean;
  account_for_loss_in_pipeline_split: boolean;
  /** DeepSpeed ZeRO stage, 0-3; exclusive with fsdp. */
  zero: string;
  /** Empty: no FSDP; else no_shard | shard_grad_op | full_shard | hybrid_shard. */
  fsdp: string;
  fsdp_shard_group: string;
  offload_optimizer: boolean;
  offload_params: boolean;
  precision: string;
  optimizer: string;
  micro_batch: string;
  seq_len: string;
  recompute: string;
  /** Megatron's --recompute-modules under selective, comma list; empty: its default, core_attn. */
  recompute_modules: string;
  /** Full recompute's checkpointed inputs split over tp: DeepSpeed's partition_activations or
   * Megatron's distribute_saved_activations, sent under the framework's own name. */
  partition_checkpoints: boolean;
  /** Megatron's --cpu-offloading-num-layers; empty: none. */
  cpu_offloading_num_layers: string;
  eager_attention: boolean;
  /** 0: full fine-tuning. */
  lora_rank: string;
  /** Comma list of q,k,v,o,gate,up,down; empty: every linear layer. */
  lora_modules: string;
  qlora: boolean;
  /** DoRA (PEFT use_dora): magnitude vectors beside the adapters. */
  dora: boolean;
  overhead_gib: string;
  /** Step time (with a GPU); empty: the core's defaults (4Mi tokens per step, 1e12 tokens, 0.5, catalog price). */
  global_batch_tokens: string;
  train_tokens: string;
  flops_efficiency: string;
  price_per_gpu_hour: string;
  /** GB/s per GPU to other nodes; empty: the core's 50 (one 400 Gb/s NIC per GPU). */
  network_gb_per_s: string;
  /** Data-parallel collectives overlap the backward pass (the core's default). */
  overlap: boolean;
}

/** The core's defaults (fitcheck train --help), filled in; one H100 SXM as in inference. */
export const defaultTraining: TrainingWorkload = {
  framework: 'hf',
  gpu: 'h100-sxm-80gb',
  gpus: '1',
  tp: '1',
  pp: '1',
  dp: '',
  ep: '1',
  cp: '1',
  sequence_parallel: false,
  pipeline_schedule: '',
  virtual_stages: '',
  micro_batches: '',
  account_for_embedding_in_pipeline_split: false,
  account_for_loss_in_pipeline_split: false,
  zero: '0',
  fsdp: '',
  fsdp_shard_group: '8',
  offload_optimizer: false,
  offload_params: false,
  precision: 'bf16-mixed',
  optimizer: 'adamw',
  micro_batch: '1',
  seq_len: '4096',
  // Empty: the core's default, which depends on the framework (gradient checkpointing for a QLoRA
  // run under Hugging Face, as PEFT turns it on; none otherwise).
  recompute: '',
  recompute_modules: '',
  partition_checkpoints: false,
  cpu_offloading_num_layers: '',
  eager_attention: false,
  lora_rank: '0',
  lora_modules: '',
  qlora: false,
  dora: false,
  overhead_gib: '1',
  global_batch_tokens: '',
  train_tokens: '',
  flops_efficiency: '',
  price_per_gpu_hour: '',
  network_gb_per_s: '',
  overlap: true,
  ...defaultCustomGpu,
};

export const trainingTextKeys: ReadonlyArray<keyof TrainingWorkload> = [
  'framework',
  'gpu',
  'gpus',
  'tp',
  'pp',
  'dp',
  'ep',
  'cp',
  'pipeline_schedule',
  'virtual_stages',
  'micro_batches',
  'zero',
  'fsdp',
  'fsdp_shard_group',
  'precision',
  'optimizer',
  'micro_batch',
  'seq_len',
  'recompute',
  'recompute_modules',
  'cpu_offloading_num_layers',
  'lora_rank',
  'lora_modules',
  'overhead_gib',
  'global_batch_tokens',
  'train_tokens',
  'flops_efficiency',
  'price_per_gpu_hour',
  'network_gb_per_s',
];
export const trainingFlagKeys: ReadonlyArray<keyof TrainingWorkload> = [
  'sequence_parallel',
  'account_for_embedding_in_pipeline_split',
  'account_for_loss_in_pipeline_split',
  'offload_optimizer',
  'offload_params',
  'eager_attention',
  'qlora',
  'dora',
  'overlap',
  'partition_checkpoints',
];

/** The pipeline schedules the core times (fitcheck train --pipeline-schedule); '' is its default, 1F1B. */
export const pipelineSchedules: Array<[string, string]> = [
  ['', '1F1B (default)'],
  ['interleaved', 'Interleaved 1F1B (virtual stages)'],
  ['zero-bubble', 'Zero bubble (ZB-H1)'],
];

/** The pipeline's own fields are shown with more than one stage, or while any of them is set. */
export function showsPipeline(workload: TrainingWorkload): boolean {
  const stages = Number(workload.pp.trim());
  return (
    !(Number.isInteger(stages) && stages <= 1) ||
    (
      [
        'pipeline_schedule',
        'virtual_stages',
        'micro_batches',
        'account_for_embedding_in_pipeline_split',
        'account_for_loss_in_pipeline_split',
      ] as const
    ).some((key) => workload[key] !== defaultTraining[key])
  );
}

export const precisionRecipes: Array<[string, string]> = [
  ['bf16-mixed', 'bf16 mixed precision'],
  ['fp16-mixed', 'fp16 mixed precision'],
  ['fp32', 'fp32'],
  ['fp8', 'fp8 (Transformer Engine)'],
];
export const optimizers: Array<[string, string]> = [
  ['adamw', 'AdamW'],
  ['adam8bit', 'Adam 8-bit (bitsandbytes)'],
  ['adafactor', 'Adafactor'],
  ['sgd', 'SGD'],
  ['sgd-momentum', 'SGD with momentum'],
  ['lion', 'Lion'],
  ['muon', 'Muon'],
];
/** The core's framework profiles (fitcheck train --framework). */
export const frameworks: Array<[string, string]> = [
  ['hf', 'Hugging Face Trainer / Accelerate + PEFT'],
  ['megatron', 'Megatron-LM / Megatron-Core'],
  ['deepspeed', 'Megatron-DeepSpeed (ZeRO)'],
  ['torchtitan', 'torchtitan (FSDP2)'],
  ['torchtune', 'torchtune recipes'],
  ['litgpt', 'LitGPT (Lightning Fabric)'],
  ['automodel', 'NVIDIA NeMo AutoModel (FSDP2)'],
];
/** Recomputation by the frameworks' own names (fitcheck train --recompute). */
export const recomputeModes: Array<[string, string]> = [
  ['', "the framework's default (QLoRA under Hugging Face: gradient checkpointing; else none)"],
  ['none', 'none'],
  ['selective', 'selective (Megatron: attention core)'],
  ['full', 'full (every layer keeps its input)'],
  ['gradient-checkpointing', 'gradient checkpointing (Hugging Face)'],
  ['selective-op', 'selective op (torchtitan)'],
  ['selective-layer', 'selective layer, every 2nd (torchtitan)'],
  ['activation-checkpointing', 'activation checkpointing (torchtune, LitGPT: whole layers)'],
];
export const loraModules = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;
/** Megatron's --recompute-modules, in its order (fitcheck train --recompute-modules). */
export const megatronRecomputeModules = [
  'core_attn',
  'moe_act',
  'layernorm',
  'mla_up_proj',
  'mlp',
  'moe',
  'shared_experts',
] as const;

/** The option that splits full recompute's checkpointed inputs over tp, by the framework's name; none elsewhere. */
export function partitionCheckpointsKey(workload: TrainingWorkload): string | undefined {
  if (workload.recompute !== 'full') return undefined;
  if (workload.framework === 'deepspeed') return 'partition_activations';
  if (workload.framework === 'megatron') return 'distribute_saved_activations';
  return undefined;
}

/** Megatron's CPU offloading: an option of its runs without recomputation (the core refuses the rest). */
export function showsCpuOffloading(workload: TrainingWorkload): boolean {
  return workload.framework === 'megatron' && (workload.recompute === '' || workload.recompute === 'none');
}

/** Megatron's modules are an option of its selective recomputation only. */
export function showsRecomputeModules(workload: TrainingWorkload): boolean {
  return workload.framework === 'megatron' && workload.recompute === 'selective';
}

/** One choice for the two exclusive sharding options: "zero:N" or "fsdp:MODE". */
export const shardingChoices: Array<[string, string]> = [
  ['zero:0', 'none (plain data parallel)'],
  ['zero:1', 'ZeRO-1 (optimizer states)'],
  ['zero:2', 'ZeRO-2 (+ gradients)'],
  ['zero:3', 'ZeRO-3 (+ parameters)'],
  ['fsdp:no_shard', 'FSDP NO_SHARD'],
  ['fsdp:shard_grad_op', 'FSDP SHARD_GRAD_OP'],
  ['fsdp:full_shard', 'FSDP FULL_SHARD'],
  ['fsdp:hybrid_shard', 'FSDP HYBRID_SHARD'],
];

export function shardingChoice(workload: TrainingWorkload): string {
  return workload.fsdp.trim() !== '' ? `fsdp:${workload.fsdp.trim()}` : `zero:${workload.zero.trim() || '0'}`;
}

export function withSharding(workload: TrainingWorkload, choice: string): TrainingWorkload {
  const [kind, value] = choice.split(':');
  return kind === 'fsdp' ? { ...workload, zero: '0', fsdp: value } : { ...workload, zero: value, fsdp: '' };
}

/** The options object handed to trainingReport; empty fields are left to the core's defaults. */
export function trainingOptions(workload: TrainingWorkload): TrainingOptions {
  const options: Record<string, string | boolean> = {};
  for (const key of trainingTextKeys) {
    const value = String(workload[key] ?? '').trim();
    if (value !== '') options[key] = value;
  }
  // A flag goes to the core when it differs from the core's default (all off but overlap).
  for (const key of trainingFlagKeys) if (workload[key] !== defaultTraining[key]) options[key] = Boolean(workload[key]);
  Object.assign(options, customGpuOptions(workload, options.gpu === customGpuId));
  // The hybrid group size is an option of HYBRID_SHARD only.
  if (options.fsdp !== 'hybrid_shard') delete options.fsdp_shard_group;
  // Zero with FSDP is refused by the core even at stage 0; send the one that is chosen.
  if (options.fsdp) delete options.zero;
  if (!showsRecomputeModules(workload)) delete options.recompute_modules;
  if (!showsCpuOffloading(workload)) delete options.cpu_offloading_num_layers;
  // The page's one checkbox goes to the core under the framework's own option name.
  delete options.partition_checkpoints;
  const partitionKey = partitionCheckpointsKey(workload);
  if (partitionKey && workload.partition_checkpoints) options[partitionKey] = true;
  // Rank 0 is full fine-tuning: no adapters, so no adapter modules either.
  if (/^0+$/.test(String(options.lora_rank ?? ''))) {
    delete options.lora_rank;
    delete options.lora_modules;
  }
  return options as TrainingOptions;
}
