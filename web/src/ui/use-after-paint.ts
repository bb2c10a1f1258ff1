// SPDX-License-Identifier: MIT
// False until `ready` has been true for one painted frame, then true for good. The page shows the
// parameter table as soon as it is known and starts the slower inference report after that paint.
import { useEffect, useState } from 'preact/hooks';

export function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  // Preact runs effects after the browser has painted the render that scheduled them.
  useEffect(() => {
    if (ready && !painted) setPainted(true);
  }, [ready, painted]);
  return painted;
}
