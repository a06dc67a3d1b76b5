// The CUDA kernels are compiled for every configured architecture: every fat binary embedded in each GPU
// probe (one per .cu translation unit) carries SASS (ELF) for each "-real" arch and PTX for each
// "-virtual" one of GPUCHECK_CUDA_ARCHS. Read from the binaries themselves (no cuobjdump here).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Fatbin {
  std::set<unsigned> sass, ptx;
};

// Fat binary container: 16-byte header (magic 0xBA55ED50, version 1, header size, payload size), then
// entries: u16 kind (1 = PTX, 2 = ELF), u16 version, u32 header size, u64 payload size, ..., u32 arch at +28.
std::vector<Fatbin> read_fatbins(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<unsigned char> b((std::istreambuf_iterator<char>(f)), {});
  std::vector<Fatbin> out;
  const unsigned char magic[4] = {0x50, 0xed, 0x55, 0xba};
  for (std::size_t i = 0; i + 16 <= b.size(); ++i) {
    if (std::memcmp(&b[i], magic, 4) != 0) continue;
    std::uint16_t version, hsize;
    std::uint64_t size;
    std::memcpy(&version, &b[i + 4], 2);
    std::memcpy(&hsize, &b[i + 6], 2);
    std::memcpy(&size, &b[i + 8], 8);
    if (version != 1 || hsize != 16 || i + 16 + size > b.size()) continue;
    Fatbin fb;
    for (std::size_t j = i + 16; j + 32 <= i + 16 + size;) {
      std::uint16_t kind;
      std::uint32_t ehs, arch;
      std::uint64_t psz;
      std::memcpy(&kind, &b[j], 2);
      std::memcpy(&ehs, &b[j + 4], 4);
      std::memcpy(&psz, &b[j + 8], 8);
      std::memcpy(&arch, &b[j + 28], 4);
      if (kind == 2) fb.sass.insert(arch);
      else if (kind == 1) fb.ptx.insert(arch);
      if (ehs == 0) break;
      j += ehs + psz;
    }
    out.push_back(fb);
    i += 16 + size - 1;
  }
  return out;
}

}  // namespace

TEST(CudaFatbin, EveryKernelTranslationUnitCoversEveryConfiguredArch) {
  std::set<unsigned> want_sass, want_ptx;
  std::stringstream archs(GPUCHECK_CUDA_ARCHS);
  for (std::string a; std::getline(archs, a, ',');) {
    unsigned n = std::stoul(a);
    if (a.find("-virtual") != std::string::npos) want_ptx.insert(n);
    else if (a.find("-real") != std::string::npos) want_sass.insert(n);
    else want_sass.insert(n), want_ptx.insert(n);
  }
  ASSERT_FALSE(want_sass.empty()) << GPUCHECK_CUDA_ARCHS;
  for (const char* probe : {"kernels.adam", "kernels.cross_entropy", "kernels.inf_nan", "device.memory", "device.copy",
                            "cublas.gemm", "stress.gemm"}) {
    std::string path = std::string(GPUCHECK_STAGE_PROBES) + "/" + probe;
    auto fatbins = read_fatbins(path);
    ASSERT_FALSE(fatbins.empty()) << path << " has no fat binary";
    for (auto& fb : fatbins) {
      EXPECT_EQ(fb.sass, want_sass) << probe;
      EXPECT_EQ(fb.ptx, want_ptx) << probe;
    }
  }
}
