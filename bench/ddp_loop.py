#!/usr/bin/env python3
"""ddp_loop.py: PyTorch's own data-parallel loop, the peer of rlx.train{ranks = N} (bench/ddp_vs_pytorch.sh).

Started by torchrun (one process per rank): each rank builds the torchvision model with the same seed, wraps it
in torch.nn.parallel.DistributedDataParallel over Gloo (DDP's defaults: 25 MiB buckets, broadcast_buffers),
trains on synthetic data made once (its slice of a global batch, as rlx does), SGD with momentum and weight
decay, cross-entropy, `warmup` unmeasured and `iters` measured steps timed with a monotonic clock. Rank 0
prints one JSON object: images_per_s = ranks x batch x iters / the slowest rank's measured seconds (rlx's
formula). --threads sets each rank's intra-op threads; --memory-format as train_loop.py; --malloc rlx applies
rlx's glibc settings (train_loop.py's).
"""
import argparse
import json
import os
import time

import torch
import torch.distributed as dist
import torchvision

from train_loop import rlx_malloc_settings


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--model", default="resnet50")
    a.add_argument("--batch", type=int, default=16, help="per rank")
    a.add_argument("--input", type=int, default=224)
    a.add_argument("--warmup", type=int, default=2)
    a.add_argument("--iters", type=int, default=6)
    a.add_argument("--threads", type=int, default=1)
    a.add_argument("--memory-format", default="contiguous", choices=["contiguous", "channels_last"])
    a.add_argument("--malloc", default="glibc", choices=["glibc", "rlx"])
    o = a.parse_args()
    if o.malloc == "rlx":
        rlx_malloc_settings()
    dist.init_process_group("gloo")
    rank, ranks = dist.get_rank(), dist.get_world_size()
    torch.set_num_threads(o.threads)
    torch.manual_seed(0)
    fmt = torch.channels_last if o.memory_format == "channels_last" else torch.contiguous_format
    model = getattr(torchvision.models, o.model)(num_classes=1000).to(memory_format=fmt).train()
    ddp = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    x = torch.randn(ranks * o.batch, 3, o.input, o.input)[rank * o.batch:(rank + 1) * o.batch]
    x = x.contiguous(memory_format=fmt)
    y = torch.randint(0, 1000, (ranks * o.batch,))[rank * o.batch:(rank + 1) * o.batch]
    seconds = 0.0
    for i in range(o.warmup + o.iters):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        torch.nn.functional.cross_entropy(ddp(x), y).backward()
        opt.step()
        if i >= o.warmup:
            seconds += time.perf_counter() - t0
    slowest = torch.tensor([seconds])
    dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
    if rank == 0:
        print(json.dumps({"model": o.model, "ranks": ranks, "batch": o.batch, "threads": o.threads,
                          "images_per_s": ranks * o.batch * o.iters / slowest.item(), "torch": torch.__version__}))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
