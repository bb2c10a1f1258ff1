// SPDX-License-Identifier: MIT
// The Training tab's components: one chunk, fetched when the tab opens (lazy.ts).
export { ClassicCalculator } from './classic-calculator';
export { TrainingForm } from './training-form';
export { TrainingPanel } from './training-panel';
