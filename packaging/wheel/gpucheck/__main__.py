"""`python -m gpucheck ARGS`: runs the gpucheck executable this wheel installed, with ARGS."""
import os
import sys


def _executable():
    # The wheel's RECORD names the executable relative to site-packages (../../../bin/gpucheck in a venv),
    # wherever the installer put the scripts (venv, conda env, --user).
    from importlib.metadata import distribution

    for f in distribution("gpucheck").files or ():
        if f.name == "gpucheck" and f.parent.name in ("bin", "Scripts"):
            return str(f.locate())
    return None


def main():
    exe = _executable()
    if not exe or not os.access(exe, os.X_OK):
        sys.stderr.write("gpucheck: the gpucheck executable of this installation is missing; reinstall the wheel\n")
        return 3
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
