// Unit behaviour of the explain engine: normalisation, the literal prefilter, named-capture regexes,
// templates, streaming (chunking, wrapped lines) and robustness against hostile input.
#include <sys/resource.h>

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "checks/explain/log_environment.h"
#include "core/errors.h"
#include "core/files.h"
#include "support/sanitizers.h"
#include "checks/explain/fix_template.h"
#include "checks/explain/literal_matcher.h"
#include "checks/explain/log_normalizer.h"
#include "checks/explain/log_scanner.h"
#include "explain_test_util.h"

using namespace gpucheck::explain;
using namespace gpucheck::explain::testing;

namespace {

std::string norm(const std::string& raw) {
  NormalizeStats st;
  return normalize_line(raw, st);
}

const char* kMismatch =
    "      RuntimeError:\n"
    "      The detected CUDA version (12.1) mismatches the version that was used to compile\n"
    "      PyTorch (11.8). Please make sure to use the same CUDA versions.\n";

}  // namespace

TEST(ExplainLogNormalizer, StripsTerminalAndToolDecoration) {
  EXPECT_EQ(norm("\x1b[1;31mERROR\x1b[0m: No matching distribution"), "ERROR: No matching distribution");
  EXPECT_EQ(norm("error: metadata-generation-failed\r"), "error: metadata-generation-failed");
  EXPECT_EQ(norm("Downloading 10%\rDownloading 100%"), "Downloading 100%");
  EXPECT_EQ(norm("\tcompilation\tterminated."), "compilation terminated.");
  EXPECT_EQ(norm("  \xe2\x94\x82 exit code: 1"), "exit code: 1");                    // "  │ exit code: 1"
  EXPECT_EQ(norm("  \xe2\x95\xb0\xe2\x94\x80> [6 lines of output]"), "[6 lines of output]");  // "╰─>"
  EXPECT_EQ(norm("\xe2\x94\x82 /x/train.py:4 in <module>   \xe2\x94\x82"), "/x/train.py:4 in <module>");
  EXPECT_EQ(norm("(CPM-Bee) root@gpu01:~/CPM-Bee$ pip install bmtrain"), "pip install bmtrain");
  EXPECT_EQ(norm(">>> import torch"), "import torch");
  EXPECT_EQ(norm("$ nvidia-smi"), "nvidia-smi");
  EXPECT_EQ(norm("2024-05-01T10:11:12.1234567Z ERROR: boom"), "ERROR: boom");
  // Text that merely looks like a prompt stays.
  EXPECT_EQ(norm("error: foo@bar: $ x"), "error: foo@bar: $ x");
}

TEST(ExplainLogNormalizer, ReplacesInvalidAndTruncatedUtf8) {
  NormalizeStats st;
  EXPECT_EQ(normalize_line("\xff\xfe" "abc", st), "??abc");
  EXPECT_EQ(st.invalid_utf8_bytes, 2u);
  EXPECT_EQ(normalize_line("abc\xe2\x94", st), "abc??");  // truncated 3-byte sequence
  EXPECT_EQ(st.invalid_utf8_bytes, 4u);
  EXPECT_EQ(normalize_line("\xe5\xae\x89\xe8\xa3\x85 ok", st), "\xe5\xae\x89\xe8\xa3\x85 ok");  // valid CJK kept
  EXPECT_EQ(normalize_line(std::string("a\0b", 3), st), "a b");
  EXPECT_EQ(st.control_bytes, 1u);
}

TEST(ExplainLiteralMatcher, ReportsEachOverlappingLiteralOnceCaseInsensitively) {
  LiteralMatcher m;
  auto he = m.add("he"), she = m.add("she"), hers = m.add("hers"), nccl = m.add("NCCL error");
  m.build();
  LiteralMatcher::Scratch scratch;
  std::vector<std::size_t> found;
  m.scan("uSHErs ... ushers", scratch, [&](std::size_t i) { found.push_back(i); });
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::size_t>{he, she, hers}));
  found.clear();
  m.scan("... nccl ERROR in: x", scratch, [&](std::size_t i) { found.push_back(i); });
  EXPECT_EQ(found, (std::vector<std::size_t>{nccl}));
  found.clear();
  m.scan("xyz 123", scratch, [&](std::size_t i) { found.push_back(i); });
  EXPECT_TRUE(found.empty());
}

