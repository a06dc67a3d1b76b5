#include "checks/explain/knowledge_facts.h"

#include <cctype>
#include <memory>

#include "knowledge/knowledge_base.h"
#include "core/errors.h"
#include "core/text.h"

namespace gpucheck::explain {
namespace {

std::optional<std::string> nonempty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// "sm_50", "compute_35", "lto_90", "8.6" -> "5.0", "3.5", "9.0", "8.6".
std::string capability(const std::string& arch) {
  auto us = arch.find('_');
  std::string digits = us == std::string::npos ? arch : arch.substr(us + 1);
  if (digits.find('.') != std::string::npos) return digits;
  while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();  // 90a
  if (digits.size() < 2) return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

// The newest torch release with a build for this CUDA major.minor, and that build.
std::pair<const compat::TorchRelease*, const compat::TorchBuild*> torch_for_cuda(const compat::KnowledgeBase& kb,
                                                                              const std::string& cuda) {
  std::string mm = major_minor(cuda);
  if (mm.empty()) return {nullptr, nullptr};
  auto releases = kb.torch_releases_with_cuda(mm);
  if (releases.empty()) return {nullptr, nullptr};
  return {releases.front(), releases.front()->build_for_cuda(mm)};
}

// The prebuilt-wheel row of an extension that the knowledge base recommends pinning.
const compat::ExtensionRelease* wheel_release(const compat::KnowledgeBase& kb, const std::string& package) {
  const auto* ext = kb.extension(package);
  if (!ext) return nullptr;
  const compat::ExtensionRelease* found = nullptr;
  for (const auto& r : ext->releases)
    if (r.distribution == "wheel" && !r.recommended.empty()) found = &r;
  return found;
}

std::optional<std::string> answer(const compat::KnowledgeBase& kb, const std::string& fn,
                                  const std::vector<std::string>& args) {
  if (args.size() != 1) return std::nullopt;
  const std::string& a = args[0];
  if (fn == "kb_torch_index") {
    auto [rel, build] = torch_for_cuda(kb, a);
    return build ? nonempty(build->index_url) : std::nullopt;
  }
  if (fn == "kb_torch_install") {
    auto [rel, build] = torch_for_cuda(kb, a);
    return rel && build ? nonempty(rel->install_command(*build)) : std::nullopt;
  }
  if (fn == "kb_min_driver") {
    auto d = kb.driver_minimum(major_minor(a).empty() ? a : major_minor(a));
    return d ? nonempty(d->min_driver) : std::nullopt;
  }
  if (fn == "kb_max_gcc") {
    auto h = kb.host_compilers(major_minor(a));
    return h && h->gcc_max > 0 ? std::optional<std::string>(std::to_string(h->gcc_max)) : std::nullopt;
  }
  if (fn == "kb_last_cuda_for_arch") {
    auto info = kb.arch(capability(a));
    return info ? nonempty(info->last_cuda) : std::nullopt;
  }
  if (fn == "kb_wheel_release") {
    const auto* r = wheel_release(kb, a);
    return r ? nonempty(r->recommended) : std::nullopt;
  }
  if (fn == "kb_wheel_pythons") {
    const auto* r = wheel_release(kb, a);
    return r ? nonempty(join(r->wheel_pythons, ", ")) : std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

KnowledgeCall load_knowledge_facts(std::string& note, const std::string& dir) {
  std::shared_ptr<compat::KnowledgeBase> kb;
  try {
    kb = std::make_shared<compat::KnowledgeBase>(compat::KnowledgeBase::load(dir));
  } catch (const InputError& e) {
    note = std::string("compat knowledge base not loaded (") + e.what() + "): fixes are given without version facts";
    return {};
  }
  note.clear();
  return [kb](const std::string& fn, const std::vector<std::string>& args) { return answer(*kb, fn, args); };
}

}  // namespace gpucheck::explain
