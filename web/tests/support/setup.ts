// SPDX-License-Identifier: MIT
// Preact runs effects after paint (requestAnimationFrame with a timer fallback). Let pending ones
// fire before the jsdom environment is torn down, or they fail on the missing globals.
import { afterAll } from 'vitest';

afterAll(() => new Promise((resolve) => setTimeout(resolve, 150)));
