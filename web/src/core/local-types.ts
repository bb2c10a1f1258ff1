// SPDX-License-Identifier: MIT
// Types of the local inference options and report (localReport; docs/local.md): llama.cpp and
// Ollama on one machine. Re-exported by types.ts, whose `moduleExports` tests/node/wasm-module.test.mjs
// checks against the module.

/** Options of localReport, the `fitcheck local` flags with '_' for '-'. */
export interface LocalOptions {
  /** llama.cpp (the default) or Apple's MLX LM (MlxOptions, MlxReport). */
  engine?: 'llamacpp';
  /** One catalog id per GPU, in device order, comma-separated ("rtx-4090,rtx-3060"); absent: CPU only. */
  gpu?: string;
  /** System RAM for the CPU buffers, GiB (required). */
  ram_gib: number;
  /** A CPU catalog id: the RAM bandwidth and FLOP/s of layers on the CPU. */
  cpu?: string;
  /** The RAM as installed, MT/s (DDR5-6000: 6000), in place of the CPU's fastest supported speed (needs cpu). */
  ram_mts?: number;
  /** Populated 64-bit memory channels, in place of the CPU's (needs cpu). */
  ram_channels?: number;
  /** CPU threads (llama.cpp -t; needs cpu); absent: one per performance core. */
  threads?: number;
  weights?: string;
  /** n_ctx over all slots (4096). */
  context?: number;
  parallel?: number;
  kv_dtype?: 'f16' | 'q8_0' | 'q4_0';
  flash_attention?: 'on' | 'off';
  kv_offload?: 'on' | 'off';
  /** off (--no-mmap): weights kept in RAM sit in pinned memory, which the op offload copies faster; absent: the build's default. */
  mmap?: 'on' | 'off';
  /** As -ngl; absent: as llama.cpp's --fit places them (the most that fit before b7407). */
  n_gpu_layers?: number;
  n_cpu_moe?: number;
  /** Shares per GPU, comma-separated ("3,1"); absent: by free memory. */
  tensor_split?: string;
  backend?: 'cuda' | 'metal' | 'vulkan' | 'rocm' | 'sycl' | 'cpu';
  ubatch?: number;
  /** n_batch (-b): the tokens of one llama_decode call; 2048 by default. */
  batch?: number;
  prompt_len?: number;
  gen_len?: number;
  /** Tokens already in the cache before the prompt (llama-bench -d); 0 by default. */
  depth?: number;
  /** The encoders' file (llama-server --mmproj): its type, or off; absent: f16 for a model with encoders. */
  mmproj?: 'off' | 'f16' | 'bf16' | 'f32' | 'q8_0';
  /** off: --no-mmproj-offload (the file stays in RAM). */
  mmproj_offload?: 'on' | 'off';
  /** The llama.cpp release that runs ("b5937" or "5937"), for the rules that changed with it; absent: a current one. */
  llama_cpp_build?: string;
}

/** One backend's buffers: a GPU ("CUDA0", "Metal", "Vulkan1") or the CPU (last). */
export interface LocalDevice {
  name: string;
  /** The catalog id; "" for the CPU. */
  gpu: string;
  model_buffer_bytes: number;
  /** The CPU only: its model buffer as llama.cpp prints it when mapping the file (the span from the first to the last CPU tensor). */
  mapped_model_buffer_bytes?: number;
  kv_buffer_bytes: number;
  compute_buffer_bytes: number;
  /** The multimodal projector file's tensors (vision/audio encoders), on the device that loads it. */
  mmproj_buffer_bytes: number;
  /** Recurrent layers' states (llama.cpp's "RS buffer"): f32, one row per slot, beside each layer's KV. */
  recurrent_state_buffer_bytes: number;
  total_bytes: number;
  /** What may be allocated; 0: not checked. */
  limit_bytes: number;
  fits: boolean;
  layers: number;
  holds_output_layer: boolean;
  prompt_time_share: number;
  /** How this device's share of the prompt's time is made (core LocalPromptTime). */
  prompt_time: LocalPromptTime;
  generation_time_share: number;
  /** How one generated token's time on this device is made (core LocalTokenTime). */
  generation_token_time: LocalTokenTime;
}

