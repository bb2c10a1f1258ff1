// SPDX-License-Identifier: MIT
import { render } from 'preact';
import { App } from './calculator';
import { coreLoaded, loadCoreState, startFromRecordedAnswers } from '../core/use-core';
import { readRecordedAnswers } from '../core/recorded-answers';
import { hashHasState } from '../url/url-state';
import './styles.css';

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
// On the default view, the core's answers to that view, recorded beside it in index.html, stand in
// for the core (core/recorded-answers.ts): the page is live at once, and the core downloads only when
// the visitor reaches for the page (a pointer down, a key, a focus, a pointer over a control) or the
// page asks something the recording lacks. Elsewhere the core starts loading now.
const recorded = prerendered ? readRecordedAnswers(document) : undefined;
const fromRecording = recorded ? startFromRecordedAnswers(recorded) : undefined;
const core = fromRecording ? Promise.resolve(fromRecording) : loadCoreState();
if (fromRecording) {
  root.setAttribute('data-recorded-answers', '');
  void coreLoaded.then(() => root.removeAttribute('data-recorded-answers'));
  const intents = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;
  const reach = () => {
    for (const type of intents) document.removeEventListener(type, reach, true);
    document.removeEventListener('pointerover', overControl, true);
    void loadCoreState();
  };
  const overControl = (event: Event) => {
    if ((event.target as Element | null)?.closest?.('input, select, textarea, button, summary, label')) reach();
  };
  for (const type of intents) document.addEventListener(type, reach, { capture: true, passive: true });
  document.addEventListener('pointerover', overControl, { capture: true, passive: true });
}
// The first render waits a moment for the core, so that it draws the parameter table at once
// instead of a loading message first (the core's glue then also runs before that render, not
// after it). On a slow connection the page draws without it after firstRenderWaitMs. Over the
// prerendered view it waits for the core (or its recorded answers), however long: that render
// draws the same view, reusing the nodes, and then the page is live.
const firstRenderWaitMs = 300;
const draw = () => {
  render(<App embed={embed} />, root);
  root.removeAttribute('data-prerendered');
  root.removeAttribute('inert');
};
(prerendered ? core : Promise.race([core, new Promise((resolve) => setTimeout(resolve, firstRenderWaitMs))])).then(
  draw,
);
