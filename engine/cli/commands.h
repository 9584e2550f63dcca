#pragma once
// Each CLI subcommand lives in its own cmd_<name>.cpp and registers itself here.
// A registrar adds its subcommand to the app and sets the callback; the callback's
// return value is the process exit status.
#include <CLI/CLI.hpp>
#include <functional>

namespace symshape::cli {

using ExitCode = int;
// The callback chosen by the parsed subcommand stores its status here.
ExitCode& exit_code();

void register_expr(CLI::App& app);
void register_graph_commands(CLI::App& app);  // convert, pack, validate
void register_prop_commands(CLI::App& app);   // prop, guards, bench-prop
void register_conform(CLI::App& app);
void register_corpus_commands(CLI::App& app);  // corpus, merge
void register_eval(CLI::App& app);             // eval, examples
void register_spec(CLI::App& app);             // spec check
void register_report(CLI::App& app);           // report
void register_dynamism(CLI::App& app);         // dynamism
void register_infer(CLI::App& app);            // infer

}  // namespace symshape::cli
