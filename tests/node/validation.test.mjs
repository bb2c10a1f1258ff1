// SPDX-License-Identifier: MIT
// The validation set (validation/*.json) is well formed and `npm run validate` reads all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../support/temp-dir.mjs';

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

// fitcheck's llama.cpp rules change by build (CUDA graphs, MMQ's tiling, fusions: local_kernels.cpp), so a
// row whose run printed its build number ("build 2824 (4426e298)", "b4011", "(6413)") is modelled on that
// build; absent the option fitcheck takes a current build.
test('every llama.cpp row whose build is known runs fitcheck local on that build', () => {
  const rows = JSON.parse(fs.readFileSync(path.join(repo, 'validation/serving.json'), 'utf8'));
  let checked = 0;
  for (const row of rows) {
    if (!row.fitcheck_command?.startsWith('fitcheck local') || row.engine !== 'llama.cpp') continue;
    const stated = /\bbuild (\d{3,5})\b|\b[0-9a-f]{7,9} \((\d{3,5})\)|\bb(\d{3,5})\b/.exec(row.engine_version ?? '');
    if (!stated) continue;
    const build = stated.slice(1).find(Boolean);
    const given = /--llama-cpp-build (\d+)/.exec(row.fitcheck_command);
    assert.ok(given, `${row.id}: engine_version names build ${build}, the command gives none`);
    assert.equal(given[1], build, `${row.id}: engine_version names build ${build}`);
    checked += 1;
  }
  assert.ok(checked >= 100, `only ${checked} rows with a known build`);
});

test('npm run validate compares every row it can and ends with one JSON line of counts; the page holds its current expected errors', () => {
  const written = path.join(tempDir('fitcheck-validate-'), 'expected-errors.json');
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
