// SPDX-License-Identifier: MIT
// The Local tab's inputs as typed (strings: the core validates them) and the options they become
// (localReport; docs/local.md). An empty field is left out, so the core's default applies.
import type { LocalOptions, MlxOptions } from '../core/types';

export interface LocalInputs {
  /** llama.cpp / Ollama, or Apple's MLX LM (its own fields: gpu, weights, groupSize, promptLen, genLen, prefillStep). */
  engine: 'llamacpp' | 'mlx';
  gpu: string;
  ramGib: string;
  cpu: string;
  /** The RAM as installed (DDR5-6000: 6000 MT/s; populated channels), in place of the CPU's specification. */
  ramMts: string;
  ramChannels: string;
  /** llama.cpp's -t on that CPU; empty: one thread per performance core. */
  threads: string;
  weights: string;
  context: string;
  parallel: string;
  kvDtype: 'f16' | 'q8_0' | 'q4_0';
  flashAttention: 'on' | 'off';
  kvOffload: 'on' | 'off';
  /** '' : the build's default (mapped, but read with direct I/O by b7668-b7852). */
  mmap: '' | 'on' | 'off';
  nGpuLayers: string;
  nCpuMoe: string;
  tensorSplit: string;
  backend: '' | 'cuda' | 'metal' | 'vulkan' | 'rocm' | 'sycl' | 'cpu';
  ubatch: string;
  batch: string;
  promptLen: string;
  genLen: string;
  /** Tokens already in the cache before the prompt (llama-bench -d: a conversation so far). */
  depth: string;
  groupSize: string;
  prefillStep: string;
  /** '' : the core's default (f16 for a model with vision or audio encoders, off without). */
  mmproj: '' | 'off' | 'f16' | 'bf16' | 'f32' | 'q8_0';
  mmprojOffload: 'on' | 'off';
  /** The llama.cpp release (b5937 or 5937) for the rules that changed with it; empty: a current one. */
  llamaCppBuild: string;
}

/** The fields chosen from a list, with their values (the form's selects; a link's are checked against them). */
export const localChoices = {
  engine: ['llamacpp', 'mlx'],
  kvDtype: ['f16', 'q8_0', 'q4_0'],
  flashAttention: ['on', 'off'],
  kvOffload: ['on', 'off'],
  mmap: ['', 'on', 'off'],
  backend: ['', 'cuda', 'metal', 'vulkan', 'rocm', 'sycl', 'cpu'],
  mmproj: ['', 'off', 'f16', 'bf16', 'f32', 'q8_0'],
  mmprojOffload: ['on', 'off'],
} as const satisfies Partial<Record<keyof LocalInputs, ReadonlyArray<string>>>;

/** MLX LM's weights as the core reads them (core/src/request/options_mlx.cpp): the Weights field's suggestions. */
export const mlxWeights = ['4bit', '8bit', '6bit', '5bit', '3bit', '2bit', 'bf16', 'fp16', 'fp32'] as const;

export const defaultLocalInputs: LocalInputs = {
  engine: 'llamacpp',
  gpu: 'rtx-4090',
  ramGib: '64',
  cpu: '',
  ramMts: '',
  ramChannels: '',
  threads: '',
  weights: 'q4_k_m',
  context: '8192',
  parallel: '',
  kvDtype: 'f16',
  flashAttention: 'on',
  kvOffload: 'on',
  mmap: '',
  nGpuLayers: '',
  nCpuMoe: '',
  tensorSplit: '',
  backend: '',
  ubatch: '',
  batch: '',
  promptLen: '',
  genLen: '',
  depth: '',
  groupSize: '',
  prefillStep: '',
  mmproj: '',
  mmprojOffload: 'on',
  llamaCppBuild: '',
};

/** What switching the engine sets: a machine and weights that engine runs (an Apple chip for MLX LM). */
export const engineDefaults: Record<LocalInputs['engine'], Pick<LocalInputs, 'gpu' | 'weights'>> = {
  llamacpp: { gpu: 'rtx-4090', weights: 'q4_k_m' },
  mlx: { gpu: 'm4-max', weights: '4bit' },
};

/** The options of localReport: every field given, as the CLI flag's value. */
export function localOptions(inputs: LocalInputs): LocalOptions | MlxOptions {
  const mlx = inputs.engine === 'mlx';
  const options: Record<string, string> = mlx ? { engine: 'mlx' } : { ram_gib: inputs.ramGib.trim() };
  const put = (key: string, value: string) => {
    if (value.trim() !== '') options[key] = value.trim();
  };
  // Both engines' fields, then each engine's own.
  put('gpu', inputs.gpu);
  put('weights', inputs.weights);
  put('prompt_len', inputs.promptLen);
  put('gen_len', inputs.genLen);
  if (mlx) {
    put('group_size', inputs.groupSize);
    put('prefill_step', inputs.prefillStep);
    return options as unknown as MlxOptions;
  }
  put('cpu', inputs.cpu);
  put('ram_mts', inputs.ramMts);
  put('ram_channels', inputs.ramChannels);
  put('threads', inputs.threads);
  put('context', inputs.context);
  put('parallel', inputs.parallel);
  put('kv_dtype', inputs.kvDtype);
  put('flash_attention', inputs.flashAttention);
  put('kv_offload', inputs.kvOffload);
  put('mmap', inputs.mmap);
  put('n_gpu_layers', inputs.nGpuLayers);
  put('n_cpu_moe', inputs.nCpuMoe);
  put('tensor_split', inputs.tensorSplit);
  put('backend', inputs.backend);
  put('ubatch', inputs.ubatch);
  put('batch', inputs.batch);
  put('depth', inputs.depth);
  put('mmproj', inputs.mmproj);
  put('mmproj_offload', inputs.mmprojOffload);
  put('llama_cpp_build', inputs.llamaCppBuild);
  return options as unknown as LocalOptions;
}
