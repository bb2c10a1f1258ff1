// SPDX-License-Identifier: MIT
// <fitcheck-calculator preset="meta-llama--llama-3.1-8b" mode="inference|training|plan" view="full|compact">:
// the calculator as a custom element with its own shadow root and styles. Shipped as
// dist/fitcheck-element.js; docs/embedding.md lists the attributes.
//
// The host page's CSS must not reach in: sizes in rem would follow the host's root font size
// (html { font-size: 62.5% } gave 7.8 px text), so they are rewritten against the element's own
// base size (--fitcheck-font-size, 16px unless the host sets it); inherited text properties
// (letter-spacing, line-height, text-transform, ...) are reset at the shadow root's first element;
// the layout follows the element's width (container queries in styles.css).
import { render } from 'preact';
import { App, type View } from './calculator';
import { modes, type Mode } from './inputs';
import { presets } from '../model/presets';
import { matchesQuery } from '../model/preset-search';
import styles from './styles.css?inline';

/** The page's styles with every rem length made relative to the element's base font size. */
export function elementStyles(css: string): string {
  return css.replace(/(\d*\.?\d+)rem\b/g, 'calc($1 * var(--fitcheck-font-size, 16px))');
}

function UnknownPreset({ preset }: { preset: string }) {
  const words = preset.replace(/--/g, ' ').replace(/[-_]/g, ' ');
  const near = presets.filter((candidate) => matchesQuery(candidate, words)).slice(0, 3);
  return (
    <main class="page embed">
      <p class="error" role="alert" data-testid="unknown-preset">
        fitcheck: there is no bundled preset "{preset}".{' '}
        {near.length > 0
          ? `Did you mean ${near.map((candidate) => `"${candidate.id}"`).join(', ')}?`
          : 'The preset attribute takes a bundled preset id, such as "meta-llama--llama-3.1-8b" (docs/embedding.md lists them).'}
      </p>
    </main>
  );
}

export class FitcheckCalculator extends HTMLElement {
  static observedAttributes = ['preset', 'mode', 'view'];
  private mount?: HTMLDivElement;

  connectedCallback(): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.mount) {
      // A constructed style sheet is outside a host's CSP style-src (a <style> element would need
      // 'unsafe-inline'); a <style> element where constructed sheets are missing.
      const css = elementStyles(styles);
      if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        root.adoptedStyleSheets = [sheet];
      } else {
        const style = document.createElement('style');
        style.textContent = css;
        root.append(style);
      }
      this.mount = document.createElement('div');
      this.mount.className = 'fitcheck-root';
      root.append(this.mount);
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
    const view: View = this.getAttribute('view') === 'compact' ? 'compact' : 'full';
    if (preset !== undefined && !presets.some((candidate) => candidate.id === preset)) {
      render(<UnknownPreset key={`unknown|${preset}`} preset={preset} />, this.mount!);
      return;
    }
    // A new key when an attribute changes starts the calculator afresh from the attributes.
    render(
      <App
        key={`${preset}|${mode}|${view}`}
        compact
        persist={false}
        initialPreset={preset}
        initialMode={view === 'compact' ? 'inference' : mode}
        view={view}
      />,
      this.mount!,
    );
  }
}

if (!customElements.get('fitcheck-calculator')) customElements.define('fitcheck-calculator', FitcheckCalculator);