TEST(ExplainLiteralMatcher, OneSetOfLiteralsIsBuiltOnceAndShared) {
  auto a = LiteralMatcher::shared({"nccl error", "cuda"});
  auto b = LiteralMatcher::shared({"nccl error", "cuda"});
  auto c = LiteralMatcher::shared({"nccl error"});
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());
  // Two scratches on one matcher do not see each other's literals as already reported.
  LiteralMatcher::Scratch s1, s2;
  std::vector<std::size_t> f1, f2;
  a->scan("CUDA", s1, [&](std::size_t i) { f1.push_back(i); });
  a->scan("cuda", s2, [&](std::size_t i) { f2.push_back(i); });
  EXPECT_EQ(f1, std::vector<std::size_t>{1});
  EXPECT_EQ(f2, std::vector<std::size_t>{1});
}

TEST(ExplainNamedRegex, TranslatesNamedGroupsAndCountsPlainOnes) {
  // Both spellings of a named group; plain groups count; '(' in a class or escaped opens nothing.
  auto r = compile_named_regex(R"((?:a|b)(?<first>\d+)\((x)\)[(](?P<second>[^)]*)z)", false);
  ASSERT_EQ(r.group_names, (std::vector<std::string>{"first", "", "second"}));
  RegexMatch m;
  ASSERT_TRUE(r.search("-a12(x)(yyz", false, &m));
  EXPECT_EQ(m.begin, 1u);
  EXPECT_EQ(m.end, 11u);
  EXPECT_EQ(std::string(m.groups[0]), "12");
  EXPECT_EQ(std::string(m.groups[2]), "yy");
  EXPECT_EQ(r.captures(m), (std::map<std::string, std::string>{{"first", "12"}, {"second", "yy"}}));
  EXPECT_FALSE(r.search("-a12(x)(yyz", true, &m)) << "anchored: only at the start";
  EXPECT_TRUE(compile_named_regex("ERROR", true).search("an error", false));
  EXPECT_THROW(compile_named_regex("(?<open>abc", false), std::invalid_argument);
  EXPECT_THROW(compile_named_regex("abc)", false), std::invalid_argument);
  EXPECT_THROW(compile_named_regex("[z-a]", false), std::invalid_argument);
}

// RE2 has no lookaround and no backreferences (the constructs that make backtracking exponential): a
// signature using them is refused with RE2's reason, so the file is bad input, not a slow scan later.
TEST(ExplainNamedRegex, RefusesConstructsOutsideTheLinearSubset) {
  for (const char* re : {"a(?=b)", "a(?!b)", "(?<=a)b", "(a)\\1"}) {
    try {
      compile_named_regex(re, false);
      ADD_FAILURE() << re << " compiled";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()), "") << re;
    }
  }
}

TEST(ExplainFixTemplate, ResolvesCapturesFactsAndNestedCalls) {
  Vars vars{{"cuda", "11.8.89"}, {"pkg", "bmtrain"}};
  FactCall facts = [](const std::string& fn, const std::vector<std::string>& a) -> std::optional<std::string> {
    if (fn == "mm" && a.size() == 1) return a[0].substr(0, 4);
    if (fn == "root" && a.size() == 1) return "/usr/local/cuda-" + a[0];
    return std::nullopt;
  };
  EXPECT_EQ(render_template("pip install {pkg}", vars, facts), "pip install bmtrain");
  EXPECT_EQ(render_template("{root(mm(cuda))}/bin", vars, facts), "/usr/local/cuda-11.8/bin");
  EXPECT_EQ(render_template("{root('12.1')}", vars, facts), "/usr/local/cuda-12.1");
  EXPECT_EQ(render_template("{{literal}} {pkg}", vars, facts), "{literal} bmtrain");
  EXPECT_FALSE(render_template("{missing}", vars, facts).has_value());
  EXPECT_FALSE(render_template("{unknown_fn(cuda)}", vars, facts).has_value());
}

