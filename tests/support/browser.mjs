// SPDX-License-Identifier: MIT
// Launches Debian's Chromium through playwright-core, with the flags that keep it off the network.
import { chromium } from 'playwright-core';

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
