#pragma once
// `gpucheck doctor --for PACKAGE[==VERSION]`: why the plain `pip install` of an extension would fail or
// misbehave here (install.* findings), before anything is downloaded or compiled. The ranked ways to get
// there are the planner's (checks/planner/resolver.h).
#include <optional>
#include <string>
#include <vector>

#include "checks/doctor/doctor_context.h"
#include "core/finding.h"

namespace gpucheck::doctor {

struct PackageRequest {
  std::string name;     // normalized: "flash-attn"
  std::string version;  // "" = the newest release the knowledge base describes
};

/// "bmtrain", "bmtrain==0.2.2", "flash_attn==2.7.4.post1". Throws InputError for other specifiers or a
/// package the knowledge base does not describe (with a did-you-mean).
PackageRequest parse_package_request(const std::string& text, const knowledge::KnowledgeBase& kb);

/// What the plan concludes, for machines; verdict_text() says it for people.
enum class PlanVerdict {
  kInstalls,        // the plain install works as asked
  kInstallsByPath,  // it fails as asked, and a ranked path below gets there
  kNoPath,          // no known path on this machine
};

/// "installs", "installs_by_path", "no_path".
const char* to_string(PlanVerdict v);
/// The inverse of to_string; nullopt for any other text.
std::optional<PlanVerdict> parse_plan_verdict(const std::string& name);
/// "installs", "fails as asked; installs by a path below", "no known path on this machine".
const char* verdict_text(PlanVerdict v);

struct InstallPlan {
  std::string package, version;      // version "" when none was asked for
  std::string build;                 // "prebuilt wheel" or "source build (torch_cpp_extension)"
  PlanVerdict verdict = PlanVerdict::kNoPath;
  std::vector<Finding> findings;     // why the plain `pip install` would fail or misbehave
  // The ranked install paths are the planner's (checks/planner), which honours every pin at once.
};

InstallPlan plan_install(const DoctorContext& ctx, const PackageRequest& request);

/// The release to offer before a build of `ext` `version`: when that release compiles here (sdist or source)
/// and another row of the package ships a prebuilt wheel for the judged Python, that row's recommended
/// release ("0.2.3.post2" for bmtrain 0.2.2); "" otherwise. explain's fixes offer the same wheel
/// (kb_wheel_release), so both commands rank an existing prebuilt wheel first.
std::string prebuilt_instead(const DoctorContext& ctx, const knowledge::ExtensionInfo& ext, const std::string& version);

}  // namespace gpucheck::doctor
