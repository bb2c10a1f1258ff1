// SPDX-License-Identifier: MIT
// The Inference tab's serving simulation: a chunk fetched after the first result, so a first visit
// does not download it.
import { afterPaint } from '../ui/after-paint';
import { lazyComponent } from '../ui/lazy';

export const ServingLoad = afterPaint(lazyComponent(() => import('./serving-load').then((m) => m.ServingLoad)));
