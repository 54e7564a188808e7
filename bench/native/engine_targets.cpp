// engine_targets: the model engine's targets of issue 22, measured natively by
// training each model with attn::Trainer (the public API, as a user would) and
// printing held-out figures. A command, not a test: it prints what it
// measured and whether each target is met.
//
//   build/native/bin/engine_targets [experiment ...] [--seed N]
//   experiments: bottleneck family mask positions induction translate (default: all)
//
// Accuracy is held-out and token level; "generated" is free-running greedy
// decoding (Evaluation::generated_accuracy).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "attn/attn.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t g_seed = 1;

attn::TrainerOptions base(attn::TaskKind task, attn::ModelKind model) {
  attn::TrainerOptions o;
  o.task = task;
  o.model = model;
  o.seed = g_seed;
  return o;
}

struct Run {
  attn::Evaluation last;
  std::size_t steps = 0;
  std::size_t steps_to_target = 0;  // the first evaluation at or above the target (0: never)
  double seconds = 0.0;
};

// Trains `o` for `steps`, evaluating every `every` steps; stops early once
// generated accuracy reaches `stop_at` (when > 0).
Run train(attn::Trainer& trainer, std::size_t steps, std::size_t every, double target, double stop_at = 0.0) {
  Run r;
  const auto start = Clock::now();
  while (r.steps < steps) {
    const std::size_t n = std::min(every, steps - r.steps);
    trainer.step(n);
    r.steps += n;
    r.last = trainer.evaluate();
    if (r.steps_to_target == 0 && r.last.generated_accuracy >= target) r.steps_to_target = r.steps;
    if (stop_at > 0.0 && r.last.generated_accuracy >= stop_at) break;
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

const char* verdict(bool met) { return met ? "met" : "NOT MET"; }

// The share of target positions whose strongest source (the alignment weights'
// argmax) is the reference's, over the positions the reference aligns.
double alignment_agreement(const attn::AlignmentReading& r) {
  const std::vector<std::size_t> strongest = r.strongest_sources();
  std::size_t aligned = 0, agree = 0;
  for (std::size_t t = 0; t < r.reference.size() && t < strongest.size(); ++t) {
    if (r.reference[t] < 0) continue;
    ++aligned;
    agree += strongest[t] == static_cast<std::size_t>(r.reference[t]);
  }
  return aligned == 0 ? 0.0 : static_cast<double>(agree) / static_cast<double>(aligned);
}

void bottleneck() {
  std::printf("== bottleneck: reverse, sourceLength 16, 2000 steps\n");
  double accuracy[2] = {0, 0};
  int i = 0;
  for (attn::ModelKind model : {attn::ModelKind::Rnn, attn::ModelKind::Bahdanau}) {
    attn::TrainerOptions o = base(attn::TaskKind::Reverse, model);
    o.source_length = 16;
    attn::Trainer trainer(o);
    const Run r = train(trainer, 2000, 250, 0.9);
    accuracy[i++] = r.last.generated_accuracy;
    std::printf("  %-9s generated %.3f  teacher-forced %.3f  sequences %.3f  (first >= 0.9 at step %zu; %.1f s)\n",
                std::string(attn::model_name(model)).c_str(), r.last.generated_accuracy, r.last.accuracy,
                r.last.sequence_accuracy, r.steps_to_target, r.seconds);
  }
  std::printf("  target bahdanau >= 0.9: %s; bahdanau - rnn >= 0.3 (%.3f): %s\n", verdict(accuracy[1] >= 0.9),
              accuracy[1] - accuracy[0], verdict(accuracy[1] - accuracy[0] >= 0.3));
}

void family() {
  for (attn::TaskKind task : {attn::TaskKind::Reverse, attn::TaskKind::Translate}) {
    const bool reverse = task == attn::TaskKind::Reverse;
    std::printf("== family: luong on %s, 2000 steps; alignment: the strongest source = the reference (one right: the source after it), over 128 held-out\n",
                reverse ? "reverse 16" : "translate");
    bool all = true;
    for (attn::LuongScore score : {attn::LuongScore::Dot, attn::LuongScore::General, attn::LuongScore::Concat})
      for (attn::AttentionWindow window : {attn::AttentionWindow::Global, attn::AttentionWindow::Local})
        for (bool feeding : {true, false}) {
          attn::TrainerOptions o = base(task, attn::ModelKind::Luong);
          if (reverse) o.source_length = 16;
          o.score = score, o.window = window, o.input_feeding = feeding;
          attn::Trainer trainer(o);
          const Run r = train(trainer, 2000, 250, 0.9);
          const attn::AlignmentAgreement a = trainer.alignment_agreement(128);
          all = all && r.last.generated_accuracy >= 0.9;
          std::printf("  %-7s %-6s feeding %-3s generated %.3f (>= 0.9 at %4zu)  alignment %.3f, one right of it %.3f  %.1f s\n",
                      score == attn::LuongScore::Dot ? "dot" : score == attn::LuongScore::General ? "general" : "concat",
                      window == attn::AttentionWindow::Global ? "global" : "local", feeding ? "on" : "off",
                      r.last.generated_accuracy, r.steps_to_target, a.agreement, a.one_right, r.seconds);
        }
    std::printf("  target every luong variant >= 0.9: %s\n", verdict(all));
  }
}

void mask() {
  std::printf("== masking's reason: decoder on reverse 8, 1500 steps\n");
  for (bool causal : {false, true}) {
    attn::TrainerOptions o = base(attn::TaskKind::Reverse, attn::ModelKind::Decoder);
    o.causal = causal;
    attn::Trainer trainer(o);
    const Run r = train(trainer, 1500, 250, 0.9);
    const bool met = causal ? r.last.generated_accuracy >= 0.9
                            : r.last.accuracy >= 0.95 && r.last.generated_accuracy <= 0.5;
    std::printf("  causal %-5s teacher-forced %.3f  generated %.3f  (%.1f s)  %s\n", causal ? "true" : "false",
                r.last.accuracy, r.last.generated_accuracy, r.seconds, verdict(met));
  }
}

void positions() {
  std::printf("== positions: transformer on reverse 8, 1500 steps\n");
  for (attn::PositionKind kind : {attn::PositionKind::None, attn::PositionKind::Sinusoidal, attn::PositionKind::Learned}) {
    attn::TrainerOptions o = base(attn::TaskKind::Reverse, attn::ModelKind::Transformer);
    o.positions = kind;
    attn::Trainer trainer(o);
    const Run r = train(trainer, 1500, 250, 0.95);
    const char* name = kind == attn::PositionKind::None ? "none" : kind == attn::PositionKind::Sinusoidal ? "sinusoidal" : "learned";
    const bool met = kind == attn::PositionKind::None ? r.last.generated_accuracy <= 0.4
                     : kind == attn::PositionKind::Sinusoidal ? r.last.generated_accuracy >= 0.95 : true;
    std::printf("  %-10s generated %.3f  teacher-forced %.3f  (%.1f s)  %s\n", name, r.last.generated_accuracy,
                r.last.accuracy, r.seconds, verdict(met));
  }
}

void induction() {
  std::printf("== induction: decoder, attentionOnly, 3000 steps\n");
  for (std::size_t layers : {2u, 1u}) {
    attn::TrainerOptions o = base(attn::TaskKind::Induction, attn::ModelKind::Decoder);
    o.layers = layers;
    o.attention_only = true;
    if (const char* heads = std::getenv("INDUCTION_HEADS")) o.heads = std::strtoul(heads, nullptr, 10);
    attn::Trainer trainer(o);
    const Run r = train(trainer, 3000, 250, 0.9);
    const std::vector<attn::HeadScore> scores = trainer.head_scores();
    const attn::HeadScore* best = nullptr;
    for (const attn::HeadScore& s : scores) {
      std::printf("    layer %zu head %zu: previous-token %.3f  prefix-match %.3f\n", s.layer, s.head, s.previous_token,
                  s.prefix_match);
      if (best == nullptr || s.prefix_match > best->prefix_match) best = &s;
    }
    std::printf("  %zu layer(s): accuracy on the repeat %.3f (teacher forcing; >= 0.9 at step %zu; %.1f s)\n", layers,
                r.last.accuracy, r.steps_to_target, r.seconds);
    if (layers == 2) {
      const attn::HeadRef ablated{"", best->layer, best->head};
      const attn::Evaluation without = trainer.evaluate(std::span<const attn::HeadRef>(&ablated, 1));
      std::printf("  best prefix-match head: layer %zu head %zu (%.3f); accuracy with it ablated %.3f (cost %.3f)\n",
                  best->layer, best->head, best->prefix_match, without.accuracy, r.last.accuracy - without.accuracy);
      std::printf("  targets: layer-2 head prefix-match >= 0.4 %s; accuracy >= 0.9 %s; ablation costs >= 0.3 %s\n",
                  verdict(best->layer == 1 && best->prefix_match >= 0.4), verdict(r.last.accuracy >= 0.9),
                  verdict(r.last.accuracy - without.accuracy >= 0.3));
    } else {
      std::printf("  target 1 layer <= 0.5: %s\n", verdict(r.last.accuracy <= 0.5));
    }
  }
}

void translate() {
  std::printf("== translate (optional words, SVO -> SOV with particles), 3000 steps\n");
  for (attn::ModelKind model : {attn::ModelKind::Bahdanau, attn::ModelKind::Transformer}) {
    attn::Trainer trainer(base(attn::TaskKind::Translate, model));
    const Run r = train(trainer, 3000, 500, 0.95);
    // The alignment over held-out sentences: every content word's strongest source against the reference.
    std::printf("  %-11s generated %.3f  sequences %.3f  (>= 0.95 at %zu; %.1f s)\n",
                std::string(attn::model_name(model)).c_str(), r.last.generated_accuracy, r.last.sequence_accuracy,
                r.steps_to_target, r.seconds);
    const attn::AlignmentAgreement a = trainer.alignment_agreement(512);
    std::printf("    alignment: strongest source = reference for %.3f of %zu content words of %zu held-out sentences%s\n",
                a.agreement, a.positions, a.examples,
                model == attn::ModelKind::Bahdanau ? (a.agreement >= 0.9 ? "  (target >= 0.9: met)" : "  (target >= 0.9: NOT MET)")
                                                   : " (the last cross-attention, heads averaged)");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      g_seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      wanted.push_back(arg);
    }
  }
  const std::vector<std::pair<std::string, std::function<void()>>> experiments = {
      {"bottleneck", bottleneck}, {"family", family}, {"mask", mask},
      {"positions", positions}, {"induction", induction}, {"translate", translate}};
  for (const auto& [name, run] : experiments) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    run();
    std::fflush(stdout);
  }
  return 0;
}
