// SPDX-License-Identifier: MIT
// Types of the catalogs, the config key table and the classic calculator's report; re-exported by types.ts.

/** transformer_mem.py's arguments (underscored); defaults are the script's. */
export interface TransformerMemOptions {
  params?: number;
  num_gpus?: number;
  tensor_parallel_size?: number;
  pipeline_parallel_size?: number;
  partition_activations?: boolean;
  zero_stage?: number;
  checkpoint_activations?: boolean;
  batch_size_per_gpu?: number;
  hidden_size?: number;
  num_attention_heads?: number;
  sequence_length?: number;
  num_layers?: number;
  fp32_model?: boolean;
  fp32_grads?: boolean;
  zero_allgather_bucket_size?: number;
  zero3_max_live_params?: number;
  misc_mem_gb?: number;
  infer?: boolean;
}

export interface TransformerMemReport {
  infer: boolean;
  terms: Array<{ name: string; bytes: number; gib: number; formula: string }>;
  total_bytes: number;
  total_gib: number;
  total_formula: string;
  note: string;
}

export interface Accelerator {
  id: string;
  name: string;
  vendor: string;
  memory_bytes: number;
  memory_convention: string;
  memory_bandwidth_bytes_per_second: number;
  dense_flops_per_second: Record<'fp32' | 'tf32' | 'bf16' | 'fp16' | 'fp8' | 'fp4' | 'int8' | 'int4', number>;
  interconnect: string;
  interconnect_bytes_per_second_per_direction: number;
  gpus_per_node: number;
  unified_memory: boolean;
  /** Apple silicon only: macOS's default GPU working set, which budgets are taken of (docs/hardware.md). */
  gpu_working_set_bytes?: number;
  gpu_working_set_source?: string;
  price_per_hour_usd: number;
  price_source: string;
  sources: string;
}

/** One core kind of a CPU (performance or efficiency cores). */
export interface CpuCoreKind {
  cores: number;
  base_clock_hz: number;
  fp32_flops_per_cycle: number;
  bf16_flops_per_cycle: number;
  /** int8 multiply-add ops a cycle on the vector units (VNNI: 4 x fp32; AVX2 alone: 2 x). */
  int8_ops_per_cycle: number;
  avx512: boolean;
  /** Two hardware threads a core (SMT / Hyper-Threading). */
  smt: boolean;
}

/** A CPU and its RAM (`fitcheck cpus --json`): the bandwidth and FLOP/s of layers kept on the CPU. */
export interface CpuDevice {
  id: string;
  name: string;
  vendor: string;
  cores: number;
  performance_cores: CpuCoreKind;
  efficiency_cores?: CpuCoreKind;
  memory_channels: number;
  memory_transfers_per_second: number;
  memory_type: string;
  memory_bandwidth_bytes_per_second: number;
  memory_bandwidth_formula: string;
  /** AMD core dies, each reading RAM through its own fabric link; 0 where none is modelled. */
  compute_dies: number;
  fabric_clock_hz: number;
  /** compute_dies x 32 B x fabric_clock_hz; 0 where no link is modelled. */
  fabric_read_bytes_per_second: number;
  fabric_read_formula: string;
  /** What the cores can read at most: the RAM's peak, or the dies' links where lower. */
  memory_read_peak_bytes_per_second: number;
  memory_read_peak_formula: string;
  simd: string;
  peak_fp32_flops_per_second: number;
  peak_bf16_flops_per_second: number;
  peak_int8_ops_per_second: number;
  /** bf16 on the vector units (AVX512_BF16, else widened to fp32): AMX apart. */
  peak_vector_bf16_flops_per_second: number;
  peak_flops_formula: string;
  sources: string;
}

export interface FormatCatalog {
  weight_formats: Array<{
    id: string;
    name: string;
    base_bits_per_weight: number;
    high_precision: string;
    source: string;
  }>;
  kv_cache_dtypes: Array<{ id: string; element_bits: number; source: string }>;
}

/** The config.json keys the core reads (fitcheck::config_fields_json, core/include/fitcheck/config.hpp). */
export interface ConfigFieldTable {
  fields: Array<{
    /** The object the key is read from: 'model' is the top level or text_config. */
    in: 'model' | 'quantization_config' | 'attn_config' | 'ffn_config' | 'vision_config' | 'audio_config';
    name: string;
    aliases: string[];
    /** For an object: the `in` of the keys read inside it; 'none': only its presence is read. */
    holds?: 'none' | 'model' | 'quantization_config' | 'attn_config' | 'ffn_config' | 'vision_config' | 'audio_config';
  }>;
}
