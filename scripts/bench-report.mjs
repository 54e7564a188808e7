// Prints one readable table from the native and the wasm benchmark results:
//   node scripts/bench-report.mjs build/bench/native.json build/bench/wasm.json
// native.json: build/native/bin/attn_bench --benchmark_format=json (Google Benchmark);
// wasm.json:   scripts/bench-wasm.mjs --json.
// Times are per call in ms, with GFLOP/s at 4 n^2 d flops per call. Ratios are
// speed-ups (how many times faster). A report, not a test: the targets are
// marked met or missed, the exit code is 0 either way.
import { readFileSync } from 'node:fs';

const [nativeFile, wasmFile] = process.argv.slice(2);
if (!nativeFile || !wasmFile) {
  console.error('usage: node scripts/bench-report.mjs NATIVE.json WASM.json');
  process.exit(2);
}
const native = JSON.parse(readFileSync(nativeFile, 'utf8'));
const wasm = JSON.parse(readFileSync(wasmFile, 'utf8'));
const d = wasm.d;
const sizes = wasm.sizes;

// ---- lookups -----------------------------------------------------------------

const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
// Google Benchmark rows by family and n, e.g. "TiledOutput/1024", "Reference/4096/iterations:1".
const nativeRows = new Map();
for (const b of native.benchmarks ?? []) {
  if (b.run_type && b.run_type !== 'iteration') continue;
  const [family, n] = b.name.split('/');
  nativeRows.set(`${family}/${n}`, { ms: b.real_time * toMs[b.time_unit ?? 'ns'], peakMiB: b.peak_MiB, flops: b['FLOP/s'] });
}
const nat = (family, n) => nativeRows.get(`${family}/${n}`);
const wa = (engine, variant, n) => wasm.rows.find((r) => r.engine === engine && r.variant === variant && r.n === n);

const flops = (n) => 4 * n * n * d;
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const cellTime = (ms, n) => (ms === undefined ? '—' : `${fmtMs(ms)} (${(flops(n) / ms / 1e6).toFixed(1)})`);
const ratio = (slow, fast) => (slow === undefined || fast === undefined ? '—' : `${(slow / fast).toFixed(1)}x`);
const pad = (text, width) => String(text).padStart(width);

const COL = 18;
const LABEL = 44;
const header = (title) => `${title.padEnd(LABEL)}${sizes.map((n) => pad(`n=${n}`, COL)).join('')}`;
const line = (label, cells, note = '') => `${label.padEnd(LABEL)}${cells.map((c) => pad(c, COL)).join('')}${note ? `   ${note}` : ''}`;
const rule = '-'.repeat(LABEL + COL * sizes.length);

const out = [];
out.push(`Attention benchmark: d = d_k = d_v = ${d}, n = m; ${wasm.node} for wasm and plain JS; ` +
  `native ${native.context?.num_cpus ?? '?'} CPUs @ ${native.context?.mhz_per_cpu ?? '?'} MHz`);
out.push('');
out.push('Time per call in ms (GFLOP/s, 4 n^2 d flops per call)');
out.push(rule);
out.push(header(''));
out.push(rule);
const timeRow = (label, get) => out.push(line(label, sizes.map((n) => cellTime(get(n)?.ms, n))));
timeRow('native  attn::reference (double, full trace)', (n) => nat('Reference', n));
timeRow('native  SIMD, full trace (attn::attention)', (n) => nat('SimdTrace', n));
timeRow('native  SIMD, tiled (attention_output)', (n) => nat('TiledOutput', n));
timeRow('native  Eigen expression', (n) => nat('EigenExpression', n));
timeRow('wasm SIMD      full (one n x m matrix)', (n) => wa('wasm-simd', 'full', n));
timeRow('wasm SIMD      tiled', (n) => wa('wasm-simd', 'tiled', n));
timeRow('wasm SIMD      full, scalar kernels', (n) => wa('wasm-simd', 'scalar', n));
timeRow('wasm SIMD      attn::reference', (n) => wa('wasm-simd', 'reference', n));
timeRow('wasm baseline  full', (n) => wa('wasm-baseline', 'full', n));
timeRow('wasm baseline  tiled', (n) => wa('wasm-baseline', 'tiled', n));
timeRow('wasm baseline  attn::reference', (n) => wa('wasm-baseline', 'reference', n));
timeRow('plain JS triple loop', (n) => wa('plain-js', 'triple-loop', n));
out.push(rule);

// The faster of the two SIMD paths of the wasm build.
const wasmBest = (n) => {
  const times = ['full', 'tiled'].map((v) => wa('wasm-simd', v, n)?.ms).filter((x) => x !== undefined);
  return times.length ? Math.min(...times) : undefined;
};
const ms = (row) => row?.ms;

out.push('');
out.push('Speed-ups (times faster)');
out.push(rule);
out.push(header(''));
out.push(rule);
const ratioRow = (label, slow, fast, note) => out.push(line(label, sizes.map((n) => ratio(slow(n), fast(n))), note));
ratioRow('wasm SIMD (best path) vs plain JS', (n) => ms(wa('plain-js', 'triple-loop', n)), wasmBest, 'target >= 20x at n=1024');
ratioRow('wasm SIMD full vs attn::reference, same build', (n) => ms(wa('wasm-simd', 'reference', n)),
  (n) => ms(wa('wasm-simd', 'full', n)), 'target >= 3x at n=1024');
