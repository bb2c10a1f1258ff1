// SPDX-License-Identifier: MIT
// The planner's constraints, as typed (fitcheck plan). Lists travel comma-separated, as the core
// reads them.
import type { PlanOptions } from '../core/types';
import { choosingGpu, customGpuId, customGpuOptions, defaultCustomGpu, type CustomGpuFields } from '../gpu/custom-gpu';

export type PlanObjective = NonNullable<PlanOptions['objective']>;

/** With custom among the GPU kinds, the custom_gpu_* fields define it (custom-gpu.ts). */
export interface PlanInputs extends CustomGpuFields {
  /** GPU kinds, comma-separated. */
  gpus: string;
  max_gpus: string;
  /** Weight formats, comma-separated; empty: the checkpoint's stored format. */
  weights: string;
  /** KV cache dtypes, comma-separated. */
  kv_dtypes: string;
  batches: string;
  prompt_len: string;
  gen_len: string;
  /** Targets in seconds; empty: none. */
  ttft: string;
  tpot: string;
  objective: PlanObjective;
  headroom: string;
}

/** The core's defaults (core/src/planner_report.cpp), filled in. */
export const defaultPlanInputs: PlanInputs = {
  gpus: 'h100-sxm-80gb,h200,a100-sxm-80gb,l40s',
  max_gpus: '8',
  weights: '',
  kv_dtypes: 'bf16',
  batches: '1,2,4,8,16,32,64,128,256',
  prompt_len: '1024',
  gen_len: '256',
  ttft: '',
  tpot: '',
  objective: 'highest_throughput',
  headroom: '0.1',
  ...defaultCustomGpu,
};

export const objectives: Array<[PlanObjective, string]> = [
  ['highest_throughput', 'Highest throughput (tokens/s)'],
  ['lowest_latency', 'Lowest end-to-end latency'],
  ['lowest_cost', 'Lowest cost per output token'],
  ['fewest_gpus', 'Fewest GPUs'],
];

export const planKeys: ReadonlyArray<keyof PlanInputs> = [
  'gpus',
  'max_gpus',
  'weights',
  'kv_dtypes',
  'batches',
  'prompt_len',
  'gen_len',
  'ttft',
  'tpot',
  'objective',
  'headroom',
];

export function listOf(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * A planner's state after its GPU kinds change to `kinds`: ticking the custom kind bases it on the
 * first catalog kind ticked before, so that its empty fields start from that GPU's figures.
 */
export function choosingGpuKinds<T extends CustomGpuFields & { gpus: string }>(state: T, kinds: string): T {
  const ticked = listOf(kinds).includes(customGpuId) && !listOf(state.gpus).includes(customGpuId);
  const previous = listOf(state.gpus).find((id) => id !== customGpuId) ?? '';
  return choosingGpu({ ...state, gpus: kinds }, previous, ticked ? customGpuId : '');
}

/** Adds or removes one item of a comma list, keeping the order of `all`. */
export function toggled(text: string, item: string, on: boolean, all: string[]): string {
  const chosen = new Set(listOf(text));
  if (on) chosen.add(item);
  else chosen.delete(item);
  const ordered = all.filter((id) => chosen.has(id));
  const extra = [...chosen].filter((id) => !all.includes(id));
  return [...ordered, ...extra].join(',');
}

/** The options of one planReport call (every GPU kind of the list; the page splits it per kind). */
export function planOptions(inputs: PlanInputs): PlanOptions {
  const options: Record<string, string> = {};
  for (const key of planKeys) {
    const value = String(inputs[key] ?? '').trim();
    if (value !== '') options[key] = value;
  }
  // GPU kinds and KV dtypes are always sent, so that an empty list gets the core's message rather
  // than its default. An empty weight list means the checkpoint's stored format.
  options.gpus = listOf(inputs.gpus).join(',');
  options.kv_dtypes = listOf(inputs.kv_dtypes).join(',');
  Object.assign(options, customGpuOptions(inputs, listOf(options.gpus).includes(customGpuId)));
  return options as PlanOptions;
}
