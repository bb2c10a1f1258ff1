// SPDX-License-Identifier: MIT
// A table of planner candidates (export/plan-tables.ts) in which each row loads its layout into
// the Inference tab: by its button, or by a click anywhere on the row.
import type { PlanCandidate } from '../core/types';
import { planTextColumns } from '../export/plan-tables';
import type { TableModel } from '../export/tables';

interface Props {
  table: TableModel;
  candidates: PlanCandidate[];
  onLoad: (candidate: PlanCandidate) => void;
}

export function PlanTable({ table, candidates, onLoad }: Props) {
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
                <th scope="col" key={column} class={planTextColumns.includes(i) ? undefined : 'number'}>
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
              <tr key={row.key} data-row={row.key} class="loadable" title={row.source} onClick={() => onLoad(candidates[index])}>
                {row.cells.map((cell, i) =>
                  i === 1 ? (
                    <th scope="row" key={i} data-testid={`${table.id}-${index}-${table.keys[i]}`}>
                      {cell.text}
                    </th>
                  ) : (
                    <td key={i} class={planTextColumns.includes(i) ? undefined : 'number'} data-testid={`${table.id}-${index}-${table.keys[i]}`}>
                      {cell.text}
                    </td>
                  ),
                )}
                <td>
                  <button
                    type="button"
                    data-testid={`${table.id}-load-${index}`}
                    aria-label={`Load layout ${index + 1} into the Inference tab`}
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