export interface LocalPromptTime {
  /** The products and the attention: on this device, or on the first GPU when offloaded. */
  multiply_seconds: number;
  /** The device's resident weights read once a ubatch; 0 when offloaded. */
  weight_read_seconds: number;
  /** Weights in RAM copied to the first GPU over PCIe each ubatch (llama.cpp's op offload). */
  offload_copy_seconds: number;
  offloaded: boolean;
  /** The GPU that multiplies them when offloaded (the first), else "". */
  offload_device: string;
  expert_combine_seconds: number;
  scores_seconds: number;
  crossing_seconds: number;
  /** Blocking handoffs between backends into this device, each ubatch. */
  handoff_seconds: number;
  /** max(multiply, weight read) or offload copy + multiply; then combine, scores, crossings and handoffs added. */
  seconds: number;
}

export interface LocalTokenTime {
  /** Weights and KV cache read, recurrent states moved, for the token. */
  bytes: number;
  /** The backend's share of the device's peak bandwidth. */
  bandwidth_fraction: number;
  bandwidth_bytes_per_second: number;
  graph_ops: number;
  seconds_per_op: number;
  crossing_seconds: number;
  /** Blocking handoffs between backends into this device after the token's first crossing. */
  handoffs: number;
  handoff_seconds: number;
  /** A CPU's multiplies for the token at ggml-cpu's kernel rates (0 on a GPU, or without a CPU named). */
  compute_seconds: number;
  seconds: number;
}

/** A GPU of the catalog llama.cpp runs on (localGpuCatalog), with the backend it picks for it. */
export interface LocalGpu {
  id: string;
  name: string;
  vendor: string;
  backend: LocalReport['backend'];
}

/** The placement's headline facts (core local_verdict): where the layers are, what a token waits on, what is short. */
export interface LocalVerdict {
  runs_on: 'gpus' | 'gpus_and_ram' | 'cpu' | 'does_not_fit';
  layers_on_gpus: number;
  layers_in_ram: number;
  output_in_ram: boolean;
  /** Layers whose routed experts stay in RAM. */
  expert_layers_in_ram: number;
  /** The device with the largest share of a generated token's time, and that share. */
  generation_bound_device: string;
  generation_bound_share: number;
  /** The device furthest over its limit ("" where everything fits) and by how many bytes. */
  short_device: string;
  shortfall_bytes: number;
}

/** One common GGUF type of the model on the machine (core compare_local_formats), placed as llama.cpp's --fit places it. */
export interface LocalFormatRow {
  weights: string;
  /** Every device's model buffer together: the weights llama.cpp loads. */
  model_buffer_bytes: number;
  n_gpu_layers: number;
  n_layers: number;
  n_cpu_moe: number;
  fits: boolean;
  runs_on: LocalVerdict['runs_on'];
  generation_tokens_per_second: number;
  prompt_tokens_per_second: number;
  llama_cpp_command: string;
  /** The type of the request's own report (its weights option, or the config's own format). */
  chosen: boolean;
}

export interface LocalFormatsReport {
  formats: LocalFormatRow[];
}

/** One mlx-community conversion on the chip (core compare_mlx_formats). */
export interface MlxFormatRow {
  /** As the weights option takes it: "bf16" (unquantized), "8bit" ... "3bit". */
  weights: string;
  /** The request's own weights. */
  chosen: boolean;
  weight_bytes: number;
  peak_memory_bytes: number;
  fits: boolean;
  generation_tokens_per_second: number;
  prompt_tokens_per_second: number;
  mlx_command: string;
}

export interface MlxFormatsReport {
  engine: 'mlx';
  formats: MlxFormatRow[];
}

