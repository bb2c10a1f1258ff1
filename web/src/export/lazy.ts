// SPDX-License-Identifier: MIT
// "Export the tables", with every tab's table builders: a chunk fetched after the first result.
import { lazyComponent } from '../ui/lazy';

export const ExportSection = lazyComponent(() => import('./export-section').then((m) => m.ExportSection));
