// SPDX-License-Identifier: MIT
// The classic transformer_mem.py calculator from numbers alone (no config.json), computed by the
// core's transformerMemReport: the same flags, defaults and numbers as the script (GiB printed as "GB").
import { useState } from 'preact/hooks';
import type { TransformerMemOptions } from '../../core/types';
import { NumberField } from '../../ui/field';
import { useClassicReport } from '../use-classic-report';

const numberFields: Array<[keyof TransformerMemOptions, string, string]> = [
  ['params', 'Parameters', '20000000000'],
  ['num_gpus', 'Number of GPUs (--num-gpus)', '1'],
  ['tensor_parallel_size', 'Tensor parallel', '1'],
  ['pipeline_parallel_size', 'Pipeline parallel', '1'],
  ['zero_stage', 'ZeRO stage (0-3)', '1'],
  ['batch_size_per_gpu', 'Batch per GPU', '1'],
  ['hidden_size', 'Hidden size', '6144'],
  ['num_attention_heads', 'Attention heads', '64'],
  ['sequence_length', 'Sequence length', '2048'],
  ['num_layers', 'Layers', '44'],
  ['zero_allgather_bucket_size', 'ZeRO all-gather bucket', '500000000'],
  ['zero3_max_live_params', 'ZeRO-3 max live params', '1000000000'],
  ['misc_mem_gb', 'Miscellaneous (GiB)', '0'],
];
const flags: Array<[keyof TransformerMemOptions, string]> = [
  ['checkpoint_activations', 'Checkpoint activations (-ca)'],
  ['partition_activations', 'Partition activations (-pa)'],
  ['fp32_model', 'fp32 model'],
  ['fp32_grads', 'fp32 gradients'],
  ['infer', 'Inference (--infer)'],
];
const labels: Record<string, string> = {
  model: 'Model Memory',
  kv_cache: 'KV Cache Memory',
  gradients: 'Gradient Memory',
  activations: 'Activation Memory',
  optimizer: 'Optimizer Memory',
  communication: 'Communication Memory',
  miscellaneous: 'Miscellaneous Memory',
};

export function ClassicCalculator() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [switches, setSwitches] = useState<Record<string, boolean>>({});
  const { report, error } = useClassicReport(values, switches);
  return (
    <details class="classic" data-testid="classic-calculator">
      <summary>From numbers, no config: the classic transformer_mem.py calculator</summary>
      <p class="help">
        Same flags, defaults and numbers as EleutherAI's transformer_mem.py (it prints GiB, 1024³ bytes, labelled "GB").
        fitcheck's own model above differs on purpose: see docs/transformer-mem.md.
      </p>
      <div class="field-grid">
        {numberFields.map(([key, label, placeholder]) => (
          <NumberField
            key={key}
            id={`classic-${key}`}
            label={label}
            placeholder={placeholder}
            value={values[key] ?? ''}
            error={error?.field === key ? error : undefined}
            onValue={(value) => setValues({ ...values, [key]: value })}
          />
        ))}
      </div>
      {flags.map(([key, label]) => (
        <label key={key} class="check">
          <input
            type="checkbox"
            data-testid={`classic-${key}`}
            checked={Boolean(switches[key])}
            onChange={(e) => setSwitches({ ...switches, [key]: e.currentTarget.checked })}
          />{' '}
          {label}
        </label>
      ))}
      {error && !numberFields.some(([key]) => key === error?.field) && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
      {report && (
        <table class="figures" data-testid="classic-report">
          <tbody>
            {report.terms.map((term) => (
              <tr key={term.name} title={term.formula}>
                <th scope="row">{labels[term.name] ?? term.name}</th>
                <td class="number">{term.gib.toFixed(2)} GB</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Total Memory Required for {report.infer ? 'Inference' : 'Training'}</th>
              <td class="number" data-testid="classic-total">
                {report.total_gib.toFixed(2)} GB
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </details>
  );
}
