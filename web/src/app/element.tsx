// SPDX-License-Identifier: MIT
// <fitcheck-calculator preset="meta-llama--llama-3.1-8b" mode="inference|training|plan">: the calculator as a
// custom element with its own shadow root and styles. Shipped as dist/fitcheck-element.js.
import { render } from 'preact';
import { App } from './calculator';
import { modes, type Mode } from './inputs';
import styles from './styles.css?inline';

export class FitcheckCalculator extends HTMLElement {
  static observedAttributes = ['preset', 'mode'];
  private mount?: HTMLDivElement;

  connectedCallback(): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.mount) {
      const style = document.createElement('style');
      style.textContent = styles;
      this.mount = document.createElement('div');
      root.append(style, this.mount);
    }
    this.draw();
  }

  disconnectedCallback(): void {
    if (this.mount) render(null, this.mount);
  }

  attributeChangedCallback(): void {
    if (this.mount && this.isConnected) this.draw();
  }

  private draw(): void {
    const preset = this.getAttribute('preset') ?? undefined;
    const attribute = this.getAttribute('mode');
    const mode: Mode = modes.includes(attribute as Mode) ? (attribute as Mode) : 'inference';
    // A new key when an attribute changes starts the calculator afresh from the attributes.
    render(
      <App key={`${preset}|${mode}`} compact persist={false} initialPreset={preset} initialMode={mode} />,
      this.mount!,
    );
  }
}

if (!customElements.get('fitcheck-calculator')) customElements.define('fitcheck-calculator', FitcheckCalculator);
