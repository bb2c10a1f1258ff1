// SPDX-License-Identifier: MIT
// The training planner on the page: per-GPU-kind calls joined into exactly the answer one call
// gives, its options and link state, and a row as the Training tab's inputs.
import { describe, expect, test } from 'vitest';
import { trainingInputsOf } from '../src/plan/load-training';
import { mergeTrainingPlans } from '../src/plan/training-merge';
import { trainingPlanBestTable } from '../src/plan/training-plan-tables';
import { defaultInputs } from '../src/app/inputs';
import { trainingOptions, type TrainingWorkload } from '../src/training/training-inputs';
import type { TrainingPlanCandidate } from '../src/core/types';
import { defaultTrainingPlanInputs, trainingPlanOptions } from '../src/plan/training-plan-inputs';
import { decodeInputs, encodeInputs } from '../src/url/url-state';
import { core, fixtureConfig } from './support/core';

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');

/** A plan row opened in the Training tab: its inputs give the row's memory per GPU and step time. */
function expectRowFigures(config: string, row: TrainingPlanCandidate, inputs: TrainingWorkload) {
  const training = core.trainingReport(config, trainingOptions(inputs));
  expect(training.total_bytes_per_gpu).toBe(row.memory_bytes_per_gpu);
  expect(training.time?.step_seconds).toBeCloseTo(row.step_seconds, 12);
  return training;
}
const kinds = ['h100-sxm-80gb', 'h200', 'a100-sxm-80gb', 'l40s'];

describe('per-kind training plans joined', () => {
  for (const objective of ['shortest_time', 'highest_throughput', 'lowest_cost', 'fewest_gpus'] as const) {
    test(`equal one call over every kind, row for row (${objective})`, () => {
      const options = { max_gpus: 16, objective, keep: 25 };
      const whole = core.trainingPlanReport(llama, { ...options, gpus: kinds.join(',') });
      const joined = mergeTrainingPlans(
        kinds.map((gpu) => core.trainingPlanReport(llama, { ...options, gpus: gpu })),
        25,
      );
      expect(whole.best.length).toBe(25);
      expect(joined.evaluated).toBe(whole.evaluated);
      expect(joined.feasible).toBe(whole.feasible);
      expect(joined.request.gpus).toEqual(whole.request.gpus);
      expect(joined.best).toEqual(whole.best);
      expect(joined.frontier).toEqual(whole.frontier);
    });
  }
});

test("a note every kind gives (the framework's parallelisms) is shown once, the others under their kind", () => {
  const options = { max_gpus: 16, framework: 'hf', keep: 5 };
  const joined = mergeTrainingPlans(
    kinds.map((gpu) => core.trainingPlanReport(llama, { ...options, gpus: gpu })),
    5,
  );
  const framework = joined.notes.filter((note) => /not searched: Hugging Face/.test(note));
  expect(framework).toHaveLength(1);
  expect(framework[0]).toMatch(/^\d+ layouts are not searched/);
  for (const note of joined.notes.filter((n) => !framework.includes(n)))
    expect(kinds.some((gpu) => note.startsWith(`${gpu}: `))).toBe(true);
});

test('the options sent leave out the switch and keep an empty GPU list', () => {
  const options = trainingPlanOptions({ ...defaultTrainingPlanInputs, kind: 'training', gpus: '', gpus_per_node: '' });
  expect(options).not.toHaveProperty('kind');
  expect(options).not.toHaveProperty('gpus_per_node');
  expect(options.gpus).toBe('');
  expect(() => core.trainingPlanReport(llama, options)).toThrowError(/at least one GPU kind/);
});

test('the switch and the training constraints travel in the link', async () => {
  const inputs = defaultInputs('meta-llama--llama-3.1-8b');
  inputs.mode = 'plan';
  inputs.trainingPlan = {
    ...inputs.trainingPlan,
    kind: 'training',
    max_gpus: '128',
    objective: 'lowest_cost',
    zero_stages: '1,3',
    virtual_stages: '1,2',
    framework: 'torchtitan',
  };
  const hash = await encodeInputs(inputs);
  expect(hash).toContain('p.kind=training');
  expect(hash).toContain('q.framework=torchtitan');
  expect(hash).toContain('q.virtual_stages=1%2C2');
  const decoded = await decodeInputs(hash, 'meta-llama--llama-3.1-8b');
  expect(decoded.inputs.trainingPlan).toEqual(inputs.trainingPlan);
  // Defaults stay out of the link.
  expect(await encodeInputs(defaultInputs('meta-llama--llama-3.1-8b'))).not.toMatch(/q\.|p\.kind/);
});

test("a row opened in the Training tab gives the row's memory and step time", () => {
  const report = core.trainingPlanReport(llama, { gpus: 'h100-sxm-80gb', max_gpus: 16, keep: 3 });
  for (const row of report.best) {
    const training = expectRowFigures(llama, row, trainingInputsOf(row, report.request));
    expect(training.time?.train_cost_usd).toBeCloseTo(row.train_cost_usd, 6);
  }
});

