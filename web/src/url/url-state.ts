// SPDX-License-Identifier: MIT
// Every input in the location hash, so that a link reproduces the view. A pasted config travels
// exactly as pasted, compressed (see compress.ts): never parsed and rewritten, so that the link
// shows what the page showed (a key given twice, 1e400 and text that is not JSON included).
import { decodeText, encodeText } from './compress';
import { decodeCustomGpu, encodeCustomGpu } from '../gpu/custom-gpu';
import { defaultInputs, modes, opsPhases, type Inputs, type Mode, type OpsPhase } from '../app/inputs';
import { workloadTextKeys, type Workload } from '../inference/inference-inputs';
import { defaultLocalInputs, localChoices, type LocalInputs } from '../local/local-inputs';
import { defaultLoadInputs, loadChoices, type LoadInputs } from '../serving/serving-inputs';
import type { ModelNumbers } from '../model/model-inputs';
import { defaultPlanInputs, planKeys, objectives, type PlanInputs } from '../plan/plan-inputs';
import {
  defaultTrainingPlanInputs,
  trainingObjectives,
  trainingPlanKeys,
  type TrainingPlanInputs,
} from '../plan/training-plan-inputs';
import {
  defaultTraining,
  trainingFlagKeys,
  trainingTextKeys,
  type TrainingWorkload,
} from '../training/training-inputs';

const workloadKeys: Array<keyof Workload> = [...workloadTextKeys, 'eager_attention', 'fp8_activations'];
const trainingKeys: Array<keyof TrainingWorkload> = [...trainingTextKeys, ...trainingFlagKeys];
const localKeys = Object.keys(defaultLocalInputs) as Array<keyof LocalInputs>;
const loadKeys = Object.keys(defaultLoadInputs) as Array<keyof LoadInputs>;
const numberKeys: Array<keyof ModelNumbers> = [
  'num_hidden_layers',
  'hidden_size',
  'num_attention_heads',
  'num_key_value_heads',
  'head_dim',
  'intermediate_size',
  'vocab_size',
  'max_position_embeddings',
  'num_local_experts',
  'num_experts_per_tok',
  'tie_word_embeddings',
];

export async function encodeInputs(inputs: Inputs): Promise<string> {
  const params = new URLSearchParams();
  params.set('mode', inputs.mode);
  params.set('unit', inputs.unit);
  params.set('model', inputs.modelKind);
  if (inputs.opsPhase !== 'prefill') params.set('phase', inputs.opsPhase);
  if (inputs.modelKind === 'preset') params.set('preset', inputs.presetId);
  if (inputs.modelKind === 'pasted') params.set('cfg', await encodeText(inputs.pastedText));
  if (inputs.modelKind === 'numbers') {
    for (const key of numberKeys) {
      const value = inputs.numbers[key];
      params.set(`m.${key}`, typeof value === 'boolean' ? (value ? '1' : '0') : value);
    }
  }
  for (const key of workloadKeys) {
    const value = inputs.workload[key];
    params.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : value);
  }
  // Training and planner inputs under t. and p., so that each tab keeps its own; those still at
  // their defaults are left out, which keeps links short.
  for (const key of trainingKeys) {
    const value = inputs.training[key];
    if (value !== defaultTraining[key])
      params.set(`t.${key}`, typeof value === 'boolean' ? (value ? '1' : '0') : value);
  }
  for (const key of planKeys) if (inputs.plan[key] !== defaultPlanInputs[key]) params.set(`p.${key}`, inputs.plan[key]);
  // The training planner's inputs under q., the Plan tab's switch as p.kind.
  if (inputs.trainingPlan.kind !== defaultTrainingPlanInputs.kind) params.set('p.kind', inputs.trainingPlan.kind);
  for (const key of trainingPlanKeys)
    if (inputs.trainingPlan[key] !== defaultTrainingPlanInputs[key]) params.set(`q.${key}`, inputs.trainingPlan[key]);
  // The Local tab's inputs under l., those at their defaults left out.
  for (const key of localKeys)
    if (inputs.local[key] !== defaultLocalInputs[key]) params.set(`l.${key}`, inputs.local[key]);
  // The serving simulation's load under s., those at their defaults left out (open as 1).
  for (const key of loadKeys) {
    const value = inputs.load[key];
    if (value !== defaultLoadInputs[key])
      params.set(`s.${key}`, typeof value === 'boolean' ? (value ? '1' : '0') : value);
  }
  // Each tab's custom GPU: only the fields typed (empty ones take the base GPU's figures).
  encodeCustomGpu(params, '', inputs.workload);
  encodeCustomGpu(params, 't.', inputs.training);
  encodeCustomGpu(params, 'p.', inputs.plan);
  encodeCustomGpu(params, 'q.', inputs.trainingPlan);
  return params.toString();
}

