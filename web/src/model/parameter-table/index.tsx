// SPDX-License-Identifier: MIT
import type { ParameterReport } from '../../core/types';
import { parameterTable } from '../../export/tables';
import { TableView } from '../../ui/table-view';
import { memo } from '../../ui/memo';

const testIds: Record<string, string> = { total: 'total-params', active: 'active-params' };

export const ParameterTable = memo(function ParameterTable({ report }: { report: ParameterReport }) {
  return (
    <TableView
      table={parameterTable(report)}
      testId="parameter-table"
      textColumns={[0]}
      cellTestId={(row, column) => (column === 1 ? testIds[row.key] : undefined)}
    />
  );
});
