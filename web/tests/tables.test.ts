// SPDX-License-Identifier: MIT
import { describe, expect, test } from 'vitest';
import { capacityTable, memoryTable, parameterTable, type TableModel } from '../src/export/tables';
import { toCsv, toJson, toMarkdown } from '../src/export/serialize';
import { core, fixtureConfig } from './support/core';

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');

describe('memory table', () => {
  const report = core.inferenceReport(llama, { gpu: 'h100-sxm-80gb', batch: 1, context: 8192 });
  const table = memoryTable(report, { unit: 'GiB' });
  test('one row per core term, then total, budget and verdict', () => {
    expect(table.rows.map((r) => r.key)).toEqual([...report.terms.map((t) => t.name), 'total', 'budget', 'verdict']);
    // KV cache: 131,072 B/token x 8192 tokens = 1,073,741,824 B = 1.00 GiB.
    const kv = table.rows.find((r) => r.key === 'kv_cache')!;
    expect(kv.cells[1].text).toBe('1,073,741,824');
    expect(kv.cells[2].text).toBe('1.00 GiB');
    expect(kv.formula).toBe(report.terms.find((t) => t.name === 'kv_cache')!.formula);
  });
  test('the verdict row says fits and by how much', () => {
    const verdict = table.rows.find((r) => r.key === 'verdict')!;
    expect(verdict.cells[0].value).toBe(true);
    expect(verdict.cells[1].value).toBe(report.headroom_bytes);
  });
  test('a model that does not fit says so, with the shortfall as a positive figure', () => {
    const big = core.inferenceReport(fixtureConfig('meta-llama--Llama-3.1-70B.json'), { gpu: 'rtx-4090' });
    const verdict = memoryTable(big, { unit: 'GB' }).rows.find((r) => r.key === 'verdict')!;
    expect(verdict.cells[0].text).toBe('Does not fit, short by');
    expect(verdict.cells[1].value).toBe(-big.headroom_bytes!);
    expect(verdict.cells[2].text).toMatch(/ GB$/);
  });
  test('capacity answers carry limited_by and the formula', () => {
    const capacity = capacityTable(report)!;
    expect(capacity.rows.map((r) => r.cells[1].value)).toEqual([
      report.max_batch_size,
      report.max_context_length,
      report.min_gpus,
    ]);
    expect(capacity.rows[0].formula).toBe(report.capacity!.max_batch_size.formula);
    expect(capacityTable(core.inferenceReport(llama, {}))).toBeUndefined();
  });
});

describe('serialization', () => {
  const table: TableModel = {
    id: 't',
    title: 'A | table',
    columns: ['Name', 'Bytes'],
    keys: ['name', 'bytes'],
    rows: [
      {
        key: 'a',
        cells: [
          { text: 'x, "quoted"', value: 'x' },
          { text: '1,024', value: 1024 },
        ],
        formula: '2 x 512 B',
      },
      {
        key: 'b',
        cells: [
          { text: 'pipe | here', value: 'p' },
          { text: '0', value: 0 },
        ],
      },
    ],
  };
  test('Markdown escapes pipes and keeps the formula column', () => {
    expect(toMarkdown([table])).toBe(
      '### A \\| table\n\n| Name | Bytes | Formula |\n| --- | ---: | --- |\n| x, "quoted" | 1,024 | 2 x 512 B |\n| pipe \\| here | 0 |  |\n',
    );
  });
  test('CSV quotes cells with commas and quotes', () => {
    expect(toCsv([table])).toBe('A | table\nName,Bytes,Formula\n"x, ""quoted""","1,024",2 x 512 B\npipe | here,0,\n');
  });
  test('JSON holds machine values under unit-named keys', () => {
    const json = JSON.parse(toJson([table], { unit: 'GiB' }));
    expect(json).toEqual({
      unit: 'GiB',
      tables: [
        {
          id: 't',
          title: 'A | table',
          rows: [
            { name: 'x', bytes: 1024, formula: '2 x 512 B' },
            { name: 'p', bytes: 0 },
          ],
        },
      ],
    });
  });
  test('the parameter table exports the exact total', () => {
    const params = core.parameterReport(llama);
    expect(toCsv([parameterTable(params)])).toContain('Total,"8,030,261,248",8.03 B');
  });
});
