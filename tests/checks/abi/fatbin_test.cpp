// CUDA device code: objects and shared libraries compiled here by the real nvcc (sm_80 only, sm_90 +
// compute_90 PTX, compressed fatbins, -rdc), parsed back exactly; verdicts for sm_75/80/86/90/100; the
// real cuBLASLt parsed completely; corrupt fatbins rejected cleanly; cross-check with NVIDIA's cuobjdump
// from PyPI (nvidia-cuda-cuobjdump) in a temporary venv.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <thread>

#include "checks/abi/audit.h"
#include "checks/abi/cuda_verdict.h"
#include "checks/abi/fatbin.h"
#include "checks/abi/fatbin_cache.h"
#include "core/files.h"
#include "audit_helpers.h"

using namespace gpucheck::abi;
using namespace gpucheck::platform;
using namespace abitest;

namespace {

const std::string kNvcc = "/usr/local/cuda/bin/nvcc";
const std::string kKernel = R"(__global__ void add(float* a, float b) { a[threadIdx.x] += b; }
extern "C" void launch(float* a) { add<<<1, 32>>>(a, 1.0f); }
)";

class FatbinTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(kNvcc)) return;
    t = new TempDir();
    fixtures = shared_fixture_dir("nvcc", [](const std::string& d) {
      write_file(d + "/k.cu", kKernel);
      auto nvcc = [&](const std::string& out, std::vector<std::string> flags) {
        std::vector<std::string> argv{kNvcc, "-Xcompiler", "-fPIC", d + "/k.cu", "-o", d + "/" + out};
        argv.insert(argv.begin() + 1, flags.begin(), flags.end());
        run_ok(argv);
      };
      nvcc("sm80.o", {"-c", "-gencode", "arch=compute_80,code=sm_80"});
      nvcc("sm90ptx.o", {"-c", "-gencode", "arch=compute_90,code=[sm_90,compute_90]"});
      nvcc("sm90ptx_z.o", {"-c", "-gencode", "arch=compute_90,code=[sm_90,compute_90]", "-Xfatbin", "-compress-all"});
      nvcc("rdc.o", {"-c", "-rdc=true", "-gencode", "arch=compute_80,code=sm_80"});
      nvcc("libsm80.so", {"-shared", "-gencode", "arch=compute_80,code=sm_80"});
      nvcc("k.ptx", {"-ptx", "-arch=compute_90"});
    });
    std::smatch m;
    std::string ptx = read_bytes(fixtures + "/k.ptx");
    if (std::regex_search(ptx, m, std::regex(R"(\.version (\d+)\.(\d+))"))) ptx_isa = m[1].str() + "." + m[2].str();
  }
  static void TearDownTestSuite() { delete t; }
  void SetUp() override {
    if (!t) GTEST_SKIP() << kNvcc << " not installed";
  }
  static std::vector<FatbinEntry> entries(const std::string& file, const std::string& section = ".nv_fatbin") {
    auto o = ElfObject::open(fixtures + "/" + file);
    return parse_fatbin(o->section_bytes(section));
  }
  static std::string f(const std::string& file) { return fixtures + "/" + file; }
  static TempDir* t;        // scratch space of this process
  static std::string fixtures;  // nvcc outputs, shared
  static std::string ptx_isa;  // what this nvcc writes into PTX (".version 9.0")
};
TempDir* FatbinTest::t = nullptr;
std::string FatbinTest::fixtures;
std::string FatbinTest::ptx_isa;

std::vector<std::string> verdicts(const std::vector<FatbinEntry>& e, int driver = 0) {
  PtxIsaTable ptx = PtxIsaTable::load();
  std::vector<std::string> out;
  for (const char* g : {"sm_75", "sm_80", "sm_86", "sm_90", "sm_100"}) {
    GpuTarget gpu = parse_gpu_spec(g);
    gpu.driver_cuda = driver;
    out.push_back(std::string(g) + "=" + to_string(judge(gpu, e, ptx).verdict));
  }
  return out;
}

TEST_F(FatbinTest, Sm80OnlyObject) {
  auto e = entries("sm80.o");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].kind, FatbinKind::kSass);
  EXPECT_EQ(e[0].target(), "sm_80");
  EXPECT_FALSE(e[0].compressed);
  EXPECT_EQ(verdicts(e), (std::vector<std::string>{"sm_75=none", "sm_80=native", "sm_86=native", "sm_90=none", "sm_100=none"}));
  // The same code in a shared library, as the audit sees it; sm_90 predicted to fail.
  auto r = audit_one(f("libsm80.so"));
  ASSERT_EQ(r.fatbins.size(), 1u);
  ASSERT_GE(r.fatbins[0].entries.size(), 1u);  // the kernel, plus what libcudart_static brings
  for (const auto& x : r.fatbins[0].entries) EXPECT_EQ(x.target(), "sm_80");
}

