// symshape command-line entry point: dispatches to the registered subcommands.
#include <fmt/core.h>

#include "cli/commands.h"
#include "core/error.h"

namespace symshape::cli {
ExitCode& exit_code() {
  static ExitCode code = 0;
  return code;
}
}  // namespace symshape::cli

int main(int argc, char** argv) {
  CLI::App app{"symshape: symbolic shapes, guards and fake-tensor propagation for ATen graphs"};
  app.require_subcommand(1);
  symshape::cli::register_expr(app);
  symshape::cli::register_graph_commands(app);
  symshape::cli::register_conform(app);
  symshape::cli::register_prop_commands(app);
  symshape::cli::register_corpus_commands(app);
  symshape::cli::register_eval(app);
  symshape::cli::register_spec(app);
  symshape::cli::register_report(app);
  symshape::cli::register_dynamism(app);
  symshape::cli::register_infer(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const symshape::Error& e) {
    fmt::print(stderr, "error: {}: {}\n", symshape::error_kind_name(e.kind()), e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return symshape::cli::exit_code();
}
