// Corrupt and hostile inputs: truncated ELF, wrong class, overlapping sections, not-ELF files, a directory
// loop. Each is a one-line error for that file; nothing crashes or hangs.
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>

#include "platform/elf_object.h"
#include "checks/abi/audit.h"
#include "checks/abi/targets.h"
#include "audit_helpers.h"
#include "core/errors.h"

using namespace gpucheck::abi;
using namespace gpucheck::platform;
using namespace abitest;

namespace {

class CorruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    build_so(d / "good/libgood.so", "extern \"C\" int good() { return 1; }\nint table[64] = {1};\n",
             {"-Wl,-soname,libgood.so"});
    bytes = read_bytes(d / "good/libgood.so");
    ASSERT_GT(bytes.size(), 1000u);
  }
  std::string why(const std::string& content) {
    write_file(d / "bad.so", content);
    try {
      ElfObject::open(d / "bad.so");
    } catch (const ElfError& e) {
      std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      return m;
    }
    return "";
  }
  TempDir d;
  std::string bytes;
};

TEST_F(CorruptTest, GoodLibraryOpens) { EXPECT_NO_THROW(ElfObject::open(d / "good/libgood.so")); }

TEST_F(CorruptTest, TruncatedElf) {
  EXPECT_NE(why(bytes.substr(0, bytes.size() / 2)).find("truncated"), std::string::npos);
  EXPECT_NE(why(bytes.substr(0, bytes.size() - 8)).find("truncated"), std::string::npos);
  EXPECT_NE(why(bytes.substr(0, 100)), "");
  EXPECT_NE(why(bytes.substr(0, 10)).find("not an ELF file"), std::string::npos);
  EXPECT_NE(why("").find("not an ELF file"), std::string::npos);
}

TEST_F(CorruptTest, WrongClassAndMachine) {
  std::string b32 = bytes;
  b32[EI_CLASS] = ELFCLASS32;
  EXPECT_NE(why(b32).find("ELFCLASS32"), std::string::npos);
  std::string arm = bytes;
  arm[18] = static_cast<char>(EM_AARCH64);
  arm[19] = 0;
  EXPECT_NE(why(arm).find("machine 183"), std::string::npos);
  std::string be = bytes;
  be[EI_DATA] = ELFDATA2MSB;
  EXPECT_NE(why(be).find("big-endian"), std::string::npos);
}

TEST_F(CorruptTest, OverlappingSections) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  std::memcpy(sh.data(), bytes.data() + eh.e_shoff, sizeof(Elf64_Shdr) * eh.e_shnum);
  // Move the second non-empty PROGBITS section onto the first.
  int first = -1, second = -1;
  for (int i = 0; i < eh.e_shnum; ++i)
    if (sh[i].sh_type == SHT_PROGBITS && sh[i].sh_size > 0) {
      if (first < 0) first = i;
      else if (second < 0) second = i;
    }
  ASSERT_GE(second, 0);
  sh[second].sh_offset = sh[first].sh_offset;
  std::string out = bytes;
  std::memcpy(&out[eh.e_shoff], sh.data(), sizeof(Elf64_Shdr) * eh.e_shnum);
  EXPECT_NE(why(out).find("overlap"), std::string::npos) << why(out);
  // A section that claims to run past the end of the file.
  sh[second].sh_offset = bytes.size() - 4;
  sh[second].sh_size = 4096;
  std::memcpy(&out[eh.e_shoff], sh.data(), sizeof(Elf64_Shdr) * eh.e_shnum);
  EXPECT_NE(why(out).find("ends past the end"), std::string::npos) << why(out);
}

TEST_F(CorruptTest, NoSectionHeadersIsSaidNotGuessed) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  eh.e_shoff = 0;
  eh.e_shnum = 0;
  eh.e_shstrndx = 0;
  std::string out = bytes;
  std::memcpy(&out[0], &eh, sizeof eh);
  EXPECT_NE(why(out).find("without section headers"), std::string::npos) << why(out);
}

TEST_F(CorruptTest, GarbageAfterAValidHeaderNeverCrashes) {
  // Deterministic byte noise over the section/dynamic data: every outcome is a clean open or an ElfError.
  std::uint32_t seed = 12345;
  for (int round = 0; round < 200; ++round) {
    std::string b = bytes;
    for (int k = 0; k < 16; ++k) {
      seed = seed * 1664525u + 1013904223u;
      std::size_t at = 64 + seed % (b.size() - 64);
      b[at] = static_cast<char>(seed >> 24);
    }
    write_file(d / "noise.so", b);
    try {
      auto o = ElfObject::open(d / "noise.so");
      for (const auto& s : o->symbols()) (void)s.name.size();
    } catch (const ElfError&) {
    }
  }
}

