// SPDX-License-Identifier: MIT
// Forms most visits never open, as chunks fetched the first time they are drawn: the custom GPU
// form (when "Custom…" is picked) and the model-from-numbers form.
import { lazyComponent } from './lazy';

const loading = () => <p class="muted">Loading…</p>;

export const CustomGpuForm = lazyComponent(() => import('../gpu/custom-gpu-form').then((m) => m.CustomGpuForm), loading);
export const NumbersForm = lazyComponent(() => import('../model/numbers-form').then((m) => m.NumbersForm), loading);
