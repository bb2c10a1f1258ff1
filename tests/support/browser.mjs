// SPDX-License-Identifier: MIT
// Launches Debian's Chromium through playwright-core, with the flags that keep it off the network,
// and the helpers the browser tests share.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const artifacts = path.join(repo, 'test-results');

export async function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// Records every request, page error and console error of a page.
export function watchPage(page) {
  const log = { requests: [], errors: [] };
  page.on('request', (request) => log.requests.push(request.url()));
  page.on('pageerror', (error) => log.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') log.errors.push(`console: ${message.text()}`);
  });
  return log;
}

// Every request went to `origin` (e.g. http://127.0.0.1:PORT or file://) and nothing failed.
export function assertLocalOnly(log, origin) {
  for (const url of log.requests) assert.ok(url.startsWith(origin), `unexpected request to ${url}`);
  assert.deepEqual(log.errors, []);
}

// A full-page screenshot in test-results/, the folder kept as the run's artifacts.
export async function screenshot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** A new page at `url` with the Local tab open and its results drawn; `log` is watchPage's. */
export async function openLocalTab(browser, url, { preset } = {}) {
  const page = await browser.newPage();
  const log = watchPage(page);
  await page.goto(url);
  if (preset) await page.getByTestId('preset').selectOption(preset);
  await page.getByTestId('tab-local').click();
  await page.getByTestId('local-results').waitFor();
  return { page, log };
}
