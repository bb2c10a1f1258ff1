// SPDX-License-Identifier: MIT
// Display formatting only: the numbers themselves come from the core.
import type { ByteUnit } from '../app/inputs';

const GIB = 1024 ** 3;

// Integers with comma groups, as toLocaleString('en-US') writes them, without its cost: each call
// of it builds an Intl formatter, and the first one loads locale data (tens of ms of the first
// view's render). Beyond 2^53 digits are not exact anyway; beyond 1e21 String() turns exponential.
/** A figure that cannot be shown: missing (null from JSON), NaN or infinite. Shown as "–", never as 0. */
export function isMissing(value: number | null | undefined): value is null | undefined {
  return typeof value !== 'number' || !Number.isFinite(value);
}

export function withThousands(value: number | null | undefined): string {
  if (isMissing(value)) return '–';
  const rounded = Math.round(value);
  if (!Number.isFinite(rounded) || Math.abs(rounded) >= 1e21) return rounded.toLocaleString('en-US');
  const digits = String(Math.abs(rounded));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += ',' + digits.slice(at, at + 3);
  return rounded < 0 ? `-${grouped}` : grouped;
}

export function roundedCount(value: number | null | undefined): string {
  if (isMissing(value)) return '–';
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

export function gib(bytes: number | null | undefined): string {
  if (isMissing(bytes)) return '– GiB';
  return `${(bytes / GIB).toFixed(2)} GiB`;
}

export function gb(bytes: number | null | undefined): string {
  if (isMissing(bytes)) return '– GB';
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** Bytes in the chosen unit, always with the unit written: "14.96 GiB" or "16.06 GB". */
export function bytesIn(bytes: number | null | undefined, unit: ByteUnit): string {
  return unit === 'GiB' ? gib(bytes) : gb(bytes);
}

/** Bytes as a bare number in the chosen unit (for charts and JSON). */
export function bytesValue(bytes: number, unit: ByteUnit): number {
  return unit === 'GiB' ? bytes / GIB : bytes / 1e9;
}

export const unitTitle: Record<ByteUnit, string> = { GiB: 'GiB (2³⁰ B)', GB: 'GB (10⁹ B)' };

/** Part of a whole as a percentage with one decimal, for display only. */
export function share(part: number | null | undefined, whole: number | null | undefined): string {
  if (isMissing(part) || isMissing(whole) || whole <= 0) return '–';
  return `${((100 * part) / whole).toFixed(1)} %`;
}

/** A token count, with K for powers of 1024 when exact (4096 → 4K), else with thousands. */
export function tokens(value: number): string {
  if (value >= 1024 && value % 1024 === 0) return `${value / 1024}K`;
  return withThousands(value);
}

/** A number with `digits` significant digits, without exponent notation: 171.98 → "172.0". */
export function significant(value: number | null | undefined, digits = 4): string {
  if (isMissing(value)) return '–';
  if (value === 0) return '0';
  if (Math.abs(value) >= 10 ** digits) return withThousands(value);
  const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(decimals, 12));
}

/** Seconds in s, ms or µs as [number, unit], 4 significant digits: 0.17198 → ["172.0", "ms"]. */
export function secondsParts(seconds: number | null | undefined): [string, string] {
  if (isMissing(seconds)) return ['–', 's'];
  const size = Math.abs(seconds);
  if (size >= 1 || size === 0) return [significant(seconds), 's'];
  if (size >= 1e-3) return [significant(seconds * 1e3), 'ms'];
  return [significant(seconds * 1e6), 'µs'];
}

export function duration(seconds: number | null | undefined): string {
  return secondsParts(seconds).join(' ');
}

/** A count split into number and SI prefix: 1.32e13 → ["13.19", "T"]. */
export function siParts(value: number | null | undefined): [string, string] {
  if (isMissing(value)) return ['–', ''];
  const prefixes: Array<[number, string]> = [
    [1e15, 'P'],
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, prefix] of prefixes) if (Math.abs(value) >= scale) return [significant(value / scale), prefix];
  return [significant(value), ''];
}

/** A count with an SI prefix (FLOPs, FLOP/s): 1.32e13 → "13.19 T". */
export function siCount(value: number | null | undefined): string {
  const [number, prefix] = siParts(value);
  return prefix ? `${number} ${prefix}` : number;
}

/** Bytes at a readable scale in the chosen convention: KiB-GiB for GiB, kB-GB for GB. */
export function bytesScaled(bytes: number | null | undefined, unit: ByteUnit): string {
  if (isMissing(bytes)) return `– ${unit === 'GiB' ? 'GiB' : 'GB'}`;
  const base = unit === 'GiB' ? 1024 : 1000;
  const names = unit === 'GiB' ? ['B', 'KiB', 'MiB', 'GiB', 'TiB'] : ['B', 'kB', 'MB', 'GB', 'TB'];
  let index = 0;
  let value = bytes;
  while (Math.abs(value) >= base && index < names.length - 1) {
    value /= base;
    index += 1;
  }
  return `${index === 0 ? withThousands(value) : significant(value)} ${names[index]}`;
}

/** A quantity with an SI prefix and its unit: (6.9e14, "FLOP/s") → "692.6 TFLOP/s", (12, "B") → "12 B". */
export function siUnit(value: number, unit: string): string {
  const count = siCount(value);
  return /[a-zA-Z]$/.test(count) ? `${count}${unit}` : `${count} ${unit}`;
}

/** An axis tick with an SI prefix and no padding zeros: 1000 → "1k", 2.5e14 → "250T", 0.01 → "0.01". */
export function tickLabel(value: number): string {
  const [number, prefix] = siParts(value);
  return `${Number(number)}${prefix}`;
}

/** US dollars without padding zeros, 4 significant digits: 2.69 → "2.69", 0.015687 → "0.01569". */
export function dollars(value: number | null | undefined): string {
  if (isMissing(value)) return '–';
  return value >= 1000 ? withThousands(value) : String(Number(value.toPrecision(4)));
}

/** A rate or other figure: thousands separators from 1000 up, else 4 significant digits. */
export function figureText(value: number | null | undefined): string {
  if (isMissing(value)) return '–';
  return Math.abs(value) >= 1000 ? withThousands(value) : significant(value);
}
