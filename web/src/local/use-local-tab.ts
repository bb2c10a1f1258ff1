// SPDX-License-Identifier: MIT
// The Local tab's report: llama.cpp / Ollama placement, buffers and speed, or MLX LM's peak memory and
// speed (the full core's localReport), computed when the tab is shown.
import { useMemo, useState } from 'preact/hooks';
import type {
  CoreError,
  CpuDevice,
  LocalFormatsReport,
  LocalGpu,
  MlxFormatsReport,
  LocalOptions,
  LocalReport,
  MlxOptions,
  MlxReport,
} from '../core/types';
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
  /** Each common GGUF type on this machine, or each MLX conversion on the chip, once asked for (compareFormats),
   * recomputed with the inputs. */
  formats?: LocalFormatsReport | MlxFormatsReport;
  formatsError?: CoreError;
  compareFormats: () => void;
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
  // The weight formats table runs a placement per type, so it is computed only once asked for.
  const [comparing, setComparing] = useState(false);
  const formats = useMemo(() => {
    if (!comparing || !outcome?.report || !full.core) return undefined;
    try {
      const options = localOptions(inputs);
      return {
        formats:
          options.engine === 'mlx'
            ? full.core.localFormats(configText, options as MlxOptions)
            : full.core.localFormats(configText, options as LocalOptions),
      };
    } catch (error) {
      return { error: error as CoreError };
    }
  }, [comparing, outcome, full.core, configText, inputs]);
  const cpus = useMemo(() => full.core?.cpuCatalog() ?? noCpus, [full.core]);
  const gpus = useMemo(() => full.core?.localGpuCatalog() ?? noGpus, [full.core]);
  const compareFormats = useMemo(() => () => setComparing(true), []);
  return {
    loadError: full.loadError,
    report: outcome?.report,
    error: outcome?.error,
    cpus,
    gpus,
    formats: formats?.formats,
    formatsError: formats?.error,
    compareFormats,
  };
}
