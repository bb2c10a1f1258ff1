// SPDX-License-Identifier: MIT
// "Serving under load" on the Inference tab: the engine's scheduler simulated over many requests
// (servingReport, run off the page), for the tab's model, GPU, layout, formats, engine and request
// lengths, with how the requests arrive and how their lengths vary set here. Closed until opened.
import { useState } from 'preact/hooks';
import type { CoreError } from '../../core/types';
import type { Workload } from '../../inference/inference-inputs';
import { maxConfigBytes } from '../../model/config-file';
import { Field, NumberField } from '../../ui/field';
import { TableView } from '../../ui/table-view';
import { loadChoices, type LengthsTrace, type LoadInputs } from '../serving-inputs';
import { servingTable } from '../serving-tables';
import { useServingLoad } from '../use-serving-load';

interface Props {
  configText: string;
  workload: Workload;
  load: LoadInputs;
  onLoad: (next: LoadInputs) => void;
  /** The setup does not fit: the simulation would not run either. */
  hypothetical?: boolean;
}

// The core's option names, for the error beside its field.
const fieldOf: Record<string, keyof LoadInputs> = {
  concurrency: 'concurrency',
  arrival_rate: 'rate',
  requests: 'requests',
  length_distribution: 'lengths',
  prompt_spread: 'spread',
  gen_spread: 'spread',
};

const lengthNames: Record<LoadInputs['lengths'], string> = {
  fixed: 'fixed (every request the same)',
  uniform: 'uniform (mean × (1 ± spread))',
  normal: 'normal (spread = deviation / mean)',
};

