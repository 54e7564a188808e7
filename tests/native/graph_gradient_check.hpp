// graph_gradient_check.hpp — checks the backward of any composition of the
// engine's layers (src/layers/) against central finite differences, in double.
//
// A check is a list of leaves (inputs and parameters, each a rows x cols
// matrix of doubles) and a `build` that runs the layers on a Graph<double> over
// tensors of those leaves. The loss is
//   L = Σ R ⊙ out     R a fixed random matrix of out's shape (build returns a tensor), or
//   L = the loss      build returns the LossCounts of cross_entropy (which seeds its own backward).
// Every leaf marked differentiable gets dL/dleaf from backward() and from
// numeric_gradient (gradient_check.hpp), held to kDoubleGradientTolerance.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "attn/random.hpp"
#include "gradient_check.hpp"
#include "layers/cross_entropy.hpp"
#include "layers/graph.hpp"

namespace attn_test {

using attn::layers::Graph;
using attn::layers::Recording;
using attn::layers::Tensor;

struct Leaf {
  std::string name;
  std::size_t rows, cols;
  std::vector<double> values;
  bool differentiable = true;
};

// A rows x cols leaf of N(0, stddev^2) values from `rng`.
inline Leaf random_leaf(attn::Rng& rng, std::string name, std::size_t rows, std::size_t cols, double stddev = 1.0,
                        bool differentiable = true) {
  Leaf leaf{std::move(name), rows, cols, std::vector<double>(rows * cols), differentiable};
  for (double& v : leaf.values) v = stddev * rng.normal();
  return leaf;
}

// Checks every differentiable leaf. build(Graph<double>&, std::vector<Tensor<double>>& leaves) returns the
// output tensor or a attn::layers::LossCounts.
template <class Build>
void check_graph_gradients(std::vector<Leaf>& leaves, Build build, double tolerance = kDoubleGradientTolerance) {
  attn::Rng rng(2024);
  std::vector<double> weights;  // R, drawn at the first pass
  const auto loss_of = [&](Graph<double>& g, std::vector<Tensor<double>>& tensors) -> double {
    auto out = build(g, tensors);
    if constexpr (std::is_same_v<decltype(out), attn::layers::LossCounts>) {
      return out.loss;
    } else {
      if (weights.empty())
        for (std::size_t i = 0; i < out.size(); ++i) weights.push_back(rng.normal());
      double loss = 0.0;
      for (std::size_t i = 0; i < out.size(); ++i) loss += weights[i] * out.value[i];
      if (g.recording())
        for (std::size_t i = 0; i < out.size(); ++i) out.grad[i] = weights[i];
      return loss;
    }
  };

  // Analytic: one recorded pass and its backward.
  std::vector<std::vector<double>> grads;
  std::vector<Tensor<double>> tensors;
  for (Leaf& leaf : leaves) {
    grads.emplace_back(leaf.values.size(), 0.0);
    tensors.push_back({leaf.values.data(), leaf.differentiable ? grads.back().data() : nullptr, leaf.rows, leaf.cols});
  }
  {
    Graph<double> g;
    loss_of(g, tensors);
    g.backward();
  }
  // Numeric: the loss of passes that record nothing.
  for (std::size_t l = 0; l < leaves.size(); ++l) {
    if (!leaves[l].differentiable) continue;
    std::vector<Tensor<double>> plain;
    for (Leaf& leaf : leaves) plain.push_back({leaf.values.data(), nullptr, leaf.rows, leaf.cols});
    const std::vector<double> numeric = numeric_gradient(leaves[l].values, [&] {
      Graph<double> g(Recording::Off);
      return loss_of(g, plain);
    });
    EXPECT_TRUE(gradient_matches(grads[l], numeric, tolerance)) << "leaf " << leaves[l].name;
  }
}

}  // namespace attn_test
