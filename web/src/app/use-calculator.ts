// SPDX-License-Identifier: MIT
// The calculator's state: the inputs (kept in the link), the core and its catalogs, and the
// reports the tab shown asks of the core, each from its feature's hook. The calculator component
// draws what this returns.
import { useEffect, useState } from 'preact/hooks';
import type { Accelerator, FormatCatalog, InferenceReport, ParameterReport, TrainingReport } from '../core/types';
import { needCore, useCore } from '../core/use-core';
import { useFullCore } from '../core/use-full-core';
import { exportExtraOf } from '../export/export-extra';
import { snapshotOf } from '../compare/snapshot';
import type { Snapshot } from '../compare/snapshot';
import { useInferenceTab, type InferenceTab } from '../inference/use-inference-tab';
import type { SweepPoint } from '../inference/sweep';
import { startPresetId } from '../model/model-source';
import { useModel, type ModelState } from '../model/use-model';
import { useWeightFormats, type WeightFormats } from '../model/use-weight-formats';
import { usePlanTab, type PlanTab } from '../plan/use-plan-tab';
import { useTrainingTab, type TrainingTab } from '../training/use-training-tab';
import { useAfterPaint } from '../ui/use-after-paint';
import { useLastGood } from '../ui/use-last-good';
import { useCurrentLink } from '../url/use-current-link';
import { useUrlState, type UrlState } from '../url/use-url-state';
import { defaultInputs, type Inputs, type Mode } from './inputs';
import { pageNotes } from './page-notes';
import { useEmbedHeight } from './use-embed-height';
import { useLocalTab, type LocalTab } from '../local/use-local-tab';

export interface CalculatorOptions {
  embed: boolean;
  persist: boolean;
  initialPreset?: string;
  initialMode?: Mode;
}

export interface CalculatorState {
  url: UrlState;
  /** The inputs (the defaults while a link's inputs are read). */
  inputs: Inputs;
  update: (patch: Partial<Inputs>) => void;
  gpus: Accelerator[];
  formats?: FormatCatalog;
  /** The core (or, on the Training tab, the full core) failed to load. */
  loadError?: string;
  /** Still loading the core or reading a link's inputs. */
  loading: boolean;
  model: ModelState;
  /** The parameter table has been painted: the slower parts follow. */
  detailsReady: boolean;
  inference: InferenceTab;
  training: TrainingTab;
  plan: PlanTab;
  local: LocalTab;
  weightFormats: WeightFormats;
  /** What "Pin to compare" would keep now. */
  current?: Snapshot;
  notes: string[];
  exportExtra: Record<string, unknown>;
  /** The link to the current inputs, in embed mode ('' otherwise). */
  openLink: string;
  /** The link to the current inputs, where they are kept in the link (not in the custom element). */
  shareLink?: () => Promise<string>;
  /** The reports of the last valid inputs, shown dimmed while an input does not read. */
  lastGood: {
    params?: ParameterReport;
    inference?: InferenceReport;
    training?: TrainingReport;
    byContext?: SweepPoint[];
    byBatch?: SweepPoint[];
  };
}

export function useCalculator({ embed, persist, initialPreset, initialMode }: CalculatorOptions): CalculatorState {
  const startPreset = startPresetId(initialPreset);
  const { core: firstViewCore, gpus, formats, loadError: firstViewLoadError } = useCore();
  // The first-view module reads the common families; a config of another family (its error says
  // fullModule) is read, from then on, with the full module (core/src/config/config_other_families.hpp).
  const [fullModule, setFullModule] = useState(false);
  const full = useFullCore(fullModule);
  const core = fullModule ? full.core : firstViewCore;
  const coreLoadError = firstViewLoadError ?? (fullModule ? full.loadError : undefined);
  const url = useUrlState(
    () => ({ ...defaultInputs(startPreset), mode: initialMode ?? 'inference' }),
    startPreset,
    persist,
  );
  useEmbedHeight(embed);
  const restored = Boolean(url.inputs);
  const inputs = url.inputs ?? defaultInputs(startPreset);
  const { workload, unit, mode } = inputs;
  const model = useModel(restored ? core : undefined, inputs);
  // Every core call reads coreText: for a large paste, its cut to the keys the core reads (model/large-config.ts).
  const { coreText, params } = model;
  const needsFullModule = Boolean(model.error?.fullModule);
  useEffect(() => {
    if (needsFullModule) setFullModule(true);
  }, [needsFullModule]);
  // The parameter table is painted first; the inference report (capacity searches, latency) and
  // everything after it start from the next frame.
  const detailsReady = useAfterPaint(Boolean(params));
  const inference = useInferenceTab(
    core,
    restored,
    coreText,
    workload,
    params,
    gpus,
    mode === 'inference' && detailsReady,
  );
  const training = useTrainingTab(restored, coreText, inputs.training, params, mode === 'training');
  const plan = usePlanTab(
    Boolean(restored && core && params),
    coreText,
    inputs.plan,
    inputs.trainingPlan,
    mode === 'plan',
  );
  const local = useLocalTab(Boolean(restored && params), coreText, inputs.local, mode === 'local');
  const weightFormats = useWeightFormats(core, coreText, workload, formats, params, unit);
  const openLink = useCurrentLink(url.link, embed);

  const lastGood = {
    params: useLastGood(params),
    inference: useLastGood(inference.state.report),
    training: useLastGood(training.report),
    byContext: useLastGood(inference.byContext),
    byBatch: useLastGood(inference.byBatch),
  };
  const current = snapshotOf(mode, inputs, params, inference.state.report, training.report);
  return {
    url,
    inputs,
    update: (patch) => {
      // New inputs are past any answers recorded in index.html: the page waits for the core.
      needCore();
      url.setInputs((previous) => ({ ...previous, ...patch }));
    },
    gpus,
    formats,
    loadError:
      coreLoadError ?? (mode === 'training' ? training.loadError : mode === 'local' ? local.loadError : undefined),
    loading: !core || !restored || (mode === 'training' && !training.core),
    model,
    detailsReady,
    inference,
    training,
    plan,
    local,
    weightFormats,
    current,
    notes: pageNotes(mode, params, inference.state.report, training.report),
    exportExtra: exportExtraOf(mode, {
      model: current?.label,
      unit,
      inference: inference.state.report,
      training: training.report,
      planRequest: plan.request,
    }),
    openLink,
    shareLink: persist ? url.link : undefined,
    lastGood,
  };
}
