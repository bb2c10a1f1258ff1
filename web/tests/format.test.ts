// SPDX-License-Identifier: MIT
// Display formatting of latency, rates, costs and axis ticks (the figures are the core's).
import { describe, expect, test } from 'vitest';
import {
  bytesIn,
  bytesScaled,
  dollars,
  duration,
  figureText,
  gb,
  gib,
  roundedCount,
  secondsParts,
  share,
  siCount,
  siParts,
  significant,
  tickLabel,
  withThousands,
} from '../src/ui/format';

describe('formatting', () => {
  test('four significant digits, never in exponent notation', () => {
    expect(significant(0.17198275)).toBe('0.1720');
    expect(significant(171.98275)).toBe('172.0');
    expect(significant(45220.4)).toBe('45,220');
    expect(significant(0)).toBe('0');
  });
  test('seconds in s, ms or µs', () => {
    expect(secondsParts(1.7193)).toEqual(['1.719', 's']);
    expect(secondsParts(0.0060183)).toEqual(['6.018', 'ms']);
    expect(secondsParts(0.0000234)).toEqual(['23.40', 'µs']);
  });
  test('SI prefixes, bytes in the chosen convention, costs and ticks', () => {
    expect(siParts(6.9258e14)).toEqual(['692.6', 'T']);
    // 1,048,576 B = 1 MiB = 1.049 MB.
    expect(bytesScaled(1048576, 'GiB')).toBe('1.000 MiB');
    expect(bytesScaled(1048576, 'GB')).toBe('1.049 MB');
    expect(bytesScaled(512, 'GB')).toBe('512 B');
    expect(dollars(2.69)).toBe('2.69');
    expect(dollars(0.0156871744)).toBe('0.01569');
    expect(figureText(1191.17)).toBe('1,191');
    expect(figureText(148.8967)).toBe('148.9');
    expect(tickLabel(1000)).toBe('1k');
    expect(tickLabel(2e14)).toBe('200T');
    expect(tickLabel(0.05)).toBe('0.05');
  });
});

test('withThousands writes what toLocaleString("en-US") writes, except that -0 is 0 (non-finite values: below)', () => {
  const values = [
    0,
    1,
    12,
    123,
    1234,
    12345,
    123456,
    1234567,
    8_030_261_248,
    -5,
    -1234,
    -1_234_567,
    0.4,
    0.6,
    999.5,
    1e15,
    2 ** 53,
    9.99e20,
    1e21,
    1.5e22,
  ];
  let seed = 20261130;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 5000; i += 1) values.push((next() - 0.5) * 10 ** (next() * 22));
  for (const value of values) {
    const rounded = Math.round(value);
    expect(withThousands(value), String(value)).toBe(Object.is(rounded, -0) ? '0' : rounded.toLocaleString('en-US'));
  }
});

// A figure missing from a report (JSON null) or not finite is "–", never "0" (#19 D02).
test('missing and non-finite figures are a dash in every formatter', () => {
  for (const value of [null, undefined, NaN, Infinity, -Infinity] as Array<number | null | undefined>) {
    expect(withThousands(value)).toBe('–');
    expect(roundedCount(value)).toBe('–');
    expect(significant(value)).toBe('–');
    expect(figureText(value)).toBe('–');
    expect(dollars(value)).toBe('–');
    expect(siCount(value)).toBe('–');
    expect(duration(value)).toBe('– s');
    expect(secondsParts(value)).toEqual(['–', 's']);
    expect(siParts(value)).toEqual(['–', '']);
    expect(gib(value)).toBe('– GiB');
    expect(gb(value)).toBe('– GB');
    expect(bytesIn(value, 'GiB')).toBe('– GiB');
    expect(bytesScaled(value, 'GB')).toBe('– GB');
    expect(share(value, 100)).toBe('–');
    expect(share(1, value)).toBe('–');
  }
  expect(withThousands(0)).toBe('0');
  expect(significant(0)).toBe('0');
});
