// The wheel (scripts/wheel) end to end: built in its own tree (build-wheel, the main build's ccache), installed
// with pip into a fresh venv, and from there: gpucheck on PATH, doctor, run --level quick (GPU probes skip
// with their reason), explain on a log, and abi on the wheel's own installed files, whose newest GLIBC /
// GLIBCXX / CXXABI needs are held against auditwheel's own manylinux_2_28 policy (the JSON auditwheel
// ships, not numbers copied here); then, as root, the same install and run as nobody in a venv it made, and
// the same on Ubuntu 22.04's and 20.04's own userlands (debootstrap chroots, cached: scripts/rootfs).
// One process (add_test, not discovered), so the wheel is built once. Label repro: a second build of the
// tool and probes (minutes cold, seconds warm) and a pip install.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/subprocess.h"
#include "support/venv.h"

namespace fs = std::filesystem;
using gpucheck::run_subprocess;
using gpucheck::SubprocessOptions;
using gpucheck::SubprocessResult;
using nlohmann::json;

namespace {

const fs::path kSource = GPUCHECK_SOURCE_DIR;

struct Built {
  std::string error;         // why there is no wheel
  fs::path wheel;            // dist/gpucheck-<v>-py3-none-manylinux_2_28_x86_64.whl
  fs::path dist;             // with auditwheel.txt
  fs::path tools_python;     // build-wheel/tools/bin/python (auditwheel's venv)
  double seconds = 0;
};

SubprocessResult run(const std::vector<std::string>& argv, int timeout_s = 300, const std::string& cwd = "") {
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(timeout_s);
  o.working_dir = cwd;
  // The installed gpucheck finds its own probes and data, not a build tree's.
  o.unset_env = {"GPUCHECK_DATA_DIR", "GPUCHECK_PROBE_DIR"};
  return run_subprocess(argv, o);
}

json parse(const SubprocessResult& r) {
  try {
    return json::parse(r.out);
  } catch (const std::exception& e) {
    return json{{"parse_error", e.what()}, {"out", r.out.substr(0, 400)}, {"err", r.err}};
  }
}

std::vector<json> findings(const json& report) {
  std::vector<json> out;
  for (const auto& s : report.value("sections", json::array()))
    for (const auto& f : s.value("findings", json::array())) out.push_back(f);
  return out;
}

// "2.28" < "2.34", "3.4.9" < "3.4.24"
std::vector<int> dotted(const std::string& v) {
  std::vector<int> n;
  std::stringstream ss(v);
  for (std::string part; std::getline(ss, part, '.');) n.push_back(std::stoi(part));
  return n;
}

class Wheel : public ::testing::Test {
 protected:
  static Built* built;
  static gpucheck::testing::Venv* venv;

