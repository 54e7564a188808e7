// The project's contenders in the attention race: each wasm build (SIMD128 and
// baseline) through createTestingEngine (web/src/engine/testing.js: the public engine plus the 'reference' path), the two
// output-only paths and the full trace:
//   tiled   attentionOutput path 'tiled' (online softmax by blocks; never holds n x m)
//   full    attentionOutput path 'full' (the SIMD kernels through one n x m matrix)
//   trace   attention(): scores, scaled, masked and weights (four n x m matrices)
//           and the output, all copied out to JavaScript
// engines: { simd, baseline } (either may be missing).
// A contender: { name, role, build, path, label, alone, prepare(problem) -> call }.
const PATHS = {
  tiled: 'attentionOutput, path \'tiled\' (online softmax)',
  full: 'attentionOutput, path \'full\' (one n x m matrix)',
  trace: 'attention(), the full trace (4 n x m matrices + output)',
};

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
  }
  return contenders;
}
