// SPDX-License-Identifier: MIT
// Third build: dist/fitcheck-element.js, the <fitcheck-calculator> custom element as one ES module
// (Preact, styles and the WASM core inside).
import path from 'node:path';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';
import { inlineWasm } from './build/inline-wasm.ts';

export default defineConfig({
  root: import.meta.dirname,
  // One file has no room for a worker script: the planner runs on the page (plan/create-runner-single.ts
  // in place of plan/use-plan-sweep.ts's './create-runner' import), and so do the serving simulation
  // (serving/create-serving-runner-single.ts) and the reading of a large pasted config
  // (model/create-config-reader-single.ts).
  // One file holds one WebAssembly module: the first view's import gets the full core too (core/load.ts).
  resolve: {
    alias: [
      { find: /^\.\/create-runner$/, replacement: path.join(import.meta.dirname, 'src/plan/create-runner-single.ts') },
      {
        find: /^\.\/create-serving-runner$/,
        replacement: path.join(import.meta.dirname, 'src/serving/create-serving-runner-single.ts'),
      },
      {
        find: /^\.\/create-config-reader$/,
        replacement: path.join(import.meta.dirname, 'src/model/create-config-reader-single.ts'),
      },
      { find: /^\.\.\/generated\/fitcheck-inference\.mjs$/, replacement: '../generated/fitcheck.mjs' },
    ],
  },
  plugins: [preact(), inlineWasm(path.join(import.meta.dirname, 'src/generated'))],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    lib: {
      entry: path.join(import.meta.dirname, 'src/app/element.tsx'),
      formats: ['es'],
      fileName: () => 'fitcheck-element.js',
    },
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
