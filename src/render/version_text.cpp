// `gpucheck version`: the version and what this build supports, from the report's typed details.
#include "render/text_blocks.h"

namespace gpucheck::render::text {

void version(const model::VersionDetails& d, std::ostream& out) {
  auto yes_no = [](bool built) { return built ? "yes" : "no"; };
  out << "gpucheck " << d.version << "\n"
      << "  CUDA: " << (d.cuda ? d.cuda_compiler + " (archs " + d.cuda_architectures + ")" : std::string("not built"))
      << "\n"
      << "  NCCL: " << yes_no(d.nccl) << "\n"
      << "  LibTorch: " << yes_no(d.torch) << "\n";
}

}  // namespace gpucheck::render::text
