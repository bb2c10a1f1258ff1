// SPDX-License-Identifier: MIT
// A user-defined GPU (gpu=custom), as typed. The keys are the core's option keys
// (docs/hardware.md, "A custom accelerator"); empty fields take the base GPU's figure, and the
// core parses, converts and validates every value.
import type { Accelerator } from '../core/types';

export const customGpuId = 'custom';

export const customGpuKeys = [
  'custom_gpu_base',
  'custom_gpu_name',
  'custom_gpu_memory_gib',
  'custom_gpu_bandwidth_gb_per_s',
  'custom_gpu_bf16_tflops',
  'custom_gpu_fp16_tflops',
  'custom_gpu_fp8_tflops',
  'custom_gpu_int8_tops',
  'custom_gpu_fp32_tflops',
  'custom_gpu_interconnect_gb_per_s',
  'custom_gpu_gpus_per_node',
  'custom_gpu_price_per_hour',
] as const;
export type CustomGpuKey = (typeof customGpuKeys)[number];
export type CustomGpuFields = Record<CustomGpuKey, string>;

export const defaultCustomGpu: CustomGpuFields = Object.fromEntries(
  customGpuKeys.map((key) => [key, '']),
) as CustomGpuFields;

export const customGpuKeySet: ReadonlySet<string> = new Set<string>(customGpuKeys);

/** The custom GPU's keys with a value, for the core; none unless `wanted` (the core refuses them otherwise). */
export function customGpuOptions(fields: CustomGpuFields, wanted: boolean): Partial<CustomGpuFields> {
  const options: Partial<CustomGpuFields> = {};
  if (!wanted) return options;
  for (const key of customGpuKeys) {
    const value = String(fields[key] ?? '').trim();
    if (value !== '') options[key] = value;
  }
  return options;
}

/** Options without the custom GPU's keys (one planner call per GPU kind: only the custom one takes them). */
export function withoutCustomGpu<T extends object>(options: T): T {
  const copy = { ...options } as Record<string, unknown>;
  for (const key of customGpuKeys) delete copy[key];
  return copy as T;
}

/** The options of a planner call for one GPU kind. */
export function optionsForKind<T extends { gpus?: string }>(options: T, kind: string): T {
  return kind === customGpuId ? { ...options, gpus: kind } : { ...withoutCustomGpu(options), gpus: kind };
}

/**
 * The state after the GPU choice changes to `id`. Choosing the custom GPU with no base yet bases
 * it on the GPU chosen before, so that empty fields start from that GPU's figures.
 */
export function choosingGpu<T extends CustomGpuFields>(state: T, previous: string, id: string): T {
  if (id !== customGpuId || state.custom_gpu_base.trim() !== '' || previous === '' || previous === customGpuId)
    return state;
  return { ...state, custom_gpu_base: previous };
}

/** The base GPU's figure for each field, as the field is written (placeholders only: never sent). */
export function baseFigures(base: Accelerator | undefined): Partial<CustomGpuFields> {
  if (!base) return {};
  const shown = (value: number) => String(Number(value.toPrecision(6)));
  const peak = (dtype: keyof Accelerator['dense_flops_per_second']) => shown(base.dense_flops_per_second[dtype] / 1e12);
  return {
    custom_gpu_name: `${base.name} (custom)`,
    custom_gpu_memory_gib: shown(base.memory_bytes / 2 ** 30),
    custom_gpu_bandwidth_gb_per_s: shown(base.memory_bandwidth_bytes_per_second / 1e9),
    custom_gpu_bf16_tflops: peak('bf16'),
    custom_gpu_fp16_tflops: peak('fp16'),
    custom_gpu_fp8_tflops: peak('fp8'),
    custom_gpu_int8_tops: peak('int8'),
    custom_gpu_fp32_tflops: peak('fp32'),
    custom_gpu_interconnect_gb_per_s: shown(base.interconnect_bytes_per_second_per_direction / 1e9),
    custom_gpu_gpus_per_node: String(base.gpus_per_node),
    custom_gpu_price_per_hour: String(base.price_per_hour_usd),
  };
}

/** Writes the non-empty fields under `prefix` into a link. */
export function encodeCustomGpu(params: URLSearchParams, prefix: string, fields: CustomGpuFields): void {
  for (const key of customGpuKeys) if (fields[key] !== '') params.set(`${prefix}${key}`, fields[key]);
}

/** Reads the fields under `prefix` from a link; absent ones stay empty. */
export function decodeCustomGpu(params: URLSearchParams, prefix: string, fields: CustomGpuFields): void {
  for (const key of customGpuKeys) {
    const value = params.get(`${prefix}${key}`);
    if (value !== null) fields[key] = value;
  }
}

/** The custom GPU's fields to carry with a planner row into another tab: its own when the row's GPU is custom. */
export function customGpuOf(gpu: string, fields: CustomGpuFields): CustomGpuFields {
  if (gpu !== customGpuId) return { ...defaultCustomGpu };
  const copy = { ...defaultCustomGpu };
  for (const key of customGpuKeys) copy[key] = fields[key];
  return copy;
}
