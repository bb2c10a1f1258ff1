// SPDX-License-Identifier: MIT
// A labelled input with short help and, when the core refused the value, its message beside it.
import type { ComponentChildren } from 'preact';
import type { CoreError } from '../../core/types';

interface Props {
  id: string;
  label: string;
  help?: ComponentChildren;
  error?: CoreError;
  children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

export function Field({ id, label, help, error, children }: Props) {
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, helpId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children(describedBy, Boolean(error))}
      {error && (
        <p id={errorId} class="error" role="alert" data-testid={`${id}-error`}>
          {error.message}
        </p>
      )}
      {help && (
        <p id={helpId} class="help">
          {help}
        </p>
      )}
    </div>
  );
}

interface NumberFieldProps {
  id: string;
  label: string;
  help?: ComponentChildren;
  error?: CoreError;
  value: string;
  placeholder?: string;
  step?: string;
  min?: string;
  onValue: (value: string) => void;
}

/** Text input with a numeric keyboard: the value stays as typed and the core validates it. */
export function NumberField({ id, label, help, error, value, placeholder, onValue }: NumberFieldProps) {
  return (
    <Field id={id} label={label} help={help} error={error}>
      {(describedBy, invalid) => (
        <input
          id={id}
          data-testid={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellcheck={false}
          value={value}
          placeholder={placeholder}
          aria-invalid={invalid ? 'true' : 'false'}
          aria-describedby={describedBy}
          onInput={(e) => onValue(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
