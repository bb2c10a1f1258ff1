// SPDX-License-Identifier: MIT
// A weight file dropped on the model panel: sized from its header by the core, not read as config.json.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, expect, test, vi } from 'vitest';
import type { CheckpointReport } from '../src/core/types';

const checkpointReport = vi.fn();
vi.mock('../src/core/load', () => ({ loadCore: async () => ({ checkpointReport }) }));

const { ConfigInput } = await import('../src/model/config-input');
const { defaultInputs } = await import('../src/app/inputs');

afterEach(cleanup);

const report: CheckpointReport = {
  format: 'gguf',
  gguf_version: 3,
  architecture: 'llama',
  name: 'tiny',
  shapes_known: true,
  tensor_count: 2,
  total_parameters: 256256,
  total_bytes: 145024,
  header_bytes: 209,
  data_offset_bytes: 224,
  alignment_bytes: 32,
  hyperparameters: {
    block_count: 2,
    context_length: null,
    embedding_length: 256,
    feed_forward_length: null,
    'attention.head_count': null,
    'attention.head_count_kv': null,
    expert_count: null,
    expert_used_count: null,
    vocab_size: null,
    file_type: 15,
    file_type_name: 'MOSTLY_Q4_K_M',
  },
  metadata_count: 2,
  metadata: {},
  by_type: [
    { type: 'Q4_K', tensors: 1, elements: 256000, bytes: 144000 },
    { type: 'F32', tensors: 1, elements: 256, bytes: 1024 },
  ],
  tensors: [],
  notes: [],
};

function renderInput(onText = vi.fn()) {
  render(
    <ConfigInput
      presets={[]}
      modelKind="pasted"
      presetId=""
      configText=""
      numbers={defaultInputs('').numbers}
      onPreset={vi.fn()}
      onText={onText}
      onKind={vi.fn()}
      onNumbers={vi.fn()}
    />,
  );
  return onText;
}

test('a dropped GGUF is sized from its header, whatever its name, and not loaded as config.json', async () => {
  checkpointReport.mockReturnValue(report);
  const onText = renderInput();
  const file = new File([new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0]), new Uint8Array(300)], 'weights.bin');
  fireEvent.drop(screen.getByTestId('config-drop'), { dataTransfer: { files: [file] } });
  await waitFor(() =>
    expect(screen.getByTestId('model-file-totals').textContent).toMatch(
      /256,256 parameters \(256\.26 K\), 145,024 bytes/,
    ),
  );
  expect(checkpointReport).toHaveBeenCalledWith(expect.any(Uint8Array), 308);
  expect(screen.getByTestId('model-file-headline').textContent).toBe('GGUF v3 · llama · tiny · 2 tensors');
  expect(screen.getByTestId('model-file-types').textContent).toContain('Q4_K');
  expect(screen.getByTestId('model-file-hyperparameters').textContent).toContain('file type: 15 (MOSTLY_Q4_K_M)');
  expect(onText).not.toHaveBeenCalled();
  fireEvent.click(screen.getByTestId('model-file-close'));
  expect(screen.queryByTestId('model-file')).toBeNull();
});

test("a corrupt header: the core's message with its offset", async () => {
  checkpointReport.mockImplementation(() => {
    throw Object.assign(new Error('offset 8: tensor count 1000000000000000000 cannot fit in the header'), {
      field: 'tensor count',
    });
  });
  renderInput();
  fireEvent.drop(screen.getByTestId('config-drop'), {
    dataTransfer: { files: [new File(['GGUF', new Uint8Array(40)], 'm.gguf')] },
  });
  await waitFor(() =>
    expect(screen.getByTestId('model-file-error').textContent).toBe(
      'm.gguf: offset 8: tensor count 1000000000000000000 cannot fit in the header',
    ),
  );
});

test('a dropped config.json still loads as text', async () => {
  const onText = renderInput();
  fireEvent.drop(screen.getByTestId('config-drop'), {
    dataTransfer: { files: [new File(['{"model_type":"llama"}'], 'config.json')] },
  });
  await waitFor(() => expect(onText).toHaveBeenCalledWith('{"model_type":"llama"}'));
  expect(screen.queryByTestId('model-file')).toBeNull();
});
