// SPDX-License-Identifier: MIT
// A config.json chosen or dropped as a file: read as text and handed on as if pasted. The page
// only checks that it is JSON and not oversized; the core reads and validates the fields.

/** Largest file read: real config.json files are a few KB (multimodal ones some tens of KB). */
export const maxConfigFileBytes = 1024 * 1024;

export type ConfigFileResult = { text: string } | { error: string };

export async function readConfigFile(file: File): Promise<ConfigFileResult> {
  if (file.size > maxConfigFileBytes)
    return { error: `${file.name} is ${file.size.toLocaleString('en-US')} bytes; a config.json is at most ${maxConfigFileBytes.toLocaleString('en-US')} bytes here` };
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
