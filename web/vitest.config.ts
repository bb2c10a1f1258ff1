// SPDX-License-Identifier: MIT
// Component and module tests (web/tests/**). The page's import of the Emscripten module is pointed
// at a wrapper that hands it the .wasm bytes from disk (Node cannot fetch file: URLs).
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [preact()],
  resolve: {
    alias: [
      {
        find: /^\.\.\/generated\/fitcheck(-inference)?\.mjs$/,
        replacement: path.join(import.meta.dirname, 'tests/support/core-node.ts'),
      },
    ],
  },
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['tests/support/setup.ts'],
  },
});
