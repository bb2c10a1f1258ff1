// SPDX-License-Identifier: MIT
// The page asks the core for one GPU kind at a time and joins the training plans here. Ranking,
// tie-breaks and dominance follow the core's rules (core/src/planner_training.cpp better(),
// layout_key() and add_to_frontier()), so the joined answer equals one call over every kind.
import { firstOfEachKind } from './merge';
import type { TrainingPlanCandidate, TrainingPlanReport } from '../core/types';

/** The core's default number of best layouts kept (core/src/planner_training_report.cpp, "keep"). */
export const trainingKeepDefault = 20;

type Compare = (a: TrainingPlanCandidate, b: TrainingPlanCandidate) => number;

const recomputeOrder = ['none', 'selective', 'full'];
/** FsdpMode's order in the core (training_workload.hpp). */
const fsdpOrder = ['off', 'no_shard', 'shard_grad_op', 'full_shard', 'hybrid_shard'];

/** The core's layout_key(): GPU kind (its place in `kinds`), then the degrees and settings. */
function layoutOrder(kinds: string[]): Compare {
  return (a, b) =>
    kinds.indexOf(a.gpu) - kinds.indexOf(b.gpu) ||
    a.gpus - b.gpus ||
    a.tp - b.tp ||
    a.pp - b.pp ||
    a.dp - b.dp ||
    a.cp - b.cp ||
    a.ep - b.ep ||
    a.zero - b.zero ||
    fsdpOrder.indexOf(a.fsdp) - fsdpOrder.indexOf(b.fsdp) ||
    a.fsdp_shard_group - b.fsdp_shard_group ||
    a.micro_batch - b.micro_batch ||
    recomputeOrder.indexOf(a.recompute) - recomputeOrder.indexOf(b.recompute) ||
    a.virtual_stages - b.virtual_stages;
}

export function trainingCompareFor(objective: string, kinds: string[]): Compare {
  const tail = layoutOrder(kinds);
  switch (objective) {
    case 'highest_throughput':
      return (a, b) => b.tokens_per_second - a.tokens_per_second || a.train_cost_usd - b.train_cost_usd || tail(a, b);
    case 'lowest_cost':
      return (a, b) => a.train_cost_usd - b.train_cost_usd || a.train_seconds - b.train_seconds || tail(a, b);
    case 'fewest_gpus':
      return (a, b) => a.gpus - b.gpus || a.train_seconds - b.train_seconds || tail(a, b);
    default:
      return (a, b) => a.train_seconds - b.train_seconds || a.train_cost_usd - b.train_cost_usd || tail(a, b);
  }
}

/** Keeps the layouts no other beats on both time to train and cost (lower or equal on both). */
export function trainingFrontierOf(candidates: TrainingPlanCandidate[]): TrainingPlanCandidate[] {
  let kept: TrainingPlanCandidate[] = [];
  for (const candidate of candidates) {
    if (kept.some((k) => k.train_seconds <= candidate.train_seconds && k.train_cost_usd <= candidate.train_cost_usd))
      continue;
    kept = kept.filter(
      (k) => !(candidate.train_seconds <= k.train_seconds && candidate.train_cost_usd <= k.train_cost_usd),
    );
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.train_cost_usd - b.train_cost_usd || a.train_seconds - b.train_seconds);
}

/** Joins per-GPU-kind reports (in the order of the request) into one. */
export function mergeTrainingPlans(all: TrainingPlanReport[], keep = trainingKeepDefault): TrainingPlanReport {
  const parts = firstOfEachKind(all);
  if (parts.length === 1) return parts[0];
  const first = parts[0];
  const kinds = parts.flatMap((part) => part.request.gpus);
  const best = parts
    .flatMap((part) => part.best)
    .sort(trainingCompareFor(first.request.objective, kinds))
    .slice(0, keep);
  return {
    ...first,
    request: { ...first.request, gpus: kinds },
    evaluated: parts.reduce((sum, part) => sum + part.evaluated, 0),
    feasible: parts.reduce((sum, part) => sum + part.feasible, 0),
    best,
    frontier: trainingFrontierOf(parts.flatMap((part) => part.frontier)),
    notes: joinedNotes(parts),
  };
}

/** A note every kind gives once (the framework's parallelisms), the others under their kind. */
function joinedNotes(parts: TrainingPlanReport[]): string[] {
  const shared = parts[0].notes.filter((note) => parts.every((part) => part.notes.includes(note)));
  const own = parts.flatMap((part) =>
    part.notes.filter((note) => !shared.includes(note)).map((note) => `${part.request.gpus.join(', ')}: ${note}`),
  );
  return [...shared, ...own];
}
