// SPDX-License-Identifier: MIT
// core/recorded-answers.ts: the prerender records the first view's core calls with their answers,
// and the page replays exactly those, each a fresh copy, errors with their field; any other call
// asks for the core.
import { expect, test, vi } from 'vitest';
import { readRecordedAnswers, recordingCore, replayingCore, type RecordedCall } from '../src/core/recorded-answers';
import type { FitcheckModule } from '../src/core/types';

function standIn(): FitcheckModule {
  return {
    parameterReport: (text: string) => ({ total_params: text.length }),
    inferenceReport: (text: string, options: { batch?: number }) => {
      if (options.batch === 0) throw Object.assign(new Error('batch must be at least 1'), { field: 'batch' });
      return { text, batch: options.batch };
    },
    acceleratorCatalog: () => [{ id: 'h100-sxm-80gb' }],
    formatCatalog: () => ({ formats: [] }),
  } as unknown as FitcheckModule;
}

test('recording keeps each distinct call once, with its answer or its error', () => {
  const calls: RecordedCall[] = [];
  const core = recordingCore(standIn(), calls);
  expect(core.parameterReport('{"a":1}')).toEqual({ total_params: 7 });
  core.parameterReport('{"a":1}');
  core.inferenceReport('{}', { batch: 4 });
  expect(() => core.inferenceReport('{}', { batch: 0 })).toThrow('batch must be at least 1');
  expect(calls).toEqual([
    { name: 'parameterReport', args: ['{"a":1}'], result: { total_params: 7 } },
    { name: 'inferenceReport', args: ['{}', { batch: 4 }], result: { text: '{}', batch: 4 } },
    {
      name: 'inferenceReport',
      args: ['{}', { batch: 0 }],
      error: { message: 'batch must be at least 1', field: 'batch', fullModule: undefined },
    },
  ]);
});

test('the replay answers the recorded calls as the core did, and asks for the core on any other', () => {
  const calls: RecordedCall[] = [];
  const recording = recordingCore(standIn(), calls);
  recording.inferenceReport('{}', { batch: 4 });
  expect(() => recording.inferenceReport('{}', { batch: 0 })).toThrow();
  // Through JSON, as index.html holds them.
  const onMiss = vi.fn();
  const replay = replayingCore(JSON.parse(JSON.stringify(calls)) as RecordedCall[], onMiss);
  const first = replay.inferenceReport('{}', { batch: 4 });
  expect(first).toEqual({ text: '{}', batch: 4 });
  (first as unknown as { batch: number }).batch = 99;
  expect(replay.inferenceReport('{}', { batch: 4 })).toEqual({ text: '{}', batch: 4 });
  expect(() => replay.inferenceReport('{}', { batch: 0 })).toThrow(
    expect.objectContaining({ message: 'batch must be at least 1', field: 'batch' }),
  );
  expect(onMiss).not.toHaveBeenCalled();
  expect(() => replay.inferenceReport('{}', { batch: 5 })).toThrow(expect.objectContaining({ coreLoading: true }));
  expect(() => replay.trainingReport('{}', {} as never)).toThrow(expect.objectContaining({ coreLoading: true }));
  expect(onMiss).toHaveBeenCalledTimes(2);
});

test('index.html without recorded answers, or with unreadable ones, gives none', () => {
  document.body.innerHTML = '';
  expect(readRecordedAnswers(document)).toBeUndefined();
  document.body.innerHTML = '<script type="application/json" id="fitcheck-recorded-answers">{"not": "a list"}</script>';
  expect(readRecordedAnswers(document)).toBeUndefined();
  document.body.innerHTML =
    '<script type="application/json" id="fitcheck-recorded-answers">[{"name":"version","args":[],"result":"0.1.0"}]</script>';
  expect(readRecordedAnswers(document)).toEqual([{ name: 'version', args: [], result: '0.1.0' }]);
  document.body.innerHTML = '';
});
