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

export async function readModelFileHeader(
  file: SliceableFile,
  core: Pick<FitcheckModule, 'checkpointReport'>,
): Promise<ModelFileResult> {
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
    if (next <= have)
      return {
        error: `${name}: the header needs ${answer.bytes_needed} bytes (${answer.needed_for}) but the file has ${file.size}`,
      };
    have = next;
  }
  return { error: `${name}: the header did not end after ${maxReads} reads` };
}

/**
 * Whether a chosen or dropped file is a weight file rather than a config.json: by its first bytes
 * (GGUF magic; a safetensors length whose top bytes are 0, then '{'), as the core's
 * sniff_checkpoint_format, or a name ending in .index.json (model.safetensors.index.json).
 */
export async function isModelFile(file: SliceableFile): Promise<boolean> {
  if (file.name?.endsWith('.index.json')) return true;
  let first: Uint8Array;
  try {
    first = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  } catch {
    return false; // left to the config.json reader, which reports what it cannot read
  }
  const gguf = first.length >= 4 && first[0] === 0x47 && first[1] === 0x47 && first[2] === 0x55 && first[3] === 0x46;
  const safetensors = first.length >= 9 && first[8] === 0x7b && first[7] === 0 && first[6] === 0 && first[5] === 0;
  return gguf || safetensors;
}
