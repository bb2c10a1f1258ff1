// SPDX-License-Identifier: MIT
// The Local tab: its options, the form, and the results of the real core's localReport (call 13).
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { defaultLocalInputs, localOptions } from '../src/local/local-inputs';
import { LocalForm } from '../src/local/local-form';
import { LocalResults } from '../src/local/local-results';
import { core, fixtureConfig } from './support/core';
import type { MlxOptions } from '../src/core/types';

afterEach(cleanup);

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const gpus = core.localGpuCatalog();
const cpus = core.cpuCatalog();
const formats = core.formatCatalog();

describe('local options', () => {
  test('every field given becomes its flag; empty ones are left to the core', () => {
    expect(localOptions(defaultLocalInputs)).toEqual({
      ram_gib: '64',
      gpu: 'rtx-4090',
      weights: 'q4_k_m',
      context: '8192',
      kv_dtype: 'f16',
      flash_attention: 'on',
      kv_offload: 'on',
      mmproj_offload: 'on',
    });
    expect(localOptions({ ...defaultLocalInputs, nGpuLayers: ' 20 ', tensorSplit: '3,1' })).toMatchObject({
      n_gpu_layers: '20',
      tensor_split: '3,1',
    });
  });
  test("the file's mapping is the build's default unless chosen (b7668-b7852 read it with direct I/O)", () => {
    expect(localOptions(defaultLocalInputs)).not.toHaveProperty('mmap');
    const mapped = (inputs: Partial<typeof defaultLocalInputs>) =>
      core.localReport(llama, localOptions({ ...defaultLocalInputs, ...inputs })).mmap;
    expect(mapped({})).toBe(true);
    expect(mapped({ llamaCppBuild: 'b7700' })).toBe(false);
    expect(mapped({ llamaCppBuild: 'b7700', mmap: 'on' })).toBe(true);
    expect(mapped({ llamaCppBuild: 'b7853' })).toBe(true);
    expect(mapped({ mmap: 'off' })).toBe(false);
  });
  test('the RAM as installed times the CPU layers (--ram-mts, --ram-channels)', () => {
    const qwen = fixtureConfig('Qwen--Qwen3-30B-A3B.json');
    const cpuOnly = { ...defaultLocalInputs, gpu: '', cpu: 'ryzen-9-7950x', context: '640' };
    const spec = core.localReport(qwen, localOptions(cpuOnly));
    const expo = core.localReport(qwen, localOptions({ ...cpuOnly, ramMts: '6000', ramChannels: '2' }));
    expect(localOptions({ ...cpuOnly, ramMts: ' 6000 ' })).toMatchObject({ ram_mts: '6000' });
    // Every layer reads RAM at the installed 6000 MT/s, 6000 / 5200 faster (two dies' links, 128 GB/s, are
    // above both); each graph node's barrier on the 16 threads costs the same.
    const cpuToken = (report: typeof spec) => report.devices[report.devices.length - 1].generation_token_time;
    const [before, after] = [cpuToken(spec), cpuToken(expo)];
    expect(after.bandwidth_bytes_per_second / before.bandwidth_bytes_per_second).toBeCloseTo(6000 / 5200, 6);
    expect(after.seconds_per_op).toBe(before.seconds_per_op);
    const readSeconds = (t: typeof before) => t.seconds - t.graph_ops * t.seconds_per_op;
    expect(readSeconds(before) / readSeconds(after)).toBeCloseTo(6000 / 5200, 6);
    expect(expo.generation_tokens_per_second).toBeGreaterThan(spec.generation_tokens_per_second);
    expect(expo.assumptions.some((line) => line.includes('2 channels x 8 B x 6000 MT/s = 96 GB/s'))).toBe(true);
    expect(() => core.localReport(qwen, localOptions({ ...cpuOnly, cpu: '', ramMts: '6000' }))).toThrow(
      /option 'ram_mts'/,
    );
  });
  test("a MoE model too large for the GPU: every layer on it, the fewest layers' experts in RAM (llama.cpp's --fit)", () => {
    const qwen = fixtureConfig('Qwen--Qwen3-30B-A3B.json');
    const report = core.localReport(qwen, localOptions({ ...defaultLocalInputs, gpu: 'rtx-4090', weights: 'fp16' }));
    expect(report.fitted).toBe(true);
    expect(report.n_gpu_layers).toBe(report.n_layers);
    expect(report.n_cpu_moe).toBeGreaterThan(0);
    expect(report.llama_cpp_command).toContain(` --n-cpu-moe ${report.n_cpu_moe} `);
    render(<LocalResults report={report} unit="GiB" />);
    expect(screen.getByTestId('local-summary').textContent).toBe(
      `Offloaded 49/49 layers to the GPU, routed experts of ${report.n_cpu_moe} layers in RAM (llama.cpp's --fit)`,
    );
    // A generated token leaves the GPU for the CPU and comes back in each of those layers: the CPU's line
    // counts the handoffs into it, at the time #17795 measured for one.
    const cpu = report.devices[report.devices.length - 1].generation_token_time;
    expect(cpu.handoffs).toBe(report.n_cpu_moe);
    expect(cpu.handoff_seconds).toBeCloseTo(report.n_cpu_moe * (1 / 295.02 - 1 / 317.25), 9);
    const tokenLines = within(screen.getByTestId('local-token-time')).getAllByRole('listitem');
    expect(tokenLines[tokenLines.length - 1].textContent).toContain(
      `${report.n_cpu_moe} handoffs from another backend`,
    );
  });
  test('a dense model too large for two GPUs: --fit fills them from the last and writes its split', () => {
    const llama70b = fixtureConfig('meta-llama--Llama-3.1-70B.json');
    const report = core.localReport(
      llama70b,
      localOptions({ ...defaultLocalInputs, gpu: 'rtx-3060-12gb,rtx-3080-10gb', weights: 'q4_k_m' }),
    );
    expect(report.fitted).toBe(true);
    expect(report.n_cpu_moe).toBe(0);
    const [first, second] = report.devices;
    expect(report.n_gpu_layers).toBe(first.layers + second.layers);
    expect(report.llama_cpp_command).toContain(
      ` -ngl ${report.n_gpu_layers} --tensor-split ${first.layers},${second.layers} `,
    );
    // Each GPU keeps --fit's 1024 MiB: the limit already keeps CUDA's 457 of them.
    for (const gpu of [first, second])
      expect(gpu.total_bytes).toBeLessThanOrEqual(gpu.limit_bytes - (1024 - 457) * 2 ** 20);
    render(<LocalResults report={report} unit="GiB" />);
    expect(screen.getByTestId('local-summary').textContent).toBe(
      `Offloaded ${report.n_gpu_layers}/81 layers to the GPU (llama.cpp's --fit)`,
    );
  });
  test("experts in RAM on a 285K's default 4 threads: the token waits on the CPU's multiplies", () => {
    const oss = fixtureConfig('openai--gpt-oss-120b.json');
    const report = core.localReport(
      oss,
      localOptions({
        ...defaultLocalInputs,
        gpu: 'rtx-5090',
        weights: 'mxfp4',
        cpu: 'core-ultra-9-285k',
        ramGib: '128',
        nGpuLayers: '99',
        nCpuMoe: '36',
      }),
    );
    const cpu = report.devices[report.devices.length - 1].generation_token_time;
    const reads = cpu.bytes / cpu.bandwidth_bytes_per_second;
    expect(cpu.compute_seconds).toBeGreaterThan(reads);
    expect(cpu.seconds).toBeCloseTo(
      cpu.compute_seconds + cpu.graph_ops * cpu.seconds_per_op + cpu.crossing_seconds + cpu.handoff_seconds,
      9,
    );
    // A GPU's line has no multiplies of its own.
    expect(report.devices[0].generation_token_time.compute_seconds).toBe(0);
    render(<LocalResults report={report} unit="GiB" />);
    const lines = within(screen.getByTestId('local-token-time')).getAllByRole('listitem');
    expect(lines[lines.length - 1].textContent).toContain(
      `its multiplies slower: ${(cpu.compute_seconds * 1e3).toFixed(2)} ms`,
    );
  });
  test('tokens already cached slow the prompt and the generation (llama-bench -d)', () => {
    const fresh = core.localReport(llama, localOptions(defaultLocalInputs));
    const deep = core.localReport(llama, localOptions({ ...defaultLocalInputs, depth: '6000' }));
    expect(localOptions({ ...defaultLocalInputs, depth: ' 6000 ' })).toMatchObject({ depth: '6000' });
    expect(deep.prompt_tokens_per_second).toBeLessThan(fresh.prompt_tokens_per_second);
    expect(deep.generation_tokens_per_second).toBeLessThan(fresh.generation_tokens_per_second);
    expect(deep.assumptions.some((line) => line.startsWith('depth: 6000 tokens'))).toBe(true);
    // 6000 + the default 512-token prompt + 128 generated tokens do not fit a 6144-token context.
    expect(() =>
      core.localReport(
        llama,
        localOptions({ ...defaultLocalInputs, depth: '6000', context: '6144', promptLen: '512' }),
      ),
    ).toThrow(/option 'prompt_len'/);
  });
  test('a llama.cpp build (--llama-cpp-build): before b2822 every CUDA op is launched from the host', () => {
    const current = core.localReport(llama, localOptions(defaultLocalInputs));
    const inputs = { ...defaultLocalInputs, llamaCppBuild: ' b2821 ' };
    expect(localOptions(inputs)).toMatchObject({ llama_cpp_build: 'b2821' });
    const old = core.localReport(llama, localOptions(inputs));
    expect(old.generation_tokens_per_second).toBeLessThan(current.generation_tokens_per_second);
    expect(old.assumptions.some((line) => line.startsWith('generation: no CUDA graph (llama.cpp b2821'))).toBe(true);
    // Before b3216 a prompt's quantized weights went to cuBLAS, dequantized (MMQ was not yet the default).
    expect(old.assumptions.some((line) => line.startsWith('--cuda-mmq off'))).toBe(true);
    expect(() => core.localReport(llama, localOptions({ ...defaultLocalInputs, llamaCppBuild: 'x12' }))).toThrow(
      /option 'llama_cpp_build'/,
    );
  });
});

