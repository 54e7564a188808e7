// The q-quantile (0..1) of numbers sorted in ascending order, linearly
// interpolated. Pure: sections 10 (the benchmark's spread) and "gradients"
// (the spread of the gradients over trials).
export function quantile(sorted, q) {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}