ratioRow('wasm SIMD full vs scalar kernels, same build', (n) => ms(wa('wasm-simd', 'scalar', n)),
  (n) => ms(wa('wasm-simd', 'full', n)), 'target >= 3x at n=1024');
ratioRow('wasm SIMD vs wasm baseline (full path)', (n) => ms(wa('wasm-baseline', 'full', n)), (n) => ms(wa('wasm-simd', 'full', n)));
ratioRow('native SIMD trace vs native attn::reference', (n) => ms(nat('Reference', n)), (n) => ms(nat('SimdTrace', n)));
ratioRow('native tiled vs wasm SIMD tiled', (n) => ms(wa('wasm-simd', 'tiled', n)), (n) => ms(nat('TiledOutput', n)));
ratioRow('native SIMD trace vs wasm SIMD full', (n) => ms(wa('wasm-simd', 'full', n)), (n) => ms(nat('SimdTrace', n)));
ratioRow('native Eigen vs wasm SIMD (best path)', wasmBest, (n) => ms(nat('EigenExpression', n)));
out.push(rule);

out.push('');
out.push('Peak extra heap per call, native (MiB; counting operator new)');
out.push(rule);
out.push(header(''));
out.push(rule);
const peakRow = (label, family) => out.push(line(label, sizes.map((n) => {
  const peak = nat(family, n)?.peakMiB;
  return peak === undefined ? '—' : peak.toFixed(2);
})));
peakRow('full trace (attn::attention)', 'SimdTrace');
peakRow('tiled (attention_output)', 'TiledOutput');
out.push(line('tiled / full', sizes.map((n) => {
  const full = nat('SimdTrace', n)?.peakMiB, tiled = nat('TiledOutput', n)?.peakMiB;
  return full && tiled !== undefined ? (tiled / full).toFixed(4) : '—';
}), 'target < 0.25 at n=4096'));
out.push(rule);

const kernels = [['MatmulAbt', 'S = Q K^T'], ['SoftmaxRows', 'softmax rows'], ['MatmulAb', 'O = P V']];
if (kernels.some(([k]) => nat(`Simd${k}`, 1024))) {
  out.push('');
  out.push('Native kernels at n = m = 1024, d = 64 (ms): scalar, SIMD, speed-up');
  for (const [k, what] of kernels) {
    const s = ms(nat(`Scalar${k}`, 1024)), v = ms(nat(`Simd${k}`, 1024));
    out.push(`  ${what.padEnd(16)} ${pad(s === undefined ? '—' : fmtMs(s), 9)} ${pad(v === undefined ? '—' : fmtMs(v), 9)} ${pad(ratio(s, v), 8)}`);
  }
}

// ---- targets -------------------------------------------------------------------

const verdict = (ok) => (ok === undefined ? 'not measured' : ok ? 'met' : 'MISSED');
const at = (n, f) => (sizes.includes(n) ? f(n) : undefined);
const jsSpeedup = at(1024, (n) => ms(wa('plain-js', 'triple-loop', n)) / wasmBest(n));
// The kernel targets are judged at n = 1024, where the kernels and not the call
// overhead dominate; the table above shows every size.
const refSpeedup = at(1024, (n) => ms(wa('wasm-simd', 'reference', n)) / ms(wa('wasm-simd', 'full', n)));
const scalarSpeedup = at(1024, (n) => ms(wa('wasm-simd', 'scalar', n)) / ms(wa('wasm-simd', 'full', n)));
const memoryRatio = at(4096, (n) => nat('TiledOutput', n)?.peakMiB / nat('SimdTrace', n)?.peakMiB);
out.push('');
out.push('Targets');
out.push(`  wasm SIMD >= 20x plain JS at n=1024:            ${verdict(jsSpeedup === undefined || Number.isNaN(jsSpeedup) ? undefined : jsSpeedup >= 20)}` +
  (Number.isFinite(jsSpeedup) ? ` (${jsSpeedup.toFixed(1)}x)` : ''));
out.push(`  wasm SIMD kernels >= 3x reference at n=1024:     ` +
  `${verdict(Number.isFinite(refSpeedup) && Number.isFinite(scalarSpeedup) ? Math.min(refSpeedup, scalarSpeedup) >= 3 : undefined)}` +
  (Number.isFinite(refSpeedup) ? ` (vs attn::reference ${refSpeedup.toFixed(1)}x, vs the scalar kernels ${scalarSpeedup.toFixed(1)}x)` : ''));
out.push(`  tiled peak < 1/4 of full peak at n=4096:        ${verdict(Number.isFinite(memoryRatio) ? memoryRatio < 0.25 : undefined)}` +
  (Number.isFinite(memoryRatio) ? ` (${(memoryRatio * 100).toFixed(2)}%)` : ''));
console.log(out.join('\n'));
