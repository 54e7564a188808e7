// write_learning_vectors — writes the shared test vectors (JSON) of the
// learning code, for the JavaScript tests to check the wasm build against:
//   build/native/bin/write_learning_vectors build/test-vectors/learning.json
//
// attentionBackward: two cases (a keep-mask with a fully masked row and a key
//   seen by no query, given scale; causal, scale 1/sqrt(d_k)); the expected
//   gradients come from the double reference. Compare within the float
//   tolerance (1e-5 absolute + 1e-4 relative).
// trainer: per task, default options and a seed; the first batch's token ids
//   and the initial parameters at a few indices are the same bits in every
//   build (integer draws, the portable normal sampler): compare exactly. So are
//   the task's data: its vocabularies, word groups, pattern, alignment, the
//   number of held-out examples and the probe's words. The losses of the first
//   three steps, the parameters after them, the held-out evaluation before and
//   after them and the probe's attention weights after them come from float
//   kernels whose sums differ in order (and fused multiply-adds) between
//   builds: compare within the float tolerance (an accuracy within one
//   held-out position of 512 * T).
// tokenize: typed sentences and their ids (exact).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "json_writer.hpp"

namespace {

using attn_test::JsonWriter;

struct BackwardCase {
  const char* name;
  attn::AttentionShape shape;
  attn::Mask mask;
  bool given_scale;
  float scale;
};

void write_backward_case(JsonWriter& out, const BackwardCase& c, attn::Rng& rng) {
  const auto q = rng.normal_matrix(c.shape.n, c.shape.d_k), k = rng.normal_matrix(c.shape.m, c.shape.d_k);
  const auto v = rng.normal_matrix(c.shape.m, c.shape.d_v), grad_output = rng.normal_matrix(c.shape.n, c.shape.d_v);
  attn::AttentionOptions options;
  options.mask = c.mask;
  if (c.given_scale) options.scale = attn::Scale::by(c.scale);
  const auto expected = attn::reference::attention_backward(q, k, v, grad_output, c.shape, options);
  out.raw("{");
  out.key("name"), out.string(c.name), out.raw(",");
  out.key("n"), out.integer(c.shape.n), out.raw(",");
  out.key("m"), out.integer(c.shape.m), out.raw(",");
  out.key("dk"), out.integer(c.shape.d_k), out.raw(",");
  out.key("dv"), out.integer(c.shape.d_v), out.raw(",");
  out.key("scale");
  if (c.given_scale) out.number(c.scale); else out.raw("null");
  out.raw(",");
  out.key("mask");
  if (c.mask.kind == attn::Mask::Kind::Causal) {
    out.string("causal");
  } else {
    const auto keep = attn::keep_matrix(c.mask, c.shape.n, c.shape.m);
    out.integers(std::span<const std::uint8_t>(keep));
  }
  out.raw(",");
  out.key("q"), out.floats(q), out.raw(",");
  out.key("k"), out.floats(k), out.raw(",");
  out.key("v"), out.floats(v), out.raw(",");
  out.key("gradOutput"), out.floats(grad_output), out.raw(",");
  out.key("expected"), out.raw("{");
  out.key("gradQ"), out.floats(expected.q), out.raw(",");
  out.key("gradK"), out.floats(expected.k), out.raw(",");
  out.key("gradV"), out.floats(expected.v), out.raw("}}");
}

void write_trainer_case(JsonWriter& out, attn::TaskKind kind, std::uint64_t seed) {
  attn::TrainerOptions options;
  options.task = kind, options.seed = seed;
  attn::Trainer trainer(options);
  const attn::TrainerOptions& o = trainer.options();
  const attn::Task& task = trainer.task();

  // The first batch, drawn as the trainer draws it (attn/trainer.hpp).
  attn::Rng batch_rng(attn::Rng(seed).next_u64());
  std::vector<std::int32_t> sources(*o.batch_size * task.source_length()), targets(*o.batch_size * task.target_length());
  for (std::size_t e = 0; e < *o.batch_size; ++e)
    task.draw(batch_rng, sources.data() + e * task.source_length(), targets.data() + e * task.target_length());

  const std::size_t count = trainer.model().layout().total;
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < count; i += count / 16) indices.push_back(i);
  indices.push_back(count - 1);
  const auto values_at = [&](attn::FloatSpan all) {
    std::vector<float> values;
    for (std::size_t i : indices) values.push_back(all[i]);
    return values;
  };
  const std::vector<float> initial = values_at(trainer.model().parameters());
  const attn::Evaluation before = trainer.evaluate();
  std::vector<double> losses;
  for (int step = 0; step < 3; ++step) losses.push_back(trainer.step().loss);
  const attn::Evaluation after = trainer.evaluate();
  const attn::AlignmentReading probe = trainer.probe();

