// SPDX-License-Identifier: MIT
// The comparison panel: a chunk fetched once something is pinned.
import { lazyComponent } from '../ui/lazy';

export const ComparePanel = lazyComponent(() => import('./compare-panel').then((m) => m.ComparePanel));
