// dist/engine/: the engine's public API as the npm package ships it (package.json
// "exports": "." and "./engine"). The engine has no run-time dependency, so its
// files are copied as they are: index.js, index.d.ts, and both wasm builds
// (Emscripten ES modules and their .wasm, read by node:fs in Node and fetched
// next to the module in browsers). The declarations of the raw Emscripten
// module come along (cpp/bindings/attention.d.ts -> attention-module.d.ts).
//   node scripts/package-engine.mjs [outDir=dist/engine]
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'web', 'src', 'engine');
const out = resolve(root, process.argv[2] ?? join('dist', 'engine'));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'wasm'), { recursive: true });
copyFileSync(join(src, 'index.js'), join(out, 'index.js'));
const dts = readFileSync(join(src, 'index.d.ts'), 'utf8');
const bindingsImport = "import('../../../cpp/bindings/attention.js')";
if (!dts.includes(bindingsImport)) throw new Error(`package-engine: index.d.ts no longer imports ${bindingsImport}`);
writeFileSync(join(out, 'index.d.ts'), dts.replace(bindingsImport, "import('./attention-module.js')"));
copyFileSync(join(root, 'cpp', 'bindings', 'attention.d.ts'), join(out, 'attention-module.d.ts'));
for (const build of ['simd', 'baseline']) {
  for (const ext of ['mjs', 'wasm']) {
    const file = join(src, 'wasm', `attention-${build}.${ext}`);
    if (!existsSync(file)) throw new Error(`package-engine: ${file} is missing; run scripts/build-wasm.sh first`);
    copyFileSync(file, join(out, 'wasm', `attention-${build}.${ext}`));
  }
}
console.log(`   engine package files in ${out}`);
