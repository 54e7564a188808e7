// The wasm race in headless Chromium (npm run bench -- --browser):
//   node scripts/bench-browser.mjs [--json out.json] [--sizes 64,256,1024,4096] [--alone 16384]
// Serves the checkout on 127.0.0.1 (the page bench/race/browser/, the engine,
// bench/peers/node_modules, build/bench/f32x4-peak.wasm, and the ONNX models
// built on request by bench/peers/onnx-attention-model.mjs), cross-origin
// isolated (COOP/COEP: performance.now() to 5 us instead of 100 us), and runs
// the same race as scripts/bench-wasm.mjs in Debian's Chromium (playwright-core,
// a fresh profile, no network, --js-flags=--expose-gc). Writes the figures (JSON).
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { attentionModelBytes } from '../bench/peers/onnx-attention-model.mjs';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'string' },
    sizes: { type: 'string', default: '64,256,1024,4096' },
    alone: { type: 'string', default: '16384' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM_ARGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--js-flags=--expose-gc',
];
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json' };
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cache-Control': 'no-store' };
const log = (line) => process.stderr.write(`${line}\n`);

function startServer() {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    try {
      if (url.pathname === '/onnx-model') {
        const get = (name) => Number(url.searchParams.get(name));
        const bytes = attentionModelBytes(url.searchParams.get('form'), get('n'), get('m'), get('d'));
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', ...ISOLATION }).end(Buffer.from(bytes));
        return;
      }
      let file = normalize(join(ROOT, decodeURIComponent(url.pathname)));
      if (!file.startsWith(ROOT + sep)) throw new Error('outside the checkout');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', ...ISOLATION }).end(body);
    } catch (error) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(String(error?.message ?? error));
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

const server = await startServer();
const profile = await mkdtemp(join(tmpdir(), 'attn-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
});
try {
  const loadBefore = loadavg();
  const page = await context.newPage();
  page.on('console', (message) => log(message.text()));
  page.on('pageerror', (error) => log(`page error: ${error}`));
  log(`== wasm race in headless Chromium, load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  const base = `http://127.0.0.1:${server.address().port}`;
  await page.goto(`${base}/bench/race/browser/index.html?sizes=${flags.sizes}&alone=${flags.alone}`);
  await page.waitForFunction(() => window.benchResult || window.benchError, null, { timeout: 0, polling: 1000 });
  const error = await page.evaluate(() => window.benchError);
  if (error) throw new Error(`bench-browser: the race failed in the page: ${error}`);
  const result = await page.evaluate(() => window.benchResult);
  Object.assign(result, { loadAverageBefore: loadBefore, loadAverageAfter: loadavg() });
  if (flags.json) await writeFile(flags.json, `${JSON.stringify(result, null, 1)}\n`);
  else console.log(JSON.stringify(result, null, 1));
} finally {
  await context.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
