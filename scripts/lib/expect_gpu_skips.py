"""Reads a gpucheck run report on stdin from a build without CUDA/LibTorch and checks that every GPU and
torch probe is present and none errored or claimed a pass it could not have earned."""
import json
import sys

GPU_PROBES = {"device.runtime", "kernels.adam", "kernels.cross_entropy", "kernels.inf_nan", "collectives.nccl",
              "torch.linkage", "device.memory", "device.copy", "cublas.gemm"}

doc = json.load(sys.stdin)
probes = next(s["findings"] for s in doc["sections"] if s["name"] == "probes")
for r in probes:
    print(f"  {r['status']:5} {r['id']:24} {r['summary'][:110]}")
ids = {r["id"] for r in probes}
errors = [r["id"] for r in probes if r["status"] == "error"]
missing = sorted(GPU_PROBES - ids)
# device.runtime dlopens libcudart at run time, so it may legitimately pass on a GPU node even here.
unearned = [r["id"] for r in probes
            if r["id"] in GPU_PROBES - {"device.runtime"} and r["status"] == "pass"]
if errors or missing or unearned:
    sys.exit(f"check-nocuda: errors={errors} missing={missing} passed_without_build={unearned}")
