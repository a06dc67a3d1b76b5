"""gpucheck is a native executable: the wheel puts it in the environment's bin/ (run `gpucheck`).

This package only lets `python -m gpucheck` find it when bin/ is not on PATH; it imports nothing else.
"""
