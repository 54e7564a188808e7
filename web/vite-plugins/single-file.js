// Vite plugin for the single-file build (vite.single.config.js): the whole
// walkthrough in one HTML file that works when opened from disk (file://),
// where a page can fetch nothing, not even its own modules or workers.
//
//   - src/engine/inline-wasm.js becomes the .wasm modules in base64 (both
//     builds, each as the attention and the learning module), which main.js
//     hands to createAttention({ wasmBinary });
//   - the Emscripten modules lose their `new URL('x.wasm', import.meta.url)`
//     (never used when the bytes are given; it would emit a second copy);
//   - `new Worker(new URL(...))` throws instead (a module worker cannot start
//     from disk; the worker bridge, src/worker/bridge.js, runs each service
//     on the page instead);
//   - after the bundle is written (one script: code splitting is off), the
//     script and the stylesheet are put inside the HTML, written to `outFile`,
//     with a Content-Security-Policy <meta> that allows exactly that script and
//     that style by their SHA-256 hashes (singleFilePolicy).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { withPolicy } from './content-security-policy.js';

const WASM_URL = /new URL\(\s*["'](attention-(?:learning-)?(?:simd|baseline)\.wasm)["']\s*,\s*import\.meta\.url\s*\)(?:\.toString\(\)|\.href)?/g;
const WORKER = /new Worker\(\s*new URL\(\s*(['"])[^'"]+\1\s*,\s*import\.meta\.url\s*\)\s*(?:,\s*\{[^}]*\})?\s*\)/g;

// Text that must not end or confuse an inline <script> element.
export function scriptSafe(code) {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// The single file's policy: its one inline script and its one inline style by
// hash (nothing else may run or style the page), compiling the inline .wasm,
// the data: favicon. It starts no worker (module workers cannot start from
// disk: the sections run their work on the main thread), fetches nothing.
// worker-src 'self' as the site's, for a copy served over http.
export function singleFilePolicy(scripts, styles) {
  if (scripts.length !== 1 || styles.length !== 1) {
    throw new Error(`single-file build: expected one inline script and one style, got ${scripts.length} and ${styles.length}`);
  }
  return [
    "default-src 'none'",
    `script-src ${sha256(scripts[0])} 'wasm-unsafe-eval'`,
    `style-src ${sha256(styles[0])}`,
    "worker-src 'self'",
    'img-src data:',
    'font-src data:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function singleFile({ web, outFile }) {
  const wasmDir = resolve(web, 'src', 'engine', 'wasm');
  const inlineModule = resolve(web, 'src', 'engine', 'inline-wasm.js');
  let outDir;
  return {
    name: 'attn-single-file',
    enforce: 'pre',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    load(id) {
      if (id.split('?')[0] !== inlineModule) return null;
      // The keys of createAttention's wasmBinary (src/engine/load-build.js).
      const files = { simd: 'simd', baseline: 'baseline', learningSimd: 'learning-simd', learningBaseline: 'learning-baseline' };
      const base64 = (stem) => readFileSync(join(wasmDir, `attention-${stem}.wasm`)).toString('base64');
      const entries = Object.entries(files).map(([key, stem]) => `${key}: ${JSON.stringify(base64(stem))}`);
      return `export default { ${entries.join(', ')} };\n`;
    },
    transform(code, id) {
      const file = id.split('?')[0];
      if (file.startsWith(wasmDir + sep) && file.endsWith('.mjs')) {
        return { code: code.replace(WASM_URL, (_, name) => JSON.stringify(name)), map: null };
      }
      if (file.startsWith(resolve(web, 'src') + sep) && file.endsWith('.js') && WORKER.test(code)) {
        WORKER.lastIndex = 0;
        return {
          code: code.replace(WORKER, "(() => { throw new Error('Web Workers cannot start in a page opened from disk'); })()"),
          map: null,
        };
      }
      return null;
    },
    closeBundle() {
      const htmlFile = join(outDir, 'index.html');
      let page = readFileSync(htmlFile, 'utf8');
      page = page.replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
      const scripts = [], styles = [];  // what goes inline, for their hashes
      page = page.replace(/<script type="module" crossorigin src="\.\/([^"]+)"><\/script>/g, (_, src) => {
        scripts.push(scriptSafe(readFileSync(join(outDir, src), 'utf8')));
        return `<script type="module">${scripts.at(-1)}</script>`;
      });
      page = page.replace(/<link rel="stylesheet" crossorigin href="\.\/([^"]+)">/g, (_, href) => {
        styles.push(readFileSync(join(outDir, href), 'utf8').replace(/<\/style/gi, '<\\/style'));
        return `<style>${styles.at(-1)}</style>`;
      });
      const leftover = page.match(/(?:src|href)="\.\/[^"]+"/);
      if (leftover) throw new Error(`single-file build: ${leftover[0]} is still a separate file`);
      page = withPolicy(page, singleFilePolicy(scripts, styles));
      mkdirSync(dirname(outFile), { recursive: true });
      writeFileSync(outFile, page);
    },
  };
}
