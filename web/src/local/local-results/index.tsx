// SPDX-License-Identifier: MIT
// The Local tab's results: layers offloaded, each backend's model, KV and compute buffers against
// its limit, prompt and generation speed, and the llama-server command and Ollama parameters; or MLX
// LM's peak memory line by line, its speeds and the mlx_lm.benchmark command.
import type { LocalReport, MlxReport } from '../../core/types';
import {
  expectedError,
  localSpeedExpectedError,
  type AccuracyCategory,
  type ExpectedError,
} from '../../accuracy/expected-error';
import type { ByteUnit } from '../../app/inputs';
import { CopyButton } from '../../ui/copy-button';
import { withThousands } from '../../ui/format';
import { MlxConversions, WeightFormats, type FormatsProps } from '../local-formats';

function bytes(value: number, unit: ByteUnit): string {
  return unit === 'GiB' ? `${(value / 2 ** 30).toFixed(2)} GiB` : `${(value / 1e9).toFixed(2)} GB`;
}

function Expected({ category, testId }: { category: AccuracyCategory; testId: string }) {
  return <ExpectedText expected={expectedError(category)} testId={testId} />;
}

function ExpectedText({
  expected,
  testId,
  prefix = '',
}: {
  expected: ExpectedError | undefined;
  testId: string;
  prefix?: string;
}) {
  return expected ? (
    <span class="expected-error" title={expected.detail} data-testid={testId}>
      {prefix + expected.text}
    </span>
  ) : null;
}

/** Seconds as the Local tab's device lines print them. */
function milliseconds(seconds: number): string {
  return `${(seconds * 1e3).toFixed(2)} ms`;
}

// The command that reproduces the estimate, with its copy button.
function Command({ text }: { text: string }) {
  return (
    <p>
      <code data-testid="local-command">{text}</code>{' '}
      <CopyButton label="Copy command" testId="local-copy-command" text={() => text} />
    </p>
  );
}

