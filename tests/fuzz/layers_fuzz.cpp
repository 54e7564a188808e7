// Fuzz target: the model's layers (attn/layers.hpp): embed, embed_backward,
// linear, linear_backward, softmax_cross_entropy, with hostile sizes, values
// and token ids (negative, at and beyond the vocabulary), on a kernel variant
// the input picks.
//
// Oracles:
// - only documented errors (an id out of range names it: "tokens[3]: ...")
// - every result finite and within the derived tolerance of its exact value
//   (error_bounds.hpp): Y = X W^T + b, dX = dY W, dW = dY^T X, db = 1^T dY,
//   X_i = E[t_i] + PE_i (PE within 2^-22), dE[t] = sum over i with t_i = t of dX_i
// - cross-entropy: the loss finite, >= 0, within kSafety (gamma(classes + 4)
//   (max_j |Z_ij| + 1)) per row of the exact loss in double; dZ finite, each
//   entry in [-1/rows, 1/rows], each row summing to 0 within the softmax's
//   row-sum tolerance / rows
#include <cstdint>

#include "attention_call.hpp"
#include "error_bounds.hpp"

using namespace attn_fuzz;

namespace {

std::vector<std::int32_t> tokens(FuzzInput& in, std::size_t count, std::size_t vocabulary) {
  std::vector<std::int32_t> ids(count);
  for (auto& id : ids) {
    const std::uint8_t b = in.byte();
    id = b == 255 ? -1 - static_cast<std::int32_t>(in.byte()) : b == 254 ? static_cast<std::int32_t>(vocabulary) + in.byte()
                                                                           : static_cast<std::int32_t>(b % std::max<std::size_t>(vocabulary, 1));
  }
  return ids;
}

void check_close(const std::vector<float>& actual, const bounds::Bounded& exact, const char* name) {
  require_finite(actual, name);
  require_close(actual, exact.value, exact.tolerances(), name);
}

bounds::Bounded ones(std::size_t rows, std::size_t cols) {
  bounds::Bounded b(rows, cols);
  std::fill(b.value.begin(), b.value.end(), 1.0);
  std::fill(b.magnitude.begin(), b.magnitude.end(), 1.0);
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  switch (in.below(3)) {
    case 0: {  // embed and its backward
      const std::size_t vocabulary = in.dimension_or_huge(12), d = in.dimension_or_huge(16);
      const std::vector<float> table = operand(in, vocabulary, d);
      const std::vector<std::int32_t> ids = tokens(in, in.below(12), vocabulary);
      std::vector<float> x;
      if (documented([&] { x = attn::embed(table, vocabulary, d, ids); })) {
        const std::vector<float> pe = attn::positional_encoding(ids.size(), d);
        for (std::size_t i = 0; i < x.size(); ++i) {
          const double expected = static_cast<double>(table[ids[i / d] * d + i % d]) + pe[i];
          if (!std::isfinite(x[i]) && std::isfinite(static_cast<float>(expected))) finding("embed[%zu] not finite", i);
          if (!(std::fabs(x[i] - expected) <= bounds::u * std::fabs(expected) + 0x1p-22))
            finding("embed[%zu] = %.9g, expected %.9g", i, x[i], expected);
        }
      }
      const std::vector<float> grad = operand(in, ids.size(), d);
      std::vector<float> grad_table;
      if (documented([&] { grad_table = attn::embed_backward(ids, grad, vocabulary, d); })) {
        bounds::Bounded selector(vocabulary, ids.size());  // one-hot: dE = S dX
        for (std::size_t i = 0; i < ids.size(); ++i) selector.value[ids[i] * ids.size() + i] = selector.magnitude[ids[i] * ids.size() + i] = 1;
        check_close(grad_table, bounds::product(selector, bounds::exact(grad, ids.size(), d)), "embed_backward");
      }
      break;
    }
    case 1: {  // linear and its backward
      const std::size_t rows = in.dimension_or_huge(10), d_in = in.dimension_or_huge(20), d_out = in.dimension_or_huge(20);
      const std::vector<float> x = operand(in, rows, d_in), w = operand(in, d_out, d_in), b = operand(in, 1, d_out);
      const std::vector<float> grad = operand(in, rows, d_out);
      // (exact values only once a call has returned: its sizes are then holdable)
      const auto exact_x = [&] { return bounds::exact(x, rows, d_in); };
      const auto exact_w = [&] { return bounds::exact(w, d_out, d_in); };
      std::vector<float> y;
      if (documented([&] { y = attn::linear(x, w, b, rows, d_in, d_out); })) {
        bounds::Bounded bias(rows, d_out);
        for (std::size_t i = 0; i < bias.value.size(); ++i)
          bias.value[i] = b[i % d_out], bias.magnitude[i] = std::fabs(static_cast<double>(b[i % d_out]));
        const bounds::Bounded exact = bounds::sum(bounds::product(exact_x(), bounds::transpose(exact_w())), bias);
        check_close(y, exact, "linear");
      }
      attn::LinearGradients g;
      if (documented([&] { g = attn::linear_backward(x, w, grad, rows, d_in, d_out); })) {
        const bounds::Bounded dy = bounds::exact(grad, rows, d_out), bx = exact_x(), bw = exact_w();
        check_close(g.x, bounds::product(dy, bw), "linear_backward dX");
        check_close(g.w, bounds::product(bounds::transpose(dy), bx), "linear_backward dW");
        check_close(g.b, bounds::product(ones(1, rows), dy), "linear_backward db");
      }
      break;
    }
    default: {  // softmax cross-entropy
      const std::size_t rows = in.dimension_or_huge(10), classes = in.dimension_or_huge(30);
      const std::vector<float> logits = operand(in, rows, classes);
      std::vector<std::int32_t> targets = tokens(in, rows <= 64 ? rows : 2, classes);
      if (in.byte() % 32 == 31) targets.push_back(0);
      attn::CrossEntropy ce;
      if (!documented([&] { ce = attn::softmax_cross_entropy(logits, targets, rows, classes); })) break;
      double exact = 0, tolerance = 0;
      for (std::size_t i = 0; i < rows; ++i) {
        double largest = -INFINITY, largest_abs = 0, total = 0;
        for (std::size_t j = 0; j < classes; ++j) {
          largest = std::max(largest, static_cast<double>(logits[i * classes + j]));
          largest_abs = std::max(largest_abs, std::fabs(static_cast<double>(logits[i * classes + j])));
        }
        for (std::size_t j = 0; j < classes; ++j) total += std::exp(logits[i * classes + j] - largest);
        exact += (largest + std::log(total) - logits[i * classes + targets[i]]) / static_cast<double>(rows);
        tolerance += bounds::kSafety * bounds::gamma(classes + 4) * (largest_abs + 1) / static_cast<double>(rows);
      }
      if (!std::isfinite(ce.loss) || ce.loss < 0 || !(std::fabs(ce.loss - exact) <= tolerance))
        finding("softmax_cross_entropy loss %.17g, expected %.17g within %.3g", ce.loss, exact, tolerance);
      require_finite(ce.grad_logits, "grad_logits");
      const double bound = 1.0 / static_cast<double>(rows);
      for (std::size_t i = 0; i < rows; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < classes; ++j) {
          const float g = ce.grad_logits[i * classes + j];
          if (std::fabs(g) > bound * (1 + 1e-6)) finding("grad_logits[%zu][%zu] = %g beyond 1/rows", i, j, g);
          sum += g;
        }
        if (!(std::fabs(sum) <= row_sum_tolerance(classes) * bound + bounds::kDenormal * classes))
          finding("grad_logits row %zu sums to %g, not 0", i, sum);
      }
      break;
    }
  }
  return 0;
}
