// SPDX-License-Identifier: MIT
// Where a large pasted config is read (large-config.ts): a module Web Worker in the page build.
// If the worker cannot start or load, this read and later ones run on the main thread instead.
import { loadCore } from '../core/load';
import { readLargeConfig, type ConfigReader, type LargeConfigRead } from './large-config';

const onMainThread: ConfigReader = async (text) => ({ ...readLargeConfig(await loadCore(), text), where: 'main' });

export function createConfigReader(): ConfigReader {
  if (typeof Worker === 'undefined') return onMainThread;
  let worker: Worker | undefined;
  try {
    worker = new Worker(new URL('./config-worker.ts', import.meta.url), { type: 'module', name: 'fitcheck-config' });
  } catch {
    return onMainThread;
  }
  const waiting = new Map<number, { text: string; resolve: (read: Awaited<ReturnType<ConfigReader>>) => void }>();
  let nextId = 1;
  const fallBack = () => {
    worker?.terminate();
    worker = undefined;
    for (const { text, resolve } of waiting.values()) void onMainThread(text).then(resolve);
    waiting.clear();
  };
  worker.onmessage = (event: MessageEvent<{ id: number; read?: LargeConfigRead; failure?: string }>) => {
    const entry = waiting.get(event.data.id);
    if (!entry) return;
    waiting.delete(event.data.id);
    if (event.data.read) entry.resolve({ ...event.data.read, where: 'worker' });
    else void onMainThread(entry.text).then(entry.resolve);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fallBack();
  };
  return (text) => {
    if (!worker) return onMainThread(text);
    return new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, { text, resolve });
      worker!.postMessage({ id, text });
    });
  };
}
