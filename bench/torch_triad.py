#!/usr/bin/python3
# torch_triad.py: an independent check of rlx's DRAM triad figure. One multi-threaded LibTorch
# kernel a = b + 3*c over three 1.6 GB float64 arrays (far beyond any cache), best of 6, counted
# like rlx and likwid: 24 bytes per element. Regular stores, so the real traffic is 32 bytes per
# element (the write-allocate read of a): multiply by 4/3 to compare with a streaming-store triad.
#   /usr/bin/python3 bench/torch_triad.py [THREADS=2]
import sys
import time

import torch

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
n = 3 * 2**26
a = torch.empty(n, dtype=torch.float64)
b = torch.rand(n, dtype=torch.float64)
c = torch.rand(n, dtype=torch.float64)
best = 0.0
for _ in range(6):
    t = time.perf_counter()
    torch.add(b, c, alpha=3.0, out=a)
    best = max(best, 24 * n / (time.perf_counter() - t) / 1e9)
print(f"threads {torch.get_num_threads()}: {best:.1f} GB/s at 24 B/element, {best * 4 / 3:.1f} GB/s of real traffic")
