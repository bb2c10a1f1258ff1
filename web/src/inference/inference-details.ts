// SPDX-License-Identifier: MIT
// The Inference tab's charts and latency tables (with the chart library): one chunk, drawn after
// the memory table (inference-results/index.tsx).
export { LatencyResults } from './latency-results';
export { MemoryCharts } from './memory-charts';
