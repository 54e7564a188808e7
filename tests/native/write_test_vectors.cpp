// write_test_vectors — writes the shared test vectors (JSON) that the
// JavaScript tests check the wasm build against:
//   build/native/bin/write_test_vectors build/test-vectors/vectors.json
// Expected attention numbers come from the scalar reference (the ground
// truth); multi-head, saturation, random and positional encoding from the
// core. Floats are printed with %.9g and doubles with %.17g, enough digits to
// read back the same value. Plain fprintf, no JSON library.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "attn/attn.hpp"

namespace {

// Writes JSON pieces to one file; commas between elements are the caller's `first` flags.
class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* file) : file_(file) {}
  void raw(const char* text) { std::fputs(text, file_); }
  void key(const char* name) { std::fprintf(file_, "\"%s\":", name); }
  void floats(attn::FloatSpan values) {
    raw("[");
    for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(file_, i ? ",%.9g" : "%.9g", values[i]);
    raw("]");
  }
  void number(double value) { std::fprintf(file_, "%.17g", value); }
  void integer(unsigned long long value) { std::fprintf(file_, "%llu", value); }
  void string(const char* text) { std::fprintf(file_, "\"%s\"", text); }

 private:
  std::FILE* file_;
};

struct AttentionCase {
  std::string name;
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
  enum class ScaleField { Default, Off, Given } scale_field = ScaleField::Default;
  float given_scale = 1.0f;
  attn::Mask mask;
};

void write_attention_case(JsonWriter& out, const AttentionCase& c) {
  attn::AttentionOptions options;
  options.mask = c.mask;
  out.raw("{");
  out.key("name"), out.string(c.name.c_str()), out.raw(",");
  out.key("n"), out.integer(c.shape.n), out.raw(",");
  out.key("m"), out.integer(c.shape.m), out.raw(",");
  out.key("dk"), out.integer(c.shape.d_k), out.raw(",");
  out.key("dv"), out.integer(c.shape.d_v), out.raw(",");
  out.key("scale");
  switch (c.scale_field) {
    case AttentionCase::ScaleField::Default: out.raw("null"); break;
    case AttentionCase::ScaleField::Off: out.raw("false"), options.scale = attn::Scale::none(); break;
    case AttentionCase::ScaleField::Given: out.number(c.given_scale), options.scale = attn::Scale::by(c.given_scale); break;
  }
  out.raw(",");
  out.key("mask");
  if (c.mask.kind == attn::Mask::Kind::None) {
    out.raw("null");
  } else if (c.mask.kind == attn::Mask::Kind::Causal) {
    out.string("causal");
  } else {  // key padding and explicit masks travel as a keep-matrix
    const auto keep = attn::keep_matrix(c.mask, c.shape.n, c.shape.m);
    out.raw("[");
    for (std::size_t i = 0; i < keep.size(); ++i) out.raw(keep[i] ? (i ? ",1" : "1") : (i ? ",0" : "0"));
    out.raw("]");
  }
  out.raw(",");
  out.key("q"), out.floats(c.q), out.raw(",");
  out.key("k"), out.floats(c.k), out.raw(",");
  out.key("v"), out.floats(c.v), out.raw(",");
  const auto trace = attn::reference::attention(c.q, c.k, c.v, c.shape, options, attn::TraceTerms::Included);
  out.key("expected"), out.raw("{");
  out.key("scores"), out.floats(trace.scores), out.raw(",");
  out.key("scaled"), out.floats(trace.scaled), out.raw(",");
  out.key("exps"), out.floats(trace.exps), out.raw(",");
  out.key("expSums"), out.floats(trace.exp_sums), out.raw(",");
  out.key("expShifts"), out.floats(trace.exp_shifts), out.raw(",");
  out.key("weights"), out.floats(trace.weights), out.raw(",");
  out.key("terms"), out.floats(trace.terms), out.raw(",");
  out.key("output"), out.floats(trace.output);
  out.raw("}}");
}

