// SPDX-License-Identifier: MIT
// A GGUF or safetensors file chosen or dropped on the page: only its header is read, in growing
// File.slice chunks, and sized by the core (checkpointReport; docs/model-files.md). The weights
// are never read and nothing is sent anywhere. A GGUF header's length is not stored in the file,
// so the core answers "need N bytes" until the slice holds all of it.
import type { CheckpointNeedMore, CheckpointReport, CoreError, FitcheckModule } from '../core/types';

/** The first slice: a GGUF header without a large vocabulary fits in it. */
export const firstSliceBytes = 1 << 20;
/** Each later slice is what the core asks for or twice the last one, so a header takes few reads. */
const maxReads = 40;

/** What readModelFileHeader needs of a File (a Blob has it). */
export interface SliceableFile {
  name?: string;
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export type ModelFileResult = { report: CheckpointReport; bytesRead: number } | { error: string; field?: string };

export async function readModelFileHeader(file: SliceableFile, core: Pick<FitcheckModule, 'checkpointReport'>): Promise<ModelFileResult> {
  const name = file.name ?? 'the file';
  let have = Math.min(firstSliceBytes, file.size);
  for (let reads = 0; reads < maxReads; reads++) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.slice(0, have).arrayBuffer());
    } catch (error) {
      return { error: `${name} could not be read: ${(error as Error).message}` };
    }
    let answer: CheckpointReport | CheckpointNeedMore;
    try {
      answer = core.checkpointReport(bytes, file.size);
    } catch (error) {
      const { message, field } = error as CoreError;
      return field ? { error: `${name}: ${message}`, field } : { error: `${name}: ${message}` };
    }
    if (!('bytes_needed' in answer)) return { report: answer, bytesRead: bytes.length };
    const next = Math.min(file.size, Math.max(answer.bytes_needed, 2 * have));
    if (next <= have) return { error: `${name}: the header needs ${answer.bytes_needed} bytes (${answer.needed_for}) but the file has ${file.size}` };
    have = next;
  }
  return { error: `${name}: the header did not end after ${maxReads} reads` };
}
