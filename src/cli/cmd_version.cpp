#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "gpucheck/build_info.h"

namespace gpucheck::cli {
namespace {

Runner setup_version(CLI::App& sub, GlobalOptions& g) {
  sub.footer("Prints the gpucheck version and how it was built (CUDA, NCCL, LibTorch support).");
  return [&g] {
    nlohmann::json j = {{"version", build::kVersion},
                        {"cuda_compiler", build::kCudaCompilerVersion},
                        {"cuda_architectures", build::kCudaArchitectures},
                        {"cuda", build::kHaveCuda},
                        {"nccl", build::kHaveNccl},
                        {"torch", build::kHaveTorch}};
    if (g.json) {
      emit_document(g, j.dump(2) + "\n");
    } else {
      std::cout << "gpucheck " << build::kVersion << "\n"
                << "  CUDA: " << (build::kHaveCuda ? std::string(build::kCudaCompilerVersion) + " (archs " +
                                                         build::kCudaArchitectures + ")"
                                                   : std::string("not built")) << "\n"
                << "  NCCL: " << (build::kHaveNccl ? "yes" : "no") << "\n"
                << "  LibTorch: " << (build::kHaveTorch ? "yes" : "no") << "\n";
    }
    return 0;
  };
}

Registration reg({"version", "Version and build configuration", 90, &setup_version});

}  // namespace
}  // namespace gpucheck::cli
