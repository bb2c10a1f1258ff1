// SPDX-License-Identifier: MIT
// Runs a slower computation (a sweep of core calls) after the inputs have been still for a moment,
// keeping the previous result on screen meanwhile so that typing never waits for it.
import { useEffect, useState } from 'preact/hooks';

export function useDeferred<T>(compute: () => T | undefined, deps: unknown[], delayMs = 80): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setValue(compute()), delayMs);
    return () => clearTimeout(timer);
  }, deps);
  return value;
}
