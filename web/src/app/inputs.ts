// SPDX-License-Identifier: MIT
// Everything the user can set, as plain serializable values: the tab, the unit, and each
// feature's inputs (model/model-inputs.ts, inference/inference-inputs.ts, training/, plan/).
import { defaultPlanInputs, type PlanInputs } from '../plan/plan-inputs';
import { defaultTraining, type TrainingWorkload } from '../training/training-inputs';
import { defaultTrainingPlanInputs, type TrainingPlanInputs } from '../plan/training-plan-inputs';
import { defaultWorkload, type Workload } from '../inference/inference-inputs';
import { defaultNumbers, type ModelKind, type ModelNumbers } from '../model/model-inputs';
import { defaultLocalInputs, type LocalInputs } from '../local/local-inputs';
import { defaultLoadInputs, type LoadInputs } from '../serving/serving-inputs';

export type Mode = 'inference' | 'training' | 'plan' | 'local';
export const modes: ReadonlyArray<Mode> = ['inference', 'training', 'plan', 'local'];
export type ByteUnit = 'GiB' | 'GB';
/** The latency section's table of operations: prefill, or the first or last decode step (kept in the link). */
export type OpsPhase = 'prefill' | 'decode_first' | 'decode_last';
export const opsPhases: ReadonlyArray<OpsPhase> = ['prefill', 'decode_first', 'decode_last'];

export interface Inputs {
  mode: Mode;
  unit: ByteUnit;
  opsPhase: OpsPhase;
  modelKind: ModelKind;
  presetId: string;
  pastedText: string;
  numbers: ModelNumbers;
  workload: Workload;
  training: TrainingWorkload;
  plan: PlanInputs;
  trainingPlan: TrainingPlanInputs;
  local: LocalInputs;
  /** The Inference tab's serving simulation: how requests arrive (serving/serving-inputs.ts). */
  load: LoadInputs;
}

export function defaultInputs(presetId: string): Inputs {
  return {
    mode: 'inference',
    unit: 'GiB',
    opsPhase: 'prefill',
    modelKind: 'preset',
    presetId,
    pastedText: '',
    numbers: { ...defaultNumbers },
    workload: { ...defaultWorkload },
    training: { ...defaultTraining },
    plan: { ...defaultPlanInputs },
    trainingPlan: { ...defaultTrainingPlanInputs },
    local: { ...defaultLocalInputs },
    load: { ...defaultLoadInputs },
  };
}
