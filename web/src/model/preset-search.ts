// SPDX-License-Identifier: MIT
// Searching the bundled presets. A word with a digit in it ("3", "3.1", "27b") matches a whole
// name token, so that "gemma 3 27b" never finds gemma-2-27b ("3" is not "2", "7b" is not "27b");
// a bare number is a version ("gemma 4" is not gemma-3-4b); a word of letters alone matches
// anywhere ("qwen" finds Qwen2.5).
import type { Preset } from './presets';
import { roundedCount } from '../ui/format';

/** A name's tokens: split at punctuation, and a letter run ending in a digit also at that point (gemma3: gemma, 3). */
export function nameTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const token of text.toLowerCase().split(/[^a-z0-9.]+/)) {
    const trimmed = token.replace(/^\.+|\.+$/g, '');
    if (!trimmed) continue;
    tokens.add(trimmed);
    for (const piece of trimmed.split(/(?<=[a-z])(?=\d)/)) tokens.add(piece);
  }
  return [...tokens];
}

/**
 * `word` starts `token` and does not run on into more digits ("3b" matches "3b", not "30b"); a bare
 * number is a version, matched by itself and its point releases ("3" matches "3" and "3.1", not "3b").
 */
function tokenMatches(token: string, word: string): boolean {
  if (!token.startsWith(word)) return false;
  const rest = token.slice(word.length);
  if (/^[\d.]+$/.test(word)) return rest === '' || /^\.\d/.test(rest);
  return !/^\d/.test(rest);
}

/** The query's words, lower case. */
function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** A query word without the punctuation around it: "(3.1," is "3.1" (a point at its end stays). */
function trimWord(word: string): string {
  return word.replace(/^[^a-z0-9]+|[^a-z0-9.]+$/g, '');
}

/**
 * The query's words found among the label's own tokens: "gemma 3 27b" names gemma-3-27b-it more
 * closely than medgemma-27b-it, whose "3" is only its family's (gemma3).
 */
export function labelScore(preset: Preset, query: string): number {
  const tokens = nameTokens(preset.label);
  return queryWords(query).filter((word) => {
    const trimmed = trimWord(word);
    return tokens.some((token) => (/\d/.test(trimmed) ? tokenMatches(token, trimmed) : token.includes(trimmed)));
  }).length;
}

/** The presets a query matches, those whose label names more of it first (the list's order otherwise). */
export function rankedMatches(presets: Preset[], query: string): Preset[] {
  return presets
    .filter((preset) => matchesQuery(preset, query))
    .map((preset, index) => ({ preset, index, score: labelScore(preset, query) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.preset);
}

export function matchesQuery(preset: Preset, query: string): boolean {
  const words = queryWords(query);
  if (words.length === 0) return true;
  const size = roundedCount(preset.total_params).toLowerCase();
  const haystack = `${preset.label} ${preset.family} ${preset.id} ${size}`.toLowerCase();
  const tokens = nameTokens(`${preset.label} ${preset.family} ${preset.id}`);
  // The rounded count ("4.46 B") as one size token ("4.46b"), matched by a word with its unit only:
  // "gemma 4" is a version and never the 4.46 B of gemma-3n-E2B; "4.46b" still finds it.
  const sizeToken = size.replace(/\s+/g, '');
  return words.every((word) => {
    if (!/\d/.test(word)) return haystack.includes(word);
    const trimmed = trimWord(word);
    return tokens.some((token) => tokenMatches(token, trimmed)) || (/[a-z]$/.test(trimmed) && sizeToken === trimmed);
  });
}
