// dcsim command line: parsing and exit codes only; each command lives in tools/cli/*_command.cpp.
// Exit codes: 0 success, 2 bad input (usage, scenario, data files), 1 internal error, 128 + N
// when signal N (SIGINT 130, SIGTERM 143) stopped a run.

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/cli/command.hpp"
#include "tools/run/interrupt.hpp"
#include "tools/version.hpp"

namespace {
constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitInput = 2;
}  // namespace

int main(int argc, char** argv) {
  using namespace dcsim;
  models::ModelRegistries registries;
  models::register_builtin_models(registries);
  const tools::cli::CommandContext context{registries};

  CLI::App app{"dcsim: discrete-event simulator of AI datacenters (compute, fabric, power, cost)"};
  app.set_version_flag("--version", std::string("dcsim ") + std::string(tools::version()));
  app.require_subcommand(1);
  const auto commands = tools::cli::add_all_commands(app, context);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitInput;
  }

  try {
    for (const auto& command : commands) {
      if (command.subcommand->parsed()) return command.action();
    }
  } catch (const tools::run::Interrupted& e) {
    std::cout.flush();
    std::cerr << "\ndcsim: " << e.what() << '\n';
    return e.exit_code();
  } catch (const sim::InputErrors& e) {
    std::cout.flush();
    for (const auto& m : e.messages()) std::cerr << "dcsim: error: " << m << '\n';
    return kExitInput;
  } catch (const sim::InputError& e) {
    std::cout.flush();
    std::cerr << "dcsim: error: " << e.what() << '\n';
    return kExitInput;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "dcsim: internal error: " << e.what() << '\n';
    return kExitInternal;
  }
  return kExitOk;
}
