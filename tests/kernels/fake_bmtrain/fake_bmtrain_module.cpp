// A stand-in for BMTrain 1.0.x's native module `bmtrain.C`, built by the tests with the Python C API: its
// CPU Adam launchers have BMTrain's argument order and run our offload Adam. Variants (compile
// definitions) reproduce what breaks real installs:
//   FAKE_BMTRAIN_WRONG_MATH      the update ignores weight decay (a kernel that computes something else)
//   FAKE_BMTRAIN_UNDEFINED_NCCL  the module references ncclBroadcast without linking NCCL (BMTrain PR#111:
//                                "C.cpython-38-x86_64-linux-gnu.so: undefined symbol: ncclBroadcast")
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>

#include "adam/adam_offload.h"

#ifdef FAKE_BMTRAIN_UNDEFINED_NCCL
extern "C" int ncclBroadcast(const void*, void*, std::size_t, int, int, void*, void*);
#endif

namespace {

using namespace gpucheck::kernels;

PyObject* adam_cpu(PyObject* args, bool bf16) {
  Py_ssize_t n = 0;
  unsigned long long param, param_h, delta_info, grad, m, v;
  float beta1, beta2, eps, lr, scale, weight_decay, bc1, bc2;
  if (!PyArg_ParseTuple(args, "nKKKKKKffffffff", &n, &param, &param_h, &delta_info, &grad, &m, &v, &beta1, &beta2,
                        &eps, &lr, &scale, &weight_decay, &bc1, &bc2))
    return nullptr;
  if (delta_info != 0) {
    PyErr_SetString(PyExc_NotImplementedError, "delta_info is not supported by this stand-in");
    return nullptr;
  }
#ifdef FAKE_BMTRAIN_WRONG_MATH
  weight_decay = 0.0f;
#endif
  AdamHyper h{lr, beta1, beta2, eps, weight_decay, scale, bc1, bc2};
  OffloadAdamBuffers b{static_cast<std::size_t>(n), reinterpret_cast<float*>(param),
                       reinterpret_cast<std::uint16_t*>(param_h), reinterpret_cast<const std::uint16_t*>(grad),
                       reinterpret_cast<float*>(m), reinterpret_cast<float*>(v), bf16};
  Py_BEGIN_ALLOW_THREADS  // as BMTrain does: the GIL is released while the threads run
  adam_offload_step(b, h, best_cpu_isa(), offload_default_threads());
  Py_END_ALLOW_THREADS
#ifdef FAKE_BMTRAIN_UNDEFINED_NCCL
  if (n < 0) ncclBroadcast(nullptr, nullptr, 0, 0, 0, nullptr, nullptr);  // never runs: the load fails first
#endif
  Py_RETURN_NONE;
}

PyObject* adam_cpu_fp16_launcher(PyObject*, PyObject* args) { return adam_cpu(args, false); }
PyObject* adam_cpu_bf16_launcher(PyObject*, PyObject* args) { return adam_cpu(args, true); }
PyObject* is_bf16_supported(PyObject*, PyObject*) { return PyBool_FromLong(1); }

PyMethodDef kMethods[] = {
    {"adam_cpu_fp16_launcher", adam_cpu_fp16_launcher, METH_VARARGS, "CPU offload Adam, fp16 parameters"},
    {"adam_cpu_bf16_launcher", adam_cpu_bf16_launcher, METH_VARARGS, "CPU offload Adam, bf16 parameters"},
    {"is_bf16_supported", is_bf16_supported, METH_NOARGS, "1"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef kModule = {PyModuleDef_HEAD_INIT, "C", "gpucheck's stand-in for bmtrain.C", -1, kMethods,
                       nullptr, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_C() { return PyModule_Create(&kModule); }
