// SPDX-License-Identifier: MIT
// Temporary folders for the tests' files (configs, traces, GGUF headers), removed when the test
// process exits so that runs leave nothing in the system's temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made = [];
process.once('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new folder under the system's temporary folder, named `prefix` and a random suffix. */
export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
