// SPDX-License-Identifier: MIT
// The link to the current inputs as a value to draw (the embed's "Open full page"), refreshed as
// the inputs change; '' until the first one is built, and when not wanted.
import { useEffect, useState } from 'preact/hooks';

export function useCurrentLink(link: () => Promise<string>, wanted: boolean): string {
  const [current, setCurrent] = useState('');
  useEffect(() => {
    if (wanted) link().then(setCurrent);
  }, [wanted, link]);
  return current;
}
