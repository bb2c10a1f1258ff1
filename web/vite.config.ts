// SPDX-License-Identifier: MIT
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  // The planner's worker (src/plan/plan-worker.ts) imports the ES module core: an ES worker.
  worker: { format: 'es' },
});
