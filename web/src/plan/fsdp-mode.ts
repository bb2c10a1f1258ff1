// SPDX-License-Identifier: MIT
import type { TrainingPlanCandidate } from '../core/types';

/** A plan row's FSDP mode under a framework that shards with FSDP; undefined for ZeRO's stages. */
export function fsdpModeOf(c: TrainingPlanCandidate): string | undefined {
  return c.fsdp && c.fsdp !== 'off' ? c.fsdp : undefined;
}
