// Vite builds the static site from web/ into dist/: the walkthrough
// (index.html) and the second page, "How attention learns" (learns.html), both
// run by src/main.js (src/sections/pages.js says which sections each shows).
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { prerenderMath } from './web/vite-plugins/prerender-math.js';
import { adoptedStyles } from './web/vite-plugins/adopted-styles.js';
import { preloadFirstScreen } from './web/vite-plugins/preload-first-screen.js';
import { contentSecurityPolicy } from './web/vite-plugins/content-security-policy.js';

const web = resolve(import.meta.dirname, 'web');

export default defineConfig({
  root: web,
  base: './',
  // TeX in formula modules (*.tex.js) and in the language files becomes MathML
  // at build time, so temml is never shipped to readers.
  // The components' and sections' CSS becomes constructable stylesheets shared
  // by the page and the widgets' shadow roots (web/src/lib/styles.js).
  // Each page's first screen's downloads (the SIMD .wasm of its module, its
  // section 1) start from the HTML's head (web/vite-plugins/preload-first-screen.js).
  // Every page carries the site's Content-Security-Policy as a <meta>
  // (web/vite-plugins/content-security-policy.js).
  plugins: [prerenderMath(), adoptedStyles({ web }), preloadFirstScreen(), contentSecurityPolicy()],
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // light-dark() (styles/tokens.css) must reach the browser as written: an
    // older CSS target makes the minifier rewrite it into variables that
    // ignore a widget's theme attribute.
    cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
    // The site only: dist/ holds what a host serves. (web/minimal.html, a test
    // page, is built by vite.minimal.config.js into build/minimal/.)
    rollupOptions: {
      input: { index: resolve(web, 'index.html'), learns: resolve(web, 'learns.html') },
    },
  },
  // The workers are module workers (new Worker(url, { type: 'module' })): built
  // as ES modules, they load the one Emscripten module they use as a chunk of
  // their own, instead of carrying the glue of all four inline (32 KB gzipped).
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
