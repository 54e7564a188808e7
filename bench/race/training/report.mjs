// The learning part of npm run bench's report (scripts/bench-report.mjs calls
// printLearningReport): the training race, the backward pass in wasm and
// natively, and the targets of issue 8; the transformer race and the speed
// targets of issue 22; each met or not met from these figures. A report, not
// a test: a missed target is printed, never fatal.
//   training:    build/bench/training-node.json (./node.mjs)
//   transformer: build/bench/transformer-node.json (./node.mjs)
//   backward:    build/bench/backward-node.json (./node.mjs)
//   native:      build/bench/backward-native.json (bench/native/learning_bench.cpp)
import { bestPerRound, pairedRatio } from '../harness.mjs';

const fmtX = (x) => (x === undefined || Number.isNaN(x) ? '-' : `${x.toFixed(2)}x`);
const fmtLoad = (load) => (load?.length ? load.map((x) => x.toFixed(2)).join(' ') : '?');
const MiB = 1024 * 1024;
const SHORT = { 'project-simd': 'project SIMD', 'project-baseline': 'project baseline', 'project-native': 'project native', 'project-native-march': 'native, this CPU',
  tfjs: 'tfjs', 'tfjs-plain': 'tfjs, plain form' };

// How many times more steps per second the project's SIMD build makes than tfjs, paired by round.
export function trainingLead(task) {
  const project = task.contenders.find((c) => c.name === 'project-simd' && c.roundMs);
  const peer = task.contenders.find((c) => c.role === 'peer' && c.roundMs);
  return project && peer ? pairedRatio(peer, project) : undefined;
}

function cell(c) {
  if (!c) return '';
  if (c.error) return 'FAILED';
  if (c.ok === false) return 'WRONG';
  return `${c.msPerStep.toFixed(3)} ms (${(1000 / c.msPerStep).toFixed(0)}/s)`;
}

function printTraining(run) {
  const tasks = run.tasks.map((t) => t.task);
  const names = [...new Set(run.tasks.flatMap((t) => t.contenders.map((c) => c.name)))];
  const row = (label, cells) => `${label.padEnd(34)}${cells.map((c) => String(c).padStart(26)).join('')}`;
  const first = run.tasks[0];
  const lines = ['', `== training race, wasm in ${run.environment}, each contender in a worker thread`,
    `   load average (1, 5, 15 min) before ${fmtLoad(run.loadAverageBefore)}, after ${fmtLoad(run.loadAverageAfter)}; ` +
    `${run.rounds} rounds of ${run.samplesPerRound} samples of ${run.stepsPerCall} steps, medians of per-round medians`,
    `   model: default options (d_model ${first.dModel}, ${first.heads} heads, batch ${first.batchSize}, AdamW lr ` +
    `${first.learningRate.toPrecision(2)}, weight decay ${first.weightDecay}), seed 42, the project's batches`, '',
    row('ms per step (steps per second)', tasks)];
  for (const name of names) lines.push(row(SHORT[name] ?? name, run.tasks.map((t) => cell(t.contenders.find((c) => c.name === name)))));
  lines.push(row('project SIMD lead over tfjs', run.tasks.map((t) => fmtX(trainingLead(t)))));
  lines.push('', 'What was measured:');
  for (const c of first.contenders) lines.push(`  ${(SHORT[c.name] ?? c.name).padEnd(32)}${c.label ?? c.error ?? ''}`);
  lines.push(`  correctness: each contender trains ${run.checkSteps} steps from the project's initial parameters on its batches ` +
    `first; every loss within ${run.tolerance.absolute} + ${run.tolerance.relative} |loss| of the project's (largest ` +
    `differences: ${run.tasks.map((t) => `${t.task} ${t.contenders.map((c) => (c.maxError ?? NaN).toExponential(0)).join('/')}`).join(', ')})`);
  console.log(lines.join('\n'));
}