TEST(ExplainFixFacts, MajorMinorAcceptsTheVersionSpellingsLogsUse) {
  EXPECT_EQ(major_minor("11.8.89"), "11.8");
  EXPECT_EQ(major_minor("12.1"), "12.1");
  EXPECT_EQ(major_minor("cu118"), "11.8");
  EXPECT_EQ(major_minor("12040"), "12.4");
  EXPECT_EQ(major_minor("11040"), "11.4");
  EXPECT_EQ(major_minor("abc"), "");
  EXPECT_EQ(major_minor("12"), "");
}

TEST(ExplainSignatures, EveryFileLoadsAndEveryIdInTheIssueExists) {
  const auto& sigs = source_signatures();
  std::set<std::string> ids;
  for (const auto& s : sigs) ids.insert(s.id);
  for (const char* id :
       {"build-isolation-missing-torch", "cuda-mismatch-nvcc-torch", "cuda-home-not-found", "nvcc-missing",
        "host-compiler-unsupported", "cuda-arch-unsupported", "no-kernel-image", "driver-too-old", "no-gpu-or-driver",
        "shared-library-missing", "undefined-symbol-torch-abi", "undefined-symbol-link", "glibc-glibcxx-too-old",
        "cudnn-mismatch", "nccl-failure", "python-headers-missing", "pip-resolution-conflict", "no-matching-wheel",
        "prebuilt-binary-mismatch", "cpu-only-torch", "system-libs-shadow", "driver-library-mismatch",
        "build-tool-incompatible", "out-of-memory", "gpu-arch-too-old-for-feature"})
    EXPECT_TRUE(ids.count(id)) << id;
  for (const auto& s : sigs) {
    for (const auto& other : s.consequence_of) EXPECT_TRUE(ids.count(other)) << s.id << " -> " << other;
    for (const auto& other : s.overridden_by) EXPECT_TRUE(ids.count(other)) << s.id << " -> " << other;
    for (const auto& r : s.reclassify) EXPECT_TRUE(ids.count(r.id)) << s.id << " -> " << r.id;
    EXPECT_FALSE(s.sources.empty()) << s.id;
  }
}

TEST(ExplainSignatures, MalformedDocumentsAreInputErrors) {
  auto bad = [](const char* text) {
    return parse_signatures(nlohmann::json::parse(text), "test.json");
  };
  EXPECT_THROW(bad(R"({"x": 1})"), gpucheck::InputError);
  EXPECT_THROW(bad(R"({"signatures": [{"id": "a", "title": "t", "explanation": "e", "sources": ["u"],
                      "patterns": [{"regex": "abc"}]}]})"), gpucheck::InputError);  // no literal
  EXPECT_THROW(bad(R"({"signatures": [{"id": "a", "title": "t", "explanation": "e", "sources": ["u"],
                      "patterns": [{"literals": ["abcd"], "regex": "(abc"}]}]})"), gpucheck::InputError);
  EXPECT_NO_THROW(bad(R"({"signatures": [{"id": "a", "title": "t", "explanation": "e", "sources": ["u"],
                         "patterns": [{"literals": ["abcd"], "regex": "abcd"}]}]})"));
  // A wrongly typed field, the id itself included, is bad input (exit 2), not an internal error (exit 3).
  EXPECT_THROW(bad(R"({"signatures": [{"id": 5}]})"), gpucheck::InputError);
  EXPECT_THROW(bad(R"({"signatures": [{"id": "a", "title": "t", "explanation": "e", "sources": ["u"],
                      "patterns": [{"literals": ["abcd"], "regex": "abcd", "window": "x"}]}]})"), gpucheck::InputError);
  // A window far outside int: before, nlohmann's get<int>() of 6.7e77 (undefined behaviour; UBSan in
  // fuzz.signatures). Now the same one-line input error as any window outside 1..4.
  for (const char* w : {"6.666666666666666e77", "2.5", "99999999999999999999", "5"}) {
    SCOPED_TRACE(w);
    try {
      bad((std::string(R"({"signatures": [{"id": "a", "title": "t", "explanation": "e", "sources": ["u"],
                       "patterns": [{"literals": ["abcd"], "regex": "abcd", "window": )") + w + "}]}]}").c_str());
      ADD_FAILURE() << "accepted";
    } catch (const gpucheck::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("signature 'a': window must be a whole number in [1, 4]"), std::string::npos)
          << e.what();
    }
  }
}

