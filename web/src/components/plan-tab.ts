// SPDX-License-Identifier: MIT
// The Plan tab's components: one chunk, fetched when the tab opens (App.tsx).
export { PlanForm } from './PlanForm';
export { PlanResults } from './PlanResults';
export { TrainingPlanForm } from './TrainingPlanForm';
export { TrainingPlanResults } from './TrainingPlanResults';