export interface LocalReport {
  weights: string;
  /** The backend the speeds were estimated for: the option given, or the first GPU's vendor's ("cpu" without GPUs). */
  backend: 'cuda' | 'metal' | 'vulkan' | 'rocm' | 'sycl' | 'cpu';
  n_gpu_layers: number;
  /** Layers whose routed experts stay in RAM: --n-cpu-moe as given, or as llama.cpp's --fit placed them. */
  n_cpu_moe: number;
  /** The placement is llama.cpp's --fit rule's: every layer on the GPU(s), the fewest layers' experts in RAM. */
  fitted: boolean;
  /** The model file mapped (llama.cpp's default but for b7668-b7852, which read it with direct I/O); false with --no-mmap. */
  mmap: boolean;
  /** block_count + 1: llama.cpp counts the output layer ("offloaded 33/33 layers"). */
  n_layers: number;
  kv_size: number;
  /** Rows of the recurrent state, one per slot; 0 for a model without state-space or linear-attention layers. */
  recurrent_cells: number;
  /** The RS buffers of every device together. */
  recurrent_state_bytes: number;
  fits: boolean;
  verdict: LocalVerdict;
  /** The vision/audio encoders as llama.cpp's mmproj file: type "off" when not loaded (device "", bytes 0). */
  mmproj: { type: string; encoder_parameters: number; device: string; bytes: number };
  devices: LocalDevice[];
  prompt_tokens_per_second: number;
  /** The prompt's tokens and the ubatches llama.cpp splits them into. */
  prompt_tokens: number;
  prompt_ubatches: number;
  /** llama.cpp overlapped the ubatches of each batch over the GPUs (pipeline parallelism). */
  prompt_pipelined: boolean;
  /** The prompt time without that overlap over the time with it (1 when not pipelined). */
  prompt_pipeline_speedup: number;
  /** Without flash attention: the share of the prompt's work spent moving the attention scores; 0 with it. */
  prompt_scores_time_share: number;
  /** MoE models on GPUs: the share of the prompt's work spent combining the routed experts' outputs in memory. */
  prompt_expert_combine_time_share: number;
  generation_tokens_per_second: number;
  generation_tokens_per_second_empty_context: number;
  generation_tokens_per_second_full_context: number;
  llama_cpp_command: string;
  /** environment: the Ollama server's settings the placement needs (OLLAMA_FLASH_ATTENTION=1, ...). */
  ollama_parameters: { num_gpu: number; num_ctx: number; environment: string[] };
  assumptions: string[];
}

/** Options of localReport with engine "mlx": Apple's MLX LM on one chip (docs/local.md, "MLX LM"). */
export interface MlxOptions {
  engine: 'mlx';
  /** One Apple chip's catalog id. */
  gpu: string;
  /** 2bit ... 8bit (MLX's affine quantization), or bf16, fp16, fp32 unquantized; 4bit by default. */
  weights?: string;
  /** 32, 64 or 128 (64). */
  group_size?: number;
  prompt_len?: number;
  gen_len?: number;
  /** generate_step's prefill_step_size (2048). */
  prefill_step?: number;
}

/** One line of MLX's peak memory: its bytes and the formula with the numbers. */
export interface MlxMemoryTerm {
  name: string;
  bytes: number;
  formula: string;
}

/** The report of localReport with engine "mlx" (core MlxEstimate). */
export interface MlxReport {
  engine: 'mlx';
  weights: string;
  quantized_parameters: number;
  unquantized_parameters: number;
  bits_per_weight: number;
  weight_bytes: number;
  kv_cache_bytes: number;
  kv_cache_slots: number;
  prefill_peak_bytes: number;
  /** What mx.get_peak_memory() reports. */
  peak_memory_bytes: number;
  /** macOS's default GPU working set, which mlx-lm wires. */
  working_set_bytes: number;
  fits: boolean;
  terms: MlxMemoryTerm[];
  prompt_tokens_per_second: number;
  generation_tokens_per_second: number;
  generation_token_time: {
    weight_bytes: number;
    kv_bytes: number;
    bandwidth_fraction: number;
    bandwidth_bytes_per_second: number;
    kernels: number;
    seconds_per_kernel: number;
    seconds: number;
  };
  prompt_time: {
    flops: number;
    compute_fraction: number;
    flops_per_second: number;
    chunks: number;
    chunk_seconds: number;
    first_token_seconds: number;
    seconds: number;
  };
  mlx_command: string;
  assumptions: string[];
}
