// SPDX-License-Identifier: MIT
// The training form and its options: what reaches the core, and where its errors are shown.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TrainingForm } from '../src/training/training-form';
import { ComparePanel } from '../src/compare/compare-panel';
import type { CoreError } from '../src/core/types';
import { trainingMemoryTable, trainingSetupTable, trainingTimeTable } from '../src/training/training-tables';
import { defaultTraining, shardingChoice, trainingOptions, withSharding } from '../src/training/training-inputs';
import { core, fixtureConfig } from './support/core';

afterEach(cleanup);

const llama = fixtureConfig('meta-llama--Llama-3.1-8B.json');
const gpus = core.acceleratorCatalog();
const refusal = (options: Record<string, unknown>): CoreError => {
  try {
    core.trainingReport(llama, options);
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('the core accepted it');
};

describe('training options', () => {
  test('the core defaults reach the core as typed; empty dp is left for the core to derive', () => {
    const options = trainingOptions(defaultTraining);
    expect(options).toMatchObject({
      gpu: 'h100-sxm-80gb',
      gpus: '1',
      zero: '0',
      precision: 'bf16-mixed',
      optimizer: 'adamw',
      seq_len: '4096',
    });
    expect('dp' in options).toBe(false);
    expect('lora_rank' in options).toBe(false);
    expect('fsdp_shard_group' in options).toBe(false);
  });
  test('ZeRO and FSDP are one choice: choosing FSDP drops the ZeRO stage, and back', () => {
    const fsdp = withSharding(defaultTraining, 'fsdp:hybrid_shard');
    expect(shardingChoice(fsdp)).toBe('fsdp:hybrid_shard');
    expect(trainingOptions(fsdp)).toMatchObject({ fsdp: 'hybrid_shard', fsdp_shard_group: '8' });
    expect('zero' in trainingOptions(fsdp)).toBe(false);
    const zero = withSharding(fsdp, 'zero:2');
    expect(trainingOptions(zero)).toMatchObject({ zero: '2' });
    expect('fsdp' in trainingOptions(zero)).toBe(false);
  });
  test('step-time options go only when typed; overlap only when turned off', () => {
    const options = trainingOptions(defaultTraining);
    expect('train_tokens' in options || 'overlap' in options || 'flops_efficiency' in options).toBe(false);
    expect(trainingOptions({ ...defaultTraining, overlap: false, train_tokens: '1e9' })).toMatchObject({
      overlap: false,
      train_tokens: '1e9',
    });
  });
  test('LoRA modules go with a rank only; flags only when set', () => {
    expect(trainingOptions({ ...defaultTraining, lora_modules: 'q,v' }).lora_modules).toBeUndefined();
    expect(trainingOptions({ ...defaultTraining, lora_rank: '16', lora_modules: 'q,v', qlora: true })).toMatchObject({
      lora_rank: '16',
      lora_modules: 'q,v',
      qlora: true,
    });
    expect('sequence_parallel' in trainingOptions(defaultTraining)).toBe(false);
  });
});

describe('the pipeline', () => {
  const llama70b = fixtureConfig('meta-llama--Llama-3.1-70B.json');
  const pipelined = {
    ...defaultTraining,
    gpus: '8',
    pp: '8',
    pipeline_schedule: 'interleaved',
    virtual_stages: '5',
    micro_batches: '16',
    account_for_embedding_in_pipeline_split: true,
    account_for_loss_in_pipeline_split: true,
  };
  test('schedule, virtual stages, micro-batches and the two slots reach the core; none by default', () => {
    expect(trainingOptions(pipelined)).toMatchObject({
      pipeline_schedule: 'interleaved',
      virtual_stages: '5',
      micro_batches: '16',
      account_for_embedding_in_pipeline_split: true,
      account_for_loss_in_pipeline_split: true,
    });
    const plain = trainingOptions(defaultTraining);
    for (const key of [
      'pipeline_schedule',
      'virtual_stages',
      'micro_batches',
      'account_for_embedding_in_pipeline_split',
    ])
      expect(key in plain).toBe(false);
    // Llama-3.1-70B: 80 layers and the two slots are 82, which 8 stages x 5 chunks = 40 do not divide.
    let refused: CoreError | undefined;
    try {
      core.trainingReport(llama70b, trainingOptions(pipelined));
    } catch (error) {
      refused = error as CoreError;
    }
    expect(refused?.field).toBe('account_for_embedding_in_pipeline_split');
  });
  test('the form shows the pipeline fields with more than one stage; the setup table names the schedule', () => {
    const onChange = vi.fn();
    const { rerender } = render(<TrainingForm training={defaultTraining} gpus={gpus} onChange={onChange} />);
    expect(screen.queryByTestId('train-pipeline')).toBeNull();
    rerender(<TrainingForm training={{ ...defaultTraining, pp: '4' }} gpus={gpus} onChange={onChange} />);
    fireEvent.change(screen.getByTestId('train-pipeline_schedule'), { target: { value: 'zero-bubble' } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ pipeline_schedule: 'zero-bubble' }));
    fireEvent.click(screen.getByTestId('train-account_for_loss_in_pipeline_split'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ account_for_loss_in_pipeline_split: true }));
    // 80 layers on 8 stages x 2 chunks, no slots.
    const report = core.trainingReport(
      llama70b,
      trainingOptions({
        ...pipelined,
        virtual_stages: '2',
        account_for_embedding_in_pipeline_split: false,
        account_for_loss_in_pipeline_split: false,
      }),
    );
    const setup = trainingSetupTable(report);
    const row = setup.rows.find((r) => r.key === 'pipeline');
    expect(row?.cells[1].value).toBe('interleaved 1F1B, 2 model chunks per GPU');
  });
});

