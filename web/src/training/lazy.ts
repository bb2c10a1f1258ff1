// SPDX-License-Identifier: MIT
// The Training tab's components, one chunk (training-tab.ts) fetched when the tab is first drawn
// or preloaded (app/preload-tab.ts).
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

const trainingTab = () => import('./training-tab');
export const TrainingForm = lazyComponent(() => trainingTab().then((m) => m.TrainingForm), loadingPlaceholder);
export const TrainingPanel = lazyComponent(() => trainingTab().then((m) => m.TrainingPanel));
export const ClassicCalculator = lazyComponent(() => trainingTab().then((m) => m.ClassicCalculator));
