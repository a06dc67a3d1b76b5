#include "inventory/device_helper.h"

#include <unistd.h>

#include <sstream>

#include "core/json_input.h"
#include "core/paths.h"
#include "core/subprocess.h"

namespace gpucheck::inventory {

std::string device_helper_path() {
  std::string p = probe_dir() + "/gpucheck-gpuinfo";
  return access(p.c_str(), X_OK) == 0 ? p : "";
}

DeviceHelperReply ask_device_helper(const std::vector<std::string>& what) {
  DeviceHelperReply reply;
  std::string helper = device_helper_path();
  if (helper.empty()) {
    reply.failure = "gpucheck-gpuinfo helper not installed in " + probe_dir();
    return reply;
  }
  std::vector<std::string> argv = {helper};
  argv.insert(argv.end(), what.begin(), what.end());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(60);  // nvmlInit without persistence mode can take seconds per GPU
  o.stdout_limit = 1u << 20;
  auto res = run_subprocess(argv, o);
  std::istringstream in(res.out);
  std::string line;
  while (std::getline(in, line)) {
    auto j = parse_json_or_discarded(line);
    if (!j.is_discarded() && j.is_object()) reply.lines.push_back(std::move(j));
  }
  if (!res.ok()) reply.failure = "gpucheck-gpuinfo " + res.describe();
  return reply;
}

}  // namespace gpucheck::inventory
