// SPDX-License-Identifier: MIT
// A table of planner candidates (export/plan-tables.ts, training-plan-tables.ts) in which each row
// loads its layout into the Inference (or Training) tab: by its button, or by a click on the row.
import { planTextColumns } from '../plan-tables';
import type { TableModel } from '../../export/tables';

interface Props<Candidate> {
  table: TableModel;
  candidates: Candidate[];
  onLoad: (candidate: Candidate) => void;
  /** Left-aligned columns; default the serving table's. */
  textColumns?: ReadonlyArray<number>;
  /** The tab a row opens in. */
  target?: string;
}

export function PlanTable<Candidate>({
  table,
  candidates,
  onLoad,
  textColumns = planTextColumns,
  target = 'Inference',
}: Props<Candidate>) {
  // The title sits above the scroll box, so that it stays in view on a narrow screen.
  return (
    <div class="plan-table-block">
      <p class="table-title" id={`${table.id}-title`}>
        {table.title}
      </p>
      <div class="table-scroll">
        <table class="figures plan-table" data-testid={`${table.id}-table`} aria-labelledby={`${table.id}-title`}>
          <thead>
            <tr>
              {table.columns.map((column, i) => (
                <th scope="col" key={column} class={textColumns.includes(i) ? undefined : 'number'}>
                  {column}
                </th>
              ))}
              <th scope="col">
                <span class="visually-hidden">Load</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, index) => (
              <tr
                key={row.key}
                data-row={row.key}
                class="loadable"
                title={row.source}
                onClick={() => onLoad(candidates[index])}
              >
                {row.cells.map((cell, i) =>
                  i === 1 ? (
                    <th scope="row" key={i} data-testid={`${table.id}-${index}-${table.keys[i]}`}>
                      {cell.text}
                    </th>
                  ) : (
                    <td
                      key={i}
                      class={textColumns.includes(i) ? undefined : 'number'}
                      data-testid={`${table.id}-${index}-${table.keys[i]}`}
                    >
                      {cell.text}
                    </td>
                  ),
                )}
                <td>
                  <button
                    type="button"
                    data-testid={`${table.id}-load-${index}`}
                    aria-label={`Load layout ${index + 1} into the ${target} tab`}
                    onClick={(e) => {
                      e.stopPropagation();
                      onLoad(candidates[index]);
                    }}
                  >
                    Load
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
