// dist/engine/: the engine's public API as the npm package ships it (package.json
// "exports": "." and "./engine"). The engine has no run-time dependency, so its
// files are copied as they are: index.js and the modules it imports, index.d.ts,
// and both wasm builds, each as its attention module and its two learning
// modules, 'basic' and the whole engine (Emscripten ES modules and their .wasm, read by node:fs in Node and fetched
// next to the module in browsers). The declarations of the raw
// Emscripten module come along (cpp/bindings/attention.d.ts -> attention-module.d.ts),
// since index.d.ts re-exports the result types declared there. The test entry
// (testing.js) stays out.
//   node scripts/package-engine.mjs [outDir=dist/engine]
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MODULE_STEMS } from '../web/src/engine/load-build.js';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'web', 'src', 'engine');
const out = resolve(root, process.argv[2] ?? join('dist', 'engine'));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'wasm'), { recursive: true });
// index.js and every module it imports, directly or not (relative imports of .js files).
const copied = new Set();
const copyModule = (file) => {
  if (copied.has(file)) return;
  copied.add(file);
  const text = readFileSync(join(src, file), 'utf8');
  copyFileSync(join(src, file), join(out, file));
  for (const [, imported] of text.matchAll(/\bfrom '\.\/([\w-]+\.js)'/g)) copyModule(imported);
};
copyModule('index.js');
if (copied.has('testing.js')) throw new Error('package-engine: index.js must not import the test entry testing.js');
const dts = readFileSync(join(src, 'index.d.ts'), 'utf8');
const bindingsPath = "'../../../cpp/bindings/attention.js'";
if (!dts.includes(bindingsPath)) throw new Error(`package-engine: index.d.ts no longer refers to ${bindingsPath}`);
writeFileSync(join(out, 'index.d.ts'), dts.replaceAll(bindingsPath, "'./attention-module.js'"));
copyFileSync(join(root, 'cpp', 'bindings', 'attention.d.ts'), join(out, 'attention-module.d.ts'));
for (const module of MODULE_STEMS) {
  for (const ext of ['mjs', 'wasm']) {
    const file = join(src, 'wasm', `${module}.${ext}`);
    if (!existsSync(file)) throw new Error(`package-engine: ${file} is missing; run scripts/build-wasm.sh first`);
    copyFileSync(file, join(out, 'wasm', `${module}.${ext}`));
  }
}
console.log(`   engine package files in ${out}`);
