// SPDX-License-Identifier: MIT
// The validation set (validation/*.json) is well formed and `npm run validate` reads all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sets = ['validation/serving.json', 'validation/training.json'].filter((file) =>
  fs.existsSync(path.join(repo, file)),
);

test('every validation row has a source, its settings, a measurement and a fitcheck command over a file in the repository', () => {
  assert.ok(sets.length > 0);
  const ids = new Set();
  for (const file of sets) {
    const rows = JSON.parse(fs.readFileSync(path.join(repo, file), 'utf8'));
    assert.ok(rows.length > 0, file);
    for (const row of rows) {
      assert.ok(typeof row.id === 'string' && !ids.has(row.id), `${file}: id ${row.id} missing or repeated`);
      ids.add(row.id);
      assert.ok(row.source && (row.source.url || row.source.repo), `${row.id}: no source`);
      assert.ok(
        row.measured && Object.values(row.measured).some((v) => typeof v === 'number'),
        `${row.id}: no measured number`,
      );
      if (row.fitcheck_command === null) {
        // allowed only with the reason in the notes
        assert.ok(typeof row.notes === 'string' && row.notes.length > 0, `${row.id}: no command and no note why`);
        continue;
      }
      assert.match(row.fitcheck_command, /^fitcheck (infer|train|plan|serve-sim|local) /, row.id);
      const config = row.fitcheck_command.split(/\s+/)[2];
      assert.ok(fs.existsSync(path.join(repo, config)), `${row.id}: ${config} is not in the repository`);
    }
  }
});

test('npm run validate compares every row it can and ends with one JSON line of counts; the page holds its current expected errors', () => {
  const written = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fitcheck-validate-')), 'expected-errors.json');
  const out = execFileSync('node', [path.join(repo, 'scripts/validate.mjs'), '--expected-errors', written], {
    cwd: repo,
    encoding: 'utf8',
  });
  // The page's copy (web/src/accuracy/) is what the validation set gives today: regenerate it with
  // `npm run validate -- --expected-errors web/src/accuracy/expected-errors.json` after a change.
  assert.equal(
    fs.readFileSync(path.join(repo, 'web/src/accuracy/expected-errors.json'), 'utf8'),
    fs.readFileSync(written, 'utf8'),
  );
  const last = JSON.parse(out.trim().split('\n').pop());
  const rows = sets.reduce((n, file) => n + JSON.parse(fs.readFileSync(path.join(repo, file), 'utf8')).length, 0);
  assert.equal(last.rows, rows);
  assert.ok(last.comparisons >= rows - last.refused - last.without_command);
  assert.equal(typeof last.train_memory_within_10pct, 'number');
  assert.equal(typeof last.train_throughput_within_20pct, 'number');
});
