// SPDX-License-Identifier: MIT
// The model's inputs that most visits never open, each a chunk fetched the first time it is drawn:
// the model-from-numbers form and a model file's summary.
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

export const NumbersForm = lazyComponent(() => import('./numbers-form').then((m) => m.NumbersForm), loadingPlaceholder);

// The summary of a dropped GGUF or safetensors file (its header read by the full core): a chunk
// fetched when the first such file is dropped or opened.
export const ModelFileSummary = lazyComponent(
  () => import('./model-file-summary').then((m) => m.ModelFileSummary),
  loadingPlaceholder,
);