export function ServingLoad({ configText, workload, load, onLoad, hypothetical = false }: Props) {
  const [trace, setTrace] = useState<LengthsTrace | undefined>(undefined);
  const [traceError, setTraceError] = useState<string | undefined>(undefined);
  const state = useServingLoad(configText, workload, load, load.open && !hypothetical, trace);
  const error = state.error;
  const errorFor = (key: keyof LoadInputs) => (error && fieldOf[error.field ?? ''] === key ? error : undefined);
  // The core names request_lengths when it refuses the file's text: the message goes beside the file
  // (and goes with the file when it is cleared, before the next run's answer).
  const traceFieldError: CoreError | undefined = traceError
    ? new Error(traceError)
    : trace && error?.field === 'request_lengths'
      ? error
      : undefined;
  const elsewhere = error && !fieldOf[error.field ?? ''] && error.field !== 'request_lengths' ? error : undefined;
  const set = (patch: Partial<LoadInputs>) => onLoad({ ...load, ...patch });
  const readTrace = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    // The core's one input limit: a benchmark result saved with its details holds every generated
    // text and inter-token gap, about 5 MB for 1,000 ShareGPT requests.
    if (file.size > maxConfigBytes) {
      setTraceError(
        `${file.name} is ${file.size.toLocaleString('en-US')} bytes, more than the 8 MiB fitcheck reads: keep only input_lens and output_lens, or lines of lengths.`,
      );
      return;
    }
    setTraceError(undefined);
    setTrace({ name: file.name, text: await file.text() });
  };
  return (
    <section class="serving-load" aria-labelledby="serving-load-heading" data-testid="serving-load">
      <details
        open={load.open}
        onToggle={(event) => {
          const open = (event.currentTarget as HTMLDetailsElement).open;
          if (open !== load.open) set({ open });
        }}
      >
        <summary data-testid="serving-load-toggle">
          <h2 id="serving-load-heading">Serving under load</h2>
          <span class="muted">
            {' '}
            many requests through {workload.engine ? "the engine's" : "vLLM's"} scheduler: throughput and latency
            percentiles
          </span>
        </summary>
        {hypothetical ? (
          <p class="notice" data-testid="serving-load-hypothetical">
            This setup does not fit, so no engine would start it: pick one of the changes that fit above to simulate it
            under load.
          </p>
        ) : (
          <>
            <p class="help">
              The prompt and output lengths, the engine, the GPU and the formats are those set above; the engine's
              scheduler (its token budget, sequence limit, chunked prefill, KV blocks and preemption) runs the requests
              step by step, each step timed as the latency table times one (docs/serving.md).
            </p>
            <fieldset class="segmented phase-choice">
              <legend>Requests arrive</legend>
              {loadChoices.arrival.map((id) => (
                <label key={id}>
                  <input
                    type="radio"
                    name="load-arrival"
                    value={id}
                    data-testid={`load-arrival-${id}`}
                    checked={load.arrival === id}
                    onChange={() => set({ arrival: id })}
                  />
                  {id === 'concurrency' ? 'a fixed number in flight' : 'at a rate (Poisson)'}
                </label>
              ))}
            </fieldset>
            <div class="grid-fields wide">
              {load.arrival === 'concurrency' ? (
                <NumberField
                  id="load-concurrency"
                  label="Requests in flight"
                  help="A new request arrives as each one finishes (vLLM's benchmark --max-concurrency)."
                  error={errorFor('concurrency')}
                  value={load.concurrency}
                  onValue={(concurrency) => set({ concurrency })}
                />
              ) : (
                <NumberField
                  id="load-rate"
                  label="Arrival rate (requests/s)"
                  help="Poisson arrivals (vLLM's benchmark --request-rate)."
                  error={errorFor('rate')}
                  value={load.rate}
                  onValue={(rate) => set({ rate })}
                />
              )}
              {trace ? (
                <div class="field" data-testid="load-trace">
                  <label for="load-trace-clear">Lengths</label>
                  <p class="trace-line">
                    replayed from <strong data-testid="load-trace-name">{trace.name}</strong>, once through, in order
                  </p>
                  <button
                    id="load-trace-clear"
                    type="button"
                    class="link-button trace-clear"
                    data-testid="load-trace-clear"
                    onClick={() => {
                      setTrace(undefined);
                      setTraceError(undefined);
                    }}
                  >
                    Draw lengths instead
                  </button>
                  <p class="help">The page keeps the file while it is open; a link does not carry it.</p>
                </div>
              ) : (
                <>
                  <NumberField
                    id="load-requests"
                    label="Requests"
                    help="How many the run sends in all."
                    error={errorFor('requests')}
                    value={load.requests}
                    onValue={(requests) => set({ requests })}
                  />
                  <Field id="load-lengths" label="Lengths" error={errorFor('lengths')}>
                    {(describedBy) => (
                      <select
                        id="load-lengths"
                        data-testid="load-lengths"
                        value={load.lengths}
                        aria-describedby={describedBy}
                        onChange={(event) =>
                          set({ lengths: (event.currentTarget as HTMLSelectElement).value as LoadInputs['lengths'] })
                        }
                      >
                        {loadChoices.lengths.map((id) => (
                          <option key={id} value={id}>
                            {lengthNames[id]}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  {load.lengths !== 'fixed' && (
                    <NumberField
                      id="load-spread"
                      label="Spread"
                      help="Of both the prompt and the output lengths, around the lengths set above (0 to 1)."
                      error={errorFor('spread')}
                      value={load.spread}
                      onValue={(spread) => set({ spread })}
                    />
                  )}
                </>
              )}
              <Field
                id="load-trace-file"
                label="Replay lengths from a file"
                help="A benchmark result with input_lens and output_lens (vllm bench serve --save-result --save-detailed), or lines of prompt and output tokens."
                error={traceFieldError}
              >
                {(describedBy) => (
                  <input
                    id="load-trace-file"
                    type="file"
                    accept=".json,.csv,.tsv,.txt"
                    data-testid="load-trace-file"
                    aria-describedby={describedBy}
                    onChange={(event) => void readTrace(event.currentTarget as HTMLInputElement)}
                  />
                )}
              </Field>
            </div>
            {elsewhere && (
              <p class="error" role="alert" data-testid="serving-load-error">
                {elsewhere.message}
              </p>
            )}
            {state.running && !state.report && (
              <p class="muted" data-testid="serving-load-running">
                Simulating…
              </p>
            )}
            {state.report && (
              <div class={state.running ? 'stale' : undefined} aria-busy={state.running ? 'true' : 'false'}>
                <TableView
                  table={servingTable(state.report)}
                  textColumns={[0, 2]}
                  cellTestId={(row, column) => (column === 1 && !state.running ? row.key : undefined)}
                />
                <details class="assumptions">
                  <summary>How it was simulated</summary>
                  <ul data-testid="serving-load-assumptions">
                    {state.report.assumptions.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </details>
              </div>
            )}
          </>
        )}
      </details>
    </section>
  );
}
