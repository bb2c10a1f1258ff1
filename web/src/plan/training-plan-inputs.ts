// SPDX-License-Identifier: MIT
// The Plan tab's switch (serving or training layouts) and the training planner's constraints, as
// typed (fitcheck plan --mode training). Lists travel comma-separated, as the core reads them.
import type { TrainingPlanOptions } from '../core/types';
import { customGpuId, customGpuOptions, defaultCustomGpu, type CustomGpuFields } from '../gpu/custom-gpu';
import { listOf } from './plan-inputs';

export type PlanKind = 'inference' | 'training';
export type TrainingPlanObjective = NonNullable<TrainingPlanOptions['objective']>;

/** With custom among the GPU kinds, the custom_gpu_* fields define it (custom-gpu.ts). */
export interface TrainingPlanInputs extends CustomGpuFields {
  /** Which planner the Plan tab shows. */
  kind: PlanKind;
  /** GPU kinds, comma-separated. */
  gpus: string;
  max_gpus: string;
  /** Empty: each GPU's typical node size. */
  gpus_per_node: string;
  headroom: string;
  /** GB/s per GPU to other nodes; empty: the core's 50. */
  network_gb_per_s: string;
  global_batch_tokens: string;
  seq_len: string;
  train_tokens: string;
  micro_batch_sizes: string;
  zero_stages: string;
  recompute_modes: string;
  /** Model chunks per GPU to try when pp > 1, comma-separated. */
  virtual_stages: string;
  precision: string;
  optimizer: string;
  /** The framework profile (fitcheck train --framework); the Training tab's list. */
  framework: string;
  objective: TrainingPlanObjective;
}

/** The core's defaults (core/src/planner_training_report.cpp, fitcheck plan --help), filled in. */
export const defaultTrainingPlanInputs: TrainingPlanInputs = {
  ...defaultCustomGpu,
  kind: 'inference',
  gpus: 'h100-sxm-80gb,h200,a100-sxm-80gb',
  max_gpus: '64',
  gpus_per_node: '',
  headroom: '0.1',
  network_gb_per_s: '',
  global_batch_tokens: '4194304',
  seq_len: '4096',
  train_tokens: '1e12',
  micro_batch_sizes: '1,2,4,8',
  zero_stages: '0,1,2,3',
  recompute_modes: 'none,selective,full',
  virtual_stages: '1,2,4',
  precision: 'bf16-mixed',
  optimizer: 'adamw',
  framework: 'hf',
  objective: 'shortest_time',
};

export const trainingObjectives: Array<[TrainingPlanObjective, string]> = [
  ['shortest_time', 'Shortest time to train'],
  ['highest_throughput', 'Highest throughput (tokens/s)'],
  ['lowest_cost', 'Lowest cost to train'],
  ['fewest_gpus', 'Fewest GPUs'],
];

/** Keys sent to the core (all but the switch), in the form's order. */
export const trainingPlanKeys: ReadonlyArray<Exclude<keyof TrainingPlanInputs, 'kind'>> = [
  'gpus',
  'max_gpus',
  'gpus_per_node',
  'headroom',
  'network_gb_per_s',
  'global_batch_tokens',
  'seq_len',
  'train_tokens',
  'micro_batch_sizes',
  'zero_stages',
  'recompute_modes',
  'virtual_stages',
  'precision',
  'optimizer',
  'framework',
  'objective',
];

/** The options of one trainingPlanReport call (every GPU kind; the page splits it per kind). */
export function trainingPlanOptions(inputs: TrainingPlanInputs): TrainingPlanOptions {
  const options: Record<string, string> = {};
  for (const key of trainingPlanKeys) {
    const value = String(inputs[key] ?? '').trim();
    if (value !== '') options[key] = value;
  }
  // Always sent, so that an empty list gets the core's message rather than its default.
  options.gpus = listOf(inputs.gpus).join(',');
  Object.assign(options, customGpuOptions(inputs, listOf(options.gpus).includes(customGpuId)));
  return options as TrainingPlanOptions;
}
