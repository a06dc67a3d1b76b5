#include "platform/python_query.h"

#include <chrono>

#include "core/json_input.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace gpucheck::platform {
namespace {

// What every caller needs to know about an interpreter. Dependency-free and Python >= 3.6: it runs in
// whatever environment the user points at, before anything that environment might break is imported.
const char* kBaseScript = R"PY(
import sys, os, json
o = {"executable": sys.executable, "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
     "prefix": sys.prefix, "base_prefix": getattr(sys, "base_prefix", sys.prefix),
     "base_exec_prefix": getattr(sys, "base_exec_prefix", sys.exec_prefix),
     "sys_path": [p for p in sys.path if p]}
if os.path.isdir(os.path.join(sys.prefix, "conda-meta")): o["kind"] = "conda"
elif o["prefix"] != o["base_prefix"]: o["kind"] = "venv"
elif "/.pyenv/versions/" in sys.prefix: o["kind"] = "pyenv"
else: o["kind"] = "system"
dirs, _real = [], set()
for _d in o["sys_path"]:
    if os.path.isdir(_d) and os.path.realpath(_d) not in _real:
        _real.add(os.path.realpath(_d))
        dirs.append(_d)
o["site_packages"] = [d for d in dirs if os.path.basename(d) in ("site-packages", "dist-packages")]
try:
    import sysconfig
    _libdir = sysconfig.get_config_var("LIBDIR") or ""
    for _n in (sysconfig.get_config_var("INSTSONAME"), sysconfig.get_config_var("LDLIBRARY")):
        if _n and ".so" in _n and os.path.exists(os.path.join(_libdir, _n)):
            o["libpython"] = os.path.join(_libdir, _n)
            break
except Exception:
    pass
)PY";

const char* kWriteAnswer = R"PY(
_f = os.fdopen(3, "w")
_f.write(json.dumps(o))
_f.close()
)PY";

const nlohmann::json* member(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

}  // namespace

std::string PythonFacts::text(const std::string& key) const {
  const auto* v = member(answer, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::vector<std::string> PythonFacts::texts(const std::string& key) const {
  std::vector<std::string> out;
  if (const auto* v = member(answer, key); v && v->is_array())
    for (const auto& s : *v)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

std::map<std::string, std::string> PythonFacts::text_map(const std::string& key) const {
  std::map<std::string, std::string> out;
  if (const auto* v = member(answer, key); v && v->is_object())
    for (const auto& [k, s] : v->items())
      if (s.is_string()) out[k] = s.get<std::string>();
  return out;
}

std::optional<bool> PythonFacts::flag(const std::string& key) const {
  const auto* v = member(answer, key);
  return v && v->is_boolean() ? std::optional<bool>(v->get<bool>()) : std::nullopt;
}

PythonFacts parse_python_answer(const std::string& text) {
  PythonFacts f;
  auto j = parse_json_or_discarded(text);
  if (j.is_discarded() || !j.is_object()) {
    f.error = "printed no valid JSON";
    return f;
  }
  f.answered = true;
  f.answer = std::move(j);
  f.executable = f.text("executable");
  f.version = f.text("version");
  f.prefix = f.text("prefix");
  f.base_prefix = f.text("base_prefix");
  f.base_exec_prefix = f.text("base_exec_prefix");
  f.kind = f.text("kind");
  f.sys_path = f.texts("sys_path");
  f.site_packages = f.texts("site_packages");
  f.libpython = f.text("libpython");
  return f;
}

PythonFacts query_python(const std::string& interpreter, const PythonQuery& q) {
  SubprocessOptions o;
  o.timeout = std::chrono::milliseconds(static_cast<long long>(q.timeout_s * 1000));
  o.result_fd = 3;
  o.stdout_limit = 1u << 16;  // only what imported code printed: not the answer
  std::vector<std::string> argv = {q.run_as.empty() ? interpreter : q.run_as, "-c",
                                   std::string(kBaseScript) + q.extra_script + "\n" + kWriteAnswer};
  argv.insert(argv.end(), q.args.begin(), q.args.end());
  auto r = run_subprocess(argv, o);
  PythonFacts f;
  if (r.ok() && !r.result.empty()) {
    f = parse_python_answer(r.result);
  } else {
    std::string tail = trim(last_lines(r.err, 3));
    f.error = (r.ok() ? std::string("wrote no answer") : r.describe()) + (tail.empty() ? "" : ": " + tail);
  }
  f.interpreter = interpreter;
  f.seconds = r.elapsed_s;
  return f;
}

}  // namespace gpucheck::platform