export interface Decoded {
  inputs: Inputs;
  /** Set when part of the link could not be read; the rest is still applied. */
  problem?: string;
}

/** Reads a hash (with or without "#"); fields that are absent keep their defaults. */
export async function decodeInputs(hash: string, defaultPresetId: string): Promise<Decoded> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const inputs = defaultInputs(defaultPresetId);
  let problem: string | undefined;
  const mode = params.get('mode');
  if (modes.includes(mode as Mode)) inputs.mode = mode as Mode;
  const unit = params.get('unit');
  if (unit === 'GiB' || unit === 'GB') inputs.unit = unit;
  const phase = params.get('phase');
  if (opsPhases.includes(phase as OpsPhase)) inputs.opsPhase = phase as OpsPhase;
  const model = params.get('model');
  if (model === 'preset' || model === 'pasted' || model === 'numbers') inputs.modelKind = model;
  inputs.presetId = params.get('preset') ?? (inputs.modelKind === 'preset' ? defaultPresetId : '');
  if (inputs.modelKind !== 'preset') inputs.presetId = '';
  const cfg = params.get('cfg');
  if (inputs.modelKind === 'pasted' && cfg) {
    try {
      inputs.pastedText = await decodeText(cfg);
    } catch (error) {
      problem = `The config in the link could not be read: ${(error as Error).message}`;
    }
  }
  for (const key of numberKeys) {
    const value = params.get(`m.${key}`);
    if (value === null) continue;
    if (key === 'tie_word_embeddings') inputs.numbers.tie_word_embeddings = value === '1';
    else inputs.numbers[key] = value;
  }
  for (const key of workloadKeys) {
    const value = params.get(key);
    if (value === null) continue;
    if (key === 'eager_attention' || key === 'fp8_activations') inputs.workload[key] = value === '1';
    else inputs.workload[key] = value;
  }
  for (const key of trainingKeys) {
    const value = params.get(`t.${key}`);
    if (value === null) continue;
    if (trainingFlagKeys.includes(key)) (inputs.training as unknown as Record<string, boolean>)[key] = value === '1';
    else (inputs.training as unknown as Record<string, string>)[key] = value;
  }
  for (const key of planKeys) {
    const value = params.get(`p.${key}`);
    if (value === null) continue;
    if (key === 'objective') {
      if (objectives.some(([id]) => id === value)) inputs.plan.objective = value as PlanInputs['objective'];
    } else inputs.plan[key] = value;
  }
  if (params.get('p.kind') === 'training') inputs.trainingPlan.kind = 'training';
  for (const key of trainingPlanKeys) {
    const value = params.get(`q.${key}`);
    if (value === null) continue;
    if (key === 'objective') {
      if (trainingObjectives.some(([id]) => id === value))
        inputs.trainingPlan.objective = value as TrainingPlanInputs['objective'];
    } else inputs.trainingPlan[key] = value;
  }
  for (const key of localKeys) {
    const value = params.get(`l.${key}`);
    if (value === null) continue;
    // A choice outside its list keeps the default; a typed field is kept as typed (the core
    // validates it and names the problem, as when typed).
    const choices = localChoices[key as keyof typeof localChoices] as ReadonlyArray<string> | undefined;
    if (choices && !choices.includes(value)) continue;
    (inputs.local as unknown as Record<string, string>)[key] = value;
  }
  for (const key of loadKeys) {
    const value = params.get(`s.${key}`);
    if (value === null) continue;
    if (key === 'open') {
      inputs.load.open = value === '1';
      continue;
    }
    const choices = loadChoices[key as keyof typeof loadChoices] as ReadonlyArray<string> | undefined;
    if (choices && !choices.includes(value)) continue;
    (inputs.load as unknown as Record<string, string>)[key] = value;
  }
  decodeCustomGpu(params, '', inputs.workload);
  decodeCustomGpu(params, 't.', inputs.training);
  decodeCustomGpu(params, 'p.', inputs.plan);
  decodeCustomGpu(params, 'q.', inputs.trainingPlan);
  return { inputs, problem };
}

/**
 * True when the hash carries page state (rather than being empty or an in-page anchor). The page
 * writes `model=` into every link; a hand-written `#mode=plan` opens that tab on the default model.
 */
export function hashHasState(hash: string): boolean {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return params.has('model') || params.has('mode');
}