  static void SetUpTestSuite() {
    built = new Built;
    // The wheel's own build tree beside the source (as scripts/wheel's default), so a rerun is warm.
    fs::path dist = fs::temp_directory_path() / ("gpucheck_wheel_dist_" + std::to_string(::getpid()));
    auto r = run({(kSource / "scripts/wheel").string(), dist.string()}, 3000);
    built->seconds = r.elapsed_s;
    std::cout << "scripts/wheel: " << r.describe() << " in " << r.elapsed_s << " s\n" << r.err;
    if (!r.ok()) {
      built->error = "scripts/wheel " + r.describe() + ": " + r.err;
      return;
    }
    std::string path = r.out.substr(0, r.out.find('\n'));
    built->wheel = path;
    built->dist = dist;
    const char* bdir = std::getenv("GPUCHECK_WHEEL_BUILD");
    built->tools_python = (bdir && *bdir ? fs::path(bdir) : kSource / "build-wheel") / "tools/bin/python";
    venv = new gpucheck::testing::Venv(gpucheck::testing::fresh_venv("wheel"));
    auto pip = run({venv->python, "-m", "pip", "install", "--no-index", "--no-deps", "-q", built->wheel.string()}, 600);
    if (!pip.ok()) built->error = "pip install " + pip.describe() + ": " + pip.err;
  }
  static void TearDownTestSuite() {
    if (venv) fs::remove_all(venv->dir);
    if (built && !built->dist.empty()) fs::remove_all(built->dist);
    delete venv;
    delete built;
    venv = nullptr;
    built = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(built->error.empty()) << built->error; }
  fs::path prefix() const { return venv->dir / "venv"; }
  std::string gpucheck() const { return (prefix() / "bin/gpucheck").string(); }
};
Built* Wheel::built = nullptr;
gpucheck::testing::Venv* Wheel::venv = nullptr;

TEST_F(Wheel, IsTaggedManylinux228ByAuditwheel) {
  EXPECT_NE(built->wheel.filename().string().find("-py3-none-manylinux_2_28_x86_64.whl"), std::string::npos)
      << built->wheel;
  // auditwheel show: the tag the files' symbol versions allow, and what they load from outside the wheel.
  std::ifstream in(built->dist / "auditwheel.json");
  json show = json::parse(in, nullptr, false);
  ASSERT_FALSE(show.is_discarded());
  std::string sym = show.value("sym_tag", "");
  ASSERT_EQ(sym.rfind("manylinux_2_", 0), 0u) << sym;
  EXPECT_LE(std::stoi(sym.substr(12)), 28) << sym;
  std::set<std::string> external;
  for (const auto& [name, path] : show["external_libs"].items()) external.insert(name);
  // Nothing: the driver and NCCL are opened at run time (collectives.nccl's nccl_loader), not linked.
  EXPECT_EQ(external, std::set<std::string>{}) << show["external_libs"].dump();
  EXPECT_LT(fs::file_size(built->wheel), 64u << 20);
}

TEST_F(Wheel, PutsTheExecutableOnPathAndItsProbesAndDataBesideIt) {
  struct stat st{};
  ASSERT_EQ(::stat(gpucheck().c_str(), &st), 0) << gpucheck();
  EXPECT_TRUE(st.st_mode & S_IXUSR);
  std::ifstream f(gpucheck(), std::ios::binary);
  char magic[4] = {};
  f.read(magic, 4);
  EXPECT_EQ(std::string(magic, 4), "\x7f" "ELF") << "bin/gpucheck is the executable itself, not a wrapper";
  int manifests = 0;
  for (const auto& e : fs::directory_iterator(prefix() / "share/gpucheck/probes")) {
    ++manifests;
    fs::path exe = prefix() / "libexec/gpucheck" / e.path().stem();
    EXPECT_TRUE(fs::exists(exe)) << "probe " << e.path().stem() << " has a manifest but no executable";
  }
  EXPECT_GE(manifests, 9);
  auto v = run({gpucheck(), "version", "--json"});
  EXPECT_TRUE(v.ok()) << v.describe() << v.err;
  // `python -m gpucheck` finds the same executable through the wheel's RECORD.
  auto m = run({venv->python, "-m", "gpucheck", "list"});
  EXPECT_TRUE(m.ok()) << m.describe() << m.err;
  EXPECT_NE(m.out.find("device.runtime"), std::string::npos) << m.out;
}

TEST_F(Wheel, DoctorRunsFromTheVenv) {
  // As a user who activated the venv: doctor judges that venv's Python with the wheel's own knowledge base.
  // (Whether it finds problems depends on this machine, so the test asserts what it judged and with what.)
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(300);
  o.unset_env = {"GPUCHECK_DATA_DIR", "GPUCHECK_PROBE_DIR", "CONDA_PREFIX"};
  o.set_env["VIRTUAL_ENV"] = prefix().string();
  auto r = run_subprocess({gpucheck(), "doctor", "--json"}, o);
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.describe() << r.err;  // clean / problems found
  json d = parse(r);
  ASSERT_TRUE(d.contains("summary")) << d.dump().substr(0, 600);
  EXPECT_EQ(d["summary"]["exit_code"], r.exit_code);
  const json details = d.value("details", json::object());
  EXPECT_EQ(details.value("knowledge_base", ""), (prefix() / "share/gpucheck/compat").string()) << details.dump();
  const json python = details.value("python", json::object());
  EXPECT_EQ(python.value("prefix", ""), prefix().string()) << details.dump();
  EXPECT_EQ(python.value("chosen_by", ""), "VIRTUAL_ENV") << details.dump();
}

TEST_F(Wheel, RunQuickSkipsGpuProbesWithTheirReason) {
  auto r = run({gpucheck(), "run", "--level", "quick", "--no-report", "--json"}, 600);
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  json d = parse(r);
  ASSERT_TRUE(d.contains("summary")) << d.dump().substr(0, 600);
  EXPECT_EQ(d["summary"]["exit_code"], r.exit_code);
  std::set<std::string> ids;
  for (const auto& f : findings(d)) {
    std::string id = f.value("id", ""), status = f.value("status", ""), summary = f.value("summary", "");
    ids.insert(id);
    // No probe failed to start or load from the wheel (an error would say so).
    EXPECT_NE(status, "error") << id << ": " << summary;
    if (status == "skip") {
      EXPECT_FALSE(summary.empty()) << id << " skips without a reason";
    }
  }
  for (const char* id : {"host.info", "device.runtime", "kernels.adam", "kernels.inf_nan", "collectives.nccl"})
    EXPECT_TRUE(ids.count(id)) << id << " did not report";
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000);  // documented: skips are not failures
  if (run({"nvidia-smi", "-L"}, 30).ok()) return;
  // No GPU here: the kernel probes say which driver their CUDA runtime needs.
  for (const auto& f : findings(d))
    if (f.value("id", "") == "kernels.adam") {
      EXPECT_EQ(f.value("status", ""), "skip");
      EXPECT_NE(f.value("summary", "").find("needs NVIDIA driver >= "), std::string::npos) << f.value("summary", "");
    }
}

