// Runs a fuzz target without libFuzzer: every seed (files, and the files under directories), then a fixed number of
// deterministic mutations of them (byte flips, truncations, extensions, 32/64-bit size fields set to
// extreme values). A crash or sanitizer report fails the ctest.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);  // optional, as in libFuzzer

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SEED_FILE_OR_DIR... ITERATIONS\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> seeds;
  auto add = [&](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  for (int a = 1; a + 1 < argc; ++a) {
    if (!std::filesystem::is_directory(argv[a])) {
      add(argv[a]);
      continue;
    }
    for (const auto& e : std::filesystem::recursive_directory_iterator(argv[a]))
      if (e.is_regular_file()) add(e.path());
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "no seeds in %s\n", argv[1]);
    return 2;
  }
  for (const auto& s : seeds) LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  long iterations = std::atol(argv[argc - 1]);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (long i = 0; i < iterations; ++i) {
    std::string b = seeds[next() % seeds.size()];
    int edits = 1 + static_cast<int>(next() % 8);
    for (int k = 0; k < edits && !b.empty(); ++k) {
      std::size_t at = next() % b.size();
      switch (next() % 6) {
        case 0: b[at] = static_cast<char>(next()); break;
        case 1: b.resize(at); break;
        case 2: b.append(next() % 64, static_cast<char>(next())); break;
        case 3: if (at + 4 <= b.size()) { std::uint32_t v = static_cast<std::uint32_t>(next() % 3 == 0 ? 0xFFFFFFFFu : next()); std::memcpy(&b[at], &v, 4); } break;
        case 4: if (at + 8 <= b.size()) { std::uint64_t v = next() % 2 ? ~0ull : next() % 4096; std::memcpy(&b[at], &v, 8); } break;
        default: b[at] ^= static_cast<char>(1u << (next() % 8)); break;
      }
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(b.data()), b.size());
  }
  std::printf("%zu seeds, %ld mutated inputs: no crash\n", seeds.size(), iterations);
  return 0;
}
