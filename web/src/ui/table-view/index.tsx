// SPDX-License-Identifier: MIT
// Renders one result table (export/tables.ts). Each row with a formula has a button that opens a
// line below it with the formula, the user's numbers substituted, and the source.
import { useState } from 'preact/hooks';
import type { Row, TableModel } from '../../export/tables';

interface Props {
  table: TableModel;
  /** Test id for a cell, e.g. total-params on the total's exact count. */
  cellTestId?: (row: Row, column: number) => string | undefined;
  /** Columns holding text (left aligned); the others hold numbers. */
  textColumns?: number[];
  /** Columns left out on narrow screens (the same figure is in another column). */
  wideOnly?: number[];
  /** Test id of the table; `${table.id}-table` by default. */
  testId?: string;
}

export function TableView({ table, cellTestId, textColumns = [0], wideOnly = [], testId }: Props) {
  const cellClass = (i: number) =>
    [textColumns.includes(i) ? '' : 'number', wideOnly.includes(i) ? 'wide-only' : ''].filter(Boolean).join(' ') ||
    undefined;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const detailed = (row: Row) => Boolean(row.formula || row.source || row.expectedError);
  const hasDetails = table.rows.some(detailed);
  const toggle = (key: string) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setOpen(next);
  };
  const allOpen = hasDetails && table.rows.every((row) => !detailed(row) || open.has(row.key));
  const toggleAll = () => setOpen(allOpen ? new Set() : new Set(table.rows.filter(detailed).map((row) => row.key)));
  const body = table.rows.filter((row) => !row.footer);
  const footer = table.rows.filter((row) => row.footer);
  const span = table.columns.length + (hasDetails ? 1 : 0);

  const renderRow = (row: Row) => {
    const detailId = `${table.id}-${row.key}-formula`;
    const isOpen = open.has(row.key);
    return [
      <tr
        key={row.key}
        data-row={row.key}
        class={row.key === 'verdict' ? (row.cells[0].value ? 'verdict fits' : 'verdict no-fit') : undefined}
      >
        {row.cells.map((cell, i) =>
          i === 0 ? (
            <th scope="row" key={i} data-testid={cellTestId?.(row, i)}>
              {cell.text}
              {row.expectedError && (
                <span class="expected-error" title={row.expectedError.detail} data-testid={`${row.key}-expected-error`}>
                  {row.expectedError.text}
                </span>
              )}
            </th>
          ) : (
            <td key={i} class={cellClass(i)} data-testid={cellTestId?.(row, i)}>
              {cell.text}
            </td>
          ),
        )}
        {hasDetails && (
          <td class="formula-toggle">
            {detailed(row) && (
              <button
                type="button"
                class="icon-button"
                aria-expanded={isOpen ? 'true' : 'false'}
                aria-controls={detailId}
                onClick={() => toggle(row.key)}
                title="Show how this figure is computed"
              >
                <span aria-hidden="true">ƒ</span>
                <span class="visually-hidden">Formula for {row.cells[0].text}</span>
              </button>
            )}
          </td>
        )}
      </tr>,
      isOpen ? (
        <tr key={`${row.key}-detail`} id={detailId} class="detail-row" data-testid={detailId}>
          <td colSpan={span}>
            {row.formula && <code class="formula">{row.formula}</code>}
            {row.source && <p class="source">Source: {row.source}</p>}
            {row.expectedError && <p class="source">Expected error: {row.expectedError.detail}</p>}
          </td>
        </tr>
      ) : null,
    ];
  };

  // In a scroll box of its own: a long name or figure never widens the page on a phone.
  return (
    <div class="table-scroll">
      <table class="figures" data-testid={testId ?? `${table.id}-table`}>
        <caption>
          <div class="caption-row">
            <span>{table.title}</span>
            {hasDetails && (
              <button type="button" class="link-button" onClick={toggleAll} aria-pressed={allOpen ? 'true' : 'false'}>
                {allOpen ? 'Hide formulas' : 'Show formulas'}
                <span class="visually-hidden"> of {table.title}</span>
              </button>
            )}
          </div>
        </caption>
        <thead>
          <tr>
            {table.columns.map((column, i) => (
              <th scope="col" key={column} class={cellClass(i)}>
                {column}
              </th>
            ))}
            {hasDetails && (
              <th scope="col" class="formula-toggle">
                <span class="visually-hidden">Formula</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{body.map(renderRow)}</tbody>
        {footer.length > 0 && <tfoot>{footer.map(renderRow)}</tfoot>}
      </table>
    </div>
  );
}
