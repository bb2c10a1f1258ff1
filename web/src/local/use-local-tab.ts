// SPDX-License-Identifier: MIT
// The Local tab's report: llama.cpp / Ollama placement, buffers and speed, or MLX LM's peak memory and
// speed (the full core's localReport), computed when the tab is shown.
import { useMemo } from 'preact/hooks';
import type { CoreError, CpuDevice, LocalGpu, LocalOptions, LocalReport, MlxOptions, MlxReport } from '../core/types';
import { useFullCore } from '../core/use-full-core';
import { localOptions, type LocalInputs } from './local-inputs';

export interface LocalTab {
  loadError?: string;
  report?: LocalReport | MlxReport;
  error?: CoreError;
  /** The CPU catalog, for the form's CPU field (empty until the full core is loaded). */
  cpus: CpuDevice[];
  /** The GPUs llama.cpp runs on, for the form's GPU picker (empty until the full core is loaded). */
  gpus: LocalGpu[];
}

const noCpus: CpuDevice[] = [];
const noGpus: LocalGpu[] = [];

/** `ready`: the config reads; `active`: the tab is shown. */
export function useLocalTab(ready: boolean, configText: string, inputs: LocalInputs, active: boolean): LocalTab {
  const full = useFullCore(active);
  const outcome = useMemo(() => {
    if (!active || !ready || !full.core) return undefined;
    try {
      const options = localOptions(inputs);
      const report =
        options.engine === 'mlx'
          ? full.core.localReport(configText, options as MlxOptions)
          : full.core.localReport(configText, options as LocalOptions);
      return { report };
    } catch (error) {
      return { error: error as CoreError };
    }
  }, [active, ready, full.core, configText, inputs]);
  const cpus = useMemo(() => full.core?.cpuCatalog() ?? noCpus, [full.core]);
  const gpus = useMemo(() => full.core?.localGpuCatalog() ?? noGpus, [full.core]);
  return { loadError: full.loadError, report: outcome?.report, error: outcome?.error, cpus, gpus };
}
