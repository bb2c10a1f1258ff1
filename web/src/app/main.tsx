// SPDX-License-Identifier: MIT
import { render } from 'preact';
import { App } from './calculator';
import { loadCoreState } from '../core/use-core';
import { hashHasState } from '../url/url-state';
import './styles.css';

// Start fetching and compiling the core now (index.html preloads its files); useCore gets the
// same promise, and reports a failure.
const core = loadCoreState();
// ?embed: compact, no page chrome, height posted to the parent frame (see README, "Embedding").
const embed = new URLSearchParams(window.location.search).has('embed');
if (embed) document.documentElement.classList.add('embedded');
const root = document.getElementById('app')!;
// index.html holds the default view as the page drew it at build time (scripts/prerender.mjs),
// marked data-prerendered and inert (shown, not yet usable). A link to other inputs or the compact
// embedded view is not that view: it goes, and the page draws as it would without it.
let prerendered = root.hasAttribute('data-prerendered');
if (prerendered && (embed || hashHasState(window.location.hash))) {
  root.replaceChildren();
  prerendered = false;
}
// The first render waits a moment for the core, so that it draws the parameter table at once
// instead of a loading message first (the core's glue then also runs before that render, not
// after it). On a slow connection the page draws without it after firstRenderWaitMs. Over the
// prerendered view it waits for the core, however long: that render draws the same view with the
// same core, reusing the nodes, and then the page is live.
const firstRenderWaitMs = 300;
const draw = () => {
  render(<App embed={embed} />, root);
  root.removeAttribute('data-prerendered');
  root.removeAttribute('inert');
};
(prerendered ? core : Promise.race([core, new Promise((resolve) => setTimeout(resolve, firstRenderWaitMs))])).then(
  draw,
);
