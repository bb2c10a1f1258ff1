// SPDX-License-Identifier: MIT
import { render } from 'preact';
import { App } from './calculator';
import { loadCoreState } from '../core/use-core';
import './styles.css';

// Start fetching and compiling the core now (index.html preloads its files); useCore gets the
// same promise, and reports a failure.
const core = loadCoreState();
// ?embed: compact, no page chrome, height posted to the parent frame (see README, "Embedding").
const embed = new URLSearchParams(window.location.search).has('embed');
if (embed) document.documentElement.classList.add('embedded');
// The first render waits a moment for the core, so that it draws the parameter table at once
// instead of a loading message first (the core's glue then also runs before that render, not
// after it). On a slow connection the page draws without it after firstRenderWaitMs.
const firstRenderWaitMs = 300;
const draw = () => render(<App embed={embed} />, document.getElementById('app')!);
Promise.race([core, new Promise((resolve) => setTimeout(resolve, firstRenderWaitMs))]).then(draw);
