// SPDX-License-Identifier: MIT
// Inference / Training / Plan / Local tabs (WAI-ARIA tabs pattern: arrow keys move between them).
import { useRef } from 'preact/hooks';
import type { Mode } from '../inputs';

const modes: Array<[Mode, string]> = [
  ['inference', 'Inference'],
  ['training', 'Training'],
  ['plan', 'Plan'],
  ['local', 'Local'],
];

/** onIntent: the pointer is over a tab or it has focus (its code can start loading). */
export function ModeTabs({
  mode,
  onMode,
  onIntent,
}: {
  mode: Mode;
  onMode: (mode: Mode) => void;
  onIntent?: (mode: Mode) => void;
}) {
  const buttons = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (step: number) => {
    const index = modes.findIndex(([id]) => id === mode);
    const next = modes[(index + step + modes.length) % modes.length][0];
    onMode(next);
    requestAnimationFrame(() => buttons.current[next]?.focus());
  };
  return (
    <div role="tablist" aria-label="What to estimate" class="tabs">
      {modes.map(([id, label]) => (
        <button
          key={id}
          id={`tab-${id}`}
          ref={(element) => {
            buttons.current[id] = element;
          }}
          type="button"
          role="tab"
          data-testid={`tab-${id}`}
          aria-selected={mode === id ? 'true' : 'false'}
          aria-controls="results"
          tabIndex={mode === id ? 0 : -1}
          onClick={() => onMode(id)}
          onPointerEnter={() => onIntent?.(id)}
          onFocus={() => onIntent?.(id)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') move(1);
            if (e.key === 'ArrowLeft') move(-1);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
