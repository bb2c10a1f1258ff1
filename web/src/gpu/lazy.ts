// SPDX-License-Identifier: MIT
// The custom GPU form, which most visits never open: a chunk fetched the first time "Custom…" is
// picked.
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

export const CustomGpuForm = lazyComponent(
  () => import('./custom-gpu-form').then((m) => m.CustomGpuForm),
  loadingPlaceholder,
);
