// SPDX-License-Identifier: MIT
// What the JSON export holds beside the tables: the model, the unit, and the tab's workload or
// request as the core read it; for inference with a GPU also the GPU, the request's lengths and the
// price (the export panel adds the link to the view).
import type { InferenceReport, PlanReport, TrainingPlanReport, TrainingReport } from '../core/types';
import type { ByteUnit, Mode } from '../app/inputs';

export interface ExportSubject {
  model?: string;
  unit: ByteUnit;
  inference?: InferenceReport;
  training?: TrainingReport;
  planRequest?: PlanReport['request'] | TrainingPlanReport['request'];
}

export function exportExtraOf(
  mode: Mode,
  { model, unit, inference, training, planRequest }: ExportSubject,
): Record<string, unknown> {
  const extra: Record<string, unknown> = { model, unit };
  if (mode === 'inference') {
    extra.workload = inference?.workload;
    const latency = inference?.latency;
    if (inference?.gpu) {
      extra.gpu = {
        id: inference.gpu.id,
        name: inference.gpu.name,
        count: inference.workload.tp * inference.workload.pp,
        budget_bytes: inference.gpu.budget_bytes,
      };
    }
    if (latency?.prompt_len !== undefined) {
      extra.request = { prompt_len: latency.prompt_len, gen_len: latency.gen_len };
      extra.price = {
        per_gpu_hour_usd: latency.price_per_hour_usd,
        per_million_input_tokens_usd: latency.cost_per_million_input_tokens_usd,
        per_million_output_tokens_usd: latency.cost_per_million_output_tokens_usd,
      };
    }
  }
  if (mode === 'training') Object.assign(extra, { training: training?.workload, parallel: training?.parallel });
  if (mode === 'plan') extra.request = planRequest;
  return extra;
}
