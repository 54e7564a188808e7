// dist/ is the deployable site: it holds what a host serves and nothing else
// (no test page, no fixture, no build manifest, no source map), and every
// hashed asset in it is used by something it ships. Run last by `npm test`
// (scripts/test-e2e.sh), so that anything the tests leave behind fails here.
// Needs `npm run build`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const DIST = join(resolve(import.meta.dirname, '..', '..'), 'dist');
const HASHED = String.raw`[\w.-]+-[\w-]{8}\.(?:js|css|wasm)`;

// What a site needs, by path under dist/:
const EXPECTED = [
  /^index\.html$/,                                   // the walkthrough
  /^learns\.html$/,                                  // the second page, How attention learns
  new RegExp(`^assets/${HASHED}$`),                  //   and its lazy chunks, styles, the .wasm builds
  /^attention\.html$/,                               // the single file
  /^embed\/attention-embed\.js$/,                    // the embed script
  /^embed\/embed\.html$/,                            // the iframe route
  new RegExp(`^embed/assets/${HASHED}$`),            //   and their lazy chunks
  /^engine\/(index\.d\.ts|attention-module\.d\.ts)$/,           // the npm package's engine: declarations,
  /^engine\/(?!testing\.js$)[\w-]+\.js$/,                          //   index.js and the modules it imports (not the test entry)
  /^engine\/wasm\/attention-(backward-|learning-)?(simd|baseline)\.(mjs|wasm)$/,  // the attention and the two learning modules
];

const files = existsSync(DIST) ? readdirSync(DIST, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name).slice(DIST.length + 1)).sort() : [];

test('dist/ holds only what the site, the widgets and the package need', () => {
  assert.ok(files.length > 0, 'dist/ is missing: run `npm run build` first');
  assert.deepEqual(files.filter((f) => !EXPECTED.some((re) => re.test(f))), [], 'unexpected files in dist/');
  for (const needed of ['index.html', 'learns.html', 'attention.html', 'embed/attention-embed.js', 'embed/embed.html', 'engine/index.js']) {
    assert.ok(files.includes(needed), needed);
  }
});

test('every hashed asset is referenced by a page or a script of its own build', () => {
  for (const folder of ['assets', 'embed/assets']) {
    const entries = folder === 'assets' ? ['index.html', 'learns.html'] : ['embed/attention-embed.js', 'embed/embed.html'];
    const inFolder = files.filter((f) => f.startsWith(`${folder}/`) && !f.slice(folder.length + 1).includes('/'));
    const texts = [...entries, ...inFolder.filter((f) => /\.(js|css)$/.test(f))]
      .map((f) => ({ f, text: readFileSync(join(DIST, f), 'utf8') }));
    const unused = inFolder.filter((f) => !texts.some(({ f: other, text }) => other !== f && text.includes(basename(f))));
    assert.deepEqual(unused, [], `${folder}/: files nothing refers to`);
  }
});
