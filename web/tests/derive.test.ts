// SPDX-License-Identifier: MIT
// The pure functions the calculator's state is derived with (app/use-calculator.ts): which model
// text the core reads, what a planner row loads, what is pinned, noted and exported.
import { describe, expect, test } from 'vitest';
import { defaultInputs } from '../src/app/inputs';
import { pageNotes } from '../src/app/page-notes';
import { snapshotOf } from '../src/compare/snapshot';
import type { InferenceReport, ParameterReport, PlanCandidate, PlanReport, TrainingReport } from '../src/core/types';
import { exportExtraOf } from '../src/export/export-extra';
import { customGpuId, defaultCustomGpu } from '../src/gpu/custom-gpu';
import { defaultWorkload } from '../src/inference/inference-inputs';
import { defaultNumbers } from '../src/model/model-inputs';
import {
  choosingModelKind,
  choosingPreset,
  configTextOf,
  editingConfigText,
  modelLabel,
  startPresetId,
} from '../src/model/model-source';
import { defaultPresetId, presetConfigText, presets } from '../src/model/presets';
import { workloadOf } from '../src/plan/load-inference';

const candidate = {
  gpu: 'a100-sxm-80gb',
  tp: 2,
  pp: 1,
  ep: 1,
  weights: 'fp8',
  kv_dtype: 'fp8',
  batch: 16,
} as PlanCandidate;
const request = { prompt_len: 1024, gen_len: 128, headroom: 0.15 } as PlanReport['request'];

describe('the model source', () => {
  const inputs = defaultInputs(defaultPresetId);
  test('a preset, an unknown preset (the default), numbers and a paste give the text the core reads', () => {
    const preset = presets.find((p) => p.id === defaultPresetId)!;
    expect(configTextOf(inputs)).toBe(presetConfigText(preset));
    expect(configTextOf({ ...inputs, presetId: 'no-such-model' })).toBe(presetConfigText(preset));
    expect(JSON.parse(configTextOf({ ...inputs, modelKind: 'numbers', numbers: defaultNumbers })).model_type).toBe(
      'llama',
    );
    expect(configTextOf({ ...inputs, modelKind: 'pasted', pastedText: '{"x": 1}' })).toBe('{"x": 1}');
  });
  test('labels and the start preset', () => {
    expect(modelLabel(inputs, 'llama')).toBe(presets.find((p) => p.id === defaultPresetId)!.label);
    expect(modelLabel({ ...inputs, modelKind: 'numbers' }, 'mixtral')).toBe('from numbers (mixtral)');
    expect(modelLabel({ ...inputs, modelKind: 'pasted' }, 'qwen2')).toBe('pasted config (qwen2)');
    expect(startPresetId(presets[1].id)).toBe(presets[1].id);
    expect(startPresetId('no-such-model')).toBe(defaultPresetId);
    expect(startPresetId(undefined)).toBe(defaultPresetId);
  });
  test('choosing no preset, editing the text and switching kinds keep the config shown', () => {
    expect(choosingPreset('', 'TEXT')).toEqual({ modelKind: 'pasted', presetId: '', pastedText: 'TEXT' });
    expect(choosingPreset('x', 'TEXT')).toEqual({ modelKind: 'preset', presetId: 'x' });
    expect(editingConfigText('NEW')).toEqual({ modelKind: 'pasted', presetId: '', pastedText: 'NEW' });
    expect(choosingModelKind('pasted', { ...inputs, pastedText: 'OLD' }, 'SHOWN')).toEqual({
      modelKind: 'pasted',
      pastedText: 'SHOWN',
    });
    expect(choosingModelKind('numbers', { ...inputs, pastedText: 'OLD' }, 'SHOWN')).toEqual({
      modelKind: 'numbers',
      pastedText: 'OLD',
    });
  });
});