std::vector<AttentionCase> attention_cases() {
  std::vector<AttentionCase> cases;
  const std::vector<float> q001 = {1, 0}, k001 = {1, 0, 0, 1, 1, 1}, v001 = {2, 0, 0, 2, 1, 1};
  cases.push_back({"article-001", {1, 3, 2, 2}, q001, k001, v001});
  cases.push_back({"article-001-unscaled", {1, 3, 2, 2}, q001, k001, v001, AttentionCase::ScaleField::Off});

  attn::Rng rng(2024);
  auto random_case = [&rng](std::string name, std::size_t n, std::size_t m, std::size_t d_k, std::size_t d_v) {
    AttentionCase c{std::move(name), {n, m, d_k, d_v}};
    c.q = rng.normal_matrix(n, d_k);
    c.k = rng.normal_matrix(m, d_k);
    c.v = rng.normal_matrix(m, d_v);
    return c;
  };
  AttentionCase causal = random_case("causal", 5, 5, 4, 3);
  causal.mask = attn::Mask::causal();
  cases.push_back(causal);

  AttentionCase masked = random_case("explicit-mask-fully-masked-row", 3, 4, 2, 2);
  masked.mask = attn::Mask::explicit_keep({1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0});  // row 1 sees nothing
  cases.push_back(masked);

  AttentionCase padding = random_case("key-padding", 4, 6, 3, 2);
  padding.mask = attn::Mask::key_padding(4);
  cases.push_back(padding);

  cases.push_back(random_case("random-odd", 7, 13, 5, 3));

  AttentionCase given = random_case("cross-given-scale", 4, 9, 6, 5);
  given.scale_field = AttentionCase::ScaleField::Given;
  given.given_scale = 0.25f;
  cases.push_back(given);

  AttentionCase large = random_case("large-logits", 2, 8, 1, 3);
  large.q = {1.0f, 0.5f};
  for (std::size_t j = 0; j < 8; ++j) large.k[j] = 90.0f + 1.25f * static_cast<float>(j);  // scores in [90, 100]
  large.scale_field = AttentionCase::ScaleField::Off;
  cases.push_back(large);
  return cases;
}

struct MultiHeadCase {
  std::string name;
  std::size_t n, m, d_model, heads;
  bool cross;
  attn::Mask mask;
};

void write_multi_head_case(JsonWriter& out, const MultiHeadCase& c, attn::Rng& rng) {
  const auto x = rng.normal_matrix(c.n, c.d_model);
  const auto context = c.cross ? rng.normal_matrix(c.m, c.d_model) : std::vector<float>{};
  const double w_std = 1.0 / std::sqrt(static_cast<double>(c.d_model));
  const auto w_q = rng.normal_matrix(c.d_model, c.d_model, w_std), w_k = rng.normal_matrix(c.d_model, c.d_model, w_std);
  const auto w_v = rng.normal_matrix(c.d_model, c.d_model, w_std), w_o = rng.normal_matrix(c.d_model, c.d_model, w_std);
  const attn::MultiHeadInputs in{x, context, c.n, c.cross ? c.m : 0, c.d_model, c.heads, w_q, w_k, w_v, w_o, c.mask};
  const auto result = attn::multi_head(in);

  out.raw("{");
  out.key("name"), out.string(c.name.c_str()), out.raw(",");
  out.key("n"), out.integer(c.n), out.raw(",");
  out.key("m"), out.integer(c.cross ? c.m : c.n), out.raw(",");
  out.key("dModel"), out.integer(c.d_model), out.raw(",");
  out.key("heads"), out.integer(c.heads), out.raw(",");
  out.key("x"), out.floats(x), out.raw(",");
  out.key("context");
  if (c.cross) out.floats(context); else out.raw("null");
  out.raw(",");
  out.key("wq"), out.floats(w_q), out.raw(",");
  out.key("wk"), out.floats(w_k), out.raw(",");
  out.key("wv"), out.floats(w_v), out.raw(",");
  out.key("wo"), out.floats(w_o), out.raw(",");
  out.key("mask");
  if (c.mask.kind == attn::Mask::Kind::Causal) out.string("causal"); else out.raw("null");
  out.raw(",");
  out.key("expected"), out.raw("{");
  out.key("output"), out.floats(result.output), out.raw(",");
  out.key("headWeights"), out.raw("[");
  for (std::size_t h = 0; h < result.head_weights.size(); ++h) {
    if (h) out.raw(",");
    out.floats(result.head_weights[h]);
  }
  out.raw("]}}");
}

void write_raw_scaled(JsonWriter& out, const char* name, const attn::RawScaled& value) {
  out.key(name), out.raw("{");
  out.key("raw"), out.number(value.raw), out.raw(",");
  out.key("scaled"), out.number(value.scaled), out.raw("}");
}