test('torchtitan shards with FSDP: rows name the mode, join per kind, and open in the Training tab with it', () => {
  const options = { max_gpus: 16, framework: 'torchtitan', keep: 12 };
  const whole = core.trainingPlanReport(llama, { ...options, gpus: kinds.join(',') });
  const joined = mergeTrainingPlans(
    kinds.map((gpu) => core.trainingPlanReport(llama, { ...options, gpus: gpu })),
    12,
  );
  expect(joined.best).toEqual(whole.best);
  expect(whole.best.length).toBeGreaterThan(0);
  for (const row of whole.best) {
    expect(row.zero).toBe(0);
    expect(['off', 'shard_grad_op', 'full_shard']).toContain(row.fsdp);
  }
  expect(whole.notes.some((note) => /shards with FSDP: ZeRO stage 2 runs as FSDP SHARD_GRAD_OP/.test(note))).toBe(true);
  const sharded = whole.best.filter((row) => row.fsdp !== 'off');
  expect(sharded.length).toBeGreaterThan(0);
  const table = trainingPlanBestTable(whole, 'GiB');
  const column = table.keys.indexOf('zero');
  expect(table.columns[column]).toBe('ZeRO / FSDP');
  for (const [index, row] of whole.best.entries())
    expect(table.rows[index].cells[column].text).toBe(
      row.fsdp === 'off' ? '0' : row.fsdp === 'full_shard' ? 'FSDP FULL_SHARD' : 'FSDP SHARD_GRAD_OP',
    );
  for (const row of sharded.slice(0, 3)) {
    const inputs = trainingInputsOf(row, whole.request);
    expect(inputs.fsdp).toBe(row.fsdp);
    expectRowFigures(llama, row, inputs);
  }
});

test('over a slow network HYBRID_SHARD rows: named with their group, joined per kind, opened in the Training tab', () => {
  const options = {
    max_gpus: 64,
    framework: 'torchtitan',
    zero_stages: '3',
    global_batch_tokens: 262144,
    network_gb_per_s: 12.5,
    keep: 12,
  };
  const whole = core.trainingPlanReport(llama, { ...options, gpus: 'h100-sxm-80gb,a100-sxm-80gb' });
  const joined = mergeTrainingPlans(
    ['h100-sxm-80gb', 'a100-sxm-80gb'].map((gpu) => core.trainingPlanReport(llama, { ...options, gpus: gpu })),
    12,
  );
  expect(joined.best).toEqual(whole.best);
  expect(whole.request.network_gb_per_s).toBe(12.5);
  const hybrid = whole.best.filter((row) => row.fsdp === 'hybrid_shard');
  expect(hybrid.length).toBeGreaterThan(0);
  const table = trainingPlanBestTable(whole, 'GiB');
  const column = table.keys.indexOf('zero');
  for (const [index, row] of whole.best.entries()) {
    if (row.fsdp !== 'hybrid_shard') continue;
    expect((row.fsdp_shard_group * row.tp) % 8).toBe(0); // whole nodes of 8 GPUs
    expect(table.rows[index].cells[column].text).toBe(`FSDP HYBRID_SHARD (shards over ${row.fsdp_shard_group})`);
  }
  for (const row of hybrid.slice(0, 2)) {
    const inputs = trainingInputsOf(row, whole.request);
    expect(inputs.fsdp).toBe('hybrid_shard');
    expect(inputs.fsdp_shard_group).toBe(String(row.fsdp_shard_group));
    expect(inputs.network_gb_per_s).toBe('12.5');
    expectRowFigures(llama, row, inputs);
  }
});

test('interleaved rows: opened in the Training tab with their chunks, schedule and micro-batches, the same figures', () => {
  // Megatron with ZeRO-1 keeps the 70B's pipeline layouts first; pp x 2 or 4 chunks divide its 80 layers.
  const seventy = fixtureConfig('meta-llama--Llama-3.1-70B.json');
  const options = { gpus: 'h100-sxm-80gb', max_gpus: 64, zero_stages: '1', framework: 'megatron', keep: 40 };
  const report = core.trainingPlanReport(seventy, options);
  expect(report.request.virtual_stages).toEqual([1, 2, 4]);
  expect(report.request.framework).toBe('megatron');
  const interleaved = report.best.filter((row) => row.virtual_stages > 1);
  expect(interleaved.length).toBeGreaterThan(0);
  for (const row of interleaved.slice(0, 3)) {
    expect(row.pp).toBeGreaterThan(1);
    expect(row.micro_batches % row.pp).toBe(0);
    const inputs = trainingInputsOf(row, report.request);
    expect(inputs.pipeline_schedule).toBe('interleaved');
    expect(inputs.virtual_stages).toBe(String(row.virtual_stages));
    expect(inputs.framework).toBe('megatron');
    expectRowFigures(seventy, row, inputs);
  }
  // Only 1F1B when asked: the same search without chunks lists none.
  const plain = core.trainingPlanReport(seventy, { ...options, virtual_stages: '1' });
  expect(plain.best.every((row) => row.virtual_stages === 1)).toBe(true);
  expect(plain.best[0].train_seconds).toBeGreaterThanOrEqual(report.best[0].train_seconds);
});
