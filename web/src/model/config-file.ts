// SPDX-License-Identifier: MIT
// A config.json chosen or dropped as a file: read as text and handed on as if pasted. The page
// only checks that it is JSON and not oversized; the core reads and validates the fields.

/**
 * The core's one input limit (core/include/fitcheck/config.hpp kMaxConfigBytes, the module's
 * maxInputBytes(); tests/node/reliability.test.mjs checks the two agree), here so that a file or a
 * paste is refused before the module has even loaded and before anything parses it. Real
 * config.json files are a few KB (multimodal ones some tens of KB).
 */
export const maxConfigBytes = 8 * 1024 * 1024;
/** The same limit, by its older name. */
export const maxConfigFileBytes = maxConfigBytes;

/** The UTF-8 length of `text` as TextEncoder writes it (a lone surrogate: U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; ++i) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      ++i;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The refusal of a pasted text over the limit, or undefined: decided from its length alone when
 * that suffices (a UTF-16 unit is 1 to 3 UTF-8 bytes), so a 50 MB paste is refused at once.
 */
export function oversizedPaste(text: string): string | undefined {
  if (text.length * 3 <= maxConfigBytes) return undefined;
  const bytes = text.length > maxConfigBytes ? text.length : utf8Length(text);
  if (bytes <= maxConfigBytes) return undefined;
  return `The pasted text is ${text.length > maxConfigBytes ? 'at least ' : ''}${bytes.toLocaleString('en-US')} bytes, more than the ${maxConfigBytes / (1024 * 1024)} MiB fitcheck reads (a config.json is a few KB); it was not read`;
}

export type ConfigFileResult = { text: string } | { error: string };

export async function readConfigFile(file: File): Promise<ConfigFileResult> {
  if (file.size > maxConfigBytes)
    return {
      error: `${file.name} is ${file.size.toLocaleString('en-US')} bytes, more than the ${maxConfigBytes / (1024 * 1024)} MiB fitcheck reads (a config.json is a few KB)`,
    };
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return { error: `${file.name} could not be read: ${(error as Error).message}` };
  }
  try {
    JSON.parse(text);
  } catch (error) {
    return { error: `${file.name} is not JSON: ${(error as Error).message}` };
  }
  return { text };
}
