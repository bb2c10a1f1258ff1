// SPDX-License-Identifier: MIT
// Hand-written types of the fitcheck WebAssembly module (Emscripten 3.1.6 cannot emit them).
// tests/node/wasm-module.test.mjs checks every exported name against `moduleExports` below.
import type { ParameterReport } from './parameter-types';
import type { InferenceOptions, InferenceReport, InferenceSweepOptions, InferenceSweepReport } from './inference-types';
import type {
  Accelerator,
  ConfigFieldTable,
  CpuDevice,
  FormatCatalog,
  TransformerMemOptions,
  TransformerMemReport,
} from './catalog-types';
import type { PlanOptions, PlanReport, TrainingPlanOptions, TrainingPlanReport } from './plan-types';
import type { ServingOptions, ServingReport } from './serving-types';
import type {
  LocalFormatsReport,
  LocalGpu,
  LocalOptions,
  LocalReport,
  MlxFormatsReport,
  MlxOptions,
  MlxReport,
} from './local-types';
import type { TrainingOptions, TrainingReport } from './training-types';
import type { CheckpointNeedMore, CheckpointReport } from './model-file-types';

export type * from './parameter-types';
export type * from './inference-types';
export type * from './catalog-types';
export type * from './plan-types';
export type * from './serving-types';
export type * from './local-types';
export type * from './training-types';
export type * from './model-file-types';

/** An Error thrown by the core; `field` names the offending config field or option when there is one. */
export interface CoreError extends Error {
  field?: string;
  /** The first-view module leaves this config's family to the full module (wasm/api.js, status 3). */
  fullModule?: boolean;
}

export interface FitcheckModule {
  parameterReport(configJsonText: string): ParameterReport;
  inferenceReport(configJsonText: string, options: InferenceOptions): InferenceReport;
  /** Memory at each of options.sweep_values of options.sweep (context or batch), in one call. */
  inferenceSweep(configJsonText: string, options: InferenceSweepOptions): InferenceSweepReport;
  trainingReport(configJsonText: string, options: TrainingOptions): TrainingReport;
  planReport(configJsonText: string, options: PlanOptions): PlanReport;
  trainingPlanReport(configJsonText: string, options: TrainingPlanOptions): TrainingPlanReport;
  transformerMemReport(options: TransformerMemOptions): TransformerMemReport;
  servingReport(configJsonText: string, options: ServingOptions): ServingReport;
  localReport(configJsonText: string, options: LocalOptions): LocalReport;
  localReport(configJsonText: string, options: MlxOptions): MlxReport;
  acceleratorCatalog(): Accelerator[];
  formatCatalog(): FormatCatalog;
  version(): string;
  configFields(): ConfigFieldTable;
  /** CPUs and their RAM, for layers kept on the CPU (full module only). */
  cpuCatalog(): CpuDevice[];
  /** The catalog's GPUs llama.cpp runs on, with the backend it picks (full module only). */
  localGpuCatalog(): LocalGpu[];
  /** The model at each common GGUF type on the machine of `options`, or each MLX conversion (full module only; docs/local.md). */
  localFormats(configJsonText: string, options: LocalOptions): LocalFormatsReport;
  localFormats(configJsonText: string, options: MlxOptions): MlxFormatsReport;
  /** The core's one input limit in bytes (fitcheck/config.hpp kMaxConfigBytes): a longer config text is refused unread. */
  maxInputBytes(): number;
  checkpointReport(bytes: Uint8Array, fileSizeBytes: number): CheckpointReport | CheckpointNeedMore;
  /** A report's JSON text exactly as the core wrote it (the CLI's --json prints the same bytes). */
  reportText(
    name: 'parameters' | 'inference' | 'training' | 'plan' | 'training_plan' | 'transformer_mem' | 'inference_sweep',
    configText: string,
    options?: Record<string, string | number | boolean>,
  ): string;
}

/** Every function the module exports, for the check against the real module. */
export const moduleExports: ReadonlyArray<keyof FitcheckModule> = [
  'parameterReport',
  'inferenceReport',
  'inferenceSweep',
  'trainingReport',
  'planReport',
  'trainingPlanReport',
  'transformerMemReport',
  'servingReport',
  'localReport',
  'acceleratorCatalog',
  'formatCatalog',
  'version',
  'configFields',
  'cpuCatalog',
  'localGpuCatalog',
  'localFormats',
  'maxInputBytes',
  'checkpointReport',
  'reportText',
];
