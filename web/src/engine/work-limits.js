// The work limits of the engine's synchronous functions: how much one call may
// compute before it answers, so that no call blocks the thread that makes it
// for long (a page's main thread freezes while a call runs).
//
// Work is counted in units of about one float multiply-add of the baseline
// build (0.35-0.45 ns on this machine). Each formula below counts its call's
// arithmetic, with the constants (32, 56, 24000, ...) set by measuring:
// scripts/fit-work.mjs times every formula against its call on many shapes
// in Node, both builds, and prints the ratio of the time to the time its
// units take at the baseline build's median pace. Its ratios, 2026-12-05
// (CPU time, load average 12-14 on 2 cores; runs differ by about 30%):
// baseline 0.3-2.2, each formula's median 0.5-1.6; SIMD 0.1-1.9 (faster where
// its kernels do the work). The highest: the trainer at dModel 1024 (2.1-2.2,
// products bound by memory), the full path at d = 1 (1.9). So a call the
// default limit allows blocks at most about 3.5 s here, most of them 1-2 s.
//
//   attentionOutput 'tiled' (and the test path 'scalar')  n*m*(dk+dv+32)   (32: the softmax's exp per score)
//   attentionOutput 'full'                       n*m*(dk+dv+64)    (n x m matrices written and read)
//   attention (the trace)                        n*m*(dk+dv+64)    (the five n x m matrices written)
//   attentionReference, path 'reference'         n*m*(3*(dk+dv)+64) (double accumulation)
//   multiHead     4*(n+m)*dModel^2 + n*m*(2*dModel+64*heads)
//   saturation    trials*(dk*(24*(queries+keys)+queries*keys)+128*queries*keys)
//                 (24: one normal draw; 128: the softmax and statistics of one score)
//   scores        dot, scaledDot n*m*(ds+16); general n*m*(dh+16) + n*ds*dh;
//                 additive n*m*da*56 + (n*ds+m*dh)*da             (56: one tanh; 16: a score written)
//   context       n*m*(2*dh+4)
//   softmax       rows*cols*56;  rowStats length*24;  softmaxJacobian length^2*16
//   positionalEncoding n*dModel*72 (a sin or cos);  randomNormal rows*cols*24
//   trainer       from the core's counts, not a formula here (below): stepWork,
//                 evaluateWork, createWork of attn::Trainer::footprint
//
// A call may do at most WORK_LIMIT units (2^32: 1.5-1.9 s at the baseline
// build's median pace), or LONG_RUNNING_WORK_LIMIT (2^37: about a minute)
// when it passes `longRunning: true`, which says the caller runs it where
// blocking is acceptable (a Web Worker, a benchmark, Node). Beyond that: a
// RangeError naming the arguments, with the formula and the values. The
// page's own calls stay under WORK_LIMIT (section 10's benchmark at n = 4096,
// d = 64: 2.7e9 units), except experiment 2 of section 2 at its largest
// settings, which runs in a worker with longRunning.

export const WORK_LIMIT = 2 ** 32;
export const LONG_RUNNING_WORK_LIMIT = 2 ** 37;

// A formula of sizes as the function that computes it from { name: value }:
// + * / over names, integers and parentheses (all the formulas need), * and /
// before +, left to right. Parsed once, when this module loads; a name without
// a value throws.
export function compileFormula(formula) {
  const tokens = formula.match(/\d+|[A-Za-z]+|[+*/()]/g) ?? [];
  const fail = (what) => { throw new Error(`work formula ${formula}: ${what}`); };
  if (tokens.join('') !== formula) fail('expected only + * / ( ), names and integers');
  let at = 0;
  // next (operator next)*, each operator's function from `operators`.
  const chain = (next, operators) => {
    let f = next();
    while (tokens[at] in operators) {
      const combine = operators[tokens[at]];
      at += 1;
      const [a, b] = [f, next()];
      f = (v) => combine(a(v), b(v));
    }
    return f;
  };
  const factor = () => {
    const token = tokens[at++];
    if (token === undefined) fail('unexpected end');
    if (token === '(') {
      const inner = sum();
      if (tokens[at++] !== ')') fail('expected )');
      return inner;
    }
    if (/^\d+$/.test(token)) { const value = Number(token); return () => value; }
    if (/^[A-Za-z]+$/.test(token)) {
      return (v) => { const value = v[token]; return value === undefined ? fail(`no value for ${token}`) : value; };
    }
    return fail(`unexpected ${token}`);
  };
  const product = () => chain(factor, { '*': (a, b) => a * b, '/': (a, b) => a / b });
  const sum = () => chain(product, { '+': (a, b) => a + b });
  const of = sum();
  if (at !== tokens.length) fail(`unexpected ${tokens[at]}`);
  return of;
}

