// SPDX-License-Identifier: MIT
// The Plan tab's components, one chunk (plan-tab.ts) fetched when the tab is first drawn or
// preloaded (app/preload-tab.ts).
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

const planTab = () => import('./plan-tab');
export const PlanForm = lazyComponent(() => planTab().then((m) => m.PlanForm), loadingPlaceholder);
export const PlanResults = lazyComponent(() => planTab().then((m) => m.PlanResults), loadingPlaceholder);
export const TrainingPlanForm = lazyComponent(() => planTab().then((m) => m.TrainingPlanForm), loadingPlaceholder);
export const TrainingPlanResults = lazyComponent(
  () => planTab().then((m) => m.TrainingPlanResults),
  loadingPlaceholder,
);
