#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The validation set: published measurements of real training runs and serving engines
// (validation/*.json, one row per measurement with its source, exact settings and the fitcheck
// command that models it). Runs each row's command with the native CLI, compares each published
// quantity with fitcheck's figure and prints the signed error of every comparison, then the median
// and p90 absolute error per category, and last one JSON line of counts.
//   node scripts/validate.mjs [--markdown docs/validation-table.md] [--expected-errors FILE] [--cli build/fitcheck]
// --expected-errors writes the median and p90 error of each category as JSON: the page shows them
// beside its figures (web/src/accuracy/expected-errors.json; a test keeps that copy current).
// Errors are (fitcheck - measured) / measured: +20% means fitcheck says 20% more (memory) or 20%
// faster (tokens/s) or 20% longer (seconds) than was measured.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const cli = path.resolve(repo, option('--cli') ?? 'build/fitcheck');
const markdownPath = option('--markdown');
const expectedErrorsPath = option('--expected-errors');

// Categories and the tolerance each target uses (the issues' targets: training memory 10%,
// training throughput 20%, serving latency/throughput 25%, serving memory 10%; the longest
// sequence that fits is a memory answer and shares memory's 10%).
const categories = {
  train_memory: { tolerance: 0.1, what: 'training peak memory per GPU' },
  train_max_context: { tolerance: 0.1, what: 'longest training sequence that fits (tokens)' },
  train_throughput: { tolerance: 0.2, what: 'training tokens/s per GPU' },
  train_mfu: { tolerance: 0.2, what: 'training MFU' },
  serve_ttft: { tolerance: 0.25, what: 'time to first token' },
  serve_tpot: { tolerance: 0.25, what: 'time per output token' },
  serve_throughput: { tolerance: 0.25, what: 'serving output tokens/s' },
  local_prompt: { tolerance: 0.25, what: 'local prompt processing tokens/s' },
  local_generation: { tolerance: 0.25, what: 'local generation tokens/s' },
  local_memory: { tolerance: 0.05, what: 'llama.cpp buffer per device (load log MiB)' },
  local_peak_memory: { tolerance: 0.1, what: 'MLX LM peak memory (mx.get_peak_memory, GB)' },
  serve_memory: { tolerance: 0.1, what: 'inference memory (weights, KV capacity)' },
};

// Subclasses: a category's comparisons of one kind, each printed and written beside the categories.
// The serving figures again over the comparisons whose requests did not queue (fixed batches, and
// load tests whose simulated wait is under half the TTFT): the error the page shows beside its
// latency table, which times one batch and no queue.
// A load test counts as queued when its simulated mean wait in the queue is over this share of its
// simulated mean TTFT (a definition of the class, not a fitted figure).
const queuedShareOfTtft = 0.5;
const subclasses = {
  serve_ttft_unqueued: { of: 'serve_ttft', what: 'time to first token, runs without a queue', keep: (r) => !r.queued },
  serve_tpot_unqueued: {
    of: 'serve_tpot',
    what: 'time per output token, runs without a queue',
    keep: (r) => !r.queued,
  },
  serve_throughput_unqueued: {
    of: 'serve_throughput',
    what: 'serving output tokens/s, runs without a queue',
    keep: (r) => !r.queued,
  },
};
// The local speeds by engine, and llama.cpp's by backend (the report's `backend`): the page shows
// the error of the class its estimate belongs to (web/src/accuracy/expected-error.ts).
const localBackends = ['cuda', 'metal', 'vulkan', 'rocm', 'sycl', 'cpu'];
for (const [kind, what] of [
  ['prompt', 'prompt tokens/s'],
  ['generation', 'generation tokens/s'],
]) {
  subclasses[`local_${kind}_llamacpp`] = {
    of: `local_${kind}`,
    what: `llama.cpp ${what}`,
    keep: (r) => r.engine === 'llamacpp',
  };
  for (const backend of localBackends)
    subclasses[`local_${kind}_llamacpp_${backend}`] = {
      of: `local_${kind}`,
      what: `llama.cpp ${what}, ${backend} backend`,
      keep: (r) => r.engine === 'llamacpp' && r.backend === backend,
    };
  subclasses[`local_${kind}_mlx`] = { of: `local_${kind}`, what: `MLX LM ${what}`, keep: (r) => r.engine === 'mlx' };
  // Runs that split the model between a GPU and the CPU (layers below -ngl, or routed experts kept in
  // RAM by --n-cpu-moe or tensor overrides): the placement most owners of one consumer GPU run.
  subclasses[`local_${kind}_llamacpp_hybrid`] = {
    of: `local_${kind}`,
    what: `llama.cpp ${what}, model split between GPU and CPU`,
    keep: (r) => r.engine === 'llamacpp' && r.hybrid,
  };
}
// llama-bench's two default tests, each on its own: issue #16's target names pp512 and tg128.
subclasses.local_llamabench_pp512 = {
  of: 'local_prompt',
  what: 'llama-bench pp512 tokens/s',
  keep: (r) => r.engine === 'llamacpp' && r.test === 'pp512',
};
subclasses.local_llamabench_tg128 = {
  of: 'local_generation',
  what: 'llama-bench tg128 tokens/s',
  keep: (r) => r.engine === 'llamacpp' && r.test === 'tg128',
};

