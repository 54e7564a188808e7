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
//   tn   A^T (n x k) transposed into a buffer, then as nn.
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
  thread_local std::vector<float> buffers[2];
  std::vector<float>& b = buffers[which];
  if (b.size() < count) b.resize(count);
  return b.data();
}

void product_nn(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                Accumulate mode) noexcept {
  if (n == 0 || m == 0) return;
  if (k == 0) {
    if (mode == Accumulate::Overwrite) std::memset(c, 0, n * m * sizeof(float));
    return;
  }
  const KernelTable& kernels = active();
  if (mode == Accumulate::Add) {
    kernels.matmul_ab_add(a, b, c, n, k, m);
  } else {
    kernels.matmul_ab(a, b, c, n, k, m);
  }
}

}  // namespace

template <>
void gemm_nn<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
  product_nn(a, b, c, n, k, m, mode);
}

template <>
void gemm_nt<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
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
  product_nn(a, bt, c, n, k, m, mode);
}

template <>
void gemm_tn<float>(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                    Accumulate mode) noexcept {
  if (n == 0 || m == 0) return;
  float* at = buffer(0, n * k);  // A^T, n x k
  detail::transpose(a, k, n, at);
  product_nn(at, b, c, n, k, m, mode);
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
