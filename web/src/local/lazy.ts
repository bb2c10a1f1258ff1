// SPDX-License-Identifier: MIT
// The Local tab's components, one chunk (local-tab.ts) fetched when the tab is first drawn or
// preloaded (app/preload-tab.ts), so a first visit does not download them.
import { lazyComponent, loadingPlaceholder } from '../ui/lazy';

const localTab = () => import('./local-tab');
export const LocalForm = lazyComponent(() => localTab().then((m) => m.LocalForm), loadingPlaceholder);
export const LocalResults = lazyComponent(() => localTab().then((m) => m.LocalResults), loadingPlaceholder);
