// SPDX-License-Identifier: MIT
// Each estimated figure carries its category's error against the validation set's published
// measurements (accuracy/expected-error.ts over expected-errors.json, written by npm run validate).
import { describe, expect, test } from 'vitest';
import measured from '../src/accuracy/expected-errors.json';
import {
  expectedError,
  localSpeedExpectedError,
  minimumBackendRuns,
  withExpectedErrors,
  type AccuracyCategory,
} from '../src/accuracy/expected-error';
import { latencyTable } from '../src/inference/latency-tables';
import { trainingCapacityTable, trainingMemoryTable, trainingTimeTable } from '../src/training/training-tables';
import { core, fixtureConfig } from './support/core';

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

describe('expected errors beside the figures', () => {
  test('the text and the statement are the category figures of expected-errors.json', () => {
    const ttft = measured.categories.serve_ttft;
    const expected = expectedError('serve_ttft')!;
    expect(expected.text).toBe(`±${percent(ttft.median_abs_error)} typical`);
    expect(expected.detail).toContain(`Against ${ttft.runs} published measurements of time to first token`);
    expect(expected.detail).toContain(`within ${percent(ttft.p90_abs_error)} for 9 in 10`);
  });

  test('only the rows named get one', () => {
    const table = {
      id: 't',
      title: 't',
      columns: ['a'],
      keys: ['a'],
      rows: [
        { key: 'x', cells: [{ text: 'x', value: 'x' }] },
        { key: 'y', cells: [{ text: 'y', value: 'y' }] },
      ],
    };
    const marked = withExpectedErrors(table, { y: 'train_mfu' });
    expect(marked.rows[0].expectedError).toBeUndefined();
    expect(marked.rows[1].expectedError?.text).toBe(
      `±${percent(measured.categories.train_mfu.median_abs_error)} typical`,
    );
  });

  test('latency (one batch, no queue): the errors of the runs without a queue; not price or cost', () => {
    const report = core.inferenceReport(llama, { gpu: 'h100', batch: 8, prompt_len: 1024, gen_len: 256 });
    const rows = latencyTable(report, report.latency!, 'GiB').rows;
    const marked = (key: string) => rows.find((row) => row.key === key)?.expectedError?.detail;
    const ttft = measured.categories.serve_ttft_unqueued;
    expect(marked('time_to_first_token')).toBe(expectedError('serve_ttft_unqueued')!.detail);
    expect(marked('time_to_first_token')).toContain(
      `Against ${ttft.runs} published measurements of time to first token, runs without a queue`,
    );
    expect(marked('decode_step_first')).toBe(expectedError('serve_tpot_unqueued')!.detail);
    expect(marked('decode_tokens_per_second')).toBe(expectedError('serve_throughput_unqueued')!.detail);
    // Fewer runs than the category's: the load tests whose requests queue are left out.
    expect(ttft.runs).toBeLessThan(measured.categories.serve_ttft.runs);
    expect(marked('price_per_hour')).toBeUndefined();
  });

  test('training: the total per GPU, tokens/s and MFU', () => {
    const report = core.trainingReport(llama, { gpu: 'h100', gpus: 8 });
    const total = trainingMemoryTable(report, 'GiB').rows.find((row) => row.key === 'total');
    expect(total?.expectedError?.text).toBe(expectedError('train_memory')!.text);
    const time = trainingTimeTable(report.time!, 'H100').rows;
    expect(time.find((row) => row.key === 'tokens_per_second_per_gpu')?.expectedError?.text).toBe(
      expectedError('train_throughput')!.text,
    );
    expect(time.find((row) => row.key === 'mfu')?.expectedError?.text).toBe(expectedError('train_mfu')!.text);
  });

  test("training capacity: the longest sequence carries the published longest sequences' error", () => {
    const report = core.trainingReport(llama, { gpu: 'rtx-4090', lora_rank: 16, qlora: true, micro_batch: 1 });
    const rows = trainingCapacityTable(report)!.rows;
    const longest = rows.find((row) => row.key === 'max_sequence_tokens')!;
    expect(longest.cells[0].text).toBe('Longest sequence at micro-batch 1 (tokens)');
    expect(longest.cells[1].value).toBe(report.max_sequence_tokens);
    expect(longest.formula).toBe(report.capacity!.max_sequence_tokens.formula);
    expect(longest.expectedError?.detail).toContain(
      `Against ${measured.categories.train_max_context.runs} published measurements of longest training sequence`,
    );
    // The micro-batch answer is the same memory model at another size: it carries no figure of its own.
    expect(rows.find((row) => row.key === 'max_micro_batch_size')?.expectedError).toBeUndefined();
  });
});

describe("the Local tab's llama.cpp speeds", () => {
  const categories = measured.categories as Record<string, { runs: number; median_abs_error: number; what: string }>;

  test('a backend with enough published runs shows its own figures', () => {
    for (const kind of ['prompt', 'generation'] as const) {
      const name = `local_${kind}_llamacpp_cuda`;
      expect(categories[name].runs).toBeGreaterThanOrEqual(minimumBackendRuns);
      expect(localSpeedExpectedError(kind, 'cuda')).toEqual(expectedError(name as AccuracyCategory));
      expect(localSpeedExpectedError(kind, 'cuda')?.detail).toContain(`, cuda backend`);
    }
  });

  test("one with fewer shows llama.cpp's over every backend, and says why", () => {
    const rocm = categories.local_generation_llamacpp_rocm;
    expect(rocm.runs).toBeGreaterThan(0);
    expect(rocm.runs).toBeLessThan(minimumBackendRuns);
    const overall = expectedError('local_generation_llamacpp')!;
    const fewer = localSpeedExpectedError('generation', 'rocm')!;
    expect(fewer.text).toBe(`±${percent(categories.local_generation_llamacpp.median_abs_error)} typical`);
    expect(fewer.detail).toBe(
      `Only ${rocm.runs} published measurements of the rocm backend (fewer than ${minimumBackendRuns}), ` +
        `so this is llama.cpp's error over every backend. ${overall.detail}`,
    );
    expect(categories.local_generation_llamacpp_sycl).toBeUndefined();
    expect(localSpeedExpectedError('generation', 'sycl')!.detail).toMatch(
      /^No published measurements of the sycl backend \(fewer than 8\)/,
    );
  });
});