function printBackward(wasm, native) {
  const lines = ['', '== attention backward, d = 64, one thread'];
  if (native) {
    lines.push(`   native (build/bench/native/learning_bench, SIMD width ${native.simdWidth}), load average before ` +
      `${fmtLoad(native.loadAverageBefore)}; median of 3 interleaved rounds`);
    lines.push(`${'n'.padStart(6)} | ${'full fwd ms'.padStart(11)} ${'full bwd ms'.padStart(11)} ${'bwd/fwd'.padStart(7)} | ` +
      `${'tiled fwd'.padStart(9)} ${'tiled bwd'.padStart(9)} ${'bwd/fwd'.padStart(7)} | ${'full MiB'.padStart(8)} ${'tiled MiB'.padStart(9)} ${'tiled/full'.padStart(10)}`);
    for (const r of native.rows) {
      lines.push(`${String(r.n).padStart(6)} | ${r.fullForwardMs.toFixed(2).padStart(11)} ${r.fullBackwardMs.toFixed(2).padStart(11)} ` +
        `${(r.fullBackwardMs / r.fullForwardMs).toFixed(2).padStart(7)} | ${r.tiledForwardMs.toFixed(2).padStart(9)} ` +
        `${r.tiledBackwardMs.toFixed(2).padStart(9)} ${(r.tiledBackwardMs / r.tiledForwardMs).toFixed(2).padStart(7)} | ` +
        `${(r.fullPeakBytes / MiB).toFixed(1).padStart(8)} ${(r.tiledPeakBytes / MiB).toFixed(1).padStart(9)} ` +
        `${(r.tiledPeakBytes / r.fullPeakBytes).toFixed(3).padStart(10)}`);
    }
    lines.push('   (peak heap of the call; the tiled figure counts its forward and backward together; the n x d inputs are not counted)');
    for (const s of native.trainingSteps ?? []) {
      lines.push(`   native training step, ${s.task}: ${s.usPerStep.toFixed(1)} us (${(1e6 / s.usPerStep).toFixed(0)} steps/s), ` +
        `heap allocated by 1000 warm steps ${s.heapBytesPer1000Steps} bytes`);
    }
  }
  if (wasm) {
    const time = (name) => wasm.timings.find((t) => t.name === name)?.medianMs;
    const { tiled, full } = wasm.memory;
    lines.push(`   wasm in ${wasm.environment}, SIMD build, n = m = ${wasm.n}: load average before ${fmtLoad(wasm.loadAverageBefore)}; ` +
      `${wasm.rounds} interleaved rounds`);
    lines.push(`   attentionOutput tiled ${time('forward-tiled').toFixed(0)} ms, full ${time('forward-full').toFixed(0)} ms; ` +
      `attentionBackward tiled ${time('backward-tiled').toFixed(0)} ms (its forward with the row log-sum-exp, then the backward), ` +
      `full ${time('backward-full').toFixed(0)} ms (P recomputed)`);
    lines.push(`   backward / forward, as natively (paired by round): tiled ${fmtX(wasm.backwardOverForward.tiled)} ` +
      `(the call over the tiled forward, minus 1), full ${fmtX(wasm.backwardOverForward.full)}`);
    lines.push(`   wasm memory around one call in a fresh module: tiled ${tiled.beforeMiB.toFixed(0)} -> ${tiled.afterMiB.toFixed(0)} MiB, ` +
      `full ${full.beforeMiB.toFixed(0)} -> ${full.afterMiB.toFixed(0)} MiB; tiled / full peak at most ` +
      `${wasm.memory.tiledOverFullAtMost.toFixed(3)} (tiled's size after over full's growth)`);
    lines.push(`   tiled vs full gradients: ${wasm.tiledVsFull.failures} of ${wasm.tiledVsFull.elements} elements out of tolerance`);
  }
  console.log(lines.join('\n'));
}

// A target: [what, measured, verdict].
function target(what, figures, meets, format) {
  const known = figures.filter(([, x]) => x !== undefined && !Number.isNaN(x));
  const verdict = figures.length === 0 ? 'not run' : known.length === 0 ? 'not measured' : known.every(([, x]) => meets(x)) ? 'met' : 'NOT MET';
  return [what, known.map(([where, x]) => `${format(x)} ${where}`).join(', ') || '-', verdict];
}

