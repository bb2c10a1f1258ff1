// SPDX-License-Identifier: MIT
// The inputs: the model, then the form of the tab shown.
import { WorkloadForm } from '../../inference/workload-form';
import { ConfigInput } from '../../model/config-input';
import { choosingModelKind, choosingPreset, editingConfigText } from '../../model/model-source';
import { presets } from '../../model/presets';
import { PlanForm, TrainingPlanForm } from '../../plan/lazy';
import { TrainingForm } from '../../training/lazy';
import { LocalForm } from '../../local/lazy';
import type { CalculatorState } from '../use-calculator';

export function InputsColumn({ calculator }: { calculator: CalculatorState }) {
  const { inputs, update, gpus, formats, model, inference, training, plan, local } = calculator;
  const { configText } = model;
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
        onPreset={(id) => update(choosingPreset(id, configText))}
        onText={(text) => update(editingConfigText(text))}
        onKind={(kind) => update(choosingModelKind(kind, inputs, configText))}
        onNumbers={(numbers) => update({ numbers })}
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
        <LocalForm inputs={inputs.local} error={local.error} onChange={(next) => update({ local: next })} />
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
