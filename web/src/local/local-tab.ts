// SPDX-License-Identifier: MIT
// The Local tab's components in one chunk (lazy.ts fetches it when the tab is first drawn).
export { LocalForm } from './local-form';
export { LocalResults } from './local-results';