function printTargets({ training, backward, native }) {
  const at4096 = native?.rows.find((r) => r.n === 4096);
  const rows = [
    target('training: wasm SIMD steps/s >= 5x tfjs (worker, Node)', training ? training.tasks.map((t) => [t.task, trainingLead(t)]) : [],
      (x) => x >= 5, fmtX),
    target('tiled backward < 1/4 of the full backward\'s peak memory, n = 4096', [
      ...(at4096 ? [['native', at4096.tiledPeakBytes / at4096.fullPeakBytes]] : []),
      ...(backward ? [['wasm (upper bound)', backward.memory.tiledOverFullAtMost]] : []),
    ], (x) => x < 0.25, (x) => x.toFixed(3)),
    target('tiled backward <= 3.5x its forward in time, n = 4096', [
      ...(at4096 ? [['native', at4096.tiledBackwardMs / at4096.tiledForwardMs]] : []),
      ...(backward ? [['wasm', backward.backwardOverForward.tiled]] : []),
    ], (x) => x <= 3.5, fmtX),
  ];
  // The full path is not the target's (the tiled backward is): its ratio is shown, not judged.
  const full = [...(at4096 ? [['native', at4096.fullBackwardMs / at4096.fullForwardMs]] : []),
    ...(backward ? [['wasm', backward.backwardOverForward.full]] : [])];
  if (full.length) rows.push(['(full backward / full forward, n = 4096)', full.map(([where, x]) => `${fmtX(x)} ${where}`).join(', '), 'shown']);
  const heads = ['target (issue 8)', 'measured', 'verdict'];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), heads[i].length));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(['', '== Targets of issue 8, from the figures above (a report: the command does not fail on a missed target)',
    line(heads), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

// ---- the transformer race (issue 22) ----------------------------------------------

// A timed contender's round medians per step (its calls differ in steps: ./transformer-workload.mjs CALL_MS).
const perStep = (c) => ({ ...c, roundMs: c.roundMs.map((ms) => ms / c.stepsPerCall) });
const timedEntry = (problem, name) => {
  const c = problem?.contenders.find((x) => x.name === name && x.roundMs?.length);
  return c && perStep(c);
};
// How many times faster timing b is than timing a (a ms / b ms), paired by round: { median, low, high }.
function pairedSpread(a, b) {
  if (!a || !b) return undefined;
  const perRound = a.roundMs.slice(0, b.roundMs.length).map((ms, r) => ms / b.roundMs[r]);
  return { median: pairedRatio(a, b), low: Math.min(...perRound), high: Math.max(...perRound) };
}
// How many times less CPU time per step entry b takes than entry a: { median } (one figure: the CPU
// time is summed over every timed call, not per round), undefined when either has none.
function cpuRatio(a, b) {
  return a?.cpuMsPerStep > 0 && b?.cpuMsPerStep > 0 ? { median: a.cpuMsPerStep / b.cpuMsPerStep } : undefined;
}
// The project's SIMD build over the faster tfjs form (of each round for the wall time; by CPU time, the
// form with less), and natively over the SIMD build: wall time paired by round, and CPU time of the
// contender's thread (what the load of a shared machine changes least).
export const transformerLeads = (run) => {
  const raced = run?.problems.find((p) => p.race);
  const peers = raced?.contenders.filter((c) => c.role === 'peer' && c.roundMs?.length).map(perStep) ?? [];
  const bestPeer = raced && bestPerRound(peers);
  const leanestPeer = peers.filter((c) => c.cpuMsPerStep > 0).sort((a, b) => a.cpuMsPerStep - b.cpuMsPerStep)[0];
  const simd = timedEntry(raced, 'project-simd');
  const native = timedEntry(raced, 'project-native');
  const march = timedEntry(raced, 'project-native-march');
  return { overTfjs: pairedSpread(bestPeer, simd), nativeOverWasm: pairedSpread(simd, native),
    overTfjsCpu: cpuRatio(leanestPeer, simd), nativeOverWasmCpu: cpuRatio(simd, native),
    marchOverWasm: pairedSpread(simd, march), marchOverWasmCpu: cpuRatio(simd, march) };
};
const fmtSpread = (x) => (!x ? '-' : x.low === undefined ? fmtX(x.median)
  : `${fmtX(x.median)} (rounds ${x.low.toFixed(2)}-${x.high.toFixed(2)})`);

function printTransformer(run) {
  const raced = run.problems.find((p) => p.race);
  const checked = run.problems.filter((p) => !p.race);
  const o = raced.options;
  const names = [...new Set(run.problems.flatMap((p) => p.contenders.map((c) => c.name)))];
  const errorOf = (problem, name) => {
    const c = problem.contenders.find((x) => x.name === name);
    if (!c) return '';
    if (c.error) return 'FAILED';
    return c.ok ? (c.maxError ?? NaN).toExponential(1) : 'WRONG';
  };
  const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(20) : String(c).padStart(22))).join('');
  const lines = ['', `== transformer race (issue 22), wasm in ${run.environment}, each contender in a worker thread, ` +
    'native in a child process (bench/native/trainer_steps), interleaved call by call',
    `   load average (1, 5, 15 min) before ${fmtLoad(run.loadAverageBefore)}, after ${fmtLoad(run.loadAverageAfter)}; ` +
    `${run.rounds} rounds of ${run.samplesPerRound} samples of one call of about ${run.callMs} ms (its steps: below), ` +
    'medians of per-round medians',
    `   model: transformer, ${o.layers} layers, d_model ${o.dModel}, ${o.heads} heads, MLP ${raced.mlp}, batch ${raced.batchSize}, ` +
    `task ${raced.task} of ${raced.S} source and ${raced.T - 1} target words (decoder T = ${raced.T}: BOS / EOS), ` +
    `${raced.parameterCount} parameters; AdamW lr ${o.learningRate.toPrecision(2)}, weight decay ${+o.weightDecay.toPrecision(6)} ` +
    'on the matrices, gradients clipped to global norm 1; seed 42, the project\'s batches', '',
    row(['', 'steps per call', 'ms per step', 'steps per second', 'CPU ms per step', `loss error, ${raced.task}`,
      ...checked.map((p) => `loss error, ${p.task}`)])];
  for (const name of names) {
    const c = raced.contenders.find((x) => x.name === name);
    const timed = c?.roundMs?.length;
    lines.push(row([SHORT[name] ?? name, timed ? c.stepsPerCall : '', timed ? c.msPerStep.toFixed(2) : cell(c) || '-',
      timed ? (1000 / c.msPerStep).toFixed(1) : '', timed && c.cpuMsPerStep ? c.cpuMsPerStep.toFixed(2) : '-',
      errorOf(raced, name), ...checked.map((p) => errorOf(p, name))]));
  }
  const { overTfjs, nativeOverWasm, overTfjsCpu, nativeOverWasmCpu, marchOverWasm, marchOverWasmCpu } = transformerLeads(run);
  lines.push('', `project SIMD over tfjs (its faster form):  wall ${fmtSpread(overTfjs)}, CPU ${fmtSpread(overTfjsCpu)}`,
    `project native over project SIMD:          wall ${fmtSpread(nativeOverWasm)}, CPU ${fmtSpread(nativeOverWasmCpu)}`,
    ...(marchOverWasm ? [`  built for this machine (-march=native):  wall ${fmtSpread(marchOverWasm)}, CPU ${fmtSpread(marchOverWasmCpu)}`] : []),
    '(wall: ratios paired by round, the median and the lowest and highest round; CPU: the CPU time of each contender\'s',
    ' thread summed over its timed calls, /proc/thread-self/schedstat in the workers, CLOCK_THREAD_CPUTIME_ID natively)',
    '', 'What was measured:');
  for (const c of raced.contenders) lines.push(`  ${(SHORT[c.name] ?? c.name).padEnd(20)}${c.label ?? c.error ?? ''}`);
  lines.push(`  correctness: each contender trains ${run.checkSteps} steps from the project's initial parameters on its batches ` +
    `first (${raced.task}, and ${checked.map((p) => `${p.task}, whose padding masks and uncounted positions it exercises`).join('; ')}); ` +
    `every loss within ${run.tolerance.absolute} + ${run.tolerance.relative} |loss| of the project's SIMD build, else no figure`);
  console.log(lines.join('\n'));
}