TEST_F(Wheel, ExplainRecognisesALog) {
  auto log = kSource / "tests/data/logs/local-no-driver-cudagetdevicecount.log";
  auto r = run({gpucheck(), "explain", log.string(), "--json"});
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 1000) << r.err;  // a cause was recognised
  EXPECT_NE(r.out.find("driver.too_old_for_torch"), std::string::npos) << r.out.substr(0, 1000);
}

TEST_F(Wheel, AbiOnItsOwnFilesMeetsTheManylinux228Policy) {
  // auditwheel's policy for manylinux_2_28, from the auditwheel that tagged the wheel.
  auto pol = run({built->tools_python.string(), "-c",
                  "import json, os, auditwheel.policy as p; "
                  "d = json.load(open(os.path.join(os.path.dirname(p.__file__), 'manylinux-policy.json'))); "
                  "print(json.dumps([x for x in d if x['name'] == 'manylinux_2_28'][0]))"});
  ASSERT_TRUE(pol.ok()) << pol.err;
  json policy = json::parse(pol.out);
  std::map<std::string, std::string> limit;  // namespace -> newest allowed version
  for (const auto& [ns, versions] : policy["symbol_versions"]["x86_64"].items()) {
    std::string best;
    for (const auto& v : versions) {
      std::string s = v.get<std::string>();
      if (s.find_first_not_of("0123456789.") != std::string::npos) continue;  // CXXABI_TM_1, FLOAT128
      if (best.empty() || dotted(best) < dotted(s)) best = s;
    }
    limit[ns] = best;
  }
  ASSERT_EQ(limit["GLIBC"], "2.28");
  ASSERT_EQ(limit["GLIBCXX"], "3.4.24");
  std::set<std::string> allowed;
  for (const auto& l : policy["lib_whitelist"]) allowed.insert(l.get<std::string>());

  auto r = run({gpucheck(), "abi", "--no-symbols", "--json", gpucheck(), (prefix() / "libexec/gpucheck").string()}, 300);
  ASSERT_TRUE(r.exited) << r.describe() << r.err;
  json d = parse(r);
  std::map<std::string, std::string> newest;  // over every file: namespace -> newest version needed
  int files = 0;
  for (const auto& f : findings(d)) {
    const json& det = f.value("details", json::object());
    if (!det.contains("version_needs")) continue;
    ++files;
    std::string path = det.value("path", "");
    for (const auto& [ns, v] : det["version_needs"].items()) {
      std::string ver = v.get<std::string>().substr(ns.size() + 1);
      if (newest[ns].empty() || dotted(newest[ns]) < dotted(ver)) newest[ns] = ver;
      ASSERT_TRUE(limit.count(ns)) << path << " needs " << v << ", a namespace manylinux_2_28 does not allow";
      EXPECT_FALSE(dotted(limit[ns]) < dotted(ver)) << path << " needs " << v << " > " << ns << "_" << limit[ns];
    }
    // What each file loads directly: the policy's libraries and ld.so (NCCL is opened at run time).
    for (const auto& dep : det.value("dependencies", json::array())) {
      if (dep.value("requested_by", "") != path) continue;
      std::string name = dep.value("name", "");
      EXPECT_TRUE(allowed.count(name) || name == "ld-linux-x86-64.so.2")
          << path << " needs " << name << ", which manylinux_2_28 does not allow";
    }
  }
  EXPECT_GE(files, 10) << r.out.substr(0, 1000);
  EXPECT_FALSE(newest["GLIBC"].empty());
  EXPECT_EQ(newest.count("GLIBCXX"), 0u) << "libstdc++ is linked in: no file needs GLIBCXX_" << newest["GLIBCXX"];
  std::cout << "newest needed over " << files << " files: GLIBC_" << newest["GLIBC"]
            << (newest.count("GLIBCXX") ? ", GLIBCXX_" + newest["GLIBCXX"] : ", no GLIBCXX") << "\n";
}

