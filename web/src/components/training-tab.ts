// SPDX-License-Identifier: MIT
// The Training tab's components: one chunk, fetched when the tab opens (App.tsx).
export { ClassicCalculator } from './ClassicCalculator';
export { TrainingForm } from './TrainingForm';
export { TrainingPanel } from './TrainingPanel';
