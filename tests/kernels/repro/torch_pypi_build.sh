#!/usr/bin/env bash
# The LibTorch translation units against a current torch wheel from PyPI (Debian's 1.13 is the default build):
# installs torch (no dependencies) plus the one CUDA wheel libtorch_cpu needs that a toolkit may lack (CUPTI)
# into a temporary venv, compiles probes/torch_linkage/torch_crosscheck.cpp and bench/kernels/torch_gpu_ops.cpp
# with that torch's headers, links kernels_torch_test's sources against its libtorch_cpu/libc10 and runs it
# (CPU). Exit 0 = built and passed against that torch; anything else fails with the step that broke.
# usage: torch_pypi_build.sh SRC_DIR BUILD_DIR CXX [STATIC_LIB...]   (label repro: needs PyPI, ~600 MB cached)
set -euo pipefail
src="$1" bld="$2" cxx="$3"
shift 3
py="${GPUCHECK_TORCH_PYTHON:-/usr/bin/python3}"
spec="${GPUCHECK_TORCH_SPEC:-torch}"
work="$(mktemp -d /tmp/gpucheck-torch-pypi-XXXXXX)"
trap 'rm -rf "$work"' EXIT
step() { echo "torch_pypi_build: $*"; }

step "venv with $py"
"$py" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-deps --only-binary :all: "$spec" 'nvidia-cuda-cupti-cu13' \
  || { echo "torch_pypi_build: pip could not install $spec from PyPI"; exit 1; }
site="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
tdir="$site/torch"
ver="$("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("torch"))')"
cupti="$(dirname "$(find "$site/nvidia" -name 'libcupti.so*' | head -1)")"
step "torch $ver from PyPI at $tdir"

flags=(-std=c++20 -O0 -fPIC -Wall -Wextra -Wno-unused-parameter -D_GLIBCXX_USE_CXX11_ABI=1
       -I"$src/probes" -I"$src/kernels" -I"$src/src" -I"$src/tests" -I"$bld/src"
       -isystem "$tdir/include" -isystem "$tdir/include/torch/csrc/api/include")
defs=()
if [[ -d /usr/local/cuda/include ]]; then
  flags+=(-isystem /usr/local/cuda/include)
  defs+=(-DGPUCHECK_TORCHCHECK_OUR_CUDA)
fi
step "compile torch_crosscheck.cpp"
"$cxx" "${flags[@]}" "${defs[@]}" -c "$src/probes/torch_linkage/torch_crosscheck.cpp" -o "$work/crosscheck.o"
step "compile bench/kernels/torch_gpu_ops.cpp"
"$cxx" "${flags[@]}" -c "$src/bench/kernels/torch_gpu_ops.cpp" -o "$work/torch_gpu_ops.o"
step "compile tests/kernels/torch_crosscheck_test.cpp"
"$cxx" "${flags[@]}" -c "$src/tests/kernels/torch_crosscheck_test.cpp" -o "$work/test.o"
cuda=()
[[ -d /usr/local/cuda/lib64 ]] && cuda=(-L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt)
step "link against libtorch_cpu and libc10 of torch $ver"
# libtorch.so itself needs libtorch_cuda (cuDNN, cuBLAS wheels): the CPU checks need only libtorch_cpu.
"$cxx" -o "$work/torch_test" "$work/test.o" "$work/crosscheck.o" -Wl,--start-group "$@" -Wl,--end-group \
  -lgtest_main -lgtest -lfmt "$tdir/lib/libtorch_cpu.so" "$tdir/lib/libc10.so" "${cuda[@]}" -lpthread \
  -Wl,-rpath,"$tdir/lib:$cupti" -Wl,--allow-shlib-undefined
step "run the LibTorch cross-checks (CPU) against torch $ver"
LD_LIBRARY_PATH="$cupti:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/torch_test"
