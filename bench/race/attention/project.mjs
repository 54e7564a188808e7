// The project's contenders in the attention race: each wasm build (SIMD128 and
// baseline) through createTestingEngine (web/src/engine/testing.js: the public engine plus the 'reference' path), the two
// output-only paths and the full trace:
//   tiled   attentionOutput path 'tiled' (online softmax by blocks; never holds n x m)
//   full    attentionOutput path 'full' (the SIMD kernels through one n x m matrix)
//   trace   attention(): scores, scaled, masked, exponentials and weights (five n x m matrices)
//           and the output, all copied out to JavaScript
// and, SIMD build only, 'tiled' into the caller's array (attentionOutput's `out`:
// no result allocated per call; `into: true`). Every other contender, the
// peers included, returns a fresh array per call (onnxruntime-web 1.30 has
// pre-allocated outputs, but for CPU tensors it never copies the result into
// them: microsoft/onnxruntime#25786; tfjs tensors are immutable, dataSync()
// returns a fresh array).
// engines: { simd, baseline } (either may be missing).
// A contender: { name, role, build, path, into, label, alone, prepare(problem) -> call }.
const PATHS = {
  tiled: 'attentionOutput, path \'tiled\' (online softmax)',
  full: 'attentionOutput, path \'full\' (one n x m matrix)',
  trace: 'attention(), the full trace (5 n x m matrices + output)',
};
const INTO_LABEL = 'attentionOutput, path \'tiled\', into the caller\'s array (out: allocated once)';

// longRunning: a benchmark may run calls above the engine's default work limit (n = 16384).
const argsOf = (p) => ({ q: p.q, k: p.k, v: p.v, n: p.n, m: p.m, dk: p.d, dv: p.d, longRunning: true });

export function projectContenders(engines) {
  const contenders = [];
  for (const [build, engine] of Object.entries(engines)) {
    if (!engine) continue;
    for (const path of Object.keys(PATHS)) {
      contenders.push({
        name: `project-${build}-${path}`,
        role: 'project',
        build,
        path,
        label: `project ${build} build (simdWidth ${engine.simdWidth}): ${PATHS[path]}`,
        // The project alone at the largest n: the SIMD build's tiled path only.
        alone: build === 'simd' && path === 'tiled',
        prepare(problem) {
          // The arguments made once, as a user calling in a loop would (a spread per call costs ~2 us in Node 20).
          const args = path === 'trace' ? argsOf(problem) : { ...argsOf(problem), path };
          return path === 'trace' ? () => engine.attention(args).output : () => engine.attentionOutput(args);
        },
      });
    }
    if (build !== 'simd') continue;
    contenders.push({
      name: 'project-simd-tiled-into',
      role: 'project',
      build,
      path: 'tiled',
      into: true,
      label: `project ${build} build (simdWidth ${engine.simdWidth}): ${INTO_LABEL}`,
      prepare(problem) {
        const args = { ...argsOf(problem), path: 'tiled', out: new Float32Array(problem.n * problem.d) };
        return () => engine.attentionOutput(args);
      },
    });
  }
  return contenders;
}
