// eigen_attention.cpp — see eigen_attention.hpp.
#include "eigen_attention.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct EigenAttention::Buffers {
  std::size_t n, m, d, block_rows;
  float scale;               // 1 / sqrt(d)
  RowMatrix scaled_q;        // n x d           Q / sqrt(d)
  RowMatrix scores;          // block_rows x m  S = (Q / sqrt(d)) K^T, then exp(S - rowmax)
  Eigen::VectorXf inv_sum;   // block_rows      1 / rowsum
};

EigenAttention::EigenAttention(std::size_t n, std::size_t m, std::size_t d, std::size_t block_rows)
    : buffers_(new Buffers{n, m, d, std::min(block_rows, n), 1.0f / std::sqrt(static_cast<float>(d)),
                           RowMatrix(n, d), RowMatrix(std::min(block_rows, n), m),
                           Eigen::VectorXf(std::min(block_rows, n))}) {}

EigenAttention::~EigenAttention() = default;

void EigenAttention::run(const float* q, const float* k, const float* v, float* out) {
  Buffers& b = *buffers_;
  const Eigen::Index n = b.n, m = b.m, d = b.d, block = b.block_rows;
  const Eigen::Map<const RowMatrix> Q(q, n, d), K(k, m, d), V(v, m, d);
  Eigen::Map<RowMatrix> O(out, n, d);
  b.scaled_q.noalias() = Q * b.scale;
  for (Eigen::Index first = 0; first < n; first += block) {
    const Eigen::Index rows = std::min(block, n - first);
    auto S = b.scores.topRows(rows);
    S.noalias() = b.scaled_q.middleRows(first, rows) * K.transpose();  // S = QK^T / sqrt(d)
    for (Eigen::Index i = 0; i < rows; ++i) {                            // P = exp(S - rowmax)
      auto row = S.row(i).array();
      const float row_max = row.maxCoeff();
      row = (row - row_max).exp();
      b.inv_sum(i) = 1.0f / row.sum();
    }
    auto O_block = O.middleRows(first, rows);
    O_block.noalias() = S * V;                                           // O = P V
    for (Eigen::Index i = 0; i < rows; ++i) O_block.row(i) *= b.inv_sum(i);  // O / rowsum
  }
}

std::string EigenAttention::instruction_sets() { return Eigen::SimdInstructionSetsInUse(); }

std::string EigenAttention::version() {
  return std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION);
}
