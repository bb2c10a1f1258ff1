// SPDX-License-Identifier: MIT
// The last defined value a hook returned: the results of the last valid inputs, shown (marked
// stale) while an input does not read, so that a keystroke never empties the page.
import { useRef } from 'preact/hooks';

export function useLastGood<T>(value: T | undefined): T | undefined {
  const last = useRef<T | undefined>(undefined);
  if (value !== undefined) last.current = value;
  return last.current;
}
