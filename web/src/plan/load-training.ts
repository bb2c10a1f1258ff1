// SPDX-License-Identifier: MIT
// A training plan's layout as the Training tab's inputs: the planner's run (precision, optimizer,
// sequence, global batch, tokens) and the row's degrees, so that the tab reproduces its figures.
// The tab leaves micro-batches per step to the core (at least pp), which equals the row's
// accumulation for memory because the planner keeps accumulation >= pp; step time follows the
// global batch.
import type { TrainingPlanCandidate, TrainingPlanReport } from '../core/types';
import { customGpuOf, type CustomGpuFields } from '../gpu/custom-gpu';
import { defaultTraining, type TrainingWorkload } from '../training/training-inputs';

/** `custom`: the planner's custom GPU, carried when the row is on it. */
export function trainingInputsOf(
  c: TrainingPlanCandidate,
  request: TrainingPlanReport['request'],
  custom?: CustomGpuFields,
): TrainingWorkload {
  // The planner's assumptions are the core's defaults (overhead, FLOP efficiency, catalog price).
  return {
    ...defaultTraining,
    ...(custom ? customGpuOf(c.gpu, custom) : {}),
    gpu: c.gpu,
    gpus: String(c.gpus),
    tp: String(c.tp),
    pp: String(c.pp),
    dp: '',
    ep: String(c.ep),
    cp: String(c.cp),
    sequence_parallel: c.sequence_parallel,
    zero: String(c.zero),
    fsdp: '',
    precision: request.precision,
    optimizer: request.optimizer,
    micro_batch: String(c.micro_batch),
    seq_len: String(request.seq_len),
    recompute: c.recompute,
    global_batch_tokens: String(request.global_batch_tokens),
    train_tokens: String(request.train_tokens),
  };
}
