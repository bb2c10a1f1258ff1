// SPDX-License-Identifier: MIT
// Vite plugin for the builds that must be one file (the offline page, the custom element): the
// import of the Emscripten module is answered by a wrapper that hands it the .wasm bytes, inlined
// as base64, so nothing is fetched. The glue's `new URL("fitcheck.wasm", import.meta.url)` is
// replaced by the bare name, so Vite does not emit the .wasm as a separate asset.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const wrapperId = '\0fitcheck-inline-core';
const urlExpression = 'new URL("fitcheck.wasm",import.meta.url).toString()';

export function inlineWasm(generatedDir: string): Plugin {
  const glue = path.join(generatedDir, 'fitcheck.mjs');
  const wasm = path.join(generatedDir, 'fitcheck.wasm');
  return {
    name: 'fitcheck-inline-wasm',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer !== wrapperId && source.endsWith('/generated/fitcheck.mjs')) return wrapperId;
      return null;
    },
    load(id) {
      if (id !== wrapperId) return null;
      const base64 = fs.readFileSync(wasm).toString('base64');
      return [
        `import create from ${JSON.stringify(glue)};`,
        `const wasmBase64 = ${JSON.stringify(base64)};`,
        'function wasmBytes() {',
        '  const text = atob(wasmBase64);',
        '  const bytes = new Uint8Array(text.length);',
        '  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);',
        '  return bytes;',
        '}',
        'export default function createInlineModule(options = {}) {',
        '  return create({ ...options, wasmBinary: wasmBytes(), locateFile: (name) => name });',
        '}',
      ].join('\n');
    },
    transform(code, id) {
      if (path.resolve(id.split('?')[0]) !== glue) return null;
      if (!code.includes(urlExpression)) this.error(`fitcheck-inline-wasm: ${urlExpression} not found in ${glue}; the Emscripten glue changed`);
      return { code: code.replace(urlExpression, '"fitcheck.wasm"'), map: null };
    },
  };
}