// Found by the elf fuzz target (UBSan: "shift exponent 170 is too large"): a .gnu.hash whose bloom shift
// no 32-bit hash can take is ignored, and lookups use the symbol map instead.
TEST_F(CorruptTest, HashTableWithAnImpossibleBloomShiftFallsBackToTheMap) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  std::memcpy(sh.data(), bytes.data() + eh.e_shoff, sizeof(Elf64_Shdr) * eh.e_shnum);
  std::string out = bytes;
  bool patched = false;
  for (const auto& s : sh)
    if (s.sh_type == SHT_GNU_HASH) {
      std::uint32_t shift = 170;
      std::memcpy(&out[s.sh_offset + 12], &shift, 4);
      patched = true;
    }
  ASSERT_TRUE(patched) << "g++ wrote no .gnu.hash";
  write_file(d / "shift.so", out);
  auto o = ElfObject::open(d / "shift.so");
  EXPECT_FALSE(o->has_gnu_hash());
  bool found = o->any_definition("good", ElfObject::gnu_hash("good"), [](const DynSymbol& s) { return s.defined; });
  EXPECT_TRUE(found);
}

TEST_F(CorruptTest, DirectoryLoopIsReportedOnceAndScanGoesOn) {
  fs::create_directories(d / "tree/sub");
  fs::copy_file(d / "good/libgood.so", d / "tree/sub/libgood.so");
  write_file(d / "tree/libtrunc.so", bytes.substr(0, bytes.size() / 2));
  write_file(d / "tree/readme.txt", "not elf");
  fs::create_directory_symlink("..", d / "tree/sub/loop");
  TargetSet set;
  add_path_target(d / "tree", set);
  ASSERT_EQ(set.files.size(), 2u) << gpucheck::join(set.files, ",");
  ASSERT_EQ(set.notes.size(), 1u);
  EXPECT_NE(set.notes[0].find("directory loop"), std::string::npos) << set.notes[0];
  auto trunc = audit_one(set.files[0]);
  EXPECT_EQ(trunc.status, gpucheck::Status::kError);
  EXPECT_NE(trunc.error.find("truncated"), std::string::npos) << trunc.error;
  EXPECT_EQ(audit_one(set.files[1]).status, gpucheck::Status::kPass);
}

// Issue 15 item 11: the file is read with pread, never mapped, so a file truncated after it was opened
// (pip or a build rewriting it in place) is an ElfError naming the file, on one line. When it was mapped,
// reading its fat binary here was a SIGBUS that killed the process.
TEST_F(CorruptTest, FileTruncatedWhileReadIsAnErrorNotASigbus) {
  write_file(d / "fatbin.bin", synthetic_fatbin(64, 4096));
  run_ok({"objcopy", "--add-section", ".nv_fatbin=" + d / "fatbin.bin", d / "good/libgood.so", d / "libfat.so"});
  auto o = ElfObject::open(d / "libfat.so");
  ASSERT_EQ(read_fatbins(*o).at(0).entries.size(), 64u);
  ASSERT_EQ(::truncate((d / "libfat.so").c_str(), 4096), 0);
  try {
    read_fatbins(*o);
    ADD_FAILURE() << "a truncated file read as if whole";
  } catch (const ElfError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("libfat.so: changed while read (now 4096 bytes"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  // Through the auditor (the object opened and cached first, as a load graph does): an error target.
  run_ok({"objcopy", "--add-section", ".nv_fatbin=" + d / "fatbin.bin", d / "good/libgood.so", d / "libfat2.so"});
  static LdCache cache = LdCache::load();
  AuditOptions opt;
  opt.loader = LoaderConfig::for_this_host(&cache);
  opt.gpus = {parse_gpu_spec("sm_90")};
  Auditor a(opt);
  std::string open_error;
  ASSERT_NE(a.cache().get(d / "libfat2.so", &open_error), nullptr) << open_error;
  ASSERT_EQ(::truncate((d / "libfat2.so").c_str(), 4096), 0);
  auto t = a.audit(d / "libfat2.so");
  EXPECT_EQ(t.status, gpucheck::Status::kError);
  EXPECT_NE(t.error.find("changed while read"), std::string::npos) << t.error;
}

TEST_F(CorruptTest, ExplicitNonElfTargetIsAnInputError) {
  write_file(d / "x.txt", "hello");
  TargetSet set;
  EXPECT_THROW(add_path_target(d / "x.txt", set), gpucheck::InputError);
  EXPECT_THROW(add_path_target(d / "does-not-exist", set), gpucheck::InputError);
}

}  // namespace