describe("a serving plan's row in the Inference tab", () => {
  test("the row's layout with the planner's request and 1 - headroom of the memory", () => {
    expect(workloadOf(candidate, request, defaultCustomGpu)).toEqual({
      ...defaultWorkload,
      gpu: 'a100-sxm-80gb',
      tp: '2',
      pp: '1',
      ep: '1',
      weights: 'fp8',
      kv_dtype: 'fp8',
      batch: '16',
      prompt_len: '1024',
      gen_len: '128',
      gpu_memory_utilization: '0.85',
    });
  });
  test('without a request, the defaults; a custom GPU carries its figures', () => {
    const custom = { ...defaultCustomGpu, custom_gpu_memory_gib: '96' };
    const workload = workloadOf({ ...candidate, gpu: customGpuId }, undefined, custom);
    expect(workload).toMatchObject({
      gpu: customGpuId,
      custom_gpu_memory_gib: '96',
      prompt_len: defaultWorkload.prompt_len,
      gpu_memory_utilization: '0.9',
    });
  });
});

describe('what is pinned, noted and exported', () => {
  const params = { model_type: 'llama', not_counted: ['n'], assumptions: ['p'] } as unknown as ParameterReport;
  const inference = {
    assumptions: ['i'],
    latency: { notes: ['l'] },
    workload: { batch: 1 },
  } as unknown as InferenceReport;
  const training = { assumptions: ['t'], workload: { seq_len: 8 }, parallel: { dp: 1 } } as unknown as TrainingReport;
  const inputs = defaultInputs(defaultPresetId);
  test('the snapshot keeps the reports of the tab shown', () => {
    expect(snapshotOf('inference', inputs, undefined, inference, training)).toBeUndefined();
    expect(snapshotOf('inference', inputs, params, inference, training)).toMatchObject({
      params,
      inference,
      training: undefined,
    });
    expect(snapshotOf('training', inputs, params, inference, training)).toMatchObject({
      inference: undefined,
      training,
    });
  });
  test("the notes: the model's, then the tab's", () => {
    expect(pageNotes('inference', params, inference, training)).toEqual(['n', 'p', 'i', 'l']);
    expect(pageNotes('training', params, inference, training)).toEqual(['n', 'p', 't']);
    expect(pageNotes('plan', params, inference, training)).toEqual(['n', 'p']);
  });
  test("the export's extra fields follow the tab", () => {
    expect(exportExtraOf('inference', { model: 'm', unit: 'GiB', inference, training })).toEqual({
      model: 'm',
      unit: 'GiB',
      workload: inference.workload,
    });
    const withGpu = {
      ...inference,
      workload: { batch: 1, tp: 2, pp: 1 },
      gpu: { id: 'h200', name: 'NVIDIA H200', budget_bytes: 5 },
      latency: {
        prompt_len: 100,
        gen_len: 20,
        price_per_hour_usd: 3,
        cost_per_million_input_tokens_usd: 0.1,
        cost_per_million_output_tokens_usd: 2,
      },
    } as unknown as InferenceReport;
    expect(exportExtraOf('inference', { model: 'm', unit: 'GiB', inference: withGpu })).toEqual({
      model: 'm',
      unit: 'GiB',
      workload: withGpu.workload,
      gpu: { id: 'h200', name: 'NVIDIA H200', count: 2, budget_bytes: 5 },
      request: { prompt_len: 100, gen_len: 20 },
      price: { per_gpu_hour_usd: 3, per_million_input_tokens_usd: 0.1, per_million_output_tokens_usd: 2 },
    });
    expect(exportExtraOf('training', { model: 'm', unit: 'GB', inference, training })).toEqual({
      model: 'm',
      unit: 'GB',
      training: training.workload,
      parallel: training.parallel,
    });
    expect(exportExtraOf('plan', { model: 'm', unit: 'GiB', planRequest: request })).toEqual({
      model: 'm',
      unit: 'GiB',
      request,
    });
  });
});
