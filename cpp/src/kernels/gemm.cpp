// gemm.cpp — the engine's three products (gemm.hpp): float on the SIMD kernels,
// double in plain loops.
//
// Float, by the kernels of the active variant (attn/kernels.hpp):
//   nn   matmul_ab / matmul_ab_add: register-blocked broadcasts of A's entries
//        over rows of B (src/kernels/micro_kernel.hpp), C in whole vectors.
//   nt   B^T (k x m) transposed into a buffer, then as nn: for the engine's
//        shapes (k = a head's d_k or a d_model of 32-256) the broadcast form beats
//        matmul_abt's k-long dot products and their horizontal sums; when a row
//        of C is shorter than one vector, matmul_abt (its dot products fill
//        whole vectors where C's rows would not).
//   tn   matmul_atb / matmul_atb_add: as nn with A's entries read down its columns
//        (a transposed copy of A, a whole layer's activations for a weight's
//        gradient, took 13% of a transformer's training step natively).
//   nn, tn with m not a multiple of the vector width: B and C padded to whole vectors.
// Overwrite with the _add kernel needs C zeroed first; matmul_ab overwrites.
#include "kernels/gemm.hpp"

#include <cstring>
#include <vector>

#include "kernels/kernels.hpp"
#include "kernels/matrix_ops.hpp"

namespace attn::kernels {

namespace {

// This thread's buffer of at least `count` floats (grown, never shrunk: the
// engine's matrices are small, at most a few MiB).
float* buffer(std::size_t which, std::size_t count) {
  thread_local std::vector<float> buffers[4];
  std::vector<float>& b = buffers[which];
  if (b.size() < count) b.resize(count);
  return b.data();
}

// C (n x m) (+)= op(A) B by the broadcast kernels, A read as it is (kTransposed
// false: A n x k, matmul_ab) or down its columns (true: A k x n, matmul_atb).
template <bool kTransposed>
void broadcast_product(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                       Accumulate mode) noexcept {
  if (n == 0 || m == 0) return;
  if (k == 0) {
    if (mode == Accumulate::Overwrite) std::memset(c, 0, n * m * sizeof(float));
    return;
  }
  const KernelTable& kernels = active();
  const auto product = [&](const float* b_rows, float* c_rows, std::size_t width, bool add) {
    if constexpr (kTransposed) {
      (add ? kernels.matmul_atb_add : kernels.matmul_atb)(a, b_rows, c_rows, n, k, width);
    } else {
      (add ? kernels.matmul_ab_add : kernels.matmul_ab)(a, b_rows, c_rows, n, k, width);
    }
  };
  if (const std::size_t rest = m % kernels.lanes; rest != 0) {
    // The kernels take C's last m % lanes columns row by row through padded
    // loads, ~10x slower per element than whole vectors (a 512 x 64 x 14
    // read-out ran at 2-3 GFLOP/s): B and C padded with zero columns to whole
    // vectors instead, for a copy of k x m and n x m floats.
    const std::size_t wide = m + kernels.lanes - rest;
    float* b_wide = buffer(2, k * wide);
    float* c_wide = buffer(3, n * wide);
    for (std::size_t t = 0; t < k; ++t) {
      std::memcpy(b_wide + t * wide, b + t * m, m * sizeof(float));
      std::memset(b_wide + t * wide + m, 0, (wide - m) * sizeof(float));
    }
    product(b_wide, c_wide, wide, false);
    for (std::size_t i = 0; i < n; ++i) {
      float* ci = c + i * m;
      const float* wi = c_wide + i * wide;
      if (mode == Accumulate::Add) {
        for (std::size_t j = 0; j < m; ++j) ci[j] += wi[j];
      } else {
        std::memcpy(ci, wi, m * sizeof(float));
      }
    }
    return;
  }
  product(b, c, m, mode == Accumulate::Add);
}

}  // namespace

std::uint64_t& float_multiply_adds() noexcept {
  thread_local std::uint64_t count = 0;
  return count;
}

template <>
void gemm_nn<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
  float_multiply_adds() += n * k * m;
  broadcast_product<false>(a, b, c, n, k, m, mode);
}

template <>
void gemm_nt<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
  float_multiply_adds() += n * k * m;
  if (n == 0 || m == 0) return;
  if (m < active().lanes && k > 0) {
    // C = A B^T by dot products, into a buffer when it is to be added
    float* target = mode == Accumulate::Add ? buffer(1, n * m) : c;
    active().matmul_abt(a, b, target, n, m, k);
    if (mode == Accumulate::Add) detail::add_in_place(target, c, n * m);
    return;
  }
  float* bt = buffer(0, k * m);  // B^T, k x m
  detail::transpose(b, m, k, bt);
  broadcast_product<false>(a, bt, c, n, k, m, mode);
}

template <>
void gemm_tn<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
  float_multiply_adds() += n * k * m;
  broadcast_product<true>(a, b, c, n, k, m, mode);
}

template <>
void axpy<float>(float a, const float* x, float* y, std::size_t n) noexcept {
  active().axpy(a, x, y, n);
}

template <>
void axpy<double>(double a, const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

// double: the definitions, in loops ordered so that the innermost runs along rows.
template <>
void gemm_nn<double>(const double* a, const double* b, double* c, std::size_t n, std::size_t k, std::size_t m,
                     Accumulate mode) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    double* ci = c + i * m;
    if (mode == Accumulate::Overwrite)
      for (std::size_t j = 0; j < m; ++j) ci[j] = 0.0;
    for (std::size_t t = 0; t < k; ++t) {
      const double ait = a[i * k + t];
      const double* bt = b + t * m;
      for (std::size_t j = 0; j < m; ++j) ci[j] += ait * bt[j];
    }
  }
}

template <>
void gemm_nt<double>(const double* a, const double* b, double* c, std::size_t n, std::size_t k, std::size_t m,
                     Accumulate mode) noexcept {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double sum = 0.0;
      for (std::size_t t = 0; t < k; ++t) sum += a[i * k + t] * b[j * k + t];
      c[i * m + j] = (mode == Accumulate::Add ? c[i * m + j] : 0.0) + sum;
    }
}

template <>
void gemm_tn<double>(const double* a, const double* b, double* c, std::size_t n, std::size_t k, std::size_t m,
                     Accumulate mode) noexcept {
  if (mode == Accumulate::Overwrite)
    for (std::size_t i = 0; i < n * m; ++i) c[i] = 0.0;
  for (std::size_t t = 0; t < k; ++t)
    for (std::size_t i = 0; i < n; ++i) {
      const double ati = a[t * n + i];
      const double* bt = b + t * m;
      double* ci = c + i * m;
      for (std::size_t j = 0; j < m; ++j) ci[j] += ati * bt[j];
    }
}

}  // namespace attn::kernels
