// SPDX-License-Identifier: MIT
// "Weights in every format": one inferenceReport per weight format the core knows, computed once
// the user opens it (and again, a moment after each change, while it is open).
import { useState } from 'preact/hooks';
import type { FitcheckModule, FormatCatalog, ParameterReport } from '../core/types';
import { weightFormatsTable, type TableModel } from '../export/tables';
import { weightsPerFormat } from '../inference/sweep';
import type { ByteUnit } from '../app/inputs';
import type { Workload } from '../inference/inference-inputs';
import { useDeferred } from '../ui/use-deferred';

export interface WeightFormats {
  /** Undefined until wanted, and while the first computation runs. */
  table?: TableModel;
  want: () => void;
}

export function useWeightFormats(
  core: FitcheckModule | undefined,
  configText: string,
  workload: Workload,
  formats: FormatCatalog | undefined,
  params: ParameterReport | undefined,
  unit: ByteUnit,
): WeightFormats {
  const [wanted, setWanted] = useState(false);
  const reports = useDeferred(
    () => {
      if (!core || !params || !formats || !wanted) return undefined;
      return weightsPerFormat(core, configText, workload, formats.weight_formats);
    },
    [core, configText, workload, formats, wanted, Boolean(params)],
    60,
  );
  return { table: reports ? weightFormatsTable(reports, unit) : undefined, want: () => setWanted(true) };
}
