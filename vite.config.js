// Vite builds the static site from web/ into dist/.
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { prerenderMath } from './web/vite-plugins/prerender-math.js';

const web = resolve(import.meta.dirname, 'web');

export default defineConfig({
  root: web,
  base: './',
  // TeX in formula modules (*.tex.js) and in the language files becomes MathML
  // at build time, so temml is never shipped to readers.
  plugins: [prerenderMath()],
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: {
        index: resolve(web, 'index.html'),
        minimal: resolve(web, 'minimal.html'),
      },
    },
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
