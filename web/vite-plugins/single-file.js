// Vite plugin for the single-file build (vite.single.config.js): the whole
// site in one HTML file that works when opened from disk (file://), where a
// page can fetch nothing, not even its own modules or workers. Both pages are
// in it (src/sections/pages.js): the walkthrough, and "How attention learns"
// at attention.html?page=learns; they link to each other by that query. One
// file rather than two: the second page needs the learning module that the
// walkthrough's section "learning" carries already, so it adds only its
// sections' code and text, where a file of its own would repeat every .wasm.
//
//   - src/engine/inline-wasm.js becomes the .wasm modules in base64 (both
//     builds, each as the attention module and the learning modules the
//     pages and the sections name: pages.js PAGES, registry.js `learning`),
//     which main.js hands to
//     createAttention({ wasmBinary });
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
import { readFileSync, realpathSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { withPolicy } from './content-security-policy.js';
import { pathToFileURL } from 'node:url';
import { BUILD_NAMES, fileStem, moduleKey } from '../src/engine/load-build.js';

const WASM_URL = /new URL\(\s*["'](attention-(?:backward-|learning-)?(?:simd|baseline)\.wasm)["']\s*,\s*import\.meta\.url\s*\)(?:\.toString\(\)|\.href)?/g;
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
  // Real paths: Vite resolves symbolic links (a worktree may link its wasm/ to another checkout's).
  const wasmDir = realpathSync(resolve(web, 'src', 'engine', 'wasm'));
  const inlineModule = resolve(web, 'src', 'engine', 'inline-wasm.js');
  let outDir;
  return {
    name: 'attn-single-file',
    enforce: 'pre',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async load(id) {
      if (id.split('?')[0] !== inlineModule) return null;
      // Read at build time, not bundled with the config: the registry's sections import CSS.
      const pages = pathToFileURL(resolve(web, 'src', 'sections', 'pages.js')).href;
      const { PAGES, PAGE_NAMES } = await import(/* @vite-ignore */ pages);
      const { sections } = await import(/* @vite-ignore */ pathToFileURL(resolve(web, 'src', 'sections', 'registry.js')).href);
      // The modules the pages load, under the keys of createAttention's wasmBinary (src/engine/load-build.js):
      // the attention module, and the learning modules the pages and the sections name (a page opened
      // from disk downloads nothing, but a module no page uses would only make the file larger).
      const modules = [false, ...new Set([...PAGE_NAMES.map((p) => PAGES[p].learning), ...sections.map((s) => s.learning)].filter(Boolean))];
      const base64 = (stem) => readFileSync(join(wasmDir, `${stem}.wasm`)).toString('base64');
      const entries = modules.flatMap((learning) => BUILD_NAMES.map((build) =>
        `${moduleKey(build, learning)}: ${JSON.stringify(base64(fileStem(build, learning)))}`));
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
