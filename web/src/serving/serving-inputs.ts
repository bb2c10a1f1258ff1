// SPDX-License-Identifier: MIT
// The load the Inference tab's serving simulation runs (servingReport; docs/serving.md): how the
// requests arrive and how their lengths vary, as typed (the core validates them). The model, GPU,
// layout, formats, engine and request lengths are the tab's own workload.
import type { ServingOptions } from '../core/types';
import { inferenceOptions, type Workload } from '../inference/inference-inputs';

export interface LoadInputs {
  /** The section is open: the simulation runs, and a link reopens it. */
  open: boolean;
  /** A closed loop (this many requests in flight) or Poisson arrivals at a rate. */
  arrival: 'concurrency' | 'rate';
  concurrency: string;
  /** Requests per second. */
  rate: string;
  requests: string;
  lengths: 'fixed' | 'uniform' | 'normal';
  /** Uniform: the range ratio; normal: the standard deviation over the mean. */
  spread: string;
}

/**
 * Request lengths replayed from a file instead of drawn (the core's `request_lengths`: a benchmark
 * result's input_lens and output_lens, or lines of prompt and output tokens). Held by the page while
 * it is open; a link does not carry it.
 */
export interface LengthsTrace {
  /** The file's name, as shown. */
  name: string;
  text: string;
}

/** The fields chosen from a list, with their values (a link's are checked against them). */
export const loadChoices = {
  arrival: ['concurrency', 'rate'],
  lengths: ['fixed', 'uniform', 'normal'],
} as const satisfies Partial<Record<keyof LoadInputs, ReadonlyArray<string>>>;

export const defaultLoadInputs: LoadInputs = {
  open: false,
  arrival: 'concurrency',
  concurrency: '64',
  rate: '4',
  requests: '1000',
  lengths: 'fixed',
  spread: '0.5',
};

// Inference options the simulation sets itself (core/src/request/options_serving.cpp): the scheduler
// batches and holds the cache, and its max_model_len is the longest request drawn (vLLM's start-up
// check is the inference report's). Others it does not model (HF's static cache, images) go to the
// core, which says so.
const notSimulated = ['batch', 'context', 'prefill_chunk', 'kv_block', 'max_model_len'] as const;

/**
 * The options of servingReport: the tab's workload, less what the scheduler decides, plus the load.
 * Without an engine chosen the simulation is vLLM's (as `fitcheck serve-sim`), so its profile's
 * budget and efficiencies apply where the form holds the plain defaults.
 */
export function servingOptions(workload: Workload, load: LoadInputs, trace?: LengthsTrace): ServingOptions {
  const engine = workload.engine.trim() || 'vllm';
  const options = { ...inferenceOptions({ ...workload, engine }) } as Record<string, unknown>;
  for (const key of notSimulated) delete options[key];
  if (load.arrival === 'concurrency') options.concurrency = load.concurrency.trim();
  else options.arrival_rate = load.rate.trim();
  // A trace gives every request's lengths and runs once through.
  if (trace) {
    delete options.prompt_len;
    delete options.gen_len;
    options.request_lengths = trace.text;
    return options as unknown as ServingOptions;
  }
  if (load.requests.trim() !== '') options.requests = load.requests.trim();
  options.length_distribution = load.lengths;
  if (load.lengths !== 'fixed') {
    options.prompt_spread = load.spread.trim();
    options.gen_spread = load.spread.trim();
  }
  return options as unknown as ServingOptions;
}
