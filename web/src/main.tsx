// SPDX-License-Identifier: MIT
import { render } from 'preact';
import { App } from './components/App';
import './styles.css';

// ?embed: compact, no page chrome, height posted to the parent frame (see README, "Embedding").
const embed = new URLSearchParams(window.location.search).has('embed');
if (embed) document.documentElement.classList.add('embedded');
render(<App embed={embed} />, document.getElementById('app')!);