function printTransformerTargets(run) {
  const { overTfjs, nativeOverWasm, overTfjsCpu, nativeOverWasmCpu, marchOverWasm, marchOverWasmCpu } = transformerLeads(run);
  // A lead target: met when the median of the paired per-round ratios (or the CPU ratio) reaches it.
  const lead = (what, x, at) => [what, fmtSpread(x), x ? (x.median >= at ? 'met' : 'NOT MET') : 'not measured'];
  const rows = [
    lead('transformer step: wasm SIMD >= 3x tfjs on its wasm backend (Node, interleaved), wall time', overTfjs, 3),
    lead('  the same, CPU time of each contender\'s thread', overTfjsCpu, 3),
    lead('transformer step: native >= 3x wasm SIMD (interleaved), wall time', nativeOverWasm, 3),
    lead('  the same, CPU time of each contender\'s thread', nativeOverWasmCpu, 3),
    ...(marchOverWasm ? [lead('  natively built for this machine (-march=native), wall time', marchOverWasm, 3),
      lead('  the same, CPU time of each contender\'s thread', marchOverWasmCpu, 3)] : []),
  ];
  const heads = ['target (issue 22, speed)', 'measured (wall: median of rounds, lowest-highest round)', 'verdict'];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), heads[i].length));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(['', '== Targets of issue 22 (speed), from the figures above (a report: the command does not fail on a missed target)',
    line(heads), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

export function printLearningReport({ training, transformer, backward, native }) {
  if (training) printTraining(training);
  if (backward || native) printBackward(backward, native);
  if (training || backward || native) printTargets({ training, backward, native });
  if (transformer) {
    printTransformer(transformer);
    printTransformerTargets(transformer);
  }
}
