// SPDX-License-Identifier: MIT
// The result tables as Markdown, CSV or JSON, shown and copyable.
import { useState } from 'preact/hooks';
import type { TableModel } from '../tables';
import { serialize, type ExportFormat } from '../serialize';
import { CopyButton } from '../../ui/copy-button';

const formats: Array<[ExportFormat, string]> = [
  ['markdown', 'Markdown'],
  ['csv', 'CSV'],
  ['json', 'JSON'],
];

export function ExportPanel({ tables, extra }: { tables: TableModel[]; extra: Record<string, unknown> }) {
  const [format, setFormat] = useState<ExportFormat>('markdown');
  const [open, setOpen] = useState(false);
  // Serialized only while shown: the tables change with every keystroke.
  const text = open ? serialize(format, tables, extra) : '';
  return (
    <details class="export" data-testid="export" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Export the tables</summary>
      <fieldset class="segmented">
        <legend class="visually-hidden">Export format</legend>
        {formats.map(([id, label]) => (
          <label key={id}>
            <input
              type="radio"
              name="export-format"
              value={id}
              data-testid={`export-${id}`}
              checked={format === id}
              onChange={() => setFormat(id)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {open && (
        <>
          <label for="export-text" class="visually-hidden">
            Exported text
          </label>
          <textarea id="export-text" data-testid="export-text" readOnly rows={10} spellcheck={false} value={text} />
          <CopyButton
            label={`Copy ${formats.find(([id]) => id === format)?.[1]}`}
            testId="copy-export"
            text={() => text}
          />
        </>
      )}
    </details>
  );
}