// Splits a command line into words as a POSIX shell does for plain words and '...' / "..." quotes.
function shellWords(command) {
  const words = [];
  for (const match of command.matchAll(/(?:'([^']*)'|"([^"]*)"|(\S+?))(?=\s|$|'|")/g)) {
    const part = match[1] ?? match[2] ?? match[3];
    const glued = match.index > 0 && !/\s/.test(command[match.index - 1]);
    if (glued && words.length > 0) words[words.length - 1] += part;
    else words.push(part);
  }
  return words;
}

function runCommand(command) {
  const words = shellWords(command.trim());
  if (words[0] !== 'fitcheck') throw new Error(`a command must start with 'fitcheck': ${command}`);
  const text = execFileSync(cli, words.slice(1), { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(text);
}

const number = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

// Local comparisons (`fitcheck local` reports): llama-bench speeds and load-log buffers per device.
// Buffers are measured.<DEVICE>_<model|kv|compute|rs>_buffer_mib as the log prints them (CUDA_Host is CPU;
// CPU_Mapped is the CPU's model buffer of a mapped file).
function localComparisons(row, report, add) {
  const m = row.measured;
  // llama-bench's ppN: an N-token prompt, so the row's command must say --prompt-len N.
  const promptKey =
    Object.keys(m).find((key) => /^pp\d+_tokens_per_second$/.test(key)) ??
    (m.prompt_eval_tokens_per_second !== undefined ? 'prompt_eval_tokens_per_second' : undefined);
  const promptTokens = /^pp(\d+)_/.exec(promptKey ?? '')?.[1];
  if (promptTokens !== undefined && !new RegExp(`--prompt-len ${promptTokens}(\\s|$)`).test(row.fitcheck_command))
    throw new Error(`${row.id}: ${promptKey} needs --prompt-len ${promptTokens} in its fitcheck command`);
  // llama-bench's tgN: N tokens generated (tg128 by default; tables also print tg32, tg512).
  const generationKey = Object.keys(m).find((key) => /^tg\d+_tokens_per_second$/.test(key));
  const generation = generationKey !== undefined ? m[generationKey] : m.eval_tokens_per_second;
  // The llama-bench test a figure comes from (pp512, tg128, ...), for the per-test subclasses.
  const test = (key) => /^((?:pp|tg)\d+)_tokens_per_second$/.exec(key ?? '')?.[1];
  if (promptKey !== undefined)
    add('local_prompt', promptKey, m[promptKey], report.prompt_tokens_per_second, test(promptKey));
  add(
    'local_generation',
    'generation_tokens_per_second',
    generation,
    report.generation_tokens_per_second,
    test(generationKey),
  );
  for (const [key, mib] of Object.entries(m)) {
    const match = /^(.+)_(model|kv|compute|rs)_buffer_mib$/.exec(key);
    if (!match) continue;
    // CPU_Mapped: the CPU's model buffer of a mapped file, printed as the span of the file it maps.
    const mapped = match[1] === 'CPU_Mapped';
    const device = report.devices.find((d) => d.name === (mapped ? 'CPU' : match[1]));
    if (!device) throw new Error(`${row.id}: fitcheck reports no device ${match[1]}`);
    // rs: the recurrent state ("RS buffer size") of state-space and linear-attention layers.
    const field = mapped
      ? 'mapped_model_buffer_bytes'
      : match[2] === 'rs'
        ? 'recurrent_state_buffer_bytes'
        : `${match[2]}_buffer_bytes`;
    add('local_memory', `${match[1]} ${match[2]} buffer MiB`, mib, device[field] / 2 ** 20);
  }
}

// MLX LM comparisons (`fitcheck local --engine mlx` reports): what mlx_lm.benchmark or mlx_lm.generate
// prints, prompt_tps, generation_tps and peak_memory_gb (GB = 1e9 B, mx.get_peak_memory()).
function mlxComparisons(row, report, add) {
  const m = row.measured;
  add('local_prompt', 'prompt_tps', m.prompt_tps, report.prompt_tokens_per_second);
  add('local_generation', 'generation_tps', m.generation_tps, report.generation_tokens_per_second);
  add('local_peak_memory', 'peak_memory_gb', m.peak_memory_gb, report.peak_memory_bytes / 1e9);
}

// The phase a published serving figure measures when the row's nodes run one phase only
// (prefill/decode disaggregation): engine_settings.phase starting with 'decode' or 'prefill'.
function publishedPhase(row) {
  const phase = String(row.engine_settings?.phase ?? '').toLowerCase();
  if (phase.startsWith('decode')) return 'decode';
  if (phase.startsWith('prefill')) return 'prefill';
  return undefined;
}

// Serving comparisons: each published quantity beside the figure of fitcheck's infer report.

// The serve-sim figure for a published statistic: the row's *_stat says mean, median (p50) or
// average; anything else is taken as the mean, as benchmark tools report by default.
function servingStatistic(report, prefix, stat) {
  const text = String(stat ?? 'mean').toLowerCase();
  if (text.includes('median') || text.includes('p50')) return report[`${prefix}_p50`];
  return report[`${prefix}_mean`];
}

// Serving comparisons against a serve-sim report (a load test modelled as published): TTFT and
// TPOT at the row's statistic (inter-token latency compared with TPOT: the simulation delivers one
// token per step, so its mean ITL is its TPOT), output tokens/s over the replicas the run had.
function serveSimComparisons(row, report, add) {
  const m = row.measured;
  const seconds = (value) => (number(value) !== undefined ? value * 1e3 : undefined);
  add('serve_ttft', 'ttft_ms', m.ttft_ms, seconds(servingStatistic(report, 'ttft_seconds', m.ttft_stat)));
  const tpotStat = m.tpot_ms !== undefined ? m.tpot_stat : m.itl_stat;
  add(
    'serve_tpot',
    m.tpot_ms !== undefined ? 'tpot_ms' : 'itl_ms',
    m.tpot_ms ?? m.itl_ms,
    seconds(servingStatistic(report, 'tpot_seconds', tpotStat)),
  );
  add('serve_memory', 'kv_cache_tokens', m.kv_cache_tokens, report.scheduler.kv_capacity_tokens);
  const replicaGpus = report.workload.tp * report.workload.pp;
  if (m.output_tokens_per_second_per_gpu !== undefined) {
    add(
      'serve_throughput',
      'output_tokens_per_second_per_gpu',
      m.output_tokens_per_second_per_gpu,
      report.output_tokens_per_second / replicaGpus,
    );
  } else if (m.output_tokens_per_second !== undefined) {
    const replicas = (row.gpus ?? replicaGpus) / replicaGpus;
    add(
      'serve_throughput',
      'output_tokens_per_second',
      m.output_tokens_per_second,
      report.output_tokens_per_second * replicas,
    );
  }
}

// Serving comparisons: each published quantity beside the figure of fitcheck's infer report, or
// of its serve-sim report when the row's command simulates the load.
function servingComparisons(row, report) {
  const m = row.measured;
  const latency = report.latency;
  const out = [];
  // A load test whose requests mostly waited: its figures are the queue's, which the page's
  // per-batch latency table does not model (the unqueued classes leave them out).
  const queued =
    report.scheduler !== undefined && report.queue_seconds_mean > queuedShareOfTtft * report.ttft_seconds_mean;
  // The local engine and llama.cpp's backend, for the local subclasses.
  const llamaCpp = Array.isArray(report.devices) && report.llama_cpp_command !== undefined;
  const engine = llamaCpp ? 'llamacpp' : report.engine === 'mlx' ? 'mlx' : undefined;
  const backend = llamaCpp ? report.backend : undefined;
  // A GPU backend with layers or routed experts left on the CPU.
  const hybrid =
    llamaCpp && backend !== 'cpu' && (report.n_gpu_layers < report.n_layers || (report.n_cpu_moe ?? 0) > 0);
  const add = (category, quantity, measured, predicted, test) => {
    if (number(measured) !== undefined && number(predicted) !== undefined && measured > 0)
      out.push({ category, quantity, measured, predicted, queued, engine, backend, hybrid, test });
  };
  if (llamaCpp) {
    localComparisons(row, report, add);
    return out;
  }
  if (report.engine === 'mlx') {
    mlxComparisons(row, report, add);
    return out;
  }
  if (report.scheduler !== undefined) {
    serveSimComparisons(row, report, add);
    return out;
  }
  if (latency) {
    const genLen = latency.gen_len;
    const tpotMs = genLen > 0 ? (latency.decode_total_seconds / genLen) * 1e3 : undefined;
    add('serve_ttft', 'ttft_ms', m.ttft_ms, latency.time_to_first_token_seconds * 1e3);
    add('serve_tpot', m.tpot_ms !== undefined ? 'tpot_ms' : 'itl_ms', m.tpot_ms ?? m.itl_ms, tpotMs);
    const replicaGpus = latency.gpus;
    // A disaggregated deployment's decode (or prefill) nodes run that phase only: their published
    // throughput is the phase's, not a request's prefill and decode together.
    const phase = publishedPhase(row);
    if (phase === 'prefill') {
      add(
        'serve_throughput',
        'input_tokens_per_second_per_gpu',
        m.input_tokens_per_second_per_gpu,
        latency.prefill_tokens_per_second / replicaGpus,
      );
    } else if (m.output_tokens_per_second_per_gpu !== undefined) {
      add(
        'serve_throughput',
        'output_tokens_per_second_per_gpu',
        m.output_tokens_per_second_per_gpu,
        (phase === 'decode' ? latency.decode_tokens_per_second : latency.batch_tokens_per_second) / replicaGpus,
      );
    } else if (m.output_tokens_per_second !== undefined && row.engine !== 'llama.cpp') {
      // One replica's figure times the replicas the published run had.
      const replicas = (row.gpus ?? replicaGpus) / replicaGpus;
      add(
        'serve_throughput',
        'output_tokens_per_second',
        m.output_tokens_per_second,
        latency.batch_tokens_per_second * replicas,
      );
    }
    const prompt = m.pp512_tokens_per_second ?? m.prompt_eval_tokens_per_second;
    const generation = m.tg128_tokens_per_second ?? m.tg512_tokens_per_second ?? m.eval_tokens_per_second;
    add(
      'local_prompt',
      m.pp512_tokens_per_second !== undefined ? 'pp512_tokens_per_second' : 'prompt_eval_tokens_per_second',
      prompt,
      latency.prefill_tokens_per_second,
    );
    add('local_generation', 'generation_tokens_per_second', generation, latency.decode_tokens_per_second);
  }
  add('serve_memory', 'weights_gib', m.weights_gib, report.weight_bytes / 2 ** 30);
  // The KV capacity the engine's budget rule leaves (infer --engine: engine_capacity).
  add('serve_memory', 'kv_cache_tokens', m.kv_cache_tokens, report.engine_capacity?.kv_capacity_tokens);
  // What vLLM's budget leaves for the KV cache, as its start-up log prints it (infer --engine vllm: engine_start).
  const available = report.engine_start?.available_bytes;
  add(
    'serve_memory',
    'available_kv_cache_gib',
    m.available_kv_cache_gib,
    available === undefined ? undefined : available / 2 ** 30,
  );
  return out;
}

// Training comparisons: peak memory per GPU, tokens/s per GPU and MFU beside fitcheck's train report.
function trainingComparisons(row, report) {
  const m = row.measured;
  const out = [];
  const add = (category, quantity, measured, predicted) => {
    if (number(measured) !== undefined && number(predicted) !== undefined && measured > 0)
      out.push({ category, quantity, measured, predicted });
  };
  add('train_memory', 'peak_memory_gib', m.peak_memory_gib, report.total_bytes_per_gpu / 2 ** 30);
  add('train_memory', 'peak_memory_gb', m.peak_memory_gb, report.total_bytes_per_gpu / 1e9);
  // The longest sequence a published run could train without running out of memory, beside the
  // longest fitcheck finds at the run's micro-batch.
  add('train_max_context', 'max_seq_len_fitting', m.max_seq_len_fitting, report.max_sequence_tokens);
  if (report.time) {
    add(
      'train_throughput',
      'tokens_per_second_per_gpu',
      m.tokens_per_second_per_gpu,
      report.time.tokens_per_second_per_gpu,
    );
    const mfu = m.mfu !== undefined && m.mfu > 1 ? m.mfu / 100 : m.mfu; // published as % or as a fraction
    add('train_mfu', 'mfu', mfu, report.time.mfu);
  }
  return out;
}

const sets = [
  { file: 'validation/training.json', compare: trainingComparisons },
  { file: 'validation/serving.json', compare: servingComparisons },
];

const results = [];
const refused = [];
const unmodelled = [];
let rows = 0;
for (const set of sets) {
  const file = path.join(repo, set.file);
  if (!fs.existsSync(file)) continue;
  for (const row of JSON.parse(fs.readFileSync(file, 'utf8'))) {
    rows += 1;
    if (!row.fitcheck_command) {
      // no config.json for the model (e.g. a paper's GPT shapes): not comparable yet
      unmodelled.push(row.id);
      continue;
    }
    let report;
    try {
      report = runCommand(row.fitcheck_command);
    } catch (error) {
      refused.push({
        id: row.id,
        why: String(error.stderr || error.message)
          .trim()
          .split('\n')[0],
      });
      continue;
    }
    for (const c of set.compare(row, report)) results.push({ id: row.id, ...c, error: c.predicted / c.measured - 1 });
  }
}

const percent = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const quantile = (values, q) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));

