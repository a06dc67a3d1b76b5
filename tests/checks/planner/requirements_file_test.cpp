// Requirements files as pip reads them: comments, continuations, nested -r/-c, option lines named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "planner_support.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

fs::path write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST(RequirementsFile, ReadsTheSeedsRequirementsWithOrigins) {
  fs::path dir = fs::temp_directory_path() / ("gpucheck_req_" + std::to_string(::getpid()));
  write(dir / "constraints.txt", "torch!=1.13.0\n");
  write(dir / "requirements.txt",
        "# CPM-Bee\ntorch<2.0.0,>=1.10  # from the project\nbmtrain>=0.2.1\n"
        "transformers \\\n  >=4.30\n--extra-index-url https://download.pytorch.org/whl/cu117\n-c constraints.txt\n");
  std::vector<std::string> notes;
  auto asks = planner::read_requirements_file((dir / "requirements.txt").string(), false, notes);
  ASSERT_EQ(asks.size(), 4u);
  EXPECT_EQ(asks[0].label(), "torch<2.0.0,>=1.10 (requirements.txt:2)");
  EXPECT_EQ(asks[1].label(), "bmtrain>=0.2.1 (requirements.txt:3)");
  EXPECT_EQ(asks[2].label(), "transformers>=4.30 (requirements.txt:4)");
  EXPECT_TRUE(asks[3].constraint);
  EXPECT_EQ(asks[3].label(), "torch!=1.13.0 (constraints.txt:1)");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("requirements.txt:6: '--extra-index-url"), std::string::npos) << notes[0];
  fs::remove_all(dir);
}

TEST(RequirementsFile, BadLinesAreOneLineErrors) {
  fs::path dir = fs::temp_directory_path() / ("gpucheck_req_bad_" + std::to_string(::getpid()));
  write(dir / "r.txt", "torch>>2\n");
  std::vector<std::string> notes;
  try {
    planner::read_requirements_file((dir / "r.txt").string(), false, notes);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.txt:1"), std::string::npos) << e.what();
  }
  write(dir / "loop.txt", "-r loop.txt\n");
  EXPECT_THROW(planner::read_requirements_file((dir / "loop.txt").string(), false, notes), InputError);
  EXPECT_THROW(planner::read_requirements_file((dir / "missing.txt").string(), false, notes), InputError);
  EXPECT_THROW(planner::ask_from_spec("-e ."), InputError);
  fs::remove_all(dir);
}