describe('the Local tab', () => {
  test('experts kept in RAM: the CPU_Mapped span llama.cpp prints is shown beside the RAM the CPU needs', () => {
    const qwen = fixtureConfig('Qwen--Qwen3-30B-A3B.json');
    const inputs = { ...defaultLocalInputs, gpu: 'rtx-4090,rtx-5090', tensorSplit: '9862,31518', ramGib: '128' };
    const options = { ...localOptions(inputs), context: '16384', flash_attention: 'off', n_cpu_moe: '48' };
    const report = core.localReport(qwen, options);
    const cpu = report.devices.find((device) => device.name === 'CPU')!;
    // llama.cpp b5622 printed "CPU_Mapped model buffer size = 17447.91 MiB" for this placement.
    expect(cpu.mapped_model_buffer_bytes! / 2 ** 20).toBeCloseTo(17447.91, 1);
    render(<LocalResults report={report} unit="GiB" />);
    expect(screen.getByTestId('local-mapped').textContent).toContain('CPU_Mapped 17.04 GiB');
    // The prompt, device by device: the experts in RAM are copied to the first GPU over PCIe for each
    // ubatch and multiplied there (llama.cpp's op offload); the GPUs' lines say how their time is made.
    const prompt = within(screen.getByTestId('local-prompt-time')).getAllByRole('listitem');
    expect(prompt.map((line) => line.textContent?.split(':')[0])).toEqual(['CUDA0', 'CUDA1', 'CPU']);
    const ms = (seconds: number) => `${(seconds * 1e3).toFixed(2)} ms`;
    // Every layer is on a GPU, so no hidden state crosses to the CPU.
    expect(cpu.prompt_time.crossing_seconds).toBe(0);
    expect(prompt[2].textContent).toBe(
      `CPU: weights copied to CUDA0 over PCIe ${ms(cpu.prompt_time.offload_copy_seconds)}, then multiplied there ` +
        `${ms(cpu.prompt_time.multiply_seconds)}: ${ms(cpu.prompt_time.seconds)} of the prompt`,
    );
    expect(prompt[0].textContent).toContain(
      `experts' combine ${ms(report.devices[0].prompt_time.expert_combine_seconds)}`,
    );
    // CUDA0 hands each ubatch's hidden state to CUDA1: one blocking handoff, shown on CUDA1's line.
    expect(report.devices[1].prompt_time.handoff_seconds).toBeGreaterThan(0);
    expect(prompt[1].textContent).toContain(`handoffs in ${ms(report.devices[1].prompt_time.handoff_seconds)}`);
    // The parts add up to each device's time, and the devices' times to the prompt's (no pipeline here).
    for (const device of report.devices) {
      const t = device.prompt_time;
      const work = t.offloaded
        ? t.offload_copy_seconds + t.multiply_seconds
        : Math.max(t.multiply_seconds, t.weight_read_seconds);
      expect(work + t.expert_combine_seconds + t.scores_seconds + t.crossing_seconds + t.handoff_seconds).toBeCloseTo(
        t.seconds,
        9,
      );
    }
    expect(report.prompt_pipelined).toBe(false);
    const total = report.devices.reduce((sum, device) => sum + device.prompt_time.seconds, 0);
    expect(report.prompt_tokens / total).toBeCloseTo(report.prompt_tokens_per_second, 6);
    cleanup();
    render(<LocalResults report={core.localReport(llama, localOptions(defaultLocalInputs))} unit="GiB" />);
    expect(screen.queryByTestId('local-mapped')).toBeNull();
  });
  test('shows each device, the speed and the llama-server command with a copy button', () => {
    const report = core.localReport(llama, localOptions(defaultLocalInputs));
    // Llama-3.1-8B Q4_K_M on one RTX 4090 at n_ctx 8192: every layer fits (33 of 33).
    expect(report.n_gpu_layers).toBe(33);
    render(<LocalResults report={report} unit="GiB" />);
    expect(screen.getByTestId('local-summary').textContent).toBe('Offloaded 33/33 layers to the GPU');
    const rows = within(screen.getByTestId('local-devices')).getAllByRole('row');
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['Device', 'CUDA0', 'CPU']);
    // 32 layers x (K + V) x 8192 cells x 1024 values x 2 bytes = 1 GiB of KV on the GPU.
    expect(within(rows[1]).getAllByRole('cell')[2].textContent).toBe('1.00 GiB');
    expect(screen.getByTestId('local-command').textContent).toBe(
      'llama-server -m model-q4_k_m.gguf -ngl 33 -c 8192 -ctk f16 -ctv f16 -fa on',
    );
    expect(screen.getByTestId('local-ollama').textContent).toBe(
      'Ollama: num_gpu 33, num_ctx 8192; server environment OLLAMA_FLASH_ATTENTION=1 OLLAMA_NUM_PARALLEL=1',
    );
    expect(screen.getByTestId('local-assumptions').children.length).toBe(report.assumptions.length);
    // How a generated token's time is made on the GPU: a Llama layer runs 19 graph ops with flash
    // attention, so 32 layers and the output layer's 3 are 611 ops at 30/19 us each (0.96 ms).
    const token = screen.getByTestId('local-token-time').textContent ?? '';
    expect(token).toContain('CUDA0: ');
    expect(token).toContain('at 0.88 × 1008 GB/s');
    expect(token).toContain('611 graph ops × 1.58 µs = 0.96 ms');
    cleanup();
    // A 16-token prompt on f16 weights (cuBLAS): reading them once takes longer than the multiplies, and the line says so.
    const short = core.localReport(llama, { ...localOptions(defaultLocalInputs), weights: 'fp16', prompt_len: '16' });
    const t = short.devices[0].prompt_time;
    expect(t.weight_read_seconds).toBeGreaterThan(t.multiply_seconds);
    render(<LocalResults report={short} unit="GiB" />);
    const ms = (seconds: number) => `${(seconds * 1e3).toFixed(2)} ms`;
    expect(screen.getByTestId('local-prompt-time').textContent).toContain(
      `CUDA0: its weights read ${ms(t.weight_read_seconds)} (longer than its multiplies, ${ms(t.multiply_seconds)})`,
    );
  });

  test('the headline: wholly on the GPU, split with RAM, on the CPU, or the device short of memory', () => {
    const headline = (inputs: Partial<typeof defaultLocalInputs>, model = llama) => {
      const report = core.localReport(model, localOptions({ ...defaultLocalInputs, ...inputs }));
      render(<LocalResults report={report} unit="GiB" />);
      const text = screen.getByTestId('local-verdict').textContent;
      cleanup();
      return { report, text };
    };
    // Llama-3.1-8B Q4_K_M on an RTX 4090: every layer on the GPU; the prompt's speed in comma groups.
    const whole = headline({});
    expect(whole.report.verdict.runs_on).toBe('gpus');
    const prompt = Math.round(whole.report.prompt_tokens_per_second);
    expect(prompt).toBeGreaterThan(999);
    expect(whole.text).toBe(
      `Runs wholly on the GPU: about ${whole.report.generation_tokens_per_second.toFixed(1)} tokens/s generating, ` +
        `${prompt.toLocaleString('en-US')} tokens/s reading a prompt.`,
    );
    // -ngl 20: llama.cpp offloads the last 20 of the 32 layers; the first 12 and the output layer stay in RAM,
    // whose dual-channel DDR5 reads them at a tenth of the 4090's rate, so the CPU holds most of each token.
    const split = headline({ nGpuLayers: '20' });
    expect(split.report.verdict).toMatchObject({
      runs_on: 'gpus_and_ram',
      layers_on_gpus: 20,
      layers_in_ram: 12,
      output_in_ram: true,
      generation_bound_device: 'CPU',
    });
    expect(split.text).toMatch(
      /^Runs split between the GPU and RAM: 20 of 32 layers on the GPU, 12 in RAM, the output layer in RAM\. It runs at about [0-9.]+ tokens\/s generating, [0-9,]+ tokens\/s reading a prompt; a generated token waits on the CPU for [0-9]+% of its time\.$/,
    );
    expect(headline({ gpu: '' }).text).toMatch(/^Runs on the CPU, every layer in RAM: about /);
    // 8 GiB of RAM and no GPU: the 4.58 GiB of weights fit, but not with an n_ctx 131072 f16 cache (16 GiB).
    const short = headline({ gpu: '', ramGib: '8', context: '131072' });
    expect(short.report.verdict.runs_on).toBe('does_not_fit');
    expect(short.report.verdict.short_device).toBe('CPU');
    const cpu = short.report.devices[short.report.devices.length - 1];
    expect(short.report.verdict.shortfall_bytes).toBe(cpu.total_bytes - cpu.limit_bytes);
    expect(short.text).toBe(
      `Does not fit: CPU needs ${((cpu.total_bytes - 8 * 2 ** 30) / 2 ** 30).toFixed(2)} GiB more than its limit ` +
        'of 8.00 GiB. A shorter context, a smaller weight format, a quantized KV cache or more memory would help.',
    );
  });

  test('weight formats: a button, then each common type on this machine with the chosen one marked', () => {
    const options = localOptions({ ...defaultLocalInputs, nGpuLayers: '20' });
    const report = core.localReport(llama, options);
    const formats = core.localFormats(llama, options);
    const onCompare = vi.fn();
    render(<LocalResults report={report} unit="GiB" onCompareFormats={onCompare} />);
    expect(screen.queryByTestId('local-formats')).toBeNull();
    fireEvent.click(screen.getByTestId('local-compare-formats'));
    expect(onCompare).toHaveBeenCalledTimes(1);
    cleanup();
    render(<LocalResults report={report} unit="GiB" formats={formats} />);
    const rows = within(screen.getByTestId('local-formats')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual([
      'fp16',
      'q8_0',
      'q6_k',
      'q5_k_m',
      'q4_k_m',
      'iq4_xs',
      'q3_k_m',
      'q2_k',
    ]);
    // The -ngl 20 of the inputs is not applied: each type as --fit places it, Q4_K_M wholly on the 4090.
    const q4 = formats.formats[4];
    expect(q4.n_gpu_layers).toBe(33);
    expect(rows[4].getAttribute('aria-current')).toBe('true');
    // The core marks the row of the inputs' weights, and only it.
    expect(formats.formats.filter((row) => row.chosen).map((row) => row.weights)).toEqual(['q4_k_m']);
    expect(Array.from(rows[4].querySelectorAll('td')).map((cell) => cell.textContent)).toEqual([
      `${(q4.model_buffer_bytes / 2 ** 30).toFixed(2)} GiB`,
      '33/33',
      'wholly on the GPU',
      `${q4.generation_tokens_per_second.toFixed(1)} t/s`,
      `${Math.round(q4.prompt_tokens_per_second).toLocaleString('en-US')} t/s`,
    ]);
    // The same speed as the type's own report.
    const own = core.localReport(llama, localOptions(defaultLocalInputs));
    expect(q4.generation_tokens_per_second).toBe(own.generation_tokens_per_second);
    expect(() => core.localFormats(llama, { ...options, engine: 'vllm' } as never)).toThrow(/engine/);
  });

  test("MLX LM: each mlx-community conversion's peak and speeds on the chip, the chosen one marked", () => {
    const options = localOptions({ ...defaultLocalInputs, engine: 'mlx', gpu: 'm4-max', weights: '6bit' });
    const report = core.localReport(llama, options as MlxOptions);
    const formats = core.localFormats(llama, options as MlxOptions);
    expect(formats.formats.map((row) => row.weights)).toEqual(['bf16', '8bit', '6bit', '5bit', '4bit', '3bit']);
    // The chosen row is the report itself.
    expect(formats.formats[2]).toMatchObject({
      chosen: true,
      peak_memory_bytes: report.peak_memory_bytes,
      generation_tokens_per_second: report.generation_tokens_per_second,
    });
    const chosen = vi.fn();
    render(<LocalResults report={report} unit="GiB" formats={formats} onUseWeights={chosen} />);
    const rows = within(screen.getByTestId('local-formats')).getAllByRole('row').slice(1);
    expect(rows[2].getAttribute('aria-current')).toBe('true');
    expect(rows[2].querySelector('button')).toBeNull();
    fireEvent.click(screen.getByTestId('local-use-4bit'));
    expect(chosen).toHaveBeenCalledWith('4bit');
  });

  test("a vision model: its encoders' mmproj file in an Encoder column, on the first GPU, in the command", () => {
    const olmocr = fixtureConfig('allenai--olmOCR-7B-0225-preview.json');
    const report = core.localReport(olmocr, localOptions(defaultLocalInputs));
    // Qwen2-VL's tower and merger: 675,759,104 parameters x 2 B (f16) = 1,351,518,208 B.
    expect(report.mmproj).toEqual({ type: 'f16', encoder_parameters: 675759104, device: 'CUDA0', bytes: 1351518208 });
    render(<LocalResults report={report} unit="GiB" />);
    const rows = within(screen.getByTestId('local-devices')).getAllByRole('row');
    expect(rows[0].textContent).toContain('Encoder');
    expect(within(rows[1]).getAllByRole('cell')[4].textContent).toBe('1.26 GiB');
    expect(screen.getByTestId('local-encoder').textContent).toContain('675,759,104 parameters');
    expect(screen.getByTestId('local-command').textContent).toContain(' --mmproj mmproj-model-f16.gguf');
    cleanup();
    // Off, or a text-only model: no column, no file.
    const off = core.localReport(olmocr, localOptions({ ...defaultLocalInputs, mmproj: 'off' }));
    render(<LocalResults report={off} unit="GiB" />);
    expect(screen.getByTestId('local-devices').textContent).not.toContain('Encoder');
    expect(screen.queryByTestId('local-encoder')).toBeNull();
  });

  test('the copy button copies the command', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const report = core.localReport(llama, localOptions({ ...defaultLocalInputs, nGpuLayers: '20' }));
    render(<LocalResults report={report} unit="GB" />);
    fireEvent.click(screen.getByTestId('local-copy-command'));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(report.llama_cpp_command));
    expect(report.llama_cpp_command).toContain(' -ngl 20 ');
  });

  test('a refused value shows the core message beside its field', () => {
    let refused: { message: string; field?: string } | undefined;
    try {
      core.localReport(llama, localOptions({ ...defaultLocalInputs, kvDtype: 'q8_0', flashAttention: 'off' }));
    } catch (error) {
      refused = error as { message: string; field?: string };
    }
    expect(refused?.message).toContain('--flash-attention on');
    // An encoder file for a text-only model: refused, naming the field it came from.
    refused = undefined;
    try {
      core.localReport(llama, localOptions({ ...defaultLocalInputs, mmproj: 'f16' }));
    } catch (error) {
      refused = error as { message: string; field?: string };
    }
    expect(refused?.field).toBe('mmproj');
    expect(refused?.message).toContain('no vision or audio encoder');
    const onChange = vi.fn();
    render(
      <LocalForm
        inputs={defaultLocalInputs}
        gpus={gpus}
        cpus={cpus}
        error={Object.assign(new Error('option ram_gib: required'), { field: 'ram_gib' })}
        onChange={onChange}
      />,
    );
    expect(screen.getByTestId('local-ramGib-error').textContent).toBe('option ram_gib: required');
    fireEvent.input(screen.getByTestId('local-nGpuLayers'), { target: { value: '12' } });
    expect(onChange).toHaveBeenCalledWith({ ...defaultLocalInputs, nGpuLayers: '12' });
  });
});