  out.raw("{");
  out.key("task"), out.string(task.name().c_str()), out.raw(",");
  out.key("seed"), out.integer(static_cast<long long>(seed)), out.raw(",");
  out.key("model"), out.string(std::string(attn::model_name(o.model)).c_str()), out.raw(",");
  out.key("heads"), out.integer(*o.heads), out.raw(",");
  out.key("dModel"), out.integer(*o.d_model), out.raw(",");
  out.key("scale"), out.raw(*o.scale ? "true" : "false"), out.raw(",");
  out.key("learningRate"), out.number(*o.learning_rate), out.raw(",");
  out.key("batchSize"), out.integer(*o.batch_size), out.raw(",");
  out.key("weightDecay"), out.number(*o.weight_decay), out.raw(",");
  out.key("parameterCount"), out.integer(count), out.raw(",");
  out.key("firstBatch"), out.raw("{");
  out.key("sources"), out.integers(std::span<const std::int32_t>(sources)), out.raw(",");
  out.key("targets"), out.integers(std::span<const std::int32_t>(targets)), out.raw("},");
  out.key("parameterIndices"), out.integers(std::span<const std::size_t>(indices)), out.raw(",");
  out.key("initialParameters"), out.floats(initial), out.raw(",");
  out.key("losses"), out.raw("[");
  for (std::size_t i = 0; i < losses.size(); ++i) out.raw(i ? "," : ""), out.number(losses[i]);
  out.raw("],");
  out.key("parametersAfter3Steps"), out.floats(values_at(trainer.model().parameters())), out.raw(",");
  const auto evaluation = [&](const char* name, const attn::Evaluation& e) {
    out.key(name), out.raw("{");
    out.key("loss"), out.number(e.loss), out.raw(",");
    out.key("accuracy"), out.number(e.accuracy), out.raw("},");
  };
  evaluation("evaluateBefore", before);
  evaluation("evaluateAfter3Steps", after);
  out.key("probeAfter3Steps"), out.raw("{");
  out.key("source"), out.strings(probe.source), out.raw(",");
  out.key("target"), out.strings(probe.target), out.raw(",");
  out.key("predicted"), out.strings(probe.predicted), out.raw(",");
  out.key("weights"), out.floats(probe.weights), out.raw("},");
  out.key("taskData"), out.raw("{");
  out.key("sourceVocabulary"), out.strings(task.source_vocabulary()), out.raw(",");
  out.key("targetVocabulary"), out.strings(task.target_vocabulary()), out.raw(",");
  out.key("groups"), out.raw("[");
  for (std::size_t g = 0; g < task.source_groups().size(); ++g) {
    out.raw(g ? ",{" : "{");
    out.key("name"), out.string(task.source_groups()[g].name.c_str()), out.raw(",");
    out.key("words"), out.strings(task.source_groups()[g].words), out.raw("}");
  }
  out.raw("],");
  out.key("pattern"), out.string(task.source_pattern().c_str()), out.raw(",");
  out.key("alignment"), out.integers(task.alignment()), out.raw(",");
  out.key("heldOut"), out.integer(static_cast<long long>(task.held_out().size())), out.raw("}");
  out.raw("}");
}

void write_tokenize_case(JsonWriter& out, attn::TaskKind kind, const char* sentence) {
  const attn::Task task(kind);
  const auto ids = task.tokenize(sentence);
  out.raw("{");
  out.key("task"), out.string(task.name().c_str()), out.raw(",");
  out.key("sentence"), out.string(sentence), out.raw(",");
  out.key("ids"), out.integers(std::span<const std::int32_t>(ids)), out.raw("}");
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path path = argc > 1 ? argv[1] : "learning.json";
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) {
    std::perror(path.c_str());
    return 1;
  }
  JsonWriter out(file);
  attn::Rng rng(3030);
  std::vector<std::uint8_t> keep = {1, 0, 1, 1, 0,  // query 0
                                    0, 0, 0, 0, 0,  // query 1: fully masked
                                    1, 1, 0, 1, 0,  // key 4 is seen by no query
                                    0, 1, 1, 0, 0};
  const BackwardCase cases[] = {{"explicit-mask-given-scale", {4, 5, 3, 2}, attn::Mask::explicit_keep(keep), true, 0.8f},
                                {"causal", {6, 6, 4, 3}, attn::Mask::causal(), false, 0.0f}};
  out.raw("{");
  out.key("attentionBackward"), out.raw("[");
  for (std::size_t i = 0; i < 2; ++i) out.raw(i ? "," : ""), write_backward_case(out, cases[i], rng);
  out.raw("],");
  out.key("trainer"), out.raw("[");
  write_trainer_case(out, attn::TaskKind::Reverse, 42);
  out.raw(",");
  write_trainer_case(out, attn::TaskKind::Translate, 42);
  out.raw("],");
  out.key("tokenize"), out.raw("[");
  write_tokenize_case(out, attn::TaskKind::Reverse, "3 1 4 5 9 2 6 8");
  out.raw(",");
  write_tokenize_case(out, attn::TaskKind::Translate, "The young student reads an old book in the library.");
  out.raw("]}\n");
  std::fclose(file);
  std::printf("wrote %s\n", path.c_str());
  return 0;
}
