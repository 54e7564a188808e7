// The work limits of the engine's synchronous functions: how much one call may
// compute before it answers, so that no call blocks the thread that makes it
// for long (a page's main thread freezes while a call runs).
//
// Work is counted in units of about one float multiply-add of the baseline
// build (0.3-0.5 ns on the x86-64 machine where the formulas were fitted; the
// SIMD build is faster on the attention paths at d >= 16). Each formula is
// fitted to the measured time of its function, so equal work is about equal
// time (within about 1.5x):
//
//   attention paths 'tiled', 'full', 'scalar'   n*m*(dk+dv+32)    (32: the softmax's exp per score)
//   attention (the trace)                       n*m*(dk+dv+64)    (four n x m matrices written)
//   attentionReference, path 'reference'        n*m*(2*(dk+dv)+64) (double accumulation)
//   multiHead     4*(n+m)*dModel^2 + n*m*(2*dModel+32*heads)
//   saturation    trials*dk*(24*(queries+keys) + queries*keys)   (24: one normal draw)
//   scores        dot, scaledDot n*m*ds; general n*m*dh + n*ds*dh;
//                 additive n*m*da*40 + (n*ds+m*dh)*da             (40: one tanh)
//   context       n*m*dh
//   softmax       rows*cols*40;  rowStats length*24;  softmaxJacobian length^2*16
//   positionalEncoding n*dModel*72 (a sin or cos);  randomNormal rows*cols*24
//
// A call may do at most WORK_LIMIT units (2^32: 1-2 s for the baseline
// build, less for SIMD), or LONG_RUNNING_WORK_LIMIT (2^37: about a minute)
// when it passes `longRunning: true`, which says
// the caller runs it where blocking is acceptable (a Web Worker, a benchmark,
// Node). Beyond that: a RangeError naming the arguments, with the formula and
// the values. The page's own calls stay under WORK_LIMIT (section 10's
// benchmark at n = 4096, d = 64: 2.7e9 units), except experiment 2 of section
// 2 at its largest settings, which runs in a worker with longRunning.

export const WORK_LIMIT = 2 ** 32;
export const LONG_RUNNING_WORK_LIMIT = 2 ** 37;

// Each function's work: the formula as shown in messages, and its value.
export const WORK = Object.freeze({
  attentionFast: { formula: 'n*m*(dk+dv+32)', of: ({ n, m, dk, dv }) => n * m * (dk + dv + 32) },
  attentionTrace: { formula: 'n*m*(dk+dv+64)', of: ({ n, m, dk, dv }) => n * m * (dk + dv + 64) },
  attentionReference: { formula: 'n*m*(2*(dk+dv)+64)', of: ({ n, m, dk, dv }) => n * m * (2 * (dk + dv) + 64) },
  multiHead: {
    formula: '4*(n+m)*dModel*dModel+n*m*(2*dModel+32*heads)',
    of: ({ n, m, dModel, heads }) => 4 * (n + m) * dModel * dModel + n * m * (2 * dModel + 32 * heads),
  },
  saturation: {
    formula: 'trials*dk*(24*(queries+keys)+queries*keys)',
    of: ({ trials, dk, queries, keys }) => trials * dk * (24 * (queries + keys) + queries * keys),
  },
  scoresDot: { formula: 'n*m*ds', of: ({ n, m, ds }) => n * m * ds },
  scoresGeneral: { formula: 'n*m*dh+n*ds*dh', of: ({ n, m, ds, dh }) => n * m * dh + n * ds * dh },
  scoresAdditive: {
    formula: 'n*m*da*40+(n*ds+m*dh)*da', of: ({ n, m, ds, dh, da }) => n * m * da * 40 + (n * ds + m * dh) * da,
  },
  context: { formula: 'n*m*dh', of: ({ n, m, dh }) => n * m * dh },
  softmax: { formula: 'rows*cols*40', of: ({ rows, cols }) => rows * cols * 40 },
  rowStats: { formula: 'length*24', of: ({ length }) => length * 24 },
  softmaxJacobian: { formula: 'length*length*16', of: ({ length }) => length * length * 16 },
  positionalEncoding: { formula: 'n*dModel*72', of: ({ n, dModel }) => n * dModel * 72 },
  randomNormal: { formula: 'rows*cols*24', of: ({ rows, cols }) => rows * cols * 24 },
  randomStream: { formula: 'count*48', of: ({ count }) => count * 48 },
  attentionBackwardFull: { formula: 'n*m*(3*dk+2*dv+64)', of: ({ n, m, dk, dv }) => n * m * (3 * dk + 2 * dv + 64) },
  attentionBackwardTiled: { formula: 'n*m*(4*dk+3*dv+96)', of: ({ n, m, dk, dv }) => n * m * (4 * dk + 3 * dv + 96) },
  attentionBackwardReference: {
    formula: 'n*m*(6*(dk+dv)+96)', of: ({ n, m, dk, dv }) => n * m * (6 * (dk + dv) + 96),
  },
  trainerStep: {
    formula: 'count*(batchSize*(3*(2*S+T)*dModel*dModel+3*T*(2*S+V)*dModel+T*(160*S*heads+64*V))+20*parameters)',
    of: ({ count, batchSize, S, T, V, dModel, heads, parameters }) =>
      count * (batchSize * (3 * (2 * S + T) * dModel * dModel + 3 * T * (2 * S + V) * dModel +
        T * (160 * S * heads + 64 * V)) + 20 * parameters),
  },
  trainerCreate: { formula: 'parameters*48', of: ({ parameters }) => parameters * 48 },
  trainerEvaluate: {
    formula: 'heldOut*((2*S+T)*dModel*dModel+T*(2*S+V)*dModel+T*(96*S*heads+32*V))',
    of: ({ heldOut, S, T, V, dModel, heads }) =>
      heldOut * ((2 * S + T) * dModel * dModel + T * (2 * S + V) * dModel + T * (96 * S * heads + 32 * V)),
  },
});

// The formula with each argument's value in place: 'n*m*(dk+dv+32)' -> '20000*20000*(1+1+32)'.
const substituted = (formula, values) => formula.replace(/[A-Za-z]+/g, (name) => String(values[name] ?? name));

// The work of one call: { formula, values (the formula with the values in place), work }.
export function workOf(kind, values) {
  const { formula, of } = WORK[kind];
  return { formula, values: substituted(formula, values), work: of(values) };
}

// RangeError if the work of one call, `WORK[kind]` of `values`, exceeds the
// limit (WORK_LIMIT, or LONG_RUNNING_WORK_LIMIT with `longRunning`).
export function checkWork(kind, values, longRunning = false) {
  const { formula, of } = WORK[kind];
  const work = of(values);
  const limit = longRunning ? LONG_RUNNING_WORK_LIMIT : WORK_LIMIT;
  if (work <= limit) return work;
  const hint = longRunning ? '' : `; pass longRunning: true (from a Web Worker) to allow up to ${LONG_RUNNING_WORK_LIMIT}`;
  throw new RangeError(`${formula}: expected at most ${limit} units of work in one call, ` +
    `got ${substituted(formula, values)} = ${work}${hint}`);
}
