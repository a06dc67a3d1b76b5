#include "envtools/toolkit_install.h"

#include "core/errors.h"
#include "core/files.h"
#include "core/paths.h"
#include "core/shell_quote.h"
#include "core/text.h"
#include "knowledge/kb_schema.h"
#include "knowledge/version.h"

namespace gpucheck::envtools {
namespace {

const char* kNoDriver = "the driver and the other toolkits stay as they are";

}  // namespace

std::vector<ToolkitRunfile> load_toolkit_runfiles(const std::string& dir_in) {
  const std::string file = "toolkit_installers.json";
  const std::string path = (dir_in.empty() ? data_path("compat") : dir_in) + "/" + file;
  const nlohmann::json doc = read_json_file(path);
  if (auto errors = knowledge::validate_compat_document(doc, file); !errors.empty()) throw InputError(path + ": " + errors.front());
  std::vector<ToolkitRunfile> out;
  for (const auto& f : doc["runfiles"]) out.push_back({f["cuda"], f["release"], f["runfile"], f["url"]});
  return out;
}

std::optional<ToolkitRunfile> runfile_for(const std::vector<ToolkitRunfile>& runfiles, const std::string& cuda) {
  std::optional<ToolkitRunfile> best;
  for (const auto& r : runfiles)
    if ((r.cuda == cuda || starts_with(r.cuda, cuda + ".")) && (!best || knowledge::compare_versions(r.release, best->release) > 0))
      best = r;
  return best;
}

std::vector<Fix> toolkit_install_ways(const std::vector<ToolkitRunfile>& runfiles, const std::string& wanted,
                                      const InstallTools& tools) {
  auto v = knowledge::Version::parse(trim(wanted));
  if (!v) return {};
  const auto runfile = runfile_for(runfiles, v->parts.size() >= 2 ? v->major_minor() : std::to_string(v->part(0)));
  // The release to install: the recorded one of that major.minor (the last update), else X.Y.0.
  const std::string mm = runfile ? runfile->cuda : v->parts.size() >= 2 ? v->major_minor() : "";
  if (mm.empty()) return {};
  const std::string release = runfile ? runfile->release : mm + ".0";
  const std::string prefix = "/opt/cuda-" + mm;
  std::vector<Fix> ways;

  Fix conda;
  const std::string channel = "nvidia/label/cuda-" + release;
  conda.summary = "conda: NVIDIA's CUDA " + release + " packages (channel " + channel + ") in a prefix of their own";
  if (tools.conda)
    conda.commands = {"conda create -y -p " + shell_quote(prefix) + " -c " + shell_quote(channel) + " cuda-toolkit"};
  else
    conda.summary += " (conda is not on PATH here: with Miniforge, `conda create -p " + prefix + " -c " + channel +
                     " cuda-toolkit`)";
  conda.cost = "about 3 GB download; no root for a prefix you own; " + std::string(kNoDriver);
  ways.push_back(conda);

  Fix run;
  if (runfile) {
    run.summary = "NVIDIA's runfile, the toolkit only (--toolkit: not its driver), into " + prefix;
    if (tools.downloader == "curl") run.commands.push_back("curl -fLO " + shell_quote(runfile->url));
    else if (tools.downloader == "wget") run.commands.push_back("wget " + shell_quote(runfile->url));
    else run.summary += " (download " + runfile->url + ": no curl or wget here)";
    run.commands.push_back("sh " + shell_quote(runfile->runfile) + " --silent --toolkit --toolkitpath=" + shell_quote(prefix));
  } else {
    run.summary = "NVIDIA's runfile for CUDA " + mm + " (https://developer.nvidia.com/cuda-toolkit-archive), run as "
                  "`sh FILE --silent --toolkit --toolkitpath=" + prefix + "`: the toolkit only, not its driver";
  }
  run.cost = "about 4 GB download; root for " + prefix + "; " + std::string(kNoDriver);
  ways.push_back(run);

  Fix module;
  module.summary = "then a modulefile for it (and every other toolkit), and this shell switched to CUDA " + mm;
  module.commands = {tools.program + " modulefiles --dir ~/modulefiles"};
  if (!tools.modules.empty())
    module.commands.push_back("module use ~/modulefiles/" + tools.modules + " && module load cuda/" + mm);
  module.commands.push_back("eval \"$(" + tools.program + " use-cuda " + mm + ")\"");
  module.cost = "nothing to download";
  ways.push_back(module);

  for (std::size_t i = 0; i < ways.size(); ++i) ways[i].rank = static_cast<int>(i) + 1;
  return ways;
}

}  // namespace gpucheck::envtools
