#!/usr/bin/python3
"""torch_mm.py: Python's torch.mm on the CPU, the reference for rlx's GEMM peak
(bench/gemm_vs_torch.sh): n x n x n fp32 products with `threads` intra-op threads, one untimed
call, then `repeats` repeats of back-to-back calls lasting about 0.2 s each, like rlx; prints the
best rate (2 n^3 FLOP per product) and the thread count OpenBLAS reports after the calls.
    /usr/bin/python3 bench/torch_mm.py [THREADS=2] [N=2048] [REPEATS=5]
"""
import ctypes
import json
import math
import sys
import time

import torch

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2048
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
torch.set_num_threads(threads)
a, b, c = torch.randn(n, n), torch.randn(n, n), torch.empty(n, n)
torch.mm(a, b, out=c)
t = time.perf_counter()
torch.mm(a, b, out=c)
calls = max(1, math.ceil(0.2 / (time.perf_counter() - t)))
best = 0.0
for _ in range(repeats):
    t = time.perf_counter()
    for _ in range(calls):
        torch.mm(a, b, out=c)
    best = max(best, 2 * n**3 * calls / (time.perf_counter() - t) / 1e9)
try:
    blas_threads = ctypes.CDLL("libopenblas.so.0").openblas_get_num_threads()
except OSError:
    blas_threads = None
print(json.dumps({"gflops": best, "threads": torch.get_num_threads(), "blas_threads": blas_threads, "n": n}))
