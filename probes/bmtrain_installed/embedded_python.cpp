#include "bmtrain_installed/embedded_python.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <mutex>

namespace gpucheck::kernels::python {

namespace {
using PyObj = void;  // PyObject, opaque here: only the stable C API below is used
constexpr int kPyFileInput = 257;  // Py_file_input (Include/compile.h, unchanged since Python 2)

// Catches every exception inside Python, so no traceback reaches our stderr and the caller gets one line.
const char* kRunner = R"PY(
def _gpucheck_run(code):
    try:
        exec(code, globals())
        return ''
    except BaseException as e:
        return type(e).__name__ + ': ' + str(e)
)PY";

void set_env(const char* name, const char* value) {
  if (value) setenv(name, value, 1);
  else unsetenv(name);
}
}  // namespace

struct Embedded::Api {
  void (*Py_InitializeEx)(int);
  int (*Py_IsInitialized)();
  PyObj* (*PyImport_AddModule)(const char*);
  PyObj* (*PyModule_GetDict)(PyObj*);
  PyObj* (*PyRun_StringFlags)(const char*, int, PyObj*, PyObj*, void*);
  int (*PyDict_SetItemString)(PyObj*, const char*, PyObj*);
  PyObj* (*PyDict_GetItemString)(PyObj*, const char*);
  PyObj* (*PyLong_FromLongLong)(long long);
  PyObj* (*PyLong_FromUnsignedLongLong)(unsigned long long);
  PyObj* (*PyFloat_FromDouble)(double);
  PyObj* (*PyUnicode_DecodeFSDefaultAndSize)(const char*, long);
  const char* (*PyUnicode_AsUTF8)(PyObj*);
  PyObj* (*PyObject_Str)(PyObj*);
  PyObj* (*PyTuple_New)(long);
  int (*PyTuple_SetItem)(PyObj*, long, PyObj*);
  void (*Py_DecRef)(PyObj*);
  PyObj* (*PyErr_Occurred)();
  void (*PyErr_Clear)();
  PyObj* globals = nullptr;  // __main__.__dict__ (borrowed, lives as long as the interpreter)

  // Runs a statement block; on a C-level failure (none expected: the runner catches) clears the error.
  bool run(const char* code) {
    PyObj* r = PyRun_StringFlags(code, kPyFileInput, globals, globals, nullptr);
    if (!r) {
      PyErr_Clear();
      return false;
    }
    Py_DecRef(r);
    return true;
  }
  void set(const char* name, PyObj* value) {  // steals `value`
    if (!value) {
      PyErr_Clear();
      return;
    }
    PyDict_SetItemString(globals, name, value);
    Py_DecRef(value);
  }
};

