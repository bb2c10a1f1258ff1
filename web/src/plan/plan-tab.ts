// SPDX-License-Identifier: MIT
// The Plan tab's components: one chunk, fetched when the tab opens (lazy.ts).
export { PlanForm } from './plan-form';
export { PlanResults } from './plan-results';
export { TrainingPlanForm } from './training-plan-form';
export { TrainingPlanResults } from './training-plan-results';
