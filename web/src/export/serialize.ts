// SPDX-License-Identifier: MIT
// The result tables as Markdown, CSV and JSON text. Each row's formula goes along.
import type { TableModel } from './tables';

export type ExportFormat = 'markdown' | 'csv' | 'json';

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function toMarkdown(tables: TableModel[]): string {
  return (
    tables
      .map((table) => {
        const columns = [...table.columns, 'Formula'];
        const lines = [
          `### ${markdownCell(table.title)}`,
          '',
          `| ${columns.map(markdownCell).join(' | ')} |`,
          `| ${columns.map((_, i) => (i === 0 || i === columns.length - 1 ? '---' : '---:')).join(' | ')} |`,
        ];
        for (const row of table.rows)
          lines.push(`| ${[...row.cells.map((cell) => cell.text), row.formula ?? ''].map(markdownCell).join(' | ')} |`);
        return lines.join('\n');
      })
      .join('\n\n') + '\n'
  );
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV block per table, led by a row with the table's title, blocks separated by a blank line. */
export function toCsv(tables: TableModel[]): string {
  return (
    tables
      .map((table) => {
        const lines = [csvCell(table.title), [...table.columns, 'Formula'].map(csvCell).join(',')];
        for (const row of table.rows)
          lines.push([...row.cells.map((cell) => cell.text), row.formula ?? ''].map(csvCell).join(','));
        return lines.join('\n');
      })
      .join('\n\n') + '\n'
  );
}

export function toJson(tables: TableModel[], extra: Record<string, unknown> = {}): string {
  const out = {
    ...extra,
    tables: tables.map((table) => ({
      id: table.id,
      title: table.title,
      rows: table.rows.map((row) => {
        const entry: Record<string, unknown> = {};
        table.keys.forEach((key, i) => {
          entry[key] = row.cells[i]?.value;
        });
        if (row.formula) entry.formula = row.formula;
        if (row.source) entry.source = row.source;
        return entry;
      }),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

export function serialize(format: ExportFormat, tables: TableModel[], extra: Record<string, unknown> = {}): string {
  if (format === 'markdown') return toMarkdown(tables);
  if (format === 'csv') return toCsv(tables);
  return toJson(tables, extra);
}
