// SPDX-License-Identifier: MIT
// A small static file server for the built page (no dependencies): node scripts/serve.mjs DIR
import { startStaticServer } from '../tests/support/static-server.mjs';

const root = process.argv[2] ?? 'web/dist';
const port = Number(process.env.PORT ?? 8080);
const { url } = await startStaticServer({ root, port, host: process.env.HOST ?? '127.0.0.1' });
console.log(`fitcheck is being served at ${url}  (Ctrl+C to stop)`);
