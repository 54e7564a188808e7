// A test page, not part of the site: web/minimal.html (the engine alone,
// article 001's worked example) built into build/minimal/ for
// tests/e2e/minimal.test.mjs, so that it never ships in dist/.
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import site from './vite.config.js';

const root = import.meta.dirname;
const web = resolve(root, 'web');

export default defineConfig({
  ...site,
  build: {
    ...site.build,
    outDir: resolve(root, 'build', 'minimal'),
    emptyOutDir: true,
    rollupOptions: { input: { minimal: resolve(web, 'minimal.html') } },
  },
});
