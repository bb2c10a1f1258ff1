// SPDX-License-Identifier: MIT
// A component whose code is a separate chunk, fetched the first time it is drawn (or preloaded),
// so that a first visit downloads only what the first view shows.
import type { ComponentType, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** What a lazy form or tab shows while its chunk is fetched. */
export const loadingPlaceholder = () => <p class="muted">Loading…</p>;

export interface LazyComponent<P> {
  (props: P): JSX.Element | null;
  /** Starts fetching the chunk; the same promise every time. */
  preload: () => Promise<void>;
}

export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: () => JSX.Element | null = () => null,
): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let failure: Error | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        failure = error instanceof Error ? error : new Error(String(error));
      },
    ));

  function Lazy(props: P) {
    const [, redraw] = useState(0);
    const ready = Boolean(loaded || failure);
    // Started while drawing, not in the effect (which waits for a paint).
    if (!ready) preload();
    useEffect(() => {
      if (ready) return;
      let live = true;
      preload().then(() => live && redraw((count) => count + 1));
      return () => {
        live = false;
      };
    }, [ready]);
    if (loaded) {
      const Component = loaded;
      return <Component {...props} />;
    }
    if (failure) {
      return (
        <p class="error" role="alert">
          This part of the page failed to load: {failure.message}
        </p>
      );
    }
    return placeholder();
  }
  Lazy.preload = preload;
  return Lazy;
}
