// The single-file build: dist/attention.html, the whole site (both pages:
// attention.html?page=learns is the second; scripts, styles, both .wasm builds
// in base64, language files) in one file that works opened from disk. Bundled into build/single/ as one script (no code
// splitting), then inlined into the HTML by web/vite-plugins/single-file.js.
// scripts/build.sh runs it after the site build (which empties dist/).
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import site from './vite.config.js';
import { prerenderMath } from './web/vite-plugins/prerender-math.js';
import { adoptedStyles } from './web/vite-plugins/adopted-styles.js';
import { singleFile } from './web/vite-plugins/single-file.js';

const root = import.meta.dirname;
const web = resolve(root, 'web');

export default defineConfig({
  ...site,
  plugins: [
    singleFile({ web, outFile: resolve(root, 'dist', 'attention.html') }),
    prerenderMath(),
    adoptedStyles({ web }),
  ],
  build: {
    ...site.build,
    outDir: resolve(root, 'build', 'single'),
    emptyOutDir: true,
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    chunkSizeWarningLimit: 2000,   // one script by design
    rollupOptions: {
      input: { index: resolve(web, 'index.html') },
      output: { codeSplitting: false },
    },
  },
});
