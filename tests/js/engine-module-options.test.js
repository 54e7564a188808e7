// The Module options between the engine and Emscripten's glue: the glue is
// linked to read only the options the engine passes
// (-sINCOMING_MODULE_JS_API in cpp/bindings/CMakeLists.txt), so an option that
// web/src/engine/load-build.js starts to pass without adding it there would be
// ignored without a word. Both lists must agree, and the built glue must read
// nothing else from the object it is given (but one option 3.1.6 always reads).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';

const source = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

// ['wasmBinary', 'locateFile'] from "-sINCOMING_MODULE_JS_API=['wasmBinary','locateFile']".
function linkedOptions() {
  const list = /-sINCOMING_MODULE_JS_API=\[([^\]]*)\]/.exec(source('cpp/bindings/CMakeLists.txt'));
  expect(list, 'cpp/bindings/CMakeLists.txt links the glue with -sINCOMING_MODULE_JS_API').not.toBeNull();
  return list[1].split(',').map((name) => name.trim().replace(/^'|'$/g, '')).sort();
}

// Every `moduleOptions.<name> =` of load-build.js.
function passedOptions() {
  const names = [...source('web/src/engine/load-build.js').matchAll(/moduleOptions\.(\w+)\s*=/g)].map((m) => m[1]);
  return [...new Set(names)].sort();
}

// The glue of module `stem`, instantiated from an options object that records
// every property read before the glue itself wrote it.
async function optionsReadBy(stem) {
  const { default: factory } = await import(`../../web/src/engine/wasm/${stem}.mjs`);
  const wasmBinary = readFileSync(new URL(`../../web/src/engine/wasm/${stem}.wasm`, import.meta.url));
  const written = new Set(), read = new Set();
  const options = new Proxy({ wasmBinary, locateFile: (path) => path }, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !written.has(key)) read.add(key);
      return Reflect.get(target, key, receiver);
    },
    set(target, key, value, receiver) {
      written.add(key);
      return Reflect.set(target, key, value, receiver);
    },
  });
  const module = await factory(options);
  expect(module.kernelFacts().lanes).toBeGreaterThan(0);  // it works from those two options alone
  read.delete('then');  // the ready promise asks whether the module is a thenable
  // Method lookups through Object.prototype (Embind asks Module.hasOwnProperty) are not options.
  return [...read].filter((name) => !(name in Object.prototype)).sort();
}

describe("the glue's Module options", () => {
  it('load-build.js passes exactly the options the glue is linked to read', () => {
    expect(passedOptions()).toEqual(linkedOptions());
  });

  for (const stem of ['attention-simd', 'attention-baseline', 'attention-learning-simd', 'attention-learning-baseline']) {
    it(`${stem}: the built glue reads no option but those`, async () => {
      // wasmBinary is read (so the probe sees reads); nothing outside the linked list is but
      // instantiateWasm, which Emscripten 3.1.6's glue reads whatever the list says.
      const read = await optionsReadBy(stem);
      expect(read).toContain('wasmBinary');
      expect(read.filter((name) => !linkedOptions().includes(name))).toEqual(['instantiateWasm']);
    });
  }
});
