#pragma once
// `gpucheck doctor --for PACKAGE[==VERSION]`: will it install and run here, and the ranked ways to get
// there, before anything is downloaded or compiled.
#include <string>
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "checks/doctor/finding.h"

namespace gpucheck::compat {

struct PackageRequest {
  std::string name;     // normalized: "flash-attn"
  std::string version;  // "" = the newest release the knowledge base describes
};

/// "bmtrain", "bmtrain==0.2.2", "flash_attn==2.7.4.post1". Throws InputError for other specifiers or a
/// package the knowledge base does not describe (with a did-you-mean).
PackageRequest parse_package_request(const std::string& text, const KnowledgeBase& kb);

struct InstallPlan {
  std::string package, version;      // version "" when none was asked for
  std::string verdict;               // "installs", "fails as asked; installs by a path below", "no known path"
  std::string build;                 // "prebuilt wheel" or "source build (torch_cpp_extension)"
  std::vector<std::string> toolkits; // every toolkit found: "11.8 at /usr/local/cuda-11.8 (nvcc ...)"
  std::vector<Finding> findings;     // why the plain `pip install` would fail or misbehave
  std::vector<FixStep> paths;        // ranked install paths, each with exact commands and its cost
};

InstallPlan plan_install(const DoctorContext& ctx, const PackageRequest& request);

void to_json(nlohmann::json& j, const InstallPlan& p);

}  // namespace gpucheck::compat
