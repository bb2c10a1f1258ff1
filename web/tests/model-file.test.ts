// SPDX-License-Identifier: MIT
// state/model-file.ts: the growing slices a dropped weight file is read in, with a stand-in core.
import { expect, test } from 'vitest';
import type { CheckpointReport } from '../src/core/types';
import { firstSliceBytes, readModelFileHeader, type SliceableFile } from '../src/model/model-file';

function fakeFile(size: number, slices: number[]): SliceableFile {
  return {
    name: 'model.gguf',
    size,
    slice: (start: number, end: number) => {
      slices.push(end - start);
      return { arrayBuffer: async () => new ArrayBuffer(Math.min(end, size) - start) };
    },
  };
}

const report = { format: 'gguf', total_bytes: 42 } as CheckpointReport;

test('reads 1 MiB, then what the core asks for or twice as much, until the header is whole', async () => {
  const slices: number[] = [];
  const headerBytes = 5_000_000;
  const core = {
    checkpointReport: (bytes: Uint8Array, fileSize: number) => {
      expect(fileSize).toBe(50_000_000);
      return bytes.length >= headerBytes
        ? report
        : { complete: false as const, bytes_needed: bytes.length + 10, needed_for: 'tensor 3 name' };
    },
  };
  const result = await readModelFileHeader(fakeFile(50_000_000, slices), core);
  expect(result).toEqual({ report, bytesRead: 8 * firstSliceBytes });
  expect(slices).toEqual([firstSliceBytes, 2 * firstSliceBytes, 4 * firstSliceBytes, 8 * firstSliceBytes]);
});

test('a small file is read whole; a header past its end and core errors are messages', async () => {
  const slices: number[] = [];
  const whole = await readModelFileHeader(fakeFile(300, slices), { checkpointReport: () => report });
  expect(whole).toEqual({ report, bytesRead: 300 });
  expect(slices).toEqual([300]);

  const short = await readModelFileHeader(fakeFile(300, []), {
    checkpointReport: () => ({ complete: false as const, bytes_needed: 400, needed_for: 'tensor count' }),
  });
  expect(short).toEqual({ error: 'model.gguf: the header needs 400 bytes (tensor count) but the file has 300' });

  const corrupt = await readModelFileHeader(fakeFile(300, []), {
    checkpointReport: () => {
      throw Object.assign(new Error('offset 24: metadata key 0 length 1000000000000000000 exceeds 65535 bytes'), {
        field: 'metadata key 0 length',
      });
    },
  });
  expect(corrupt).toEqual({
    error: 'model.gguf: offset 24: metadata key 0 length 1000000000000000000 exceeds 65535 bytes',
    field: 'metadata key 0 length',
  });
});
