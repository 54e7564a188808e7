// gemm.hpp (internal) — the three matrix products of the model engine's layers,
// in float (the SIMD kernels of attn/kernels.hpp) and in double (plain loops,
// for the gradient checks). Row-major, no validation.
//
//   gemm_nn   C (n x m) (+)= A (n x k) B (k x m)       y = x W,  dx = dy W^T's partner
//   gemm_nt   C (n x m) (+)= A (n x k) B^T, B m x k    dx = dy W^T,  S = Q K^T
//   gemm_tn   C (n x m) (+)= A^T B, A k x n, B k x m    dW = x^T dy
//
//   axpy      y += a x                                 (n)   a bias added to each row, a residual's
//                                                              gradient, one row of a head added back
//
// Accumulate::Add adds the product into C (the backward passes sum the
// gradients of every use of a tensor); Accumulate::Overwrite replaces C.
// The float forms run on the kernels the process dispatches to; their
// temporaries live in per-thread buffers kept between calls (no allocation
// when warm).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::kernels {

enum class Accumulate { Overwrite, Add };

template <class T>
void gemm_nn(const T* a, const T* b, T* c, std::size_t n, std::size_t k, std::size_t m, Accumulate mode) noexcept;
template <class T>
void gemm_nt(const T* a, const T* b, T* c, std::size_t n, std::size_t k, std::size_t m, Accumulate mode) noexcept;
template <class T>
void gemm_tn(const T* a, const T* b, T* c, std::size_t n, std::size_t k, std::size_t m, Accumulate mode) noexcept;
// (float: the kernels' vector loop, the one way element-wise work gets SIMD in WebAssembly, where
// the layers themselves are compiled without it)
template <class T>
void axpy(T a, const T* x, T* y, std::size_t n) noexcept;

// The multiply-adds (n*k*m per product) the float products of this thread have
// done: what the trainer measures a model's step by (training/engine_trainer.cpp).
std::uint64_t& float_multiply_adds() noexcept;

}  // namespace attn::kernels
