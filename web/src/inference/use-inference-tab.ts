// SPDX-License-Identifier: MIT
// The Inference tab's reports: the inference report (started once the parameter table has been
// painted), the memory sweeps over context and batch that the charts plot, and the GPU whose
// figures each part shows.
import type { Accelerator, FitcheckModule, InferenceReport, ParameterReport } from '../core/types';
import type { Workload } from './inference-inputs';
import { useMemo } from 'preact/hooks';
import { attempt } from '../core/outcome';
import { useDeferred } from '../ui/use-deferred';
import { preloadInferenceDetails } from './inference-results';
import { geometricGrid, sweep, type SweepPoint } from './sweep';
import { useInference, type InferenceState } from './use-inference';

/** The sweeps' largest context and batch. */
const contextCap = 1 << 20;
const batchCap = 4096;

export interface InferenceTab {
  state: InferenceState;
  /** The report's GPU: the catalog's entry, or a custom GPU's figures from the report. */
  gpu?: Accelerator;
  /** The GPU of the report the latency figures come from (the last complete one while pending). */
  latencyGpu?: Accelerator;
  /** The name of the GPU chosen, while its fit is being checked. */
  pendingGpu?: string;
  byContext?: SweepPoint[];
  byBatch?: SweepPoint[];
  /** The checkpoint's own weight format (the core's choice when none is given), e.g. mxfp4. */
  checkpointWeights?: string;
}

export function reportGpu(gpus: Accelerator[], report: InferenceReport | undefined): Accelerator | undefined {
  return gpus.find((candidate) => candidate.id === report?.gpu?.id) ?? report?.gpu;
}

/**
 * `restored`: the inputs are known (a link's inputs are read first); `active`: the tab is shown and
 * the parameter table has been painted.
 */
export function useInferenceTab(
  core: FitcheckModule | undefined,
  restored: boolean,
  configText: string,
  workload: Workload,
  params: ParameterReport | undefined,
  gpus: Accelerator[],
  active: boolean,
): InferenceTab {
  if (active) preloadInferenceDetails();
  const state = useInference(restored ? core : undefined, configText, workload, active && Boolean(params));
  const inference = state.report;
  // The format the core reads from the config when none is given: the weight field's first option
  // (after the parameter table has been painted, as every inference call).
  const checkpointWeights = useMemo(() => {
    if (!core || !params || !active) return undefined;
    return attempt(() => core.inferenceReport(configText, { batch: 1, context: 1 })).report?.workload.weights;
  }, [core, configText, Boolean(params) && active]);
  const byContext = useDeferred(
    () => {
      if (!core || !inference || !params) return undefined;
      const high = Math.min(
        Math.max(params.shape.max_position_embeddings || 131072, inference.workload.context),
        contextCap,
      );
      return sweep(core, configText, workload, 'context', geometricGrid(256, high, inference.workload.context, 26));
    },
    [core, configText, workload, Boolean(inference)],
    80,
  );
  const byBatch = useDeferred(
    () => {
      if (!core || !inference) return undefined;
      const high = Math.min(Math.max(64, 2 * (inference.max_batch_size ?? 0), inference.workload.batch), batchCap);
      return sweep(core, configText, workload, 'batch', geometricGrid(1, high, inference.workload.batch, 26));
    },
    [core, configText, workload, Boolean(inference)],
    140,
  );
  return {
    state,
    gpu: reportGpu(gpus, inference),
    latencyGpu: reportGpu(gpus, state.pending ? state.lastFull : inference),
    pendingGpu: gpus.find((g) => g.id === workload.gpu)?.name,
    byContext,
    byBatch,
    checkpointWeights,
  };
}