TEST(ExplainScanner, WrappedMessageIsMatchedAcrossLinesWithCaptures) {
  auto e = explain_string(kMismatch);
  const gpucheck::Finding* c = find_cause(e, "cuda-mismatch-nvcc-torch");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(captures(*c).at("nvcc_cuda"), "12.1");
  EXPECT_EQ(captures(*c).at("torch_cuda"), "11.8");
  ASSERT_EQ(c->evidence.size(), 2u);
  EXPECT_EQ(lines(*c)[0], 2u);
  EXPECT_EQ(lines(*c)[1], 3u);
}

TEST(ExplainScanner, LineCutMidWordByATerminalIsRejoined) {
  auto e = explain_string("The detected CUDA version (12.1) mismatches the version that was used to comp\n"
                          "ile PyTorch (11.8). Please make sure to use the same CUDA versions.\n");
  const gpucheck::Finding* c = find_cause(e, "cuda-mismatch-nvcc-torch");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(captures(*c).at("torch_cuda"), "11.8");
  EXPECT_EQ(c->evidence.size(), 2u);
}

TEST(ExplainScanner, ResultDoesNotDependOnHowTheStreamIsCut) {
  std::string log = gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/logs/cpm-bee-57-seed.log");
  auto whole = explain_string(log);
  for (std::size_t chunk : {1u, 7u, 4096u}) {
    LogScanner s(source_signatures());
    for (std::size_t i = 0; i < log.size(); i += chunk) s.feed(std::string_view(log).substr(i, chunk));
    s.finish();
    auto e = build_explanation(s, "chunked", source_signatures(), make_fact_call(nullptr, {}));
    ASSERT_EQ(e.causes.size(), whole.causes.size()) << "chunk " << chunk;
    for (std::size_t k = 0; k < e.causes.size(); ++k) {
      EXPECT_EQ(e.causes[k].id, whole.causes[k].id);
      EXPECT_EQ(captures(e.causes[k]), captures(whole.causes[k]));
      ASSERT_EQ(e.causes[k].evidence.size(), whole.causes[k].evidence.size());
      for (std::size_t j = 0; j < e.causes[k].evidence.size(); ++j)
        EXPECT_EQ(lines(e.causes[k])[j], lines(whole.causes[k])[j]);
    }
  }
}

TEST(ExplainScanner, CrlfAnsiAndPromptDoNotHideACause) {
  std::string log = "(venv) me@box:~/x$ python -c 'import torch; torch.zeros(1).cuda()'\r\n"
                    "\x1b[31mAssertionError\x1b[0m: Torch not compiled with CUDA enabled\r\n";
  auto e = explain_string(log);
  ASSERT_EQ(cause_ids(e), (std::set<std::string>{"cpu-only-torch"}));
  EXPECT_EQ(e.causes[0].evidence[0].value, "AssertionError: Torch not compiled with CUDA enabled");
  EXPECT_EQ(lines(e.causes[0])[0], 2u);
}

