// A static file server on 127.0.0.1 that sends the Content-Security-Policy the
// site ships (also in each page's <meta>) as a header. Used by `npm start`
// (scripts/serve.mjs), by the end-to-end tests and by the size report.
//
//   const { server, url, requests } = await serve('dist');
//   await serve(['dist', 'tests/e2e/fixtures']);   // several roots: the first that has the file wins
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { SITE_POLICY } from '../../web/vite-plugins/content-security-policy.js';

// The policy the site ships in its pages' <meta> (web/vite-plugins/content-security-policy.js).
export const CONTENT_SECURITY_POLICY = SITE_POLICY;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

// The file `path` (a URL path) names under `root`, or null if it is outside
// root or not there. A directory means its index.html.
async function fileUnder(root, path) {
  let file = normalize(join(root, path));
  if (file !== root && !file.startsWith(root + sep)) return null;
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    await stat(file);
    return file;
  } catch {
    return null;
  }
}

// Starts serving `roots` (one folder or a list, looked up in order); resolves
// to { server, url, requests } once listening. `requests` records every path
// asked for (tests count .wasm fetches with it). Port 0: any free port.
export function serve(roots, port = 0, { csp = CONTENT_SECURITY_POLICY } = {}) {
  const folders = (Array.isArray(roots) ? roots : [roots]).map((r) => resolve(r));
  const requests = [];
  // maxHeaderSize: the end-to-end tests send URL parameters of 10^6 characters.
  const server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    for (const root of folders) {
      const file = await fileUnder(root, path);
      if (!file) continue;
      try {
        const body = await readFile(file);
        res.writeHead(200, {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          ...(csp === null ? {} : { 'Content-Security-Policy': csp }),   // null: the pages' <meta> alone
          'Cache-Control': 'no-store',
        });
        res.end(body);
        return;
      } catch {
        break;
      }
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  });
  return new Promise((done) => {
    server.listen(port, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}/`;
      done({ server, url, requests });
    });
  });
}