TEST_F(Wheel, PipxAndUvxPutGpucheckOnPath) {
  // The other two ways README names: pipx install FILE, uvx --from FILE gpucheck (pinned, from PyPI).
  auto tools = gpucheck::testing::fresh_venv("wheel_pipx_uv");
  auto pip = run({tools.python, "-m", "pip", "install", "-q", "pipx==1.18.4", "uv==0.13.9"}, 600);
  ASSERT_TRUE(pip.ok()) << pip.describe() << pip.err;
  fs::path bin = tools.dir / "venv/bin";
  std::map<std::string, std::string> env = {{"PIPX_HOME", (tools.dir / "pipx").string()},
                                            {"PIPX_BIN_DIR", (tools.dir / "pipx-bin").string()},
                                            {"UV_CACHE_DIR", (tools.dir / "uv-cache").string()},
                                            {"UV_TOOL_DIR", (tools.dir / "uv-tools").string()},
                                            {"PATH", bin.string() + ":/usr/local/bin:/usr/bin:/bin"}};
  auto with_env = [&](const std::vector<std::string>& argv) {
    SubprocessOptions o;
    o.timeout = std::chrono::seconds(600);
    o.set_env = env;
    o.unset_env = {"GPUCHECK_DATA_DIR", "GPUCHECK_PROBE_DIR"};
    return run_subprocess(argv, o);
  };
  auto px = with_env({(bin / "pipx").string(), "install", built->wheel.string()});
  ASSERT_TRUE(px.ok()) << px.describe() << px.err << px.out;
  auto pv = with_env({(tools.dir / "pipx-bin/gpucheck").string(), "list"});
  EXPECT_TRUE(pv.ok()) << pv.describe() << pv.err;
  EXPECT_NE(pv.out.find("kernels.adam"), std::string::npos) << "pipx's gpucheck finds its probes";
  auto uv = with_env({(bin / "uvx").string(), "--from", built->wheel.string(), "gpucheck", "list"});
  EXPECT_TRUE(uv.ok()) << uv.describe() << uv.err;
  EXPECT_NE(uv.out.find("kernels.adam"), std::string::npos) << "uvx's gpucheck finds its probes";
  fs::remove_all(tools.dir);
}

TEST_F(Wheel, InstallsAndRunsWithoutRoot) {
  if (::geteuid() != 0) GTEST_SKIP() << "not root: this whole test already ran without root";
  if (!fs::exists("/usr/bin/setpriv") || !fs::exists("/usr/bin/python3")) GTEST_SKIP() << "needs setpriv and /usr/bin/python3";
  // nobody's own HOME, venv and copy of the wheel; root's pyenv Python is not readable by nobody.
  fs::path home = fs::temp_directory_path() / ("gpucheck_wheel_nobody_" + std::to_string(::getpid()));
  fs::remove_all(home);
  fs::create_directories(home);
  fs::path whl = home / built->wheel.filename();
  fs::copy_file(built->wheel, whl);
  ASSERT_TRUE(run({"chown", "-R", "65534:65534", home.string()}).ok());
  auto as_nobody = [&](std::vector<std::string> argv, int timeout_s) {
    std::vector<std::string> full = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                     "--", "/usr/bin/env", "HOME=" + home.string(), "PIP_NO_CACHE_DIR=1"};
    full.insert(full.end(), argv.begin(), argv.end());
    return run(full, timeout_s, home.string());
  };
  auto v = as_nobody({"/usr/bin/python3", "-m", "venv", (home / "venv").string()}, 180);
  ASSERT_TRUE(v.ok()) << v.describe() << v.err;
  auto pip = as_nobody({(home / "venv/bin/python").string(), "-m", "pip", "install", "--no-index", "-q", whl.string()}, 600);
  ASSERT_TRUE(pip.ok()) << pip.describe() << pip.err;
  auto doc = as_nobody({(home / "venv/bin/gpucheck").string(), "doctor"}, 300);
  EXPECT_TRUE(doc.exited && (doc.exit_code == 0 || doc.exit_code == 1)) << doc.describe() << doc.err;
  // The report goes to nobody's reports/ (the working directory), written atomically like root's.
  auto q = as_nobody({(home / "venv/bin/gpucheck").string(), "run", "--level", "quick", "--json"}, 600);
  EXPECT_TRUE(q.ok()) << q.describe() << q.err << q.out.substr(0, 1000);
  json d = parse(q);
  EXPECT_TRUE(d.contains("summary")) << d.dump().substr(0, 600);
  int reports = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(home / "reports", ec))
    reports += e.path().extension() == ".json";
  EXPECT_EQ(reports, 1);
  fs::remove_all(home);
}


