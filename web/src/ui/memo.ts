// SPDX-License-Identifier: MIT
// A component drawn again only when one of its props changed (compared one by one with ===), as
// preact/compat's memo, without the compat layer. An edit of the workload then leaves the parts
// it does not touch (the model's inputs, the parameter table, the GPU list) alone.
import { createElement, type FunctionComponent } from 'preact';

function changed(previous: Record<string, unknown>, next: Record<string, unknown>): boolean {
  for (const key in previous) if (!(key in next)) return true;
  for (const key in next) if (previous[key] !== next[key]) return true;
  return false;
}

export function memo<P extends object>(component: FunctionComponent<P>): FunctionComponent<P> {
  function Memo(this: { props: P; shouldComponentUpdate?: (next: P) => boolean }, props: P) {
    this.shouldComponentUpdate = (next) =>
      changed(this.props as Record<string, unknown>, next as Record<string, unknown>);
    return createElement(component, props);
  }
  Memo.displayName = `Memo(${component.displayName ?? component.name})`;
  return Memo;
}