Embedded* Embedded::start(const Layout& layout, std::string& error) {
  static std::mutex mu;
  static Embedded* instance = nullptr;
  std::lock_guard<std::mutex> lock(mu);
  if (instance) {
    if (instance->library_ == layout.library) return instance;
    error = "another interpreter (" + instance->library_ + ") is already embedded in this process";
    return nullptr;
  }
  if (layout.library.empty()) {
    error = "the interpreter has no shared libpython (built without --enable-shared)";
    return nullptr;
  }
  // RTLD_GLOBAL: extension modules do not link libpython; they bind its symbols from the global scope.
  void* h = dlopen(layout.library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    error = std::string("dlopen failed: ") + dlerror();
    return nullptr;
  }
  auto* api = new Api{};
  bool missing = false;
  std::string missing_names;
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
    if (!fn) missing = true, missing_names += std::string(missing_names.empty() ? "" : ", ") + name;
  };
  bind(api->Py_InitializeEx, "Py_InitializeEx");
  bind(api->Py_IsInitialized, "Py_IsInitialized");
  bind(api->PyImport_AddModule, "PyImport_AddModule");
  bind(api->PyModule_GetDict, "PyModule_GetDict");
  bind(api->PyRun_StringFlags, "PyRun_StringFlags");
  bind(api->PyDict_SetItemString, "PyDict_SetItemString");
  bind(api->PyDict_GetItemString, "PyDict_GetItemString");
  bind(api->PyLong_FromLongLong, "PyLong_FromLongLong");
  bind(api->PyLong_FromUnsignedLongLong, "PyLong_FromUnsignedLongLong");
  bind(api->PyFloat_FromDouble, "PyFloat_FromDouble");
  bind(api->PyUnicode_DecodeFSDefaultAndSize, "PyUnicode_DecodeFSDefaultAndSize");
  bind(api->PyUnicode_AsUTF8, "PyUnicode_AsUTF8");
  bind(api->PyObject_Str, "PyObject_Str");
  bind(api->PyTuple_New, "PyTuple_New");
  bind(api->PyTuple_SetItem, "PyTuple_SetItem");
  bind(api->Py_DecRef, "Py_DecRef");
  bind(api->PyErr_Occurred, "PyErr_Occurred");
  bind(api->PyErr_Clear, "PyErr_Clear");
  if (missing) {
    error = layout.library + " lacks C-API functions: " + missing_names;
    delete api;
    return nullptr;
  }
  if (api->Py_IsInitialized()) {
    error = "a Python interpreter is already running in this process";
    delete api;
    return nullptr;
  }
  // No site import: sys.path is set below to exactly what the interpreter computed for itself (venv,
  // .pth files included). The flag is deprecated in 3.12; where it is gone, site simply runs.
  if (auto* no_site = static_cast<int*>(dlsym(h, "Py_NoSiteFlag"))) *no_site = 1;
  // PYTHONHOME only for the start-up: spawned children (pip, other interpreters) must not inherit it.
  const char* old_home = getenv("PYTHONHOME");
  std::string saved_home = old_home ? old_home : "";
  set_env("PYTHONHOME", layout.home.empty() ? old_home : layout.home.c_str());
  api->Py_InitializeEx(0);  // 0: leave our signal handlers alone
  set_env("PYTHONHOME", old_home ? saved_home.c_str() : nullptr);
  if (!api->Py_IsInitialized()) {
    error = "Py_InitializeEx did not start the interpreter";
    delete api;
    return nullptr;
  }
  PyObj* main_module = api->PyImport_AddModule("__main__");
  api->globals = main_module ? api->PyModule_GetDict(main_module) : nullptr;
  if (!api->globals || !api->run(kRunner)) {
    error = "could not set up __main__ in the embedded interpreter";
    delete api;
    return nullptr;
  }
  instance = new Embedded(layout.library, api);
  // sys.path as the interpreter itself computed it.
  PyObj* list = api->PyTuple_New(static_cast<long>(layout.sys_path.size()));
  for (std::size_t i = 0; i < layout.sys_path.size(); ++i) {
    const std::string& p = layout.sys_path[i];
    api->PyTuple_SetItem(list, static_cast<long>(i),
                         api->PyUnicode_DecodeFSDefaultAndSize(p.data(), static_cast<long>(p.size())));
  }
  api->set("_gpucheck_sys_path", list);
  if (!layout.sys_path.empty()) {
    std::string e = instance->exec("import sys\nsys.path[:] = list(_gpucheck_sys_path)\n");
    if (!e.empty()) error = "setting sys.path: " + e;  // not fatal: the defaults may still find the module
  }
  return instance;
}

std::string Embedded::exec(const std::string& code) {
  set_str("_gpucheck_code", code);
  if (!api_->run("_gpucheck_error = _gpucheck_run(_gpucheck_code)\n")) return "RuntimeError: the embedded interpreter failed to run code";
  return get_str("_gpucheck_error");
}

std::string Embedded::call(const std::string& target, const std::vector<Arg>& args) {
  PyObj* tuple = api_->PyTuple_New(static_cast<long>(args.size()));
  if (!tuple) {
    api_->PyErr_Clear();
    return "MemoryError: could not build the argument tuple";
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    PyObj* v = std::visit(
        [this](auto x) -> PyObj* {
          using T = decltype(x);
          if constexpr (std::is_same_v<T, std::int64_t>) return api_->PyLong_FromLongLong(x);
          else if constexpr (std::is_same_v<T, std::uint64_t>) return api_->PyLong_FromUnsignedLongLong(x);
          else return api_->PyFloat_FromDouble(x);
        },
        args[i]);
    api_->PyTuple_SetItem(tuple, static_cast<long>(i), v);
  }
  api_->set("_gpucheck_args", tuple);
  return exec("_gpucheck_ret = " + target + "(*_gpucheck_args)\n");
}

void Embedded::set_str(const std::string& name, const std::string& value) {
  api_->set(name.c_str(), api_->PyUnicode_DecodeFSDefaultAndSize(value.data(), static_cast<long>(value.size())));
}

std::string Embedded::get_str(const std::string& name) {
  PyObj* v = api_->PyDict_GetItemString(api_->globals, name.c_str());  // borrowed
  if (!v) return "";
  PyObj* s = api_->PyObject_Str(v);
  if (!s) {
    api_->PyErr_Clear();
    return "";
  }
  const char* utf8 = api_->PyUnicode_AsUTF8(s);
  std::string out = utf8 ? utf8 : "";
  if (!utf8) api_->PyErr_Clear();
  api_->Py_DecRef(s);
  return out;
}

}  // namespace gpucheck::kernels::python
