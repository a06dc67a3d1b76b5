#pragma once
// The one seam between nvcc and hostsim (tests/hostsim): a kernel launch written
//   GK_LAUNCH(kernel, grid, block, shared_bytes, stream)(args...);
// is `kernel<<<grid, block, shared_bytes, stream>>>(args...)` under nvcc, and a run of every thread of the
// grid through the hostsim runtime when the .cu is compiled as host C++ for the tests. Dynamic shared memory
// is declared with GK_DYNAMIC_SHARED(type, name) (`extern __shared__ type name[];` under nvcc).
#ifdef GPUCHECK_HOSTSIM
#define GK_LAUNCH(kernel, ...) ::gpucheck::hostsim::Launch(#kernel, kernel, __VA_ARGS__)
#define GK_DYNAMIC_SHARED(type, name) GK_HOSTSIM_DYNAMIC_SHARED(type, name)
#else
#define GK_LAUNCH(kernel, ...) kernel<<<__VA_ARGS__>>>
#define GK_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#endif