TEST(ExplainRobustness, BytesOfLongLinesAreCountedOnceThoughSegmentsOverlap) {
  // Long lines are read as overlapping segments; the overlap must not be counted twice ("4609 of 4097").
  for (std::size_t n : {std::size_t{4097}, std::size_t{10000}, std::size_t{1} << 20}) {
    auto controls = explain_string(std::string(n, '\x01'));
    EXPECT_EQ(controls.input.control_bytes, n);
    auto invalid = explain_string(std::string(n, '\xff') + "\n");
    EXPECT_EQ(invalid.input.invalid_utf8_bytes, n);
    EXPECT_EQ(invalid.input.bytes, n + 1);
    ASSERT_FALSE(invalid.notes.empty());
    EXPECT_NE(invalid.notes[0].find(std::to_string(n) + " of " + std::to_string(n + 1) + " bytes"), std::string::npos)
        << invalid.notes[0];
  }
}

TEST(ExplainRobustness, EmptyInputIsUnknownWithANote) {
  auto e = explain_string("");
  EXPECT_FALSE(e.identified());
  EXPECT_EQ(e.input.lines, 0u);
  ASSERT_FALSE(e.notes.empty());
  EXPECT_NE(e.notes[0].find("empty"), std::string::npos);
  ASSERT_EQ(e.findings().size(), 1u);
  EXPECT_EQ(e.findings()[0].id, "unknown");
}

TEST(ExplainRobustness, RandomBytesAreReportedAsNotText) {
  std::mt19937 rng(42);
  std::string bytes(1 << 20, '\0');
  for (auto& c : bytes) c = static_cast<char>(rng() & 0xff);
  auto e = explain_string(bytes);
  EXPECT_FALSE(e.identified());
  EXPECT_TRUE(e.input.binary);
  EXPECT_EQ(e.input.bytes, bytes.size());
}

TEST(ExplainRobustness, OneMegabyteSingleLineIsReadInSegments) {
  std::string line = "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory ";
  std::string big = line + std::string((1 << 20) - line.size(), 'x');
  auto e = explain_string(big);
  EXPECT_EQ(e.input.lines, 1u);
  EXPECT_EQ(e.input.long_lines, 1u);
  ASSERT_EQ(cause_ids(e), (std::set<std::string>{"shared-library-missing"}));
  EXPECT_EQ(captures(e.causes[0]).at("library"), "libcudnn.so.8");
  EXPECT_LT(e.causes[0].evidence[0].value.size(), 400u);
  bool noted = false;
  for (const auto& n : e.notes) noted |= n.find("longer than") != std::string::npos;
  EXPECT_TRUE(noted);
}

// The error at the end of, or in the middle of, a very long line (e.g. after a 50 KiB nvcc command with
// no newline), wherever a segment boundary falls: found once, on line 2, whatever the chunking.
TEST(ExplainRobustness, ErrorDeepInsideALongLineIsFoundAcrossSegmentBoundaries) {
  const std::string error = "nvcc fatal   : Unsupported gpu architecture 'compute_60'";
  for (std::size_t prefix : {std::size_t{4096 - 10}, std::size_t{4096 - 512 + 3}, std::size_t{50000}, std::size_t{999983}}) {
    std::string log = "Building extension bmtrain.C\n" + std::string(prefix, 'y') + " " + error + " " +
                      std::string(7000, 'z') + "\nerror: command failed\n";
    auto e = explain_string(log);
    EXPECT_EQ(e.input.lines, 3u) << prefix;
    EXPECT_EQ(e.input.long_lines, 1u) << prefix;
    ASSERT_TRUE(cause_ids(e).count("cuda-arch-unsupported"))
        << prefix << ": " << nlohmann::json(e.findings()).dump(1).substr(0, 2000);
    const auto& c = *std::find_if(e.causes.begin(), e.causes.end(), [](const auto& x) { return x.id == "cuda-arch-unsupported"; });
    EXPECT_EQ(c.evidence.size(), 1u) << prefix;
    EXPECT_EQ(lines(c)[0], 2u) << prefix;
  }
}

