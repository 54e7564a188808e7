// The npm package a blog author installs: `npm pack`, install the tarball into
// an empty folder without the registry (the package has no dependencies), and
// use it: the engine from the package name in Node computes article 001's
// worked example; the embed script, the iframe page, the single file and the
// type declarations are where the exports map says, and a strict TypeScript
// consumer type-checks against them. Needs `npm run build`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
let work;
let tarball;
let installed;

const npm = (args, cwd) => execFileSync('npm', args, {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
});

before(() => {
  assert.ok(existsSync(join(ROOT, 'dist', 'engine', 'index.js')), 'dist/engine is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'attn-pack-'));
  const [info] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT));
  tarball = join(work, info.filename);
  const consumer = join(work, 'blog');
  execFileSync('mkdir', ['-p', consumer]);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'blog', private: true, type: 'module' }));
  // --offline: must not need the registry. --no-save: leave package.json alone.
  npm(['install', tarball, '--offline', '--no-save', '--ignore-scripts', '--no-package-lock'], consumer);
  installed = join(consumer, 'node_modules', pkg.name);
  work = { dir: work, consumer };
});

after(() => {
  if (work?.dir) rmSync(work.dir, { recursive: true, force: true });
});

test('the package is publishable (not private) and has no dependencies', () => {
  assert.equal(pkg.private, undefined);
  assert.equal(pkg.dependencies, undefined);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(manifest.exports).sort(), ['.', './attention.html', './embed', './embed/*', './engine', './package.json']);
});

test('the tarball holds built output only', () => {
  const list = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  assert.ok(list.includes('package/dist/engine/index.js'));
  for (const stem of ['attention', 'attention-backward', 'attention-learning']) {
    for (const file of [`${stem}-simd.wasm`, `${stem}-baseline.mjs`]) assert.ok(list.includes(`package/dist/engine/wasm/${file}`), file);
  }
  assert.ok(list.includes('package/dist/embed/attention-embed.js'));
  assert.ok(list.includes('package/dist/attention.html'));
  const allowed = /^package\/(package\.json|README\.md|LICENSE|dist\/(engine|embed)\/.+|dist\/attention\.html)$/;
  assert.deepEqual(list.filter((f) => !allowed.test(f)), []);
  assert.ok(!list.some((f) => f.includes('/.vite/') || f.includes('/src/') || f.endsWith('.map')));
});

test('the engine, imported by package name in Node, computes the worked example (0.401, 1.203)', () => {
  const script = `
    import { createAttention } from '${pkg.name}';
    import { createAttention as viaEngine } from '${pkg.name}/engine';
    const engine = await createAttention();
    const r = engine.attention({ q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]),
      v: new Float32Array([2, 0, 0, 2, 1, 1]), n: 1, m: 3, dk: 2, dv: 2 });
    console.log(JSON.stringify({ simd: engine.simd, same: (await viaEngine()) === engine,
      weights: Array.from(r.weights, (x) => +x.toFixed(3)), output: Array.from(r.output, (x) => +x.toFixed(3)) }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: work.consumer, encoding: 'utf8' }));
  assert.deepEqual(out.weights, [0.401, 0.198, 0.401]);
  assert.deepEqual(out.output, [1.203, 0.797]);
  assert.equal(out.same, true);
  assert.equal(out.simd, true);
});

test("the learning modules load from the package: 'basic' trains model 'attention', true the engine's models", () => {
  const script = `
    import { createAttention } from '${pkg.name}';
    const basic = await createAttention({ learning: 'basic' }), full = await createAttention({ learning: true });
    const steps = [basic.createTrainer({ task: 'reverse', seed: 1 }), full.createTrainer({ task: 'reverse', seed: 1, model: 'rnn', dModel: 8 })]
      .map((t) => t.step(2).step);
    let refused = '';
    try { basic.createTrainer({ task: 'reverse', seed: 1, model: 'rnn' }); } catch (error) { refused = error.message; }
    console.log(JSON.stringify({ learning: [basic.learning, full.learning], steps, refused }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: work.consumer, encoding: 'utf8' }));
  assert.deepEqual(out.learning, ['basic', true]);
  assert.deepEqual(out.steps, [2, 2]);
  assert.match(out.refused, /^model: 'rnn' is a model of the engine, which this WebAssembly module does not have/);
});

test('the exports map resolves the embed script, its iframe page, the single file and the declarations', () => {
  const resolveFrom = (specifier) => execFileSync(process.execPath, ['--input-type=module', '-e',
    `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`], { cwd: work.consumer, encoding: 'utf8' }).trim();
  for (const [specifier, file] of [
    [`${pkg.name}/embed`, 'dist/embed/attention-embed.js'],
    [`${pkg.name}/embed/embed.html`, 'dist/embed/embed.html'],
    [`${pkg.name}/attention.html`, 'dist/attention.html'],
    [pkg.name, 'dist/engine/index.js'],
  ]) {
    const path = fileURLToPath(resolveFrom(specifier));
    assert.equal(path, join(installed, file), specifier);
    assert.ok(existsSync(path), `${specifier} -> ${path}`);
  }
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  for (const key of ['.', './engine']) {
    const types = join(installed, manifest.exports[key].types);
    assert.ok(existsSync(types), `${key} types: ${types}`);
  }
  assert.ok(existsSync(join(installed, manifest.types)));
});

test('a TypeScript consumer (Node ESM, strict) type-checks against the installed declarations', () => {
  // The package's own .d.ts files, found through the exports map's "types"
  // conditions, with no library check skipped: a relative import the package
  // does not ship, a declaration error or an `any` where a type is promised fails here.
  writeFileSync(join(work.consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'es2022', lib: ['es2022'], module: 'nodenext', moduleResolution: 'nodenext',
      strict: true, noEmit: true, skipLibCheck: false, types: [],
    },
    files: ['consumer.ts'],
  }));
  writeFileSync(join(work.consumer, 'consumer.ts'), `
    import { createAttention, type AttentionEngine } from '${pkg.name}';
    import { preferredBuild, type BuildName } from '${pkg.name}/engine';
    const engine: AttentionEngine = await createAttention({ build: 'simd' });
    const output: Float32Array = engine.attention({ q: new Float32Array([1, 0]), k: new Float32Array([1, 0, 0, 1, 1, 1]),
      v: new Float32Array([2, 0, 0, 2, 1, 1]), n: 1, m: 3, dk: 2, dv: 2 }).output;
    const width: number = engine.simdWidth;
    const build: BuildName = await preferredBuild();
    // @ts-expect-error the mask is 'causal', { validKeys } or a keep-matrix
    engine.attention({ q: output, k: output, v: output, n: 1, m: 1, dk: 2, dv: 2, mask: 'upper' });
    export const used = [output, width, build];
  `);
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', work.consumer], { encoding: 'utf8' });
  assert.equal(result.status, 0, `tsc in the consumer:\n${result.stdout}${result.stderr}`);
});
