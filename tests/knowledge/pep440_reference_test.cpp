// src/knowledge/pep440 against the reference implementation, packaging 24 (what pip >= 24.1 vendors):
// tests/knowledge/pep440_reference.py asks packaging about a generated table of versions x specifier sets
// (pre-releases, post and dev releases, local labels, epochs, wildcards, ~=, ===, spellings packaging
// normalises, text it rejects); the module must give the same answer to every question. The table is
// checked in (tests/knowledge/data/pep440_reference.tsv, written by the script with packaging 24.1), and when a
// Python with packaging 24 is on PATH the script is also run live and its table compared the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "core/subprocess.h"
#include "core/text.h"
#include "knowledge/pep440.h"

using namespace gpucheck;
using namespace gpucheck::knowledge::pep440;

namespace {

const std::string kScript = std::string(GPUCHECK_SOURCE_DIR) + "/tests/knowledge/pep440_reference.py";
const std::string kTable = std::string(GPUCHECK_SOURCE_DIR) + "/tests/knowledge/data/pep440_reference.tsv";

struct Tally {
  std::size_t versions = 0, orderings = 0, specifiers = 0, pairs = 0;
  std::vector<std::string> disagreements;
  void disagree(const std::string& what) { disagreements.push_back(what); }
};

int sign(int x) { return (x > 0) - (x < 0); }

// Every line of a reference table asked of the module; what it answers differently goes into the tally.
Tally compare_with(const std::string& table) {
  Tally t;
  std::vector<std::pair<Version, int>> ranked;  // valid versions with packaging's rank
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    auto f = split(line, '\t');
    if (f.empty() || f[0] == "packaging") continue;
    if (f[0] == "V" && f.size() == 5) {
      ++t.versions;
      auto v = Version::parse(f[1]);
      if (f[2] == "!") {
        if (v) t.disagree("version '" + f[1] + "': packaging rejects it, the module reads " + v->str());
        continue;
      }
      if (!v) {
        t.disagree("version '" + f[1] + "': packaging reads " + f[2] + ", the module rejects it");
        continue;
      }
      if (v->str() != f[2]) t.disagree("version '" + f[1] + "': packaging " + f[2] + ", module " + v->str());
      if (v->is_prerelease() != (f[4] == "1")) t.disagree("version '" + f[1] + "': is_prerelease differs");
      ranked.emplace_back(*v, std::stoi(f[3]));
    } else if (f[0] == "S" && f.size() == 4) {
      ++t.specifiers;
      auto s = SpecifierSet::try_parse(f[1]);
      if (f[2] == "!") {
        if (s) t.disagree("specifier '" + f[1] + "': packaging rejects it, the module reads " + s->str());
        continue;
      }
      if (!s) {
        t.disagree("specifier '" + f[1] + "': packaging reads " + f[2] + ", the module rejects it");
        continue;
      }
      // packaging prints the clauses sorted; the module keeps the written order.
      std::vector<std::string> clauses;
      for (const auto& c : s->specs) clauses.push_back(c.str());
      std::sort(clauses.begin(), clauses.end());
      if (join(clauses, ",") != f[2]) t.disagree("specifier '" + f[1] + "': packaging " + f[2] + ", module " + s->str());
      if (s->names_prerelease() != (f[3] == "1")) t.disagree("specifier '" + f[1] + "': prereleases differs");
    } else if (f[0] == "C" && f.size() == 5) {
      ++t.pairs;
      auto v = Version::parse(f[1]);
      auto s = SpecifierSet::try_parse(f[2]);
      if (!v || !s) continue;  // already counted as a V or S disagreement
      bool plain = s->contains(*v), with_pre = s->contains(*v, true);
      if (plain != (f[3] == "1"))
        t.disagree("'" + f[1] + "' in '" + f[2] + "': packaging says " + (f[3] == "1" ? "yes" : "no") + ", the module " +
                   (plain ? "yes" : "no"));
      if (with_pre != (f[4] == "1"))
        t.disagree("'" + f[1] + "' in '" + f[2] + "' with pre-releases: packaging says " + (f[4] == "1" ? "yes" : "no") +
                   ", the module " + (with_pre ? "yes" : "no"));
    } else {
      t.disagree("unreadable table line: " + line);
    }
  }
  for (const auto& [a, ra] : ranked)
    for (const auto& [b, rb] : ranked) {
      ++t.orderings;
      if (sign(compare(a, b)) != sign(ra - rb)) t.disagree("order of " + a.str() + " and " + b.str());
    }
  return t;
}

void expect_agreement(const Tally& t) {
  // A table that lost its lines would agree vacuously.
  EXPECT_GE(t.versions, 80u);
  EXPECT_GE(t.specifiers, 150u);
  EXPECT_GE(t.pairs, 8000u);
  EXPECT_GE(t.orderings, 4000u);
  std::string shown;
  for (std::size_t i = 0; i < t.disagreements.size() && i < 40; ++i) shown += "\n  " + t.disagreements[i];
  EXPECT_TRUE(t.disagreements.empty()) << t.disagreements.size() << " disagreements with packaging:" << shown;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Pep440Reference, AgreesWithPackagingOnTheCheckedInTable) {
  std::string table = read_text(kTable);
  ASSERT_TRUE(starts_with(table, "packaging\t24.")) << kTable << " is not packaging 24's table";
  expect_agreement(compare_with(table));
}

TEST(Pep440Reference, AgreesWithPackagingRunLive) {
  // The script under `python -I` (no user site, no PYTHONPATH, no cwd on sys.path), from an argument vector.
  SubprocessOptions opt;
  opt.timeout = std::chrono::seconds(120);
  std::string python, version;
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("GPUCHECK_PEP440_PYTHON")) candidates.push_back(chosen);  // a developer's pick
  candidates.push_back(find_in_path("python3"));  // one try: a pyenv shim takes seconds under load
  for (const auto& path : candidates) {
    if (path.empty()) continue;
    auto r = run_subprocess({path, "-I", kScript, "--packaging-version"}, opt);
    if (r.ok() && starts_with(trim(r.out), "24.")) {
      python = path, version = trim(r.out);
      break;
    }
  }
  if (python.empty())
    GTEST_SKIP() << "neither python3 on PATH nor GPUCHECK_PEP440_PYTHON has packaging 24 (pip >= 24.1 vendors it); "
                    "the checked-in table is compared";
  auto r = run_subprocess({python, "-I", kScript}, opt);
  ASSERT_TRUE(r.ok()) << python << " " << kScript << ": " << r.describe() << "\n" << r.err;
  ASSERT_TRUE(starts_with(r.out, "packaging\t" + version + "\n")) << r.out.substr(0, 100);
  expect_agreement(compare_with(r.out));
  // The checked-in table is what the script writes with the same packaging.
  std::string table = read_text(kTable);
  if (starts_with(table, "packaging\t" + version + "\n")) {
    EXPECT_TRUE(r.out == table) << "regenerate " << kTable;
  }
}
