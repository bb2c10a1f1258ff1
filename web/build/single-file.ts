// SPDX-License-Identifier: MIT
// Vite plugin: folds the built JS and CSS into the HTML, giving one self-contained page that works
// from file://. The page's Content-Security-Policy then allows exactly that inline script, by its
// SHA-256 hash (still no eval, no remote origin).
import { createHash } from 'node:crypto';
import type { OutputAsset, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

export function singleFile(fileName: string): Plugin {
  return {
    name: 'fitcheck-single-file',
    enforce: 'post',
    // Last of all generateBundle hooks: after Vite has rewritten its dynamic-import helpers.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
      const html = Object.values(bundle).find((item): item is OutputAsset => item.type === 'asset' && item.fileName.endsWith('.html'));
      if (!html) this.error('fitcheck-single-file: no HTML in the bundle');
      let text = String(html.source);
      const hashes: string[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') {
          const chunk = item as OutputChunk;
          const tag = new RegExp(`<script type="module" crossorigin src="[^"]*${escape(chunk.fileName)}"></script>`);
          if (!tag.test(text)) this.error(`fitcheck-single-file: no script tag for ${chunk.fileName}`);
          const code = chunk.code.replace(/<\/(script)/gi, '<\\/$1');
          hashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
          text = text.replace(tag, () => `<script type="module">${code}</script>`);
          delete bundle[chunk.fileName];
        } else if (item.fileName.endsWith('.css')) {
          const tag = new RegExp(`<link rel="stylesheet" crossorigin href="[^"]*${escape(item.fileName)}">`);
          if (!tag.test(text)) this.error(`fitcheck-single-file: no link tag for ${item.fileName}`);
          text = text.replace(tag, () => `<style>${String(item.source)}</style>`);
          delete bundle[item.fileName];
        }
      }
      const left = Object.keys(bundle).filter((name) => name !== html.fileName);
      if (left.length) this.error(`fitcheck-single-file: files left outside the page: ${left.join(', ')}`);
      const csp = /script-src 'self'/;
      if (!csp.test(text)) this.error("fitcheck-single-file: the page's CSP has no script-src 'self' to replace");
      text = text.replace(csp, `script-src ${hashes.join(' ')}`);
      delete bundle[html.fileName];
      this.emitFile({ type: 'asset', fileName, source: text });
      },
    },
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
