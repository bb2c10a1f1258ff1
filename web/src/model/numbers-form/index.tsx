// SPDX-License-Identifier: MIT
// "From numbers": the model's shape typed in; the page writes it as a config.json for the core.
import type { CoreError } from '../../core/types';
import type { ModelNumbers } from '../model-inputs';
import { NumberField } from '../../ui/field';

type TextKey = Exclude<keyof ModelNumbers, 'tie_word_embeddings'>;

const fields: Array<[TextKey, string, string]> = [
  ['num_hidden_layers', 'Layers', 'num_hidden_layers'],
  ['hidden_size', 'Hidden size', 'hidden_size (d_model)'],
  ['num_attention_heads', 'Attention heads', 'num_attention_heads'],
  [
    'num_key_value_heads',
    'KV heads',
    'num_key_value_heads: fewer than heads is GQA, 1 is MQA; empty means as many as heads',
  ],
  ['head_dim', 'Head dim', 'empty: hidden size / heads'],
  ['intermediate_size', 'MLP intermediate size', 'intermediate_size of the gated MLP (per expert with experts)'],
  ['vocab_size', 'Vocabulary', 'vocab_size'],
  ['max_position_embeddings', 'Max positions', 'longest context the model takes'],
  ['num_local_experts', 'Experts', 'empty for a dense model; with experts the config is Mixtral-style'],
  ['num_experts_per_tok', 'Experts per token', 'routed experts per token (MoE only)'],
];

interface Props {
  numbers: ModelNumbers;
  configText: string;
  error?: CoreError;
  onNumbers: (numbers: ModelNumbers) => void;
}

export function NumbersForm({ numbers, configText, error, onNumbers }: Props) {
  const fieldError = error?.field && fields.some(([key]) => key === error.field) ? error : undefined;
  return (
    <div class="numbers-form" data-testid="numbers-form">
      <div class="grid-fields">
        {fields.map(([key, label, help]) => (
          <NumberField
            key={key}
            id={`num-${key}`}
            label={label}
            help={help}
            value={numbers[key]}
            error={fieldError?.field === key ? fieldError : undefined}
            onValue={(value) => onNumbers({ ...numbers, [key]: value })}
          />
        ))}
      </div>
      <label class="checkbox">
        <input
          type="checkbox"
          data-testid="num-tie_word_embeddings"
          checked={numbers.tie_word_embeddings}
          onChange={(e) => onNumbers({ ...numbers, tie_word_embeddings: e.currentTarget.checked })}
        />
        Output head tied to the embedding (tie_word_embeddings)
      </label>
      {error && !fieldError && (
        <p class="error" role="alert" data-testid="config-error">
          {error.field ? <strong>{error.field}: </strong> : null}
          {error.message}
        </p>
      )}
      <details>
        <summary>The config.json handed to the core</summary>
        <pre class="config-preview" data-testid="numbers-config">
          {configText}
        </pre>
      </details>
    </div>
  );
}
