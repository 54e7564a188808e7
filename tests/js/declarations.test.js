// The hand-written declarations describe what the engine really is: the members
// that web/src/engine/index.d.ts declares for the engine and its results (read
// with the TypeScript compiler) are the members of the real objects, and
// cpp/bindings/attention.d.ts declares exactly the functions the bindings
// register. (tests/types/usage.ts, type-checked by `tsc -p tests/types`, checks
// that the declarations are usable and strict.)
import { beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import * as engineModule from '../../web/src/engine/index.js';
import { loadBuild } from '../../web/src/engine/testing.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ENGINE_DTS = join(ROOT, 'web', 'src', 'engine', 'index.d.ts');
const BINDINGS_DTS = join(ROOT, 'cpp', 'bindings', 'attention.d.ts');

const program = ts.createProgram([ENGINE_DTS, BINDINGS_DTS], {
  strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [],
});
const checker = program.getTypeChecker();
const exportsOf = (file) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)));

// The property names a declaration file gives an exported interface or type.
function declaredMembers(file, name) {
  const symbol = exportsOf(file).find((s) => s.name === name);
  if (!symbol) throw new Error(`${file} exports no ${name}`);
  return checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)).map((p) => p.name).sort();
}
const keys = (object) => Object.keys(object).sort();

let engine;
beforeAll(async () => { engine = await engineModule.createAttention(); });

describe('web/src/engine/index.d.ts', () => {
  test('declares exactly the functions and constants index.js exports', () => {
    const declared = exportsOf(ENGINE_DTS)
      .filter((s) => s.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)).map((s) => s.name).sort();
    expect(declared).toEqual(keys(engineModule));
  });

  test('AttentionEngine has exactly the members of the engine object', () => {
    expect(declaredMembers(ENGINE_DTS, 'AttentionEngine')).toEqual(keys(engine));
  });

  test('each result type has exactly the members of what the engine returns', () => {
    const x = Float32Array.from({ length: 12 }, (_, i) => Math.sin(i));
    const w = Float32Array.from({ length: 4 }, (_, i) => (i === 0 || i === 3 ? 1 : 0));
    const trace = engine.attention({ q: x.subarray(0, 4), k: x.subarray(0, 6), v: x.subarray(0, 6), n: 2, m: 3, dk: 2, dv: 2, terms: true });
    const saturation = engine.saturation({ dk: 4, queries: 2, keys: 3, trials: 2 });
    expect(declaredMembers(ENGINE_DTS, 'AttentionTrace')).toEqual(keys(trace));
    expect(declaredMembers(ENGINE_DTS, 'MultiHeadResult'))
      .toEqual(keys(engine.multiHead({ x: x.subarray(0, 6), heads: 1, wq: w, wk: w, wv: w, wo: w })));
    expect(declaredMembers(ENGINE_DTS, 'SaturationResult')).toEqual(keys(saturation));
    expect(declaredMembers(ENGINE_DTS, 'RawScaled')).toEqual(keys(saturation.maxWeight));
    expect(declaredMembers(ENGINE_DTS, 'RowStats')).toEqual(keys(engine.rowStats(trace.weights.subarray(0, 3))));
  });

  test('the learning engine, the trainer and their results have exactly the declared members', async () => {
    const learning = await engineModule.createAttention({ learning: true });
    expect(declaredMembers(ENGINE_DTS, 'AttentionEngine')).toEqual(keys(learning));
    const x = new Float32Array([1, 0, 0, 1]);
    expect(declaredMembers(ENGINE_DTS, 'AttentionGradients'))
      .toEqual(keys(learning.attentionBackward({ q: x, k: x, v: x, gradOutput: x, n: 2, m: 2, dk: 2, dv: 2 })));
    const trainer = learning.createTrainer({ task: 'translate', seed: 1 });
    // A getter (disposed) is not an own enumerable key of every object: read the own property names.
    expect(declaredMembers(ENGINE_DTS, 'Trainer')).toEqual(Object.getOwnPropertyNames(trainer).sort());
    expect(declaredMembers(ENGINE_DTS, 'TrainerOptions')).toEqual(keys(trainer.options));
    expect(declaredMembers(ENGINE_DTS, 'Vocabulary')).toEqual(keys(trainer.vocabulary));
    expect(declaredMembers(ENGINE_DTS, 'WordGroup')).toEqual(keys(trainer.vocabulary.groups[0]));
    expect(declaredMembers(ENGINE_DTS, 'TrainingStep')).toEqual(keys(trainer.step(1)));
    expect(declaredMembers(ENGINE_DTS, 'Evaluation')).toEqual(keys(trainer.evaluate()));
    expect(declaredMembers(ENGINE_DTS, 'AlignmentReading')).toEqual(keys(trainer.probe()));
    expect(declaredMembers(ENGINE_DTS, 'AlignmentReading')).toEqual(keys(trainer.translate(
      'the young student reads an old book in the library')));
    trainer.dispose();
  });
});

describe('cpp/bindings/attention.d.ts', () => {
  test('AttentionModule declares exactly the functions attention_bindings.cpp registers, and each is one', async () => {
    const source = readFileSync(join(ROOT, 'cpp', 'bindings', 'attention_bindings.cpp'), 'utf8');
    const module = await loadBuild(engine.build);
    const registered = [...source.matchAll(/\bfunction\("(\w+)"/g)].map((m) => m[1]).sort();
    expect(registered.length).toBeGreaterThan(5);
    // Besides the registered functions, the Emscripten runtime members the boundary tests read.
    const runtime = ['HEAP8', 'count_emval_handles', 'stackSave'];
    expect(declaredMembers(BINDINGS_DTS, 'AttentionModule')).toEqual([...registered, ...runtime].sort());
    for (const name of runtime) expect(module[name], name).toBeDefined();
    for (const name of registered) expect(typeof module[name], name).toBe('function');
  });

  test('LearningModule declares exactly what backward_bindings.cpp and trainer_bindings.cpp add, and TrainerHandle the Trainer class', async () => {
    const module = await loadBuild(engine.build, { learning: true });
    const added = ['backward_bindings.cpp', 'trainer_bindings.cpp'].flatMap((file) => {
      const source = readFileSync(join(ROOT, 'cpp', 'bindings', file), 'utf8');
      // function("name", ...) and class_<T>("Name"), not a class's .function("method", ...)
      return [...source.matchAll(/(?<![.\w])function\("(\w+)"/g), ...source.matchAll(/\bclass_<\w+>\("(\w+)"/g)].map((m) => m[1]);
    });
    const inherited = declaredMembers(BINDINGS_DTS, 'AttentionModule');
    expect(declaredMembers(BINDINGS_DTS, 'LearningModule')).toEqual([...inherited, ...added].sort());
    for (const name of added) expect(typeof module[name], name).toBe('function');
    const methods = [...readFileSync(join(ROOT, 'cpp', 'bindings', 'trainer_bindings.cpp'), 'utf8')
      .matchAll(/\.function\("(\w+)", &TrainerBinding::/g)].map((m) => m[1]);
    expect(methods.length).toBeGreaterThan(5);
    // Besides the bound methods, Embind's delete() and isDeleted().
    expect(declaredMembers(BINDINGS_DTS, 'TrainerHandle')).toEqual([...methods, 'delete', 'isDeleted'].sort());
    const handle = new module.Trainer();
    for (const name of [...methods, 'delete', 'isDeleted']) expect(typeof handle[name], name).toBe('function');
    handle.delete();
  });
});
