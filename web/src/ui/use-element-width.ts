// SPDX-License-Identifier: MIT
// The rendered width of an element, so that a chart is drawn at its real pixel size and its
// text stays readable from a phone to a wide screen.
import { useEffect, useRef, useState } from 'preact/hooks';

export function useElementWidth<T extends Element>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry.contentRect.width);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
