// SPDX-License-Identifier: MIT
// A part of the page below the verdict that follows an edit one frame later: its data props are
// held until the browser has painted the edit's first frame (the verdict, the summary and the
// memory table), then passed on. An edit's first paint then costs only what is in view
// (docs/performance.md, "Edit to paint"); the charts and latency tables follow in the next task.
// While nothing it reads changed it is not drawn again at all. Event handlers always reach the
// latest props' ones.
import { createElement, type FunctionComponent } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';

type Props = Record<string, unknown>;
type Handler = (...args: unknown[]) => unknown;

// A handler's identity is not data (the latest one is always called), but a handler that comes or
// goes is: the part draws differently with it (a button that asks for more, say).
function dataChanged(shown: Props, next: Props): boolean {
  for (const key in { ...shown, ...next }) {
    const was = shown[key];
    if (typeof was === 'function' ? typeof next[key] !== 'function' : was !== next[key]) return true;
  }
  return false;
}

export function afterPaint<P extends object>(component: FunctionComponent<P>): FunctionComponent<P> {
  function AfterPaint(props: P) {
    const latest = useRef(props);
    latest.current = props;
    const [shown, setShown] = useState(props);
    const behind = dataChanged(shown as Props, props as Props);
    // Preact runs effects after the browser has painted the render that scheduled them; the redraw
    // is a task of its own, after whatever else was waiting for that paint.
    useEffect(() => {
      if (!behind) return;
      const timer = setTimeout(() => setShown(latest.current), 0);
      return () => clearTimeout(timer);
    });
    const forwarded = useMemo(() => {
      const out: Props = { ...(shown as Props) };
      for (const key in out)
        if (typeof out[key] === 'function')
          out[key] = (...args: unknown[]) => ((latest.current as Props)[key] as Handler | undefined)?.(...args);
      return out as P;
    }, [shown]);
    // The same element while `shown` stands: Preact skips the subtree.
    return useMemo(() => createElement(component, forwarded), [forwarded]);
  }
  return AfterPaint;
}
