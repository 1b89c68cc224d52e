#!/usr/bin/env python3
"""gpu_mm.py: torch.mm's best on this GPU, for bench/gpu_peaks_vs_torch.sh.

For each dtype (fp16, bf16) and n (4096, 8192, 16384): randn inputs cast to the dtype, one
untimed product, then `repeats` timings of as many back-to-back products as last about 50 ms,
each between two CUDA events; the best timing's 2 n^3 / seconds. The protocol of rlx's full GEMM
peak (engine/peaks/torch_peaks.cpp), so the two differ only in who calls cuBLAS. Prints one JSON
object: {dtype: {"best_gflops", "n", "by_n": {n: best GFLOP/s}}}.
"""
import json
import math
import sys

import torch


def best_gflops(dtype, n, repeats, target_s=0.05):
    a = torch.randn(n, n, device="cuda").to(dtype)
    b = torch.randn(n, n, device="cuda").to(dtype)
    c = torch.empty_like(a)

    def timing(calls):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            torch.mm(a, b, out=c)
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3 / calls

    torch.mm(a, b, out=c)
    calls = max(1, min(1000, math.ceil(target_s / max(timing(1), 1e-7))))
    seconds = [timing(calls) for _ in range(repeats + 1)][1:]  # the first is a warm-up
    return 2.0 * n ** 3 / min(seconds) / 1e9


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    torch.backends.cuda.matmul.allow_tf32 = False
    out = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0)}
    for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        by_n = {n: best_gflops(dtype, n, repeats) for n in (4096, 8192, 16384)}
        n = max(by_n, key=by_n.get)
        out[name] = {"best_gflops": by_n[n], "n": n, "by_n": by_n}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