function Assumptions({ heading, lines }: { heading: string; lines: string[] }) {
  return (
    <>
      <h3>{heading}</h3>
      <ul data-testid="local-assumptions">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}

function MlxResults({ report, unit, ...formats }: { report: MlxReport; unit: ByteUnit } & FormatsProps) {
  const g = report.generation_token_time;
  const p = report.prompt_time;
  return (
    <section data-testid="local-results">
      <h2>MLX LM on this chip</h2>
      <p data-testid="local-summary" class={report.fits ? 'verdict fits' : 'verdict'}>
        {`Peak memory ${bytes(report.peak_memory_bytes, unit)} of the GPU's ${bytes(report.working_set_bytes, unit)} ` +
          `working set: ${report.fits ? 'fits' : 'does not fit'}`}
        <Expected category="local_peak_memory" testId="mlx-peak-expected-error" />
      </p>
      <p>{`Weights: ${report.weights}, ${report.bits_per_weight.toFixed(2)} bits a weight.`}</p>
      <table class="figures" data-testid="mlx-terms">
        <thead>
          <tr>
            <th scope="col">Peak (mx.get_peak_memory)</th>
            <th scope="col" class="number">
              Size
            </th>
            <th scope="col">How</th>
          </tr>
        </thead>
        <tbody>
          {report.terms.map((term) => (
            <tr key={term.name}>
              <th scope="row">{term.name}</th>
              <td class="number">{bytes(term.bytes, unit)}</td>
              <td>{term.formula}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">peak</th>
            <td class="number" data-testid="mlx-peak">
              {bytes(report.peak_memory_bytes, unit)}
            </td>
            <td />
          </tr>
        </tbody>
      </table>
      <ul data-testid="local-speed">
        <li>
          {`Prompt ${withThousands(report.prompt_tokens_per_second)} tokens/s`}
          <Expected category="local_prompt" testId="mlx-prompt-expected-error" />
        </li>
        <li>
          {`Generation ${report.generation_tokens_per_second.toFixed(1)} tokens/s`}
          <Expected category="local_generation" testId="mlx-generation-expected-error" />
        </li>
      </ul>
      <ul data-testid="local-token-time">
        <li>
          {`A generated token: (${(g.weight_bytes / 1e9).toFixed(2)} GB of weights + ${(g.kv_bytes / 1e9).toFixed(2)} GB ` +
            `of cache) at ${g.bandwidth_fraction.toFixed(3)} × ${(g.bandwidth_bytes_per_second / g.bandwidth_fraction / 1e9).toFixed(0)} GB/s ` +
            `+ ${g.kernels} kernels × ${(g.seconds_per_kernel * 1e6).toFixed(1)} µs = ${(g.seconds * 1e3).toFixed(2)} ms`}
        </li>
        <li>
          {`The prompt: ${(p.flops / 1e12).toFixed(2)} TFLOP at ${p.compute_fraction.toFixed(2)} × ` +
            `${(p.flops_per_second / p.compute_fraction / 1e12).toFixed(1)} TFLOP/s (or the weights' read, if longer) over ` +
            `${p.chunks} chunk${p.chunks === 1 ? '' : 's'}, then the first token's step (${(p.first_token_seconds * 1e3).toFixed(1)} ms): ` +
            `${p.seconds.toFixed(2)} s`}
        </li>
      </ul>
      <Command text={report.mlx_command} />
      <MlxConversions unit={unit} {...formats} />
      <Assumptions heading="What the estimate assumed" lines={report.assumptions} />
    </section>
  );
}

export function LocalResults({
  report,
  unit,
  ...formats
}: { report: LocalReport | MlxReport; unit: ByteUnit } & FormatsProps) {
  if ('engine' in report && report.engine === 'mlx') return <MlxResults report={report} unit={unit} {...formats} />;
  return <LlamaCppResults report={report as LocalReport} unit={unit} {...formats} />;
}

/** The headline: where the model runs, how fast, and what a generated token waits on, or what is short. */
function Verdict({ report, unit }: { report: LocalReport; unit: ByteUnit }) {
  const v = report.verdict;
  if (v.runs_on === 'does_not_fit') {
    const short = report.devices.find((device) => device.name === v.short_device);
    return (
      <p class="verdict-banner no-fit" data-testid="local-verdict" role="status">
        <strong>Does not fit</strong>
        {`: ${v.short_device} needs ${bytes(v.shortfall_bytes, unit)} more than its limit of ` +
          `${short ? bytes(short.limit_bytes, unit) : '?'}. A shorter context, a smaller weight format, a quantized ` +
          `KV cache or more memory would help.`}
      </p>
    );
  }
  const gpus = report.devices.filter((device) => device.gpu !== '').length;
  const gpuWord = gpus > 1 ? 'GPUs' : 'GPU';
  const speeds =
    `about ${report.generation_tokens_per_second.toFixed(1)} tokens/s generating, ` +
    `${withThousands(report.prompt_tokens_per_second)} tokens/s reading a prompt`;
  let headline: string;
  let detail: string;
  if (v.runs_on === 'gpus') {
    headline = `Runs wholly on the ${gpuWord}`;
    detail = `: ${speeds}.`;
  } else if (v.runs_on === 'cpu') {
    headline = 'Runs on the CPU';
    detail = `, every layer in RAM: ${speeds}.`;
  } else {
    headline = `Runs split between the ${gpuWord} and RAM`;
    detail =
      `: ${v.layers_on_gpus} of ${v.layers_on_gpus + v.layers_in_ram} layers on the ${gpuWord}, ${v.layers_in_ram} in RAM` +
      (v.expert_layers_in_ram > 0 ? `, the routed experts of ${v.expert_layers_in_ram} layers in RAM` : '') +
      (v.output_in_ram ? ', the output layer in RAM' : '') +
      `. It runs at ${speeds}; a generated token waits on ` +
      `${v.generation_bound_device === 'CPU' ? 'the CPU' : v.generation_bound_device} for ` +
      `${(v.generation_bound_share * 100).toFixed(0)}% of its time.`;
  }
  return (
    <p class="verdict-banner fits" data-testid="local-verdict" role="status">
      <strong>{headline}</strong>
      {detail}
    </p>
  );
}

function LlamaCppResults({ report, unit, ...formats }: { report: LocalReport; unit: ByteUnit } & FormatsProps) {
  const cpu = report.devices.find((device) => device.gpu === '');
  const mapped = cpu?.mapped_model_buffer_bytes ?? 0;
  const encoder = report.mmproj.type !== 'off';
  const recurrent = report.recurrent_cells > 0;
  return (
    <section data-testid="local-results">
      <h2>llama.cpp placement</h2>
      <Verdict report={report} unit={unit} />
      <p data-testid="local-summary" class={report.fits ? 'verdict fits' : 'verdict'}>
        {`Offloaded ${report.n_gpu_layers}/${report.n_layers} layers to the GPU`}
        {report.n_cpu_moe > 0
          ? `, routed experts of ${report.n_cpu_moe} layers in RAM${report.fitted ? " (llama.cpp's --fit)" : ''}`
          : report.fitted
            ? " (llama.cpp's --fit)"
            : ''}
        {report.fits ? '' : ' (does not fit)'}
      </p>
      <table class="figures" data-testid="local-devices">
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col" class="number">
              Layers
            </th>
            <th scope="col" class="number">
              Model
            </th>
            <th scope="col" class="number">
              KV cache
            </th>
            {recurrent ? (
              <th scope="col" class="number">
                State
              </th>
            ) : null}
            <th scope="col" class="number">
              Compute
            </th>
            {encoder ? (
              <th scope="col" class="number">
                Encoder
              </th>
            ) : null}
            <th scope="col" class="number">
              Total
            </th>
            <th scope="col" class="number">
              Limit
            </th>
          </tr>
        </thead>
        <tbody>
          {report.devices.map((device) => (
            <tr key={device.name} class={device.fits ? '' : 'over'}>
              <th scope="row">{device.name}</th>
              <td class="number">{device.layers}</td>
              <td class="number">{bytes(device.model_buffer_bytes, unit)}</td>
              <td class="number">{bytes(device.kv_buffer_bytes, unit)}</td>
              {recurrent ? <td class="number">{bytes(device.recurrent_state_buffer_bytes, unit)}</td> : null}
              <td class="number">{bytes(device.compute_buffer_bytes, unit)}</td>
              {encoder ? <td class="number">{bytes(device.mmproj_buffer_bytes, unit)}</td> : null}
              <td class="number">{bytes(device.total_bytes, unit)}</td>
              <td class="number">{device.limit_bytes > 0 ? bytes(device.limit_bytes, unit) : '-'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {encoder ? (
        <p data-testid="local-encoder">
          {`Encoder: the vision/audio encoders (${report.mmproj.encoder_parameters.toLocaleString('en-US')} parameters) ` +
            `as llama.cpp's ${report.mmproj.type} mmproj file, ${bytes(report.mmproj.bytes, unit)} on ` +
            `${report.mmproj.device}; its compute buffer for an image is not counted.`}
        </p>
      ) : null}
      {recurrent ? (
        <p data-testid="local-state">
          {`State: the state-space and linear-attention layers keep a fixed recurrent state instead of a KV cache ` +
            `(llama.cpp's RS buffer), ${bytes(report.recurrent_state_bytes, unit)} in f32 for ${report.recurrent_cells} ` +
            `slot${report.recurrent_cells > 1 ? 's' : ''}, one per parallel sequence; it does not grow with the ` +
            `context. llama-server without -np runs 4 slots, so the command sets it.`}
        </p>
      ) : null}
      {cpu && mapped > cpu.model_buffer_bytes ? (
        <p data-testid="local-mapped">
          {`llama.cpp maps the file and prints the CPU's model buffer as CPU_Mapped ${bytes(mapped, unit)}: the span ` +
            `from the first to the last tensor kept on the CPU, GPU tensors between them included (read once to ` +
            `upload them, then the system may drop those pages). The RAM the CPU needs is its Model column.`}
        </p>
      ) : null}
      <ExpectedText
        expected={expectedError('local_memory')}
        testId="local-buffers-expected-error"
        prefix="Buffers against llama.cpp's load logs: "
      />
      <ul data-testid="local-speed">
        <li>
          <span data-testid="local-prompt-speed">
            {`Prompt ${withThousands(report.prompt_tokens_per_second)} tokens/s` +
              (report.prompt_pipelined
                ? ` (ubatches overlapped over the GPUs: ${report.prompt_pipeline_speedup.toFixed(2)}x the time without)`
                : '') +
              (report.prompt_scores_time_share > 0
                ? ` (${(report.prompt_scores_time_share * 100).toFixed(0)}% of the work moves attention scores: flash attention is off)`
                : '') +
              (report.prompt_expert_combine_time_share >= 0.005
                ? ` (${(report.prompt_expert_combine_time_share * 100).toFixed(0)}% of the work combines the routed experts' outputs in memory)`
                : '')}
          </span>
          <ExpectedText
            expected={localSpeedExpectedError('prompt', report.backend)}
            testId="local-prompt-expected-error"
          />
        </li>
        <li>
          <span data-testid="local-generation-speed">
            {`Generation ${report.generation_tokens_per_second.toFixed(1)} tokens/s ` +
              `(${report.generation_tokens_per_second_empty_context.toFixed(1)} at an empty context, ` +
              `${report.generation_tokens_per_second_full_context.toFixed(1)} with it full)`}
          </span>
          <ExpectedText
            expected={localSpeedExpectedError('generation', report.backend)}
            testId="local-generation-expected-error"
          />
        </li>
      </ul>
      <p>{`The prompt, ${report.prompt_tokens} tokens in ${report.prompt_ubatches} ubatch${report.prompt_ubatches === 1 ? '' : 'es'}, device by device:`}</p>
      <ul data-testid="local-prompt-time">
        {report.devices
          .filter((device) => device.prompt_time.seconds > 0)
          .map((device) => {
            const t = device.prompt_time;
            const work = t.offloaded
              ? `weights copied to ${t.offload_device} over PCIe ${milliseconds(t.offload_copy_seconds)}, then multiplied there ${milliseconds(t.multiply_seconds)}`
              : t.multiply_seconds >= t.weight_read_seconds
                ? `multiplies ${milliseconds(t.multiply_seconds)} (longer than reading its weights, ${milliseconds(t.weight_read_seconds)})`
                : `its weights read ${milliseconds(t.weight_read_seconds)} (longer than its multiplies, ${milliseconds(t.multiply_seconds)})`;
            return (
              <li key={device.name}>
                {`${device.name}: ${work}` +
                  (t.expert_combine_seconds > 0 ? `, experts' combine ${milliseconds(t.expert_combine_seconds)}` : '') +
                  (t.scores_seconds > 0 ? `, attention scores ${milliseconds(t.scores_seconds)}` : '') +
                  (t.crossing_seconds > 0 ? `, copies in ${milliseconds(t.crossing_seconds)}` : '') +
                  (t.handoff_seconds > 0 ? `, handoffs in ${milliseconds(t.handoff_seconds)}` : '') +
                  `: ${milliseconds(t.seconds)} of the prompt`}
              </li>
            );
          })}
      </ul>
      <p>One generated token, device by device:</p>
      <ul data-testid="local-token-time">
        {report.devices
          .filter((device) => device.generation_token_time.seconds > 0)
          .map((device) => {
            const t = device.generation_token_time;
            const peak = t.bandwidth_bytes_per_second / t.bandwidth_fraction / 1e9;
            return (
              <li key={device.name}>
                {`${device.name}: ${(t.bytes / 1e9).toFixed(2)} GB read at ${t.bandwidth_fraction.toFixed(2)} × ` +
                  `${peak.toFixed(0)} GB/s = ${milliseconds(t.bytes / t.bandwidth_bytes_per_second)}` +
                  (t.compute_seconds > t.bytes / t.bandwidth_bytes_per_second
                    ? `, its multiplies slower: ${milliseconds(t.compute_seconds)}`
                    : '') +
                  ', ' +
                  `${t.graph_ops} graph ops × ${(t.seconds_per_op * 1e6).toFixed(2)} µs = ` +
                  milliseconds(t.graph_ops * t.seconds_per_op) +
                  (t.crossing_seconds > 0 ? `, ${(t.crossing_seconds * 1e3).toFixed(3)} ms of copies in` : '') +
                  (t.handoffs > 0
                    ? `, ${t.handoffs} handoff${t.handoffs === 1 ? '' : 's'} from another backend = ${milliseconds(t.handoff_seconds)}`
                    : '') +
                  `: ${milliseconds(t.seconds)} of each generated token`}
              </li>
            );
          })}
      </ul>
      <Command text={report.llama_cpp_command} />
      <p data-testid="local-ollama">
        {`Ollama: num_gpu ${report.ollama_parameters.num_gpu}, num_ctx ${report.ollama_parameters.num_ctx}; ` +
          `server environment ${report.ollama_parameters.environment.join(' ')}`}
      </p>
      <WeightFormats unit={unit} {...formats} />
      <Assumptions heading="What the placement assumed" lines={report.assumptions} />
    </section>
  );
}