for (const r of results)
  console.log(
    `${r.category}\t${r.id}\t${r.quantity}\tmeasured ${fmt(r.measured)}\tfitcheck ${fmt(r.predicted)}\t${percent(r.error)}`,
  );
for (const r of refused) console.log(`refused\t${r.id}\t${r.why}`);

const summary = { rows, comparisons: results.length, refused: refused.length, without_command: unmodelled.length };
const lines = [];
// Each category's comparisons; a subclass is the comparisons of its category that it keeps.
const comparisonsOf = (name) =>
  subclasses[name]
    ? results.filter((r) => r.category === subclasses[name].of && subclasses[name].keep(r))
    : results.filter((r) => r.category === name);
const classes = {
  ...categories,
  ...Object.fromEntries(
    Object.entries(subclasses).map(([name, c]) => [name, { tolerance: categories[c.of].tolerance, what: c.what }]),
  ),
};
for (const [name, category] of Object.entries(classes)) {
  const errors = comparisonsOf(name).map((r) => Math.abs(r.error));
  if (errors.length === 0) continue;
  const within = errors.filter((e) => e <= category.tolerance).length;
  summary[`${name}_rows`] = errors.length;
  summary[`${name}_within_${Math.round(category.tolerance * 100)}pct`] = within;
  summary[`${name}_median_abs_error`] = Number(quantile(errors, 0.5).toFixed(4));
  summary[`${name}_p90_abs_error`] = Number(quantile(errors, 0.9).toFixed(4));
  lines.push(
    `${name} (${category.what}): ${errors.length} comparisons, ${within} within ±${category.tolerance * 100}%, ` +
      `median |error| ${(100 * quantile(errors, 0.5)).toFixed(1)}%, p90 ${(100 * quantile(errors, 0.9)).toFixed(1)}%`,
  );
}
// The names other tools read (issue #14): training memory within 10%, throughput within 20%.
summary.train_memory_within_10pct = summary.train_memory_within_10pct ?? 0;
summary.train_throughput_within_20pct = summary.train_throughput_within_20pct ?? 0;
for (const line of lines) console.log(line);