// ---- an older userland: the wheel on Ubuntu 22.04 (the seed's OS), in a chroot ------------------------------
// scripts/rootfs builds the rootfs once with debootstrap (cached under ~/.cache/gpucheck/rootfs); the test
// installs the wheel there with that distribution's own python3 and pip, into a venv, and runs it. The kernel
// and the devices are this machine's (chroot_exec binds /dev, /proc, /sys); libc, libstdc++, Python and pip
// are Ubuntu's. GPUCHECK_WHEEL_USERLANDS (default "jammy focal") names the suites, space-separated (bullseye).
struct Userland {
  std::string suite, glibc;  // the glibc it ships
};

std::vector<Userland> userlands() {
  static const std::map<std::string, std::string> glibc = {{"jammy", "2.35"}, {"focal", "2.31"}, {"bullseye", "2.31"}};
  const char* env = std::getenv("GPUCHECK_WHEEL_USERLANDS");
  std::stringstream ss(env && *env ? env : "jammy focal");
  std::vector<Userland> out;
  for (std::string s; ss >> s;) out.push_back({s, glibc.count(s) ? glibc.at(s) : "?"});
  return out;
}

TEST_F(Wheel, RunsOnOlderUserlandsInAChroot) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (debootstrap, chroot)";
  fs::path seed = kSource / "../shared/seeds/000_a98027b884d51af6.txt";  // the seed itself, where a checkout has it
  if (!fs::exists(seed)) seed = kSource / "tests/data/logs/cpm-bee-57-seed.log";  // its copy in the repository
  for (const Userland& u : userlands()) {
    SCOPED_TRACE(u.suite);
    auto rf = run({(kSource / "scripts/rootfs").string(), u.suite}, 1800);
    std::cout << "scripts/rootfs " << u.suite << ": " << rf.describe() << " in " << rf.elapsed_s << " s\n" << rf.err;
    // 75: the archive is not reachable from this machine (scripts/rootfs): that userland cannot be built.
    if (rf.exited && rf.exit_code == 75) GTEST_SKIP() << u.suite << ": " << rf.err;
    ASSERT_TRUE(rf.ok()) << rf.describe() << rf.err;
    fs::path root = rf.out.substr(0, rf.out.find('\n'));
    // The test's own folder inside the rootfs, removed after; nothing else in the cached rootfs changes.
    std::string work = "/tmp/gpucheck-wheel-" + std::to_string(::getpid());
    fs::remove_all(root.string() + work);
    fs::create_directories(root.string() + work);
    struct RemoveOnExit {  // also when an ASSERT ends the case: the cached rootfs keeps nothing of it
      fs::path dir;
      ~RemoveOnExit() {
        std::error_code ec;
        fs::remove_all(dir, ec);
      }
    } cleanup{root.string() + work};
    fs::copy_file(built->wheel, root.string() + work + "/" + built->wheel.filename().string());
    fs::copy_file(seed, root.string() + work + "/seed.log");
    auto in_root = [&](std::vector<std::string> argv, int timeout_s = 600) {
      std::vector<std::string> full = {GPUCHECK_CHROOT_EXEC, root.string(), work};
      full.insert(full.end(), argv.begin(), argv.end());
      return run(full, timeout_s);
    };
    const std::string venv = work + "/venv", gpucheck = venv + "/bin/gpucheck";

    auto libc = in_root({"/usr/bin/getconf", "GNU_LIBC_VERSION"});
    ASSERT_TRUE(libc.ok()) << libc.describe() << libc.err;
    EXPECT_EQ(libc.out, "glibc " + u.glibc + "\n") << "the chroot's own glibc";
    auto mk = in_root({"/usr/bin/python3", "-m", "venv", venv}, 300);
    ASSERT_TRUE(mk.ok()) << mk.describe() << mk.err;
    // The distribution's pip decides whether the manylinux_2_28 tag fits this glibc, as a user's would.
    const std::vector<std::string> install = {venv + "/bin/python", "-m", "pip", "install", "--no-index", "--no-deps",
                                              "-q", work + "/" + built->wheel.filename().string()};
    auto pipv = in_root({venv + "/bin/python", "-m", "pip", "--version"});  // "pip 20.0.2 from ..."
    ASSERT_TRUE(pipv.ok()) << pipv.describe() << pipv.err;
    std::string pip_version = pipv.out.substr(4, pipv.out.find(' ', 4) - 4);
    if (dotted(pip_version) < dotted("20.3")) {
      // pip before 20.3 knows no PEP 600 tag (Ubuntu 20.04's venv has 20.0.2): it refuses the wheel, and
      // README says to upgrade pip in the venv first. The test does that with pip's own wheel from PyPI.
      auto refused = in_root(install);
      EXPECT_FALSE(refused.ok());
      EXPECT_NE(refused.err.find("is not a supported wheel on this platform"), std::string::npos) << refused.err;
      auto dl = run({gpucheck::find_in_path("python3"), "-m", "pip", "download", "-q", "--no-deps",
                     "--only-binary=:all:", "pip==24.3.1", "-d", root.string() + work}, 600);  // the last for 3.8
      ASSERT_TRUE(dl.ok()) << dl.describe() << dl.err;
      auto up = in_root({venv + "/bin/python", "-m", "pip", "install", "-q", "--no-index", work + "/pip-24.3.1-py3-none-any.whl"});
      ASSERT_TRUE(up.ok()) << up.describe() << up.err;
    }
    auto pip = in_root(install);
    ASSERT_TRUE(pip.ok()) << pip.describe() << pip.err << pip.out;

    // gpucheck's own inventory says it ran on that userland: its libc is the chroot's.
    auto env = in_root({gpucheck, "env", "--json"}, 300);
    ASSERT_TRUE(env.ok()) << env.describe() << env.err;
    json e = parse(env);
    const json sys = e.value("inventory", json::object()).value("system", json::object());
    EXPECT_EQ(sys.value("glibc", ""), u.glibc) << sys.dump().substr(0, 600);
    EXPECT_EQ(sys.value("os_id", ""), u.suite == "bullseye" ? "debian" : "ubuntu") << sys.dump().substr(0, 600);

    auto doc = in_root({"/usr/bin/env", "VIRTUAL_ENV=" + venv, gpucheck, "doctor", "--json"}, 300);
    ASSERT_TRUE(doc.exited) << doc.describe() << doc.err;
    EXPECT_TRUE(doc.exit_code == 0 || doc.exit_code == 1) << doc.describe() << doc.err;
    json d = parse(doc);
    const json details = d.value("details", json::object());
    EXPECT_EQ(details.value("knowledge_base", ""), venv + "/share/gpucheck/compat") << details.dump().substr(0, 600);
    const json py = details.value("python", json::object());
    EXPECT_EQ(py.value("prefix", ""), venv) << details.dump().substr(0, 600);
    EXPECT_EQ(py.value("chosen_by", ""), "VIRTUAL_ENV");

    auto q = in_root({gpucheck, "run", "--level", "quick", "--no-report", "--json"});
    ASSERT_TRUE(q.exited) << q.describe() << q.err;
    EXPECT_EQ(q.exit_code, 0) << q.out.substr(0, 2000) << q.err;
    json rq = parse(q);
    std::set<std::string> ids;
    for (const auto& f : findings(rq)) {
      ids.insert(f.value("id", ""));
      EXPECT_NE(f.value("status", ""), "error") << f.value("id", "") << ": " << f.value("summary", "");
    }
    for (const char* id : {"host.info", "device.runtime", "kernels.adam", "collectives.nccl"})
      EXPECT_TRUE(ids.count(id)) << id << " did not report";
    if (!in_root({"/usr/bin/test", "-e", "/usr/lib/x86_64-linux-gnu/libnccl.so.2"}).ok()) {
      // No NCCL in this userland: collectives.nccl says where it looked (it errored, exit 127, when linked).
      for (const auto& f : findings(rq))
        if (f.value("id", "") == "collectives.nccl") {
          EXPECT_EQ(f.value("status", ""), "skip");
          const std::string summary = f.value("summary", "");
          EXPECT_NE(summary.find("no libnccl.so.2 on the loader path (libnccl.so.2: cannot open shared object file"),
                    std::string::npos) << summary;
          EXPECT_NE(summary.find("no nvidia-nccl-cu* wheel (torch's NCCL) in " + venv +
                                 "/lib/python3.*/site-packages/nvidia/nccl/lib"), std::string::npos) << summary;
        }
      // The layout of torch's nvidia-nccl-cu* wheel in the venv, with a real libnccl.so.2 (the toolkit's):
      // the probe opens that one.
      fs::path nccl = fs::path(std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda") / "lib/libnccl.so.2";
      std::string site;
      for (const auto& e : fs::directory_iterator(root.string() + venv + "/lib"))
        if (e.path().filename().string().rfind("python3", 0) == 0) site = venv + "/lib/" + e.path().filename().string() + "/site-packages";
      if (fs::exists(nccl) && !site.empty()) {
        std::string lib = site + "/nvidia/nccl/lib";
        fs::create_directories(root.string() + lib);
        fs::copy_file(fs::canonical(nccl), root.string() + lib + "/libnccl.so.2");
        auto n = in_root({gpucheck, "run", "--only", "collectives.nccl", "--no-report", "--json"});
        ASSERT_TRUE(n.exited) << n.describe() << n.err;
        std::string loaded;
        for (const auto& f : findings(parse(n))) {
          EXPECT_NE(f.value("status", ""), "error") << f.value("summary", "");
          for (const auto& ev : f.value("evidence", json::array()))
            if (ev.value("what", "") == "nccl_library") loaded = ev.value("value", "");
        }
        EXPECT_EQ(loaded, lib + "/libnccl.so.2") << n.out.substr(0, 1500);
      }
    }

    // The seed's log: explain names its root cause (pip built bmtrain without torch in the build env).
    auto ex = in_root({gpucheck, "explain", work + "/seed.log", "--json"}, 300);
    ASSERT_TRUE(ex.exited) << ex.describe() << ex.err;
    EXPECT_EQ(ex.exit_code, 0) << ex.out.substr(0, 1000) << ex.err;
    EXPECT_NE(ex.out.find("install.setup_imports_torch"), std::string::npos) << ex.out.substr(0, 1000);

    // abi on the wheel's own files, run on that userland: it reads them with the chroot's libc.
    auto abi = in_root({gpucheck, "abi", "--no-symbols", "--json", gpucheck, venv + "/libexec/gpucheck"}, 300);
    ASSERT_TRUE(abi.exited) << abi.describe() << abi.err;
    std::string newest;
    int files = 0;
    for (const auto& f : findings(parse(abi))) {
      const json& det = f.value("details", json::object());
      if (!det.contains("version_needs")) continue;
      ++files;
      const json vn = det["version_needs"];
      EXPECT_FALSE(vn.contains("GLIBCXX")) << det.value("path", "") << " needs the system's libstdc++";
      if (!vn.contains("GLIBC")) continue;
      std::string v = vn["GLIBC"].get<std::string>().substr(6);
      EXPECT_FALSE(dotted(u.glibc) < dotted(v)) << det.value("path", "") << " needs GLIBC_" << v << " > " << u.glibc;
      if (newest.empty() || dotted(newest) < dotted(v)) newest = v;
    }
    EXPECT_GE(files, 10) << abi.out.substr(0, 1000);
    std::cout << u.suite << " (glibc " << u.glibc << ", pip " << pip_version << "): installed, doctor " << doc.exit_code << ", run quick "
              << q.exit_code << " (" << ids.size() << " findings), explain " << ex.exit_code << ", newest GLIBC_"
              << newest << " over " << files << " files\n";
  }
}

}  // namespace
