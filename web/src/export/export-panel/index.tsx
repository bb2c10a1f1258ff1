// SPDX-License-Identifier: MIT
// The result tables as Markdown, CSV or JSON, shown, copyable and downloadable; the JSON also
// carries the link to this view.
import { useEffect, useState } from 'preact/hooks';
import type { TableModel } from '../tables';
import { serialize, type ExportFormat } from '../serialize';
import { CopyButton } from '../../ui/copy-button';

const formats: Array<[ExportFormat, string]> = [
  ['markdown', 'Markdown'],
  ['csv', 'CSV'],
  ['json', 'JSON'],
];

const files: Record<ExportFormat, { extension: string; type: string }> = {
  markdown: { extension: 'md', type: 'text/markdown' },
  csv: { extension: 'csv', type: 'text/csv' },
  json: { extension: 'json', type: 'application/json' },
};

/** Saves the text as a file, made in the page (nothing is fetched). */
function download(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  /** The tables, built when the panel is open. */
  tables: () => TableModel[];
  extra: Record<string, unknown>;
  /** The link to this view, for the JSON export (absent where the inputs are not kept in a link). */
  link?: () => Promise<string>;
  /** The file name's stem: fitcheck-inference, fitcheck-training, ... */
  fileStem?: string;
}

export function ExportPanel({ tables, extra, link, fileStem = 'fitcheck' }: Props) {
  const [format, setFormat] = useState<ExportFormat>('markdown');
  const [open, setOpen] = useState(false);
  const [shareLink, setShareLink] = useState<string>();
  useEffect(() => {
    if (!open || !link) return;
    let current = true;
    void link().then((value) => current && setShareLink(value));
    return () => {
      current = false;
    };
  }, [open, link]);
  // Serialized only while shown: the tables change with every keystroke.
  const text = open ? serialize(format, tables(), shareLink ? { ...extra, link: shareLink } : extra) : '';
  const file = `${fileStem}.${files[format].extension}`;
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
          <div class="export-actions">
            <CopyButton
              label={`Copy ${formats.find(([id]) => id === format)?.[1]}`}
              testId="copy-export"
              text={() => text}
            />
            <button
              type="button"
              data-testid="download-export"
              onClick={() => download(text, file, files[format].type)}
            >
              Download {file}
            </button>
          </div>
        </>
      )}
    </details>
  );
}
