// SPDX-License-Identifier: MIT
// Static file server used by `npm start` and the browser tests. Serves `root` under `prefix`
// (e.g. "/some/sub/path/") so that the page is exercised away from the site root.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export async function startStaticServer({ root, port = 0, host = '127.0.0.1', prefix = '/' }) {
  const base = path.resolve(root);
  const server = http.createServer(async (request, response) => {
    const requestPath = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (!requestPath.startsWith(prefix)) {
      response.writeHead(404).end('not found');
      return;
    }
    let relative = requestPath.slice(prefix.length);
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    const file = path.resolve(base, relative);
    if (!file.startsWith(base + path.sep)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    try {
      const body = await fs.readFile(file);
      response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return { server, url: `http://${host}:${address.port}${prefix}`, close: () => new Promise((r) => server.close(r)) };
}
