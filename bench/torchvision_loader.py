#!/usr/bin/python3
"""torchvision_loader.py: the reference data pipeline for bench/data_pipeline.sh: torchvision's
ImageFolder (PIL decode) + DataLoader, with the transforms rlx applies for augment = true
(RandomResizedCrop(224), RandomHorizontalFlip, ToTensor, Normalize with ImageNet's mean and std).
Iterates `warmup` then `batches` batches and prints one JSON object: images_per_s over the timed
batches, and the same per worker (workers = 0: decoding on the main process counts as one).
    /usr/bin/python3 bench/torchvision_loader.py ROOT [--workers N] [--batch 16] [--batches 40]
"""
import argparse
import json
import time

import torch
import torchvision
from torchvision import transforms


def main():
    p = argparse.ArgumentParser()
    p.add_argument("root")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--batches", type=int, default=40)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--side", type=int, default=224)
    a = p.parse_args()
    torch.set_num_threads(1)
    tf = transforms.Compose([transforms.RandomResizedCrop(a.side), transforms.RandomHorizontalFlip(),
                             transforms.ToTensor(),
                             transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    ds = torchvision.datasets.ImageFolder(a.root + "/train", transform=tf)
    extra = {"prefetch_factor": 2, "persistent_workers": True} if a.workers > 0 else {}
    dl = torch.utils.data.DataLoader(ds, batch_size=a.batch, shuffle=True, num_workers=a.workers,
                                     drop_last=True, **extra)
    it = iter(dl)
    for _ in range(a.warmup):
        next(it)
    t0 = time.perf_counter()
    for _ in range(a.batches):
        x, _ = next(it)
    s = time.perf_counter() - t0
    ips = a.batch * a.batches / s
    print(json.dumps({"images_per_s": ips, "per_worker": ips / max(1, a.workers), "workers": a.workers,
                      "seconds": s, "shape": list(x.shape)}))


if __name__ == "__main__":
    main()
