// SPDX-License-Identifier: MIT
// In ?embed mode the page tells its parent frame how tall it is, so the iframe can fit it:
// window.parent receives {type: "fitcheck:height", height} whenever the height changes.

import { useEffect } from 'preact/hooks';

export const heightMessageType = 'fitcheck:height';

export function useEmbedHeight(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || window.parent === window || typeof ResizeObserver !== 'function') return;
    let last = -1;
    const post = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      // The height is not secret, and the embedding origin is not known in advance.
      window.parent.postMessage({ type: heightMessageType, height }, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(document.documentElement);
    post();
    return () => observer.disconnect();
  }, [enabled]);
}
