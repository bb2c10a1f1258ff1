// SPDX-License-Identifier: MIT
// A training plan's layout as the Training tab's inputs: the planner's run (precision, optimizer,
// sequence, global batch, tokens) and the row's degrees, so that the tab reproduces its figures.
// With a pipeline the row's micro-batches per step and schedule go along: the micro-batches in
// flight of the interleaved schedule depend on them (without a pipeline the tab leaves them to the
// core); step time follows the global batch.
import type { TrainingPlanCandidate, TrainingPlanReport } from '../core/types';
import { customGpuOf, type CustomGpuFields } from '../gpu/custom-gpu';
import { defaultTraining, type TrainingWorkload } from '../training/training-inputs';
import { fsdpModeOf } from './fsdp-mode';

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
    ...(c.pp > 1
      ? {
          pipeline_schedule: c.virtual_stages > 1 ? 'interleaved' : '',
          virtual_stages: c.virtual_stages > 1 ? String(c.virtual_stages) : '',
          micro_batches: String(c.micro_batches),
        }
      : {}),
    dp: '',
    ep: String(c.ep),
    cp: String(c.cp),
    sequence_parallel: c.sequence_parallel,
    zero: String(c.zero),
    fsdp: fsdpModeOf(c) ?? '',
    ...(c.fsdp === 'hybrid_shard' ? { fsdp_shard_group: String(c.fsdp_shard_group) } : {}),
    framework: request.framework,
    precision: request.precision,
    optimizer: request.optimizer,
    micro_batch: String(c.micro_batch),
    seq_len: String(request.seq_len),
    recompute: c.recompute,
    global_batch_tokens: String(request.global_batch_tokens),
    train_tokens: String(request.train_tokens),
    // The network the planner timed the row with (its default written out).
    network_gb_per_s: String(request.network_gb_per_s),
  };
}
