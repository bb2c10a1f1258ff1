// SPDX-License-Identifier: MIT
import { useState } from 'preact/hooks';
import { copyText } from '../clipboard';

interface Props {
  label: string;
  testId: string;
  /** The text, or a promise of it (a link is encoded asynchronously). */
  text: () => string | Promise<string>;
}

export function CopyButton({ label, testId, text }: Props) {
  const [status, setStatus] = useState('');
  return (
    <span class="copy-button">
      <button
        type="button"
        data-testid={testId}
        onClick={async () => {
          const ok = await copyText(await text());
          setStatus(ok ? 'Copied' : 'Copy failed: select the text and copy it by hand');
          setTimeout(() => setStatus(''), 2500);
        }}
      >
        {label}
      </button>
      <span class="status" role="status" aria-live="polite">
        {status}
      </span>
    </span>
  );
}