// A multi-byte character straddling a segment boundary is not reported as invalid UTF-8.
TEST(ExplainRobustness, SegmentBoundariesDoNotSplitUtf8) {
  std::string row;
  while (row.size() < 20000) row += "\xe5\xae\x89\xe8\xa3\x85 ";  // 安装, 7 bytes: boundaries fall everywhere
  auto e = explain_string(row + "\n");
  EXPECT_EQ(e.input.invalid_utf8_bytes, 0u);
  EXPECT_EQ(e.input.long_lines, 1u);
}

TEST(ExplainRobustness, TruncatedUtf8AroundAnErrorStillExplains) {
  std::string log = "\xe5\xae\x89\xe8\xa3 broken\n"
                    "RuntimeError: No CUDA GPUs are available \xe2\x94\n";
  auto e = explain_string(log);
  EXPECT_EQ(cause_ids(e), (std::set<std::string>{"no-gpu-or-driver"}));
  EXPECT_GT(e.input.invalid_utf8_bytes, 0u);
}

// 100 MB of realistic noise generated chunk by chunk (never held whole), one real error at the end: the
// error is found at the right line and peak memory stays far below the input size.
TEST(ExplainRobustness, HundredMegabytesStreamWithBoundedMemory) {
  const char* noise[] = {
      "      copying bmtrain/optim/adam.py -> build/lib.linux-x86_64-cpython-310/bmtrain/optim\n",
      "  Downloading nvidia_cublas_cu12-12.1.3.1-py3-none-manylinux1_x86_64.whl (410.6 MB)\n",
      "[2024-01-01 10:00:00,000] [INFO] [engine.py:123:step] step=100 loss=2.3461 lr=0.0001\n",
      "/usr/local/cuda/bin/nvcc -I/opt/torch/include -c csrc/kernel.cu -o build/kernel.o -O3 --use_fast_math\n",
      "\x1b[32mRequirement already satisfied: numpy in ./venv/lib/python3.10/site-packages (1.26.4)\x1b[0m\n"};
  LogScanner s(source_signatures());
  std::string chunk;
  std::uint64_t bytes = 0, lines = 0;
  std::size_t k = 0;
  while (bytes < 100ull << 20) {
    chunk.clear();
    while (chunk.size() < (1u << 20)) {
      chunk += noise[k++ % 5];
      ++lines;
    }
    bytes += chunk.size();
    s.feed(chunk);
  }
  s.feed("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\n");
  s.finish();
  auto e = build_explanation(s, "noise", source_signatures(), make_fact_call(nullptr, {}));
  ASSERT_EQ(cause_ids(e), (std::set<std::string>{"out-of-memory"}));
  EXPECT_EQ(gpucheck::explain::testing::lines(e.causes[0])[0], lines + 1);
  EXPECT_EQ(captures(e.causes[0]).at("requested"), "20.00 MiB");
  // The bound is the default build's: ASan keeps freed chunks in quarantine (256 MiB by default) and adds
  // shadow memory, so there the stream and its verdict above are checked, for memory errors, and not the bound.
  if (!gpucheck::test::kUnderAsan) {
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    EXPECT_LT(ru.ru_maxrss, 64 * 1024) << "peak RSS in KiB; the input was 100 MiB";
  }
}

TEST(LogEnvironment, PrefixesOfTheEnvironmentsALogPrints) {
  const std::string log =
      "  File \"/home/u/venv/lib/python3.11/site-packages/torch/__init__.py\", line 1\n"
      "/opt/conda/envs/cpm/bin/python setup.py bdist_wheel\n"
      "/usr/lib/python3/dist-packages/pip/_internal/cli.py\n"
      "/usr/local/lib/python3.11/dist-packages/x.py\n"
      "/home/u/venv/bin/python3.11 -m pip\n"
      "/home/u/venv/lib/python3.11/site-packagesX/no\n"
      "/srv/bin/pythonista is not python\n";
  EXPECT_EQ(gpucheck::explain::python_prefixes_named_in(log),
            (std::vector<std::string>{"/home/u/venv", "/opt/conda/envs/cpm"}));
  EXPECT_TRUE(gpucheck::explain::python_prefixes_named_in("no paths here\n").empty());
}
