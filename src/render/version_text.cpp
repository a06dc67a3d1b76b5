// `gpucheck version`: the version and what this build supports, from the report's details.
#include "render/text_blocks.h"

namespace gpucheck::render::text {

void version(const report::Report& r, std::ostream& out, const RenderOptions&) {
  const nlohmann::json& d = r.details.is_object() ? r.details : nlohmann::json::object();
  auto yes_no = [&](const char* key) { return d.value(key, false) ? "yes" : "no"; };
  out << "gpucheck " << d.value("version", r.meta.tool_version) << "\n"
      << "  CUDA: "
      << (d.value("cuda", false) ? d.value("cuda_compiler", "") + " (archs " + d.value("cuda_architectures", "") + ")"
                                 : std::string("not built"))
      << "\n"
      << "  NCCL: " << yes_no("nccl") << "\n"
      << "  LibTorch: " << yes_no("torch") << "\n";
}

}  // namespace gpucheck::render::text
