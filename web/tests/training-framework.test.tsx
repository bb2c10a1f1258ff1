// SPDX-License-Identifier: MIT
// The framework picker on the Training tab: its choice goes to the core as the 'framework' option.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TrainingForm } from '../src/training/training-form';
import {
  defaultTraining,
  frameworks,
  megatronRecomputeModules,
  recomputeModes,
  trainingOptions,
} from '../src/training/training-inputs';

afterEach(cleanup);

describe('training framework', () => {
  test('the six profiles the core offers, Hugging Face first and by default', () => {
    expect(frameworks.map(([id]) => id)).toEqual([
      'hf',
      'megatron',
      'deepspeed',
      'torchtitan',
      'torchtune',
      'litgpt',
      'automodel',
    ]);
    expect(trainingOptions(defaultTraining).framework).toBe('hf');
    expect(recomputeModes.map(([id]) => id)).toEqual(
      expect.arrayContaining(['selective-op', 'selective-layer', 'gradient-checkpointing', 'activation-checkpointing']),
    );
  });
  test('picking a framework hands it to the core with the other options', () => {
    const onChange = vi.fn();
    render(<TrainingForm training={defaultTraining} gpus={[]} onChange={onChange} />);
    const picker = screen.getByTestId('train-framework') as HTMLSelectElement;
    expect(picker.value).toBe('hf');
    fireEvent.change(picker, { target: { value: 'torchtitan' } });
    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0][0];
    expect(next.framework).toBe('torchtitan');
    expect(trainingOptions(next)).toMatchObject({ framework: 'torchtitan', gpu: 'h100-sxm-80gb' });
  });
  test('torchtune and LitGPT go to the core by their ids', () => {
    const onChange = vi.fn();
    render(<TrainingForm training={defaultTraining} gpus={[]} onChange={onChange} />);
    const picker = screen.getByTestId('train-framework') as HTMLSelectElement;
    fireEvent.change(picker, { target: { value: 'torchtune' } });
    fireEvent.change(picker, { target: { value: 'litgpt' } });
    expect(onChange.mock.calls.map((call) => trainingOptions(call[0]).framework)).toEqual(['torchtune', 'litgpt']);
  });
  test("Megatron's recompute modules: shown under its selective recomputation, sent as a comma list", () => {
    const onChange = vi.fn();
    const hf = { ...defaultTraining, recompute: 'selective' };
    const { rerender } = render(<TrainingForm training={hf} gpus={[]} onChange={onChange} />);
    expect(screen.queryByTestId('train-recompute_modules')).toBeNull();
    const megatron = { ...hf, framework: 'megatron' };
    rerender(<TrainingForm training={megatron} gpus={[]} onChange={onChange} />);
    const group = screen.getByTestId('train-recompute_modules');
    const boxes = Array.from(group.querySelectorAll('input')) as HTMLInputElement[];
    expect(boxes.map((box) => box.parentElement!.textContent)).toEqual([...megatronRecomputeModules]);
    // The default, core_attn, is checked and cannot be the last one unchecked.
    expect(boxes.filter((box) => box.checked).map((box) => box.parentElement!.textContent)).toEqual(['core_attn']);
    expect(boxes[0].disabled).toBe(true);
    fireEvent.click(boxes[1]); // moe_act
    const next = onChange.mock.calls[0][0];
    expect(next.recompute_modules).toBe('core_attn,moe_act');
    expect(trainingOptions(next)).toMatchObject({ recompute: 'selective', recompute_modules: 'core_attn,moe_act' });
    // Another framework or recompute mode drops the option the core would refuse.
    expect(trainingOptions({ ...next, framework: 'hf' }).recompute_modules).toBeUndefined();
    expect(trainingOptions({ ...next, recompute: 'full' }).recompute_modules).toBeUndefined();
  });
});

describe('partitioned checkpoints', () => {
  test("one checkbox under full recompute, sent as DeepSpeed's or Megatron's own option", () => {
    const onChange = vi.fn();
    const full = { ...defaultTraining, recompute: 'full', tp: '4' };
    const { rerender } = render(<TrainingForm training={full} gpus={[]} onChange={onChange} />);
    expect(screen.queryByTestId('train-partition_checkpoints')).toBeNull(); // Hugging Face has none
    const deepspeed = { ...full, framework: 'deepspeed' };
    rerender(<TrainingForm training={deepspeed} gpus={[]} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('train-partition_checkpoints'));
    const next = onChange.mock.calls[0][0];
    expect(next.partition_checkpoints).toBe(true);
    const options = trainingOptions(next) as Record<string, unknown>;
    expect(options.partition_activations).toBe(true);
    expect(options.partition_checkpoints).toBeUndefined();
    expect(
      (trainingOptions({ ...next, framework: 'megatron' }) as Record<string, unknown>).distribute_saved_activations,
    ).toBe(true);
    expect(trainingOptions({ ...next, recompute: 'selective' })).not.toHaveProperty('partition_activations');
  });
});

describe("Megatron's CPU offloading", () => {
  test('a number field under Megatron without recomputation, sent as cpu_offloading_num_layers', () => {
    const onChange = vi.fn();
    const { rerender } = render(<TrainingForm training={defaultTraining} gpus={[]} onChange={onChange} />);
    expect(screen.queryByTestId('train-cpu_offloading_num_layers')).toBeNull();
    const megatron = { ...defaultTraining, framework: 'megatron' };
    rerender(<TrainingForm training={megatron} gpus={[]} onChange={onChange} />);
    fireEvent.input(screen.getByTestId('train-cpu_offloading_num_layers'), { target: { value: '40' } });
    const next = onChange.mock.calls[0][0];
    expect(trainingOptions(next)).toMatchObject({ framework: 'megatron', cpu_offloading_num_layers: '40' });
    expect(trainingOptions({ ...next, recompute: 'full' })).not.toHaveProperty('cpu_offloading_num_layers');
  });
});