describe("the machine's fields offer the catalogs by name", () => {
  test('the GPU picker adds the chosen GPU after those listed, and lists no TPU or Gaudi', () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <LocalForm inputs={defaultLocalInputs} gpus={gpus} cpus={cpus} formats={formats} onChange={onChange} />,
    );
    const picker = screen.getByTestId('local-add-gpu') as HTMLSelectElement;
    const groups = [...picker.querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(['NVIDIA', 'AMD', 'Intel', 'Apple']);
    const names = [...picker.options].map((option) => option.textContent);
    expect(names).toContain('NVIDIA GeForce RTX 3060 12GB');
    expect(names.some((name) => /TPU|Gaudi/.test(name ?? ''))).toBe(false);
    // The core's list: every GPU of the accelerator catalog but those no ggml backend runs on.
    const all = core.acceleratorCatalog();
    expect(gpus.map((gpu) => gpu.id)).toEqual(
      all.filter((gpu) => gpu.vendor !== 'Google' && !gpu.id.startsWith('gaudi')).map((gpu) => gpu.id),
    );
    const rtx3060 = gpus.find((gpu) => gpu.name === 'NVIDIA GeForce RTX 3060 12GB')!;
    fireEvent.change(picker, { target: { value: rtx3060.id } });
    expect(onChange).toHaveBeenLastCalledWith({ ...defaultLocalInputs, gpu: `rtx-4090,${rtx3060.id}` });
    // With the field empty (CPU only), the chosen GPU is the first.
    rerender(
      <LocalForm
        inputs={{ ...defaultLocalInputs, gpu: ' ' }}
        gpus={gpus}
        cpus={cpus}
        formats={formats}
        onChange={onChange}
      />,
    );
    fireEvent.change(screen.getByTestId('local-add-gpu'), { target: { value: 'rtx-3090' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...defaultLocalInputs, gpu: 'rtx-3090' });
    expect((screen.getByTestId('local-add-gpu') as HTMLSelectElement).value).toBe('');
  });

  test('the CPU and the weights suggest the catalog ids with their names', () => {
    render(<LocalForm inputs={defaultLocalInputs} gpus={gpus} cpus={cpus} formats={formats} onChange={() => {}} />);
    expect(screen.getByTestId('local-cpu').getAttribute('list')).toBe('local-cpu-suggestions');
    const cpuOptions = [...screen.getByTestId('local-cpu-suggestions').querySelectorAll('option')];
    expect(cpuOptions.map((option) => option.value)).toEqual(cpus.map((cpu) => cpu.id));
    expect(cpuOptions.find((option) => option.value === 'ryzen-9-7950x')?.label).toBe(
      'AMD Ryzen 9 7950X, 2 x DDR5-5200',
    );
    // One core die reads through one 64 GB/s fabric link, under the RAM's 83.2 GB/s.
    expect(cpuOptions.find((option) => option.value === 'ryzen-7-7800x3d')?.label).toBe(
      'AMD Ryzen 7 7800X3D, 2 x DDR5-5200, cores read at most 64 GB/s',
    );
    const weights = [...screen.getByTestId('local-weights-suggestions').querySelectorAll('option')];
    const ids = weights.map((option) => option.value);
    expect(ids).toContain('q4_k_m');
    expect(ids).toContain('fp16');
    expect(ids).not.toContain('gptq');
    expect(weights.find((option) => option.value === 'q4_k_m')?.label).toBe('GGUF Q4_K_M, 4.5 bits a weight');
  });

  test("MLX LM: the Apple chips and MLX's weights", () => {
    render(
      <LocalForm
        inputs={{ ...defaultLocalInputs, engine: 'mlx', gpu: 'm4-max', weights: '4bit' }}
        gpus={gpus}
        cpus={cpus}
        formats={formats}
        onChange={() => {}}
      />,
    );
    const chips = [...screen.getByTestId('local-gpu-suggestions').querySelectorAll('option')];
    expect(chips.map((option) => option.value)).toEqual(
      gpus.filter((gpu) => gpu.vendor === 'Apple').map((gpu) => gpu.id),
    );
    expect(chips.length).toBeGreaterThan(20);
    const weights = [...screen.getByTestId('local-weights-suggestions').querySelectorAll('option')];
    expect(weights.map((option) => option.value)).toEqual([
      '4bit',
      '8bit',
      '6bit',
      '5bit',
      '3bit',
      '2bit',
      'bf16',
      'fp16',
      'fp32',
    ]);
    expect(weights[0].label).toBe('mlx_lm.convert -q --q-bits 4');
    expect(screen.queryByTestId('local-add-gpu')).toBeNull();
  });
});