if (markdownPath) {
  const table = ['| category | row | quantity | measured | fitcheck | error |', '|---|---|---|---|---|---|'];
  for (const r of results)
    table.push(
      `| ${r.category} | ${r.id} | ${r.quantity} | ${fmt(r.measured)} | ${fmt(r.predicted)} | ${percent(r.error)} |`,
    );
  for (const r of refused) table.push(`| refused | ${r.id} | | | | ${r.why.replace(/\|/g, '\\|')} |`);
  const text = [
    '<!-- Written by `npm run validate -- --markdown FILE`; do not edit by hand. -->',
    '',
    ...lines.map((l) => `- ${l}`),
    '',
    ...table,
    '',
  ].join('\n');
  fs.writeFileSync(path.resolve(repo, markdownPath), text);
}
if (expectedErrorsPath) {
  // Per category: how many published runs, the median and p90 of |error|, and the median signed
  // error (its sign says whether fitcheck tends high or low).
  const expected = {};
  for (const [name, category] of Object.entries(classes)) {
    const signed = comparisonsOf(name).map((r) => r.error);
    if (signed.length === 0) continue;
    const absolute = signed.map(Math.abs);
    expected[name] = {
      what: category.what,
      runs: signed.length,
      median_abs_error: Number(quantile(absolute, 0.5).toFixed(3)),
      p90_abs_error: Number(quantile(absolute, 0.9).toFixed(3)),
      median_error: Number(quantile(signed, 0.5).toFixed(3)),
    };
  }
  const note = 'Written by `npm run validate -- --expected-errors FILE` from validation/*.json; do not edit by hand.';
  fs.writeFileSync(
    path.resolve(repo, expectedErrorsPath),
    JSON.stringify({ note, categories: expected }, null, 2) + '\n',
  );
}
console.log(JSON.stringify(summary));