TEST_F(FatbinTest, Sm90WithPtx) {
  auto e = entries("sm90ptx.o");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].target(), "sm_90");
  EXPECT_EQ(e[1].target(), "compute_90");
  EXPECT_EQ(std::to_string(e[1].ptx_major) + "." + std::to_string(e[1].ptx_minor), ptx_isa);
  EXPECT_EQ(verdicts(e), (std::vector<std::string>{"sm_75=none", "sm_80=none", "sm_86=none", "sm_90=native", "sm_100=ptx_jit"}));
  // A driver older than the PTX ISA: the JIT cannot take it.
  EXPECT_EQ(verdicts(e, 12040)[4], "sm_100=ptx_too_new");
  GpuVerdict none = judge(parse_gpu_spec("sm_80"), e, PtxIsaTable::load());
  EXPECT_NE(none.detail.find("cudaErrorNoKernelImageForDevice"), std::string::npos);
}

TEST_F(FatbinTest, CompressedFatbin) {
  auto plain = entries("sm90ptx.o");
  auto z = entries("sm90ptx_z.o");
  ASSERT_EQ(z.size(), 2u);
  EXPECT_FALSE(plain[0].compressed);
  EXPECT_TRUE(z[0].compressed);
  EXPECT_EQ(z[0].target(), "sm_90");
  EXPECT_LT(z[0].payload_size, z[0].uncompressed_size);
  EXPECT_EQ(z[0].uncompressed_size, plain[0].payload_size);  // the same cubin, compressed
  EXPECT_EQ(verdicts(z), verdicts(plain));
}

TEST_F(FatbinTest, RelocatableFatbin) {
  auto o = ElfObject::open(f("rdc.o"));
  EXPECT_TRUE(o->section_bytes(".nv_fatbin").empty());
  auto e = entries("rdc.o", "__nv_relfatbin");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].target(), "sm_80");
  auto f = read_fatbins(*o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].section, "__nv_relfatbin");
}

TEST(FatbinReal, CublasLtParsesCompletely) {
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so";
  if (!fs::exists(lib)) GTEST_SKIP() << lib << " not installed";
  auto o = ElfObject::open(lib);
  auto sec = o->section_source(".nv_fatbin");  // read through pread, headers only
  ASSERT_GT(sec.size(), 1u << 20);
  auto e = parse_fatbin(sec);  // throws on any inconsistency, including a size that ends past the section
  EXPECT_GT(e.size(), 1000u);
  std::set<std::string> sass;
  std::size_t ptx = 0;
  for (const auto& x : e) {
    ASSERT_TRUE(x.kind == FatbinKind::kSass || x.kind == FatbinKind::kPtx) << x.raw_kind << " at " << x.offset;
    ASSERT_GE(x.arch, 50u);
    ASSERT_LE(x.arch, 130u);
    if (x.kind == FatbinKind::kSass) sass.insert(x.target());
    else ++ptx;
  }
  for (const char* a : {"sm_80", "sm_90", "sm_100"}) EXPECT_TRUE(sass.count(a)) << a;
  EXPECT_GT(ptx, 0u);
}

