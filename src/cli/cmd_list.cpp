#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/paths.h"
#include "core/text.h"
#include "runner/catalog.h"

namespace gpucheck::cli {
namespace {

Runner setup_list(CLI::App& sub, GlobalOptions& g) {
  sub.footer("Lists the probes this installation has, with their levels and timeouts.\n"
             "Example: gpucheck list --json | jq '.[].id'");
  return [&g] {
    auto catalog = runner::load_catalog(data_path("probes"), probe_dir());
    if (g.json) {
      nlohmann::json j = nlohmann::json::array();
      for (auto& p : catalog)
        j.push_back({{"id", p.id}, {"title", p.title}, {"description", p.description}, {"levels", p.levels},
                     {"timeout_s", p.timeout_s}, {"tags", p.tags}, {"executable", p.executable}});
      emit_document(g, j.dump(2) + "\n");
      return 0;
    }
    std::cout << fmt::format("{:<24} {:<22} {:>8}  {}\n", "ID", "LEVELS", "TIMEOUT", "TITLE");
    for (auto& p : catalog)
      std::cout << fmt::format("{:<24} {:<22} {:>7.0f}s  {}\n", p.id, join(p.levels, ","), p.timeout_s, p.title);
    return 0;
  };
}

Registration reg({"list", "List the available probes", 15, &setup_list});

}  // namespace
}  // namespace gpucheck::cli
