// SPDX-License-Identifier: MIT
// The page asks the core for one GPU kind at a time (so that it can show progress) and joins the
// answers here. Ranking and dominance follow the core's own rules, core/src/planner.cpp better()
// and add_to_frontier(), so the joined answer equals the one a single call over every kind gives.
import type { PlanCandidate, PlanReport } from '../core/types';

/** The core's default number of best layouts kept (core/src/planner_report.cpp, "keep"). */
export const keepDefault = 20;

type Compare = (a: PlanCandidate, b: PlanCandidate) => number;

export function compareFor(objective: string): Compare {
  switch (objective) {
    case 'lowest_latency':
      return (a, b) =>
        a.end_to_end_seconds - b.end_to_end_seconds ||
        a.cost_per_million_output_tokens_usd - b.cost_per_million_output_tokens_usd;
    case 'lowest_cost':
      return (a, b) =>
        a.cost_per_million_output_tokens_usd - b.cost_per_million_output_tokens_usd ||
        a.end_to_end_seconds - b.end_to_end_seconds;
    case 'fewest_gpus':
      return (a, b) => a.gpus - b.gpus || a.cost_per_million_output_tokens_usd - b.cost_per_million_output_tokens_usd;
    default:
      return (a, b) =>
        b.tokens_per_second - a.tokens_per_second ||
        a.cost_per_million_output_tokens_usd - b.cost_per_million_output_tokens_usd;
  }
}

/** Keeps the candidates no other beats on both throughput (higher or equal) and cost (lower or equal). */
export function frontierOf(candidates: PlanCandidate[]): PlanCandidate[] {
  let kept: PlanCandidate[] = [];
  for (const candidate of candidates) {
    const dominated = kept.some(
      (k) =>
        k.tokens_per_second >= candidate.tokens_per_second &&
        k.cost_per_million_output_tokens_usd <= candidate.cost_per_million_output_tokens_usd,
    );
    if (dominated) continue;
    kept = kept.filter(
      (k) =>
        !(
          candidate.tokens_per_second >= k.tokens_per_second &&
          candidate.cost_per_million_output_tokens_usd <= k.cost_per_million_output_tokens_usd
        ),
    );
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.cost_per_million_output_tokens_usd - b.cost_per_million_output_tokens_usd);
}

/** The reports whose GPU kinds (catalog ids, as the core resolved them) no earlier report holds: the core plans each kind once. */
export function firstOfEachKind<Report extends { request: { gpus: string[] } }>(parts: Report[]): Report[] {
  const seen = new Set<string>();
  return parts.filter((part) => {
    const fresh = part.request.gpus.some((gpu) => !seen.has(gpu));
    part.request.gpus.forEach((gpu) => seen.add(gpu));
    return fresh;
  });
}

/** Joins per-GPU-kind reports (in the order of the request) into one. */
export function mergePlans(all: PlanReport[], keep = keepDefault): PlanReport {
  const parts = firstOfEachKind(all);
  if (parts.length === 1) return parts[0];
  const first = parts[0];
  const compare = compareFor(first.request.objective);
  const best = parts
    .flatMap((part) => part.best)
    .sort(compare)
    .slice(0, keep);
  const notes = parts.flatMap((part) => part.notes.map((note) => `${part.request.gpus.join(', ')}: ${note}`));
  return {
    ...first,
    request: { ...first.request, gpus: parts.flatMap((part) => part.request.gpus) },
    evaluated: parts.reduce((sum, part) => sum + part.evaluated, 0),
    feasible: parts.reduce((sum, part) => sum + part.feasible, 0),
    best,
    frontier: frontierOf(parts.flatMap((part) => part.frontier)),
    notes,
  };
}