void write_saturation_case(JsonWriter& out, const attn::SaturationOptions& options) {
  const auto result = attn::saturation(options);
  out.raw("{");
  out.key("dk"), out.integer(options.d_k), out.raw(",");
  out.key("queries"), out.integer(options.queries), out.raw(",");
  out.key("keys"), out.integer(options.keys), out.raw(",");
  out.key("trials"), out.integer(options.trials), out.raw(",");
  out.key("seed"), out.integer(options.seed), out.raw(",");
  out.key("expected"), out.raw("{");
  out.key("logitStd"), out.number(result.logit_std), out.raw(",");
  write_raw_scaled(out, "maxWeight", result.max_weight), out.raw(",");
  write_raw_scaled(out, "entropy", result.entropy), out.raw(",");
  write_raw_scaled(out, "gradient", result.gradient), out.raw(",");
  write_raw_scaled(out, "saturatedShare", result.saturated_share);
  out.raw("}}");
}

void write_random_case(JsonWriter& out, std::uint64_t seed, std::size_t count) {
  attn::Rng normals(seed), integers(seed);
  out.raw("{");
  out.key("seed"), out.integer(seed), out.raw(",");
  out.key("count"), out.integer(count), out.raw(",");
  out.key("normals"), out.raw("[");
  for (std::size_t i = 0; i < count; ++i) out.raw(i ? "," : ""), out.number(normals.normal());
  out.raw("],");
  out.key("u64"), out.raw("[");
  for (std::size_t i = 0; i < count; ++i) {
    out.raw(i ? ",\"" : "\"");
    out.integer(integers.next_u64());
    out.raw("\"");
  }
  out.raw("]}");
}

void write_positional_encoding_case(JsonWriter& out, std::size_t n, std::size_t d_model) {
  out.raw("{");
  out.key("n"), out.integer(n), out.raw(",");
  out.key("dModel"), out.integer(d_model), out.raw(",");
  out.key("expected"), out.floats(attn::positional_encoding(n, d_model));
  out.raw("}");
}

// `write_item(i)` for i in [0, count), as the elements of the JSON array `name`.
template <class WriteItem>
void write_array(JsonWriter& out, const char* name, std::size_t count, WriteItem write_item) {
  out.raw("\n  "), out.key(name), out.raw("[");
  for (std::size_t i = 0; i < count; ++i) {
    out.raw(i ? ",\n    " : "\n    ");
    write_item(i);
  }
  out.raw("\n  ]");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.json\n", argv[0]);
    return 2;
  }
  const std::filesystem::path path = argv[1];
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::FILE* file = std::fopen(argv[1], "w");
  if (!file) {
    std::perror(argv[1]);
    return 1;
  }
  JsonWriter out(file);
  out.raw("{");

  const auto attention = attention_cases();
  write_array(out, "attention", attention.size(), [&](std::size_t i) { write_attention_case(out, attention[i]); });
  out.raw(",");

  const std::vector<MultiHeadCase> multi_head = {
      {"self", 5, 5, 8, 2, false, attn::Mask::none()},
      {"self-causal", 6, 6, 8, 4, false, attn::Mask::causal()},
      {"cross", 3, 7, 8, 2, true, attn::Mask::none()},
  };
  attn::Rng rng(7);
  write_array(out, "multiHead", multi_head.size(), [&](std::size_t i) { write_multi_head_case(out, multi_head[i], rng); });
  out.raw(",");

  const std::vector<attn::SaturationOptions> saturation = {
      {4, 8, 8, 200, 2024}, {64, 8, 8, 200, 2024}, {1024, 8, 8, 200, 2024}, {64, 1, 8, 5000, 2024}};
  write_array(out, "saturation", saturation.size(), [&](std::size_t i) { write_saturation_case(out, saturation[i]); });
  out.raw(",");

  // The last stream is long enough to pass through every branch of the normal
  // sampler (the ziggurat's wedges, about 1.5 % of draws, and its tail, about
  // 1 in 4000), whose results must match bit for bit too.
  const std::uint64_t seeds[] = {0, 42, 2024, 7};
  const std::size_t counts[] = {16, 16, 16, 20000};
  write_array(out, "random", 4, [&](std::size_t i) { write_random_case(out, seeds[i], counts[i]); });
  out.raw(",");

  const std::size_t pe_shapes[][2] = {{10, 8}, {4, 5}};
  write_array(out, "positionalEncoding", 2,
              [&](std::size_t i) { write_positional_encoding_case(out, pe_shapes[i][0], pe_shapes[i][1]); });
  out.raw("\n}\n");

  const bool failed = std::ferror(file) != 0;
  if (std::fclose(file) != 0 || failed) {
    std::fprintf(stderr, "%s: write failed\n", argv[1]);
    return 1;
  }
  return 0;
}
