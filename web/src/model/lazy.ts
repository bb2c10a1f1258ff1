// SPDX-License-Identifier: MIT
// The model-from-numbers form, which most visits never open: a chunk fetched the first time it is
// drawn.
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

export const NumbersForm = lazyComponent(() => import('./numbers-form').then((m) => m.NumbersForm), loadingPlaceholder);
