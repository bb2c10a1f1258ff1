// SPDX-License-Identifier: MIT
// A parameter count that rests on guesses (an unknown model_type) reads as an estimate at the
// number itself; an exact count reads as before.
import { describe, expect, test } from 'vitest';
import type { ParameterReport } from '../src/core/types';
import { parameterTable } from '../src/export/tables';
import { paramsText } from '../src/compare/compare-lines';

// A hand-made report: 1,234,567,890 parameters (not the output of the core).
function report(exact: boolean): ParameterReport {
  return {
    model_type: 'molmo',
    architecture: 'MolmoForCausalLM',
    total_params: 1234567890,
    parameter_count_exact: exact,
    guessed_fields: exact ? [] : ["model_type: 'molmo' is unknown; read as a generic Llama-style decoder"],
    active_params_per_token: 1234567890,
    active_params_convention: 'dense model',
    non_embedding_params: 1000000000,
    multi_token_prediction_params: 0,
    tied_output_head_params: 0,
    checkpoint_notes: [],
    breakdown: {
      embedding: 234567890,
      attention: 400000000,
      mlp: 600000000,
      routed_experts: 0,
      shared_experts: 0,
      router: 0,
      norms: 0,
      lm_head: 0,
    },
    weights_16bit: { bytes: 2469135780, bytes_per_parameter: 2, formula: '' },
    shape: {
      hidden_size: 4096,
      num_layers: 32,
      vocab_size: 57267,
      max_position_embeddings: 4096,
      tie_word_embeddings: true,
      norm: 'rms_norm',
      position_encoding: 'rotary',
      layer_kinds: [],
    },
    assumptions: [],
    not_counted: [],
  };
}

describe('parameter count estimate marker', () => {
  test('a guessed count shows ~ at the number and says why', () => {
    const total = parameterTable(report(false)).rows.find((row) => row.key === 'total')!;
    expect(total.cells[0].text).toBe('Total (estimate)');
    expect(total.cells[1].text).toBe('~1,234,567,890');
    expect(total.cells[1].value).toBe(1234567890);
    expect(total.cells[2].text).toBe('~1.23 B');
    expect(total.source).toContain("model_type: 'molmo' is unknown");
  });
  test('an exact count reads without the marker', () => {
    const total = parameterTable(report(true)).rows.find((row) => row.key === 'total')!;
    expect(total.cells[0].text).toBe('Total');
    expect(total.cells[1].text).toBe('1,234,567,890');
    expect(total.source).toBeUndefined();
  });
});

describe('a counted vision tower', () => {
  test('tower, projector and the whole checkpoint follow the language model, each on its own line', () => {
    // Hand-made figures: 1,000 + 200 + 34 = 1,234 (not the output of the core).
    const table = parameterTable({
      ...report(true),
      total_params: 1000,
      vision_tower_params: 200,
      multimodal_projector_params: 34,
      total_params_with_vision: 1234,
    });
    const keys = table.rows.map((row) => row.key);
    expect(keys.slice(-3)).toEqual(['vision_tower', 'multimodal_projector', 'total_with_vision']);
    expect(table.rows.at(-1)!.cells[1].text).toBe('1,234');
  });
  test('without one the table ends at the language model', () => {
    expect(parameterTable(report(true)).rows.map((row) => row.key)).not.toContain('vision_tower');
  });
});

describe('the pinned-vs-current comparison', () => {
  test("a guessed count keeps its '~' there too", () => {
    expect(paramsText(report(false))).toBe('~1,234,567,890');
    expect(paramsText(report(true))).toBe('1,234,567,890');
  });
});
