// npm pack / npm publish run this first (prepack): the package is built output
// (dist/engine with every wasm module of scripts/package-engine.mjs, dist/embed,
// dist/attention.html), so refuse to pack without it.
import { existsSync } from 'node:fs';
import { MODULE_STEMS } from '../web/src/engine/load-build.js';

const needed = ['dist/engine/index.js', 'dist/embed/attention-embed.js', 'dist/attention.html',
  ...MODULE_STEMS.flatMap((stem) => [`dist/engine/wasm/${stem}.mjs`, `dist/engine/wasm/${stem}.wasm`])];
const missing = needed.filter((file) => !existsSync(new URL(`../${file}`, import.meta.url)));
if (missing.length) {
  console.error(`prepack: ${missing.join(', ')} missing: run \`npm run build\` first.`);
  process.exit(1);
}
