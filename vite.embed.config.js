// The embed build: dist/embed/ holds everything a blog author serves.
//   attention-embed.js   the one script (<script type="module" src=".../attention-embed.js">)
//   embed.html           the iframe route (embed.html?section=...&lang=...)
//   assets/              the sections, their text and the .wasm, each fetched on demand
// Same plugins as the site (vite.config.js), but the sections' width media
// queries become container queries; the entry keeps a stable name.
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import site from './vite.config.js';
import { prerenderMath } from './web/vite-plugins/prerender-math.js';
import { adoptedStyles } from './web/vite-plugins/adopted-styles.js';
import { contentSecurityPolicy } from './web/vite-plugins/content-security-policy.js';

const web = resolve(import.meta.dirname, 'web');

export default defineConfig({
  ...site,
  // Widgets lay out by their own width (container queries), not the screen's.
  plugins: [prerenderMath(), adoptedStyles({ web, containerQueries: true }), contentSecurityPolicy()],
  build: {
    ...site.build,
    outDir: resolve(import.meta.dirname, 'dist', 'embed'),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        'attention-embed': resolve(web, 'src', 'embed', 'attention-embed.js'),
        embed: resolve(web, 'embed.html'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'attention-embed' ? '[name].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
