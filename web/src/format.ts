// SPDX-License-Identifier: MIT
// Display formatting only: the numbers themselves come from the core.

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
