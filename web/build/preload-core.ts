// SPDX-License-Identifier: MIT
// Vite plugin for the page build: index.html preloads the first view's WebAssembly module (its
// Emscripten glue and .wasm), so that both download while the page's own script is still loading
// instead of after it has run. Hrefs are relative, like every other asset (sub-path hosting).
import type { OutputAsset, OutputChunk } from 'rolldown';
import type { HtmlTagDescriptor, Plugin } from 'vite';

export function preloadCore(glueName: string): Plugin {
  return {
    name: 'fitcheck-preload-core',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const items = Object.values(context.bundle ?? {});
        const glue = items.find((item): item is OutputChunk => item.type === 'chunk' && Boolean(item.facadeModuleId?.endsWith(`/generated/${glueName}.mjs`)));
        const wasm = items.find((item): item is OutputAsset => item.type === 'asset' && item.names.includes(`${glueName}.wasm`));
        if (!glue || !wasm) throw new Error(`fitcheck-preload-core: ${glueName}.mjs or its .wasm is not in the bundle`);
        const tags: HtmlTagDescriptor[] = [
          { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${glue.fileName}` }, injectTo: 'head' },
          // as=fetch + crossorigin matches the glue's fetch(url, {credentials: 'same-origin'}).
          { tag: 'link', attrs: { rel: 'preload', as: 'fetch', type: 'application/wasm', crossorigin: true, href: `./${wasm.fileName}` }, injectTo: 'head' },
        ];
        return tags;
      },
    },
  };
}
