// SPDX-License-Identifier: MIT
// Fetches a tab's chunk (and the Training and Local tabs' full core) ahead of its click: on hover or focus.
import { loadCore } from '../core/load';
import { LocalForm } from '../local/lazy';
import { PlanForm } from '../plan/lazy';
import { TrainingPanel } from '../training/lazy';
import type { Mode } from './inputs';

export function preloadTab(mode: Mode) {
  if (mode === 'training') {
    TrainingPanel.preload();
    loadCore().catch(() => undefined); // useFullCore reports a failure
  }
  if (mode === 'plan') PlanForm.preload();
  if (mode === 'local') {
    LocalForm.preload();
    loadCore().catch(() => undefined); // useFullCore reports a failure
  }
}
