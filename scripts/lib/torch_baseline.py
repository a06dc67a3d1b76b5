#!/usr/bin/env python3
"""torch's own fused ops on the shapes of bench_kernels_gpu, with the node's Python torch (gpu-check).

Prints one JSON document: {"torch": version, "device": name, "results": [{"name", "ms", "bytes",
"ratio_to_copy"}...]} or {"skipped": reason}. Times are CUDA-event milliseconds per call, best of 3
batches of 10 calls; ratio_to_copy uses a device copy of the same essential bytes, same run, as
bench_kernels_gpu does. Inputs are random (never zeros). Exit 0 also when skipped: the reason is the result.
"""
import json
import sys


def main():
    try:
        import torch
    except Exception as e:  # no torch: the reason is the result
        print(json.dumps({"skipped": f"import torch failed: {type(e).__name__}: {e}"}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": f"torch {torch.__version__}: torch.cuda.is_available() is False"}))
        return 0
    dev = torch.device("cuda", 0)

    def best_ms(fn, reps=10):
        fn()
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(3):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(reps):
                fn()
            e1.record()
            e1.synchronize()
            best = min(best, e0.elapsed_time(e1) / reps)
        return best

    def copy_ms(nbytes):
        a = torch.ones(nbytes // 2, dtype=torch.uint8, device=dev)
        b = torch.empty_like(a)
        return best_ms(lambda: b.copy_(a))

    results = []
    for half, per in (("fp16", 24), ("bf16", 28), ("fp32", 28)):
        n = 1 << 28
        p = torch.randn(n, device=dev)
        g = torch.randn(n, device=dev) * 0.01
        m = torch.randn(n, device=dev) * 0.01
        v = torch.randn(n, device=dev).abs() * 1e-4
        opt = torch.optim.Adam([p], lr=1e-3, weight_decay=0.01, fused=True)
        p.grad = g
        opt.state[p] = {"step": torch.zeros((), device=dev), "exp_avg": m, "exp_avg_sq": v}
        ph = None if half == "fp32" else torch.empty(n, dtype=getattr(torch, {"fp16": "float16", "bf16": "bfloat16"}[half]), device=dev)

        def step():
            opt.step()
            if ph is not None:
                ph.copy_(p)

        ms = best_ms(step)
        nbytes = n * per
        results.append({"name": f"torch fused Adam/{half}/n={n}", "ms": ms, "bytes": nbytes,
                        "ratio_to_copy": copy_ms(nbytes) / ms})
        del p, g, m, v, opt, ph
        torch.cuda.empty_cache()
    for dt in ("float16", "bfloat16"):
        for vocab in (86583, 128256, 256000):
            rows = 4096
            x = (torch.randn(rows, vocab, device=dev) * 3).to(getattr(torch, dt)).requires_grad_(True)
            t = torch.randint(0, vocab, (rows,), device=dev)

            def fwd_bwd():
                loss = torch.nn.functional.cross_entropy(x, t, reduction="none")
                torch.autograd.grad(loss, x, torch.ones_like(loss))

            ms = best_ms(fwd_bwd)
            nbytes = 4 * rows * vocab * x.element_size()
            results.append({"name": f"torch cross_entropy fwd+bwd/{dt}/{rows}x{vocab}", "ms": ms, "bytes": nbytes,
                            "ratio_to_copy": copy_ms(nbytes) / ms})
            del x, t
            torch.cuda.empty_cache()
    print(json.dumps({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