// Each function's work: { formula (as messages show it), of(values) }.
const FORMULAS = {
  attentionFast: 'n*m*(dk+dv+32)',              // the paths 'tiled', 'full', 'scalar'; 32: the softmax's exp per score
  attentionTrace: 'n*m*(dk+dv+64)',             // attention(): five n x m matrices written
  attentionReference: 'n*m*(3*(dk+dv)+64)',     // attentionReference, path 'reference': double accumulation
  multiHead: '4*(n+m)*dModel*dModel+n*m*(2*dModel+64*heads)',
  saturation: 'trials*(dk*(24*(queries+keys)+queries*keys)+128*queries*keys)',  // 24: one normal draw; 128: a score's softmax and statistics
  scoresDot: 'n*m*(ds+16)',                     // kinds dot and scaledDot; 16: a score written
  scoresGeneral: 'n*m*(dh+16)+n*ds*dh',
  scoresAdditive: 'n*m*da*56+(n*ds+m*dh)*da',   // 56: one tanh
  context: 'n*m*(2*dh+4)',
  softmax: 'rows*cols*56',
  rowStats: 'length*24',
  softmaxJacobian: 'length*length*16',
  positionalEncoding: 'n*dModel*72',            // 72: a sin or a cos
  randomNormal: 'rows*cols*24',
  randomStream: 'count*48',
  attentionBackwardFull: 'n*m*(3*dk+2*dv+64)',
  attentionBackwardTiled: 'n*m*(4*dk+3*dv+96)',
  attentionBackwardReference: 'n*m*(6*(dk+dv)+96)',
  // The trainer's calls, from the core's counts for its model (attn::Trainer::footprint, in these units; the
  // bindings' trainerFootprint): stepWork (one step), evaluateWork (one evaluation of the heldOut examples:
  // each one's forward pass and, for the engine's models, its greedy decoding), createWork (making it).
  // The calls on one example are bounded by an example's share of an evaluation (evaluateWork/heldOut):
  trainerStep: 'count*stepWork',
  trainerEvaluate: 'examples*evaluateWork/heldOut',   // the first `examples` (default: all heldOut)
  trainerCreate: 'createWork',
  trainerProbe: 'evaluateWork/heldOut',                // one example read (teacher forcing)
  trainerAlignment: 'examples*evaluateWork/heldOut',  // `examples` held-out sentences read (teacher forcing)
  trainerTranslate: '2*evaluateWork/heldOut',          // the output generated, then read
  trainerGenerate: 'evaluateWork/heldOut',             // one example decoded with the cache
  trainerGenerateRecomputing: '(T+1)*evaluateWork/heldOut',  // cache false: each of up to T+1 steps reads the prefix again
  // headScores() reads `examples` (at most 64) held-out sequences forward only, less than a step does with
  // batchSize of them (forward and backward):
  trainerHeadScores: 'examples*stepWork/batchSize',
};
export const WORK = Object.freeze(Object.fromEntries(Object.entries(FORMULAS)
  .map(([kind, formula]) => [kind, Object.freeze({ formula, of: compileFormula(formula) })])));

// The formula with each argument's value in place: 'n*m*(dk+dv+32)' -> '20000*20000*(1+1+32)'.
const substituted = (formula, values) => formula.replace(/[A-Za-z]+/g, (name) => String(values[name] ?? name));

// The work of one call, in whole units (a formula with / may give a fraction).
const unitsOf = (kind, values) => Math.ceil(WORK[kind].of(values));

// The work of one call: { formula, values (the formula with the values in place), work }.
export function workOf(kind, values) {
  const { formula } = WORK[kind];
  return { formula, values: substituted(formula, values), work: unitsOf(kind, values) };
}

// RangeError if the work of one call, `WORK[kind]` of `values`, exceeds the
// limit (WORK_LIMIT, or LONG_RUNNING_WORK_LIMIT with `longRunning`). `call`:
// the call the message starts with ('trainer.step(2000)'), when the formula
// alone does not name it.
export function checkWork(kind, values, longRunning = false, call = '') {
  const { formula } = WORK[kind];
  const work = unitsOf(kind, values);
  const limit = longRunning ? LONG_RUNNING_WORK_LIMIT : WORK_LIMIT;
  if (work <= limit) return work;
  const hint = longRunning ? '' : `; pass longRunning: true (from a Web Worker) to allow up to ${LONG_RUNNING_WORK_LIMIT}`;
  throw new RangeError(`${call ? `${call}: ` : ''}${formula}: expected at most ${limit} units of work in one call, ` +
    `got ${substituted(formula, values)} = ${work}${hint}`);
}
