// SPDX-License-Identifier: MIT
// The inputs: the model, then the form of the tab shown.
import { useMemo, useRef } from 'preact/hooks';
import { WorkloadForm } from '../../inference/workload-form';
import { ConfigInput } from '../../model/config-input';
import { choosingModelKind, choosingPreset, editingConfigText } from '../../model/model-source';
import type { ModelKind, ModelNumbers } from '../../model/model-inputs';
import { presets } from '../../model/presets';
import { PlanForm, TrainingPlanForm } from '../../plan/lazy';
import { TrainingForm } from '../../training/lazy';
import { LocalForm } from '../../local/lazy';
import type { CalculatorState } from '../use-calculator';

export function InputsColumn({ calculator }: { calculator: CalculatorState }) {
  const { inputs, update, gpus, formats, model, inference, training, plan, local } = calculator;
  const { configText } = model;
  // The model's handlers read the calculator of the last render, so that they keep their identity
  // and ConfigInput (memo) is not drawn again when only the workload changed.
  const latest = useRef(calculator);
  latest.current = calculator;
  const modelHandlers = useMemo(
    () => ({
      onPreset: (id: string) => {
        const { update: apply, model: current } = latest.current;
        apply(choosingPreset(id, current.configText));
      },
      onText: (text: string) => latest.current.update(editingConfigText(text)),
      onKind: (kind: ModelKind) => {
        const { update: apply, inputs: now, model: current } = latest.current;
        apply(choosingModelKind(kind, now, current.configText));
      },
      onNumbers: (numbers: ModelNumbers) => latest.current.update({ numbers }),
    }),
    [],
  );
  return (
    <div class="inputs">
      <ConfigInput
        presets={presets}
        modelKind={inputs.modelKind}
        presetId={inputs.modelKind === 'preset' ? inputs.presetId : ''}
        configText={configText}
        numbers={inputs.numbers}
        error={model.error}
        reading={model.reading}
        largeRead={model.largeRead}
        {...modelHandlers}
      />
      {inputs.mode === 'inference' && (
        <WorkloadForm
          workload={inputs.workload}
          gpus={gpus}
          formats={formats}
          error={inference.state.error}
          resolvedContext={inference.state.report?.workload.context}
          checkpointWeights={inference.checkpointWeights}
          visionTower={
            model.params?.vision_tower_kind
              ? { kind: model.params.vision_tower_kind, tokensPerImage: model.params.image_tokens_per_image }
              : undefined
          }
          onChange={(next) => update({ workload: next })}
        />
      )}
      {inputs.mode === 'training' && (
        <TrainingForm
          training={inputs.training}
          gpus={gpus}
          error={training.error}
          resolvedDp={training.report?.parallel.dp}
          time={training.report?.time}
          onChange={(next) => update({ training: next })}
        />
      )}
      {inputs.mode === 'local' && (
        <LocalForm
          inputs={inputs.local}
          gpus={local.gpus}
          formats={formats}
          cpus={local.cpus}
          error={local.error}
          onChange={(next) => update({ local: next })}
        />
      )}
      {inputs.mode === 'plan' && (
        <PlanForm
          plan={inputs.plan}
          gpus={gpus}
          formats={formats}
          error={plan.serving.error}
          usedWeights={plan.serving.report?.request.weights}
          onChange={(next) => update({ plan: next })}
          kind={inputs.trainingPlan.kind}
          onKind={(kind) => update({ trainingPlan: { ...inputs.trainingPlan, kind } })}
          trainingForm={
            <TrainingPlanForm
              plan={inputs.trainingPlan}
              gpus={gpus}
              error={plan.trainingPlan.error}
              onChange={(next) => update({ trainingPlan: next })}
            />
          }
        />
      )}
    </div>
  );
}
