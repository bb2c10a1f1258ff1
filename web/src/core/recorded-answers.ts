// SPDX-License-Identifier: MIT
// The default view's core answers, recorded at build time and kept in index.html
// (scripts/prerender.mjs): the page goes live on them without fetching the WebAssembly core, which
// loads when the visitor reaches for an input or the page asks something they do not hold
// (docs/performance.md, "The default view's answers in index.html"). The answers are the core's
// own, computed by the same built module; nothing here computes a figure.
import type { CoreError, FitcheckModule } from './types';
import { fullOnly } from './load';
import { moduleExports } from './types';

/** The id of index.html's `<script type="application/json">` that holds the recorded calls. */
export const recordedAnswersId = 'fitcheck-recorded-answers';

/** One core call of the default view: the function and its arguments, and what it returned or threw. */
export interface RecordedCall {
  name: string;
  args: unknown[];
  result?: unknown;
  error?: { message: string; field?: string; fullModule?: boolean };
}

/** What the first view can call: the inference module's functions. */
const recordedNames = moduleExports.filter((name) => !(fullOnly as readonly string[]).includes(name));

// Options objects are built the same way at build time and in the page, so their JSON is the same.
const keyOf = (name: string, args: unknown[]) => JSON.stringify([name, ...args]);

/** The core, with each of the first view's calls appended to `calls` (the prerender's recording). */
export function recordingCore(core: FitcheckModule, calls: RecordedCall[]): FitcheckModule {
  const seen = new Set<string>();
  const wrapped = Object.create(core) as Record<string, unknown>;
  for (const name of recordedNames) {
    const call = core[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) => {
      const key = keyOf(name, args);
      const record = (entry: RecordedCall) => {
        if (seen.has(key)) return;
        seen.add(key);
        calls.push(entry);
      };
      try {
        const result = call.apply(core, args);
        record({ name, args, result: structuredClone(result) });
        return result;
      } catch (error) {
        const { message, field, fullModule } = error as CoreError;
        record({ name, args, error: { message, field, fullModule } });
        throw error;
      }
    };
  }
  return wrapped as unknown as FitcheckModule;
}

/** Thrown for a call the recording does not hold: the page waits for the core instead. */
export interface CoreLoadingError extends CoreError {
  coreLoading: true;
}

/**
 * A stand-in for the core that answers the recorded calls exactly as the core did (a fresh copy
 * each time, errors with their field); any other call runs `onMiss` and throws a CoreLoadingError.
 */
export function replayingCore(calls: RecordedCall[], onMiss: () => void): FitcheckModule {
  const answers = new Map(calls.map((call) => [keyOf(call.name, call.args), call]));
  const answer =
    (name: string) =>
    (...args: unknown[]) => {
      const call = answers.get(keyOf(name, args));
      if (!call) {
        onMiss();
        throw Object.assign(new Error('the calculator is loading'), { coreLoading: true as const });
      }
      if (call.error) throw Object.assign(new Error(call.error.message), call.error);
      return structuredClone(call.result);
    };
  return Object.fromEntries(moduleExports.map((name) => [name, answer(name)])) as unknown as FitcheckModule;
}

/** The calls index.html holds, or undefined when it holds none (or they do not read). */
export function readRecordedAnswers(document: Document): RecordedCall[] | undefined {
  const text = document.getElementById(recordedAnswersId)?.textContent;
  if (!text) return undefined;
  try {
    const calls = JSON.parse(text) as unknown;
    return Array.isArray(calls) ? (calls as RecordedCall[]) : undefined;
  } catch {
    return undefined;
  }
}