// The entries remembered for an unchanged file are exactly those parsed; another identity (the file
// rewritten, even with the same bytes), a cache cut short, or a field out of range means none.
TEST_F(FatbinTest, RememberedEntriesAreThoseParsedAndOnlyForTheSameFile) {
  const std::string real = "/usr/local/cuda/lib64/libcublasLt.so";
  if (!fs::exists(real) || !t) GTEST_SKIP() << real << " or nvcc not installed";
  const std::string dir = t->path + "/cache", lib = fixtures + "/sm90ptx.o";
  auto o = ElfObject::open(real);
  const auto parsed = parse_fatbin(o->section_source(".nv_fatbin"));
  EXPECT_FALSE(cached_fatbin(real, ".nv_fatbin", dir));
  remember_fatbin(real, ".nv_fatbin", parsed, dir);
  auto again = cached_fatbin(real, ".nv_fatbin", dir);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->size(), parsed.size());
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const auto &a = parsed[i], &b = (*again)[i];
    ASSERT_TRUE(a.kind == b.kind && a.raw_kind == b.raw_kind && a.arch == b.arch && a.suffix == b.suffix &&
                a.ptx_major == b.ptx_major && a.ptx_minor == b.ptx_minor && a.compressed == b.compressed &&
                a.payload_size == b.payload_size && a.uncompressed_size == b.uncompressed_size &&
                a.flags == b.flags && a.offset == b.offset)
        << "entry " << i;
  }
  EXPECT_FALSE(cached_fatbin(real, "__nv_relfatbin", dir));  // another section
  // A copy of an object with device code: remembered, then rewritten with the same bytes (new ctime).
  const std::string copy = t->path + "/copy.o";
  fs::copy_file(lib, copy, fs::copy_options::overwrite_existing);
  auto co = ElfObject::open(copy);
  remember_fatbin(copy, ".nv_fatbin", parse_fatbin(co->section_source(".nv_fatbin")), dir);
  ASSERT_TRUE(cached_fatbin(copy, ".nv_fatbin", dir));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // timestamps are kept at the clock tick
  fs::copy_file(lib, copy, fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cached_fatbin(copy, ".nv_fatbin", dir));
  // The cache file itself cut short or with a kind out of range: not read.
  remember_fatbin(copy, ".nv_fatbin", parse_fatbin(ElfObject::open(copy)->section_source(".nv_fatbin")), dir);
  ASSERT_TRUE(cached_fatbin(copy, ".nv_fatbin", dir));
  std::string cache_path;
  for (const auto& f : fs::directory_iterator(dir))
    if (gpucheck::read_file(f.path().string(), 1 << 20).find(copy + "|") != std::string::npos) cache_path = f.path();
  ASSERT_FALSE(cache_path.empty());
  const std::string bytes = gpucheck::read_file(cache_path, 1 << 20);
  write_file(cache_path, bytes.substr(0, bytes.size() - 10));
  EXPECT_FALSE(cached_fatbin(copy, ".nv_fatbin", dir));
  std::string bad = bytes;
  bad[bytes.find('\n', bytes.find('\n', bytes.find('\n') + 1) + 1) + 1] = 7;  // the first record's kind
  write_file(cache_path, bad);
  EXPECT_FALSE(cached_fatbin(copy, ".nv_fatbin", dir));
  write_file(cache_path, bytes);
  EXPECT_TRUE(cached_fatbin(copy, ".nv_fatbin", dir));
}

// cuFFT registers its own kernels: ~24,000 fat binaries in .ldata, only an sm_75 cubin in .nv_fatbin. The
// data sections (278 MB) are scanned only when that can change a verdict, and then the verdict is the
// one the complete listing gives.
TEST(FatbinReal, DataSectionsAreScannedExactlyWhenAVerdictNeedsThem) {
  const std::string lib = "/usr/local/cuda/lib64/libcufft.so";
  if (!fs::exists(lib)) GTEST_SKIP() << lib << " not installed";
  static LdCache cache = LdCache::load();
  auto audit = [&](const std::string& gpu, bool all) {
    AuditOptions opt;
    opt.loader = LoaderConfig::for_this_host(&cache);
    opt.symbols = false;
    opt.gpus = {parse_gpu_spec(gpu)};
    opt.all_device_code = all;
    return Auditor(opt).audit(lib);
  };
  auto sm90 = audit("sm_90", false);  // .nv_fatbin has no sm_90: the scan decides
  EXPECT_EQ(sm90.data_sections, "scanned");
  ASSERT_EQ(sm90.verdicts.size(), 1u);
  EXPECT_EQ(sm90.verdicts[0].verdict, KernelVerdict::kNative);
  EXPECT_EQ(sm90.verdicts[0].using_target, "sm_90");
  ASSERT_GE(sm90.fatbins.size(), 2u);
  EXPECT_NE(sm90.fatbins[1].section.find(".ldata ("), std::string::npos) << sm90.fatbins[1].section;
  EXPECT_GT(sm90.fatbins[1].entries.size(), 10000u);
  auto sm75 = audit("sm_75", false);  // exact SASS in .nv_fatbin: nothing could beat it, no scan
  EXPECT_EQ(sm75.data_sections.rfind("not scanned", 0), 0u) << sm75.data_sections;
  EXPECT_EQ(sm75.fatbins.size(), 1u);
  ASSERT_EQ(sm75.verdicts.size(), 1u);
  auto sm75_all = audit("sm_75", true);  // the complete listing gives the same verdict
  EXPECT_EQ(sm75_all.data_sections, "scanned");
  ASSERT_EQ(sm75_all.verdicts.size(), 1u);
  EXPECT_EQ(sm75_all.verdicts[0].verdict, sm75.verdicts[0].verdict);
  EXPECT_EQ(sm75_all.verdicts[0].using_target, sm75.verdicts[0].using_target);
  EXPECT_EQ(sm75_all.fatbins.size(), sm90.fatbins.size());
}

