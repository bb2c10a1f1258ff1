// SPDX-License-Identifier: MIT
// The inputs, restored from the location hash on load and written back as they change, so that
// the address bar always holds a link to the current view.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Inputs } from '../app/inputs';
import { decodeInputs, encodeInputs, hashHasState } from './url-state';

export interface UrlState {
  /** Undefined while a link's inputs are being read (a few ms). */
  inputs?: Inputs;
  setInputs: (update: (inputs: Inputs) => Inputs) => void;
  /** A part of the link that could not be read. */
  problem?: string;
  /** The full link to the current inputs. */
  link: () => Promise<string>;
}

export function linkFor(encoded: string): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('embed');
  url.hash = encoded;
  return url.toString();
}

export function useUrlState(initial: () => Inputs, defaultPresetId: string, persist: boolean): UrlState {
  const restoring = persist && hashHasState(window.location.hash);
  const [inputs, setState] = useState<Inputs | undefined>(restoring ? undefined : initial);
  const [problem, setProblem] = useState<string>();
  const written = useRef<string>('');

  const restore = useCallback(
    (hash: string) => {
      decodeInputs(hash, defaultPresetId).then(({ inputs: decoded, problem: issue }) => {
        written.current = hash.replace(/^#/, '');
        setState(decoded);
        setProblem(issue);
      });
    },
    [defaultPresetId],
  );

  useEffect(() => {
    if (!persist) return;
    if (restoring) restore(window.location.hash);
    const onHash = () => {
      const hash = window.location.hash.replace(/^#/, '');
      if (hash !== written.current && hashHasState(hash)) restore(hash);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (!persist || !inputs) return;
    let live = true;
    const timer = setTimeout(() => {
      encodeInputs(inputs).then((encoded) => {
        if (!live || encoded === written.current) return;
        written.current = encoded;
        history.replaceState(history.state, '', `#${encoded}`);
      });
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [inputs, persist]);

  const setInputs = useCallback(
    (update: (current: Inputs) => Inputs) => setState((current) => (current ? update(current) : current)),
    [],
  );
  const link = useCallback(async () => linkFor(inputs ? await encodeInputs(inputs) : ''), [inputs]);
  return { inputs, setInputs, problem, link };
}
