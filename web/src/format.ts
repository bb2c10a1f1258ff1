// SPDX-License-Identifier: MIT
// Display formatting only: the numbers themselves come from the core.
import type { ByteUnit } from './state/inputs';

const GIB = 1024 ** 3;

export function withThousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function roundedCount(value: number): string {
  const units: Array<[number, string]> = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [scale, suffix] of units) {
    if (Math.abs(value) >= scale) return `${(value / scale).toFixed(2)} ${suffix}`;
  }
  return String(value);
}

export function gib(bytes: number): string {
  return `${(bytes / GIB).toFixed(2)} GiB`;
}

export function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** Bytes in the chosen unit, always with the unit written: "14.96 GiB" or "16.06 GB". */
export function bytesIn(bytes: number, unit: ByteUnit): string {
  return unit === 'GiB' ? gib(bytes) : gb(bytes);
}

/** Bytes as a bare number in the chosen unit (for charts and JSON). */
export function bytesValue(bytes: number, unit: ByteUnit): number {
  return unit === 'GiB' ? bytes / GIB : bytes / 1e9;
}

export const unitTitle: Record<ByteUnit, string> = { GiB: 'GiB (2³⁰ B)', GB: 'GB (10⁹ B)' };

/** Part of a whole as a percentage with one decimal, for display only. */
export function share(part: number, whole: number): string {
  if (whole <= 0) return '–';
  return `${((100 * part) / whole).toFixed(1)} %`;
}

/** A token count, with K for powers of 1024 when exact (4096 → 4K), else with thousands. */
export function tokens(value: number): string {
  if (value >= 1024 && value % 1024 === 0) return `${value / 1024}K`;
  return withThousands(value);
}