TEST_F(FatbinTest, CorruptFatbinsAreCleanErrors) {
  auto o = ElfObject::open(f("sm90ptx.o"));
  std::string good(o->section_bytes(".nv_fatbin"));
  ASSERT_NO_THROW(parse_fatbin(good));
  auto put64 = [](std::string s, std::size_t off, std::uint64_t v) { std::memcpy(&s[off], &v, 8); return s; };
  auto put32 = [](std::string s, std::size_t off, std::uint32_t v) { std::memcpy(&s[off], &v, 4); return s; };
  EXPECT_THROW(parse_fatbin(put32(good, 0, 0xDEADBEEF)), FatbinError);                  // magic
  EXPECT_THROW(parse_fatbin(put64(good, 8, good.size() * 4)), FatbinError);             // container size
  EXPECT_THROW(parse_fatbin(put64(good, 16 + 8, 1ull << 40)), FatbinError);             // entry payload size
  EXPECT_THROW(parse_fatbin(put32(good, 16 + 4, 8)), FatbinError);                      // entry header size
  EXPECT_THROW(parse_fatbin(put32(good, 16 + 4, 0xFFFFFFF0u)), FatbinError);
  EXPECT_THROW(parse_fatbin(good.substr(0, 10)), FatbinError);                           // stray bytes
  EXPECT_THROW(parse_fatbin(good.substr(0, 40)), FatbinError);                           // cut entry
  EXPECT_NO_THROW(parse_fatbin(good + std::string(16, '\0')));                            // zero padding is fine
  // The same damage inside a real object: reported for that file, audit goes on.
  std::string bytes = read_bytes(f("sm90ptx.o"));
  std::size_t at = bytes.find(good.substr(0, 16));
  ASSERT_NE(at, std::string::npos);
  write_file(*t / "bogus.o", put64(bytes, at + 8, 1ull << 50));
  auto r = audit_one(*t / "bogus.o");
  EXPECT_EQ(r.status, gpucheck::Status::kFail);
  ASSERT_EQ(r.fatbins.size(), 1u);
  EXPECT_NE(r.fatbins[0].error.find("claims"), std::string::npos) << r.fatbins[0].error;
}

TEST_F(FatbinTest, AgreesWithCuobjdumpFromPyPI) {
  std::string cuobjdump = find_cuobjdump();
  TempDir venv;
  if (cuobjdump.empty()) {
    gpucheck::SubprocessOptions o;
    o.timeout = std::chrono::seconds(180);
    auto mk = gpucheck::run_subprocess({"python3", "-m", "venv", venv.path}, o);
    if (!mk.ok()) GTEST_SKIP() << "python3 -m venv failed: " << mk.err;
    auto pip = gpucheck::run_subprocess({venv / "bin/pip", "install", "-q", "--disable-pip-version-check",
                                         "nvidia-cuda-cuobjdump"}, o);
    if (!pip.ok()) GTEST_SKIP() << "PyPI unreachable or nvidia-cuda-cuobjdump unavailable: " << gpucheck::last_lines(pip.err, 2);
    for (const auto& e : fs::recursive_directory_iterator(venv.path))
      if (e.path().filename() == "cuobjdump" && e.is_regular_file()) cuobjdump = e.path().string();
    ASSERT_FALSE(cuobjdump.empty()) << "the wheel has no cuobjdump binary";
  }
  for (const char* f : {"sm80.o", "sm90ptx.o", "sm90ptx_z.o", "rdc.o", "libsm80.so"}) {  // NOLINT(shadow)
    static LdCache cache = LdCache::load();
    AuditOptions opt;
    opt.loader = LoaderConfig::for_this_host(&cache);
    opt.cuobjdump = cuobjdump;
    Auditor a(opt);
    auto r = a.audit(FatbinTest::f(f));
    EXPECT_TRUE(r.cuobjdump.ran) << f << ": " << r.cuobjdump.error;
    EXPECT_TRUE(r.cuobjdump.error.empty()) << f << ": " << r.cuobjdump.error;
    EXPECT_FALSE(r.cuobjdump.sass.empty()) << f;
    EXPECT_EQ(r.cuobjdump_disagreement, "") << f;
  }
  const std::string lib = "/usr/local/cuda/lib64/libcublasLt.so";
  if (fs::exists(lib)) {
    auto listing = run_cuobjdump(cuobjdump, lib);
    auto o = ElfObject::open(lib);
    auto e = parse_fatbin(o->section_source(".nv_fatbin"));
    std::size_t sass = 0, ptx = 0;
    for (const auto& x : e) (x.kind == FatbinKind::kPtx ? ptx : sass)++;
    EXPECT_EQ(listing.sass.size(), sass);
    EXPECT_EQ(listing.ptx.size(), ptx);
  }
}

}  // namespace
