// SPDX-License-Identifier: MIT
// The built Emscripten module, given its .wasm bytes from disk (see vitest.config.ts).
import fs from 'node:fs';
import path from 'node:path';
import create from '../../src/generated/fitcheck.mjs';

type Factory = (options: { wasmBinary: Uint8Array }) => ReturnType<typeof create>;

export default function createFitcheckModule() {
  const wasmBinary = fs.readFileSync(path.join(import.meta.dirname, '../../src/generated/fitcheck.wasm'));
  return (create as unknown as Factory)({ wasmBinary });
}
