// SPDX-License-Identifier: MIT
// "Export the tables" for the tab shown: builds the tables (export/page-tables.ts, which knows every
// tab's tables) here, so that they load with this panel rather than with the first view.
import { useCallback } from 'preact/hooks';
import type { Accelerator, FormatCatalog } from '../../core/types';
import { pageTables, type PageReports } from '../page-tables';
import type { ByteUnit, Mode } from '../../app/inputs';
import { ExportPanel } from '../export-panel';

interface Props {
  mode: Mode;
  reports: PageReports;
  unit: ByteUnit;
  formats?: FormatCatalog;
  gpu?: Accelerator;
  extra: Record<string, unknown>;
  /** The link to this view, carried by the JSON export. */
  link?: () => Promise<string>;
}

export function ExportSection({ mode, reports, unit, formats, gpu, extra, link }: Props) {
  const { params, inference, training, plan, trainingPlan } = reports;
  // Built when the panel is open, not at every keystroke: an edit redraws the page without them.
  const tables = useCallback(
    () => pageTables(mode, { params, inference, training, plan, trainingPlan }, { unit, formats, gpu }),
    [mode, params, inference, training, plan, trainingPlan, unit, formats, gpu],
  );
  // The parameter table is always among them; without it, whether any other table is.
  return params || tables().length > 0 ? (
    <ExportPanel tables={tables} extra={extra} link={link} fileStem={`fitcheck-${mode}`} />
  ) : null;
}