describe('training form', () => {
  test('an error naming zero or fsdp shows beside the sharding choice; gpus beside GPUs', () => {
    const { rerender } = render(
      <TrainingForm training={defaultTraining} gpus={gpus} error={refusal({ zero: 5 })} onChange={() => {}} />,
    );
    expect(screen.getByTestId('train-sharding-error').textContent).toMatch(/'zero' must be between 0 and 3/);
    rerender(
      <TrainingForm training={defaultTraining} gpus={gpus} error={refusal({ gpus: 8, tp: 3 })} onChange={() => {}} />,
    );
    expect(screen.getByTestId('train-gpus-error').textContent).toMatch(/multiple of tp x pp x cp/);
    rerender(
      <TrainingForm
        training={defaultTraining}
        gpus={gpus}
        error={refusal({ offload_params: true })}
        onChange={() => {}}
      />,
    );
    expect(screen.getByTestId('train-offload_params-error').textContent).toMatch(/ZeRO-3/);
  });
  test('LoRA modules appear with a rank; unticking one sends the others', () => {
    const onChange = vi.fn();
    const { rerender } = render(<TrainingForm training={defaultTraining} gpus={gpus} onChange={onChange} />);
    expect(screen.queryByTestId('train-lora_modules')).toBeNull();
    rerender(<TrainingForm training={{ ...defaultTraining, lora_rank: '16' }} gpus={gpus} onChange={onChange} />);
    fireEvent.click(screen.getByLabelText('gate'));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ lora_modules: 'q,k,v,o,up,down' }));
  });
  test('the derived dp is shown while dp is empty; the hybrid group only with HYBRID_SHARD', () => {
    const { rerender } = render(
      <TrainingForm training={{ ...defaultTraining, gpus: '8' }} gpus={gpus} resolvedDp={8} onChange={() => {}} />,
    );
    expect(screen.getByText('empty: GPUs / (tp × pp × cp) = 8')).toBeTruthy();
    expect(screen.queryByLabelText('Hybrid shard group')).toBeNull();
    rerender(
      <TrainingForm training={withSharding(defaultTraining, 'fsdp:hybrid_shard')} gpus={gpus} onChange={() => {}} />,
    );
    expect(screen.getByLabelText('Hybrid shard group')).toBeTruthy();
  });
});

describe('training results', () => {
  test('the memory table ends with total, GPU memory and the verdict by how much', () => {
    const report = core.trainingReport(llama, { gpu: 'h100-sxm-80gb' });
    const table = trainingMemoryTable(report, 'GiB');
    expect(table.rows.filter((r) => !r.footer).map((r) => r.formula)).toEqual(report.terms.map((t) => t.formula));
    const verdict = table.rows.find((r) => r.key === 'verdict')!;
    expect(verdict.cells[0].text).toBe('Does not fit, short by');
    expect(verdict.cells[1].value).toBe(-report.headroom_bytes!);
    expect(table.rows.find((r) => r.key === 'total')!.cells[1].value).toBe(report.total_bytes_per_gpu);
  });
  test('step time and cost: the core figures in base units, each with its line of the core', () => {
    const report = core.trainingReport(llama, { gpu: 'h100-sxm-80gb', gpus: 8, zero: 3 });
    const time = report.time!;
    const table = trainingTimeTable(time, 'H100');
    const row = (key: string) => table.rows.find((r) => r.key === key)!;
    expect(row('step').cells[1].value).toBe(time.step_seconds);
    expect(row('step').cells[2].value).toBe('s');
    expect(row('step').formula).toBe(time.lines.find((l) => l.startsWith('step =')));
    expect(row('mfu').formula).toMatch(/^MFU = /);
    expect(row('train_cost').cells[1].value).toBe(time.train_cost_usd);
    expect(core.trainingReport(llama, {}).time).toBeUndefined();
  });
  test('compare in training shows the training figures and the change', () => {
    const params = core.parameterReport(llama);
    const a = core.trainingReport(llama, { gpu: 'h100-sxm-80gb', gpus: 8, zero: 3 });
    const b = core.trainingReport(llama, { gpu: 'h100-sxm-80gb', gpus: 8, zero: 3, optimizer: 'adam8bit' });
    render(
      <ComparePanel
        pinned={{ label: 'A', params, training: a }}
        current={{ label: 'B', params, training: b }}
        unit="GiB"
        training
        onUnpin={() => {}}
      />,
    );
    expect(screen.getByTestId('pinned-precision').textContent).toBe('bf16-mixed / adamw');
    expect(screen.getByTestId('current-precision').textContent).toBe('bf16-mixed / adam8bit');
    expect(screen.getByTestId('current-total').closest('tr')!.textContent).toMatch(/−[\d.]+ GiB$/);
  });
});
