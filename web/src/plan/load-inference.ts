// SPDX-License-Identifier: MIT
// A serving plan's row as the Inference tab's workload: the planner's own assumptions (the core's
// defaults, catalog prices, 1 - headroom of the memory) and the row's layout, so that the tab
// reproduces the row's figures.
import type { PlanCandidate, PlanReport } from '../core/types';
import { defaultWorkload, type Workload } from '../inference/inference-inputs';
import { customGpuOf, type CustomGpuFields } from '../gpu/custom-gpu';

/** `custom`: the planner's custom GPU, whose figures travel with a row on it. */
export function workloadOf(
  candidate: PlanCandidate,
  request: PlanReport['request'] | undefined,
  custom: CustomGpuFields,
): Workload {
  return {
    ...defaultWorkload,
    ...customGpuOf(candidate.gpu, custom),
    gpu: candidate.gpu,
    tp: String(candidate.tp),
    pp: String(candidate.pp),
    ep: String(candidate.ep),
    weights: candidate.weights,
    kv_dtype: candidate.kv_dtype,
    batch: String(candidate.batch),
    prompt_len: String(request?.prompt_len ?? defaultWorkload.prompt_len),
    gen_len: String(request?.gen_len ?? defaultWorkload.gen_len),
    gpu_memory_utilization: String(Number((1 - (request?.headroom ?? 0.1)).toFixed(6))),
  };
}
