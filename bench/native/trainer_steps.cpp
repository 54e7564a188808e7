// trainer_steps — attn::Trainer natively, served one command at a time over
// stdin and stdout: the native contender of the Node training race
// (bench/race/training/contenders.mjs), so that its steps interleave call by
// call with the wasm contenders and tfjs in the same minutes of the shared
// machine (the ratio native / wasm is then paired by round like the others).
//   build/bench/native/trainer_steps name=value ...
// The trainer's options by their JavaScript names, set through the core's
// option table (attn/trainer_options.hpp): task=reverse seed=42 model=transformer sourceLength=16.
// Commands, one per line; each answer is one line:
//   steps N   N training steps -> "<last loss> <CPU seconds of this thread for the N steps>"
//   label     -> what runs (the kernel variant, the model's options)
// Errors print "error: <message>" and the program goes on; it ends at end of input.
// One thread: the engine's layers and products run on the calling thread (no
// thread pool); the CPU seconds it answers let the race see that CPU ~ wall time.
#include <cstdio>
#include <ctime>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "attn/attn.hpp"
#include "attn/testing.hpp"

namespace {

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// "name=value" -> the option set by the table's kind of that name.
void set_option(attn::TrainerOptions& options, std::string_view argument) {
  const std::size_t equals = argument.find('=');
  if (equals == std::string_view::npos) throw attn::ValueError("expected name=value, got '" + std::string(argument) + "'");
  const std::string name(argument.substr(0, equals)), text(argument.substr(equals + 1));
  for (const attn::TrainerOption& option : attn::trainer_option_table()) {
    if (name != option.name) continue;
    switch (option.kind) {
      case attn::OptionKind::Flag: return attn::set_trainer_option(options, name, text == "true");
      case attn::OptionKind::Count:
      case attn::OptionKind::Number: return attn::set_trainer_option(options, name, std::stod(text));
      default: return attn::set_trainer_option(options, name, text);
    }
  }
  attn::set_trainer_option(options, name, text);  // the table's error for an unknown name
}

std::string label_of(const attn::Trainer& trainer) {
  const attn::TrainerOptions& o = trainer.options();
  std::ostringstream out;
  out << "native attn::Trainer (installed package, " << attn::testing::active_kernel_variant().name
      << " kernels, one thread) in a child process, driven over a pipe: Trainer::step(count), the fused C++ step";
  if (o.layers) out << "; layers " << *o.layers;
  out << ", d_model " << *o.d_model << ", heads " << *o.heads << ", batch " << *o.batch_size;
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    attn::TrainerOptions options;
    for (int i = 1; i < argc; ++i) set_option(options, argv[i]);
    attn::Trainer trainer(options, attn::OptionNames::JavaScript);
    std::string line;
    while (std::getline(std::cin, line)) {
      std::istringstream command(line);
      std::string verb;
      command >> verb;
      try {
        if (verb == "steps") {
          std::size_t count = 0;
          command >> count;
          const double start = thread_cpu_seconds();
          const attn::TrainingStep step = trainer.step(count);
          std::printf("%.17g %.9f\n", step.loss, thread_cpu_seconds() - start);
        } else if (verb == "label") {
          std::printf("%s\n", label_of(trainer).c_str());
        } else {
          std::printf("error: unknown command '%s' (steps N, label)\n", verb.c_str());
        }
      } catch (const std::exception& e) {
        std::printf("error: %s\n", e.what());
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trainer_steps: %s\n", e.what());
    return 2;
  }
}
