// SPDX-License-Identifier: MIT
// The serving simulation for the current inputs: run off the page (create-serving-runner.ts) once
// the inputs have been still for a moment; while it runs, the last report stays, marked stale.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CoreError, ServingReport } from '../core/types';
import type { Workload } from '../inference/inference-inputs';
import { servingOptions, type LengthsTrace, type LoadInputs } from './serving-inputs';
import { toCoreError } from '../core/outcome';
import type { ServingRunner } from './serving-runner';

/** Typing in a field does not start a simulation per keystroke. */
const settleMs = 250;

export interface ServingLoadState {
  report?: ServingReport;
  error?: CoreError;
  /** A simulation for newer inputs is running; `report` is the last one's. */
  running: boolean;
}

export function useServingLoad(
  configText: string,
  workload: Workload,
  load: LoadInputs,
  enabled: boolean,
  trace?: LengthsTrace,
): ServingLoadState {
  const runner = useRef<ServingRunner | undefined>(undefined);
  const latest = useRef(0);
  const [state, setState] = useState<ServingLoadState>({ running: false });
  useEffect(() => () => runner.current?.dispose(), []);
  useEffect(() => {
    if (!enabled) return;
    const call = ++latest.current;
    setState((previous) => ({ ...previous, running: true }));
    const timer = setTimeout(async () => {
      try {
        runner.current ??= (await import('./create-serving-runner')).createServingRunner();
        const report = await runner.current.run(configText, servingOptions(workload, load, trace));
        if (call === latest.current) setState({ report, running: false });
      } catch (error) {
        if (call === latest.current) setState({ error: toCoreError(error), running: false });
      }
    }, settleMs);
    return () => clearTimeout(timer);
  }, [enabled, configText, workload, load, trace]);
  return enabled ? state : { running: false };
}
