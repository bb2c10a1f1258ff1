// SPDX-License-Identifier: MIT
// "From numbers": the typed shape assembled into a config.json object for the core to parse. The
// page only places the numbers under the Hugging Face field names; the core does all counting.
import type { ModelNumbers } from './model-inputs';

const integerFields: Array<Exclude<keyof ModelNumbers, 'tie_word_embeddings'>> = [
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
];

/** A value as typed: a JSON number when it reads as one, else the text, so the core names the field. */
function fieldValue(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function configFromNumbers(numbers: ModelNumbers): Record<string, unknown> {
  const moe = numbers.num_local_experts.trim() !== '';
  // Llama's field names; with experts, Mixtral's (the same names plus the expert fields).
  const config: Record<string, unknown> = {
    model_type: moe ? 'mixtral' : 'llama',
    architectures: [moe ? 'MixtralForCausalLM' : 'LlamaForCausalLM'],
  };
  for (const field of integerFields) {
    const text = numbers[field];
    if (text.trim() !== '') config[field] = fieldValue(text);
  }
  config.tie_word_embeddings = numbers.tie_word_embeddings;
  return config;
}

export function configTextFromNumbers(numbers: ModelNumbers): string {
  return JSON.stringify(configFromNumbers(numbers), null, 2);
}
