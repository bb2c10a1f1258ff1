// SPDX-License-Identifier: MIT
// "Export the tables", with every tab's table builders: a chunk fetched after the first result.
import { afterPaint } from '../ui/after-paint';
import { lazyComponent } from '../ui/lazy';

// At the bottom of the page: an edit redraws it in the task after its first paint (after-paint.ts).
export const ExportSection = afterPaint(lazyComponent(() => import('./export-section').then((m) => m.ExportSection)));
