// SPDX-License-Identifier: MIT
// Expected values for the browser tests come from the native CLI over the same config text the
// page gives the core (a bundled preset), never from the page's own code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from '../support/browser.mjs';
import { tempDir } from '../support/temp-dir.mjs';

const presets = JSON.parse(fs.readFileSync(path.join(repo, 'web/src/model/presets/presets.json'), 'utf8'));

/** A bundled preset's config written to a temporary file, as the page sends it to the core. */
export function presetConfigFile(id) {
  const preset = presets.find((p) => p.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  const file = path.join(tempDir('fitcheck-cli-'), `${id}.json`);
  fs.writeFileSync(file, JSON.stringify(preset.config, null, 2));
  return file;
}

/** The Local tab's defaults as `fitcheck local` flags (web/src/local/local-inputs.ts defaultLocalInputs:
 * 64 GiB of RAM, Q4_K_M, n_ctx 8192) on the GPUs given. */
export function localPageDefaults(gpu) {
  return ['--gpu', gpu, '--ram-gib', '64', '--weights', 'q4_k_m', '--context', '8192'];
}

/** `build/fitcheck COMMAND CONFIG ARGS... --json`, parsed. */
export function cli(command, config, args = []) {
  const out = execFileSync(path.join(repo, 'build/fitcheck'), [command, config, ...args.map(String), '--json'], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** The CLI's message for refused options, without its prefixes ("fitcheck: error: ", and the
 * "--flag: " that `train` puts before the option's message). */
export function cliError(command, config, args = []) {
  try {
    execFileSync(path.join(repo, 'build/fitcheck'), [command, config, ...args.map(String), '--json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    return String(error.stderr)
      .trim()
      .replace(/^fitcheck: error: /, '')
      .replace(/^--[a-z0-9-]+: /, '');
  }
  throw new Error('the CLI accepted the options');
}

const scale = { s: 1, ms: 1e-3, µs: 1e-6 };

/** "84.92 ms" or ["84.92", "ms"] back to seconds. */
export function seconds(text, unit) {
  if (unit === undefined) [text, unit] = text.trim().split(/\s+/);
  if (!(unit in scale)) throw new Error(`not a time: ${text} ${unit}`);
  return Number(text.replace(/,/g, '')) * scale[unit];
}

/** A shown number ("1,191", "0.01569") as a number. */
export function number(text) {
  return Number(text.trim().replace(/,/g, ''));
}

/** |shown - expected| / |expected| is within what 4 significant digits allow. */
export function close(shown, expected, relative = 5e-4) {
  const error = Math.abs(shown - expected) / Math.abs(expected);
  if (!(error <= relative)) throw new Error(`shown ${shown}, expected ${expected} (relative error ${error})`);
}

/** A speed as the Local tab prints it: rounded, in comma groups ("11,195"). */
export function grouped(value) {
  return Math.round(value).toLocaleString('en-US');
}
