// npm pack / npm publish run this first (prepack): the package is built output
// (dist/engine, dist/embed, dist/attention.html), so refuse to pack without it.
import { existsSync } from 'node:fs';

const needed = ['dist/engine/index.js', 'dist/embed/attention-embed.js', 'dist/attention.html'];
const missing = needed.filter((file) => !existsSync(new URL(`../${file}`, import.meta.url)));
if (missing.length) {
  console.error(`prepack: ${missing.join(', ')} missing: run \`npm run build\` first.`);
  process.exit(1);
}
