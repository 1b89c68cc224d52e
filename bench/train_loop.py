#!/usr/bin/python3
"""train_loop.py: the plain PyTorch training loop rlx is compared with (bench/train_vs_pytorch.sh).

Same work as rlx.train with synthetic data: a torchvision model in train mode, SGD with momentum
and weight decay, cross-entropy, input made once (randn, random labels), `warmup` unmeasured and
`iters` measured iterations, each timed with a monotonic clock. Prints one JSON object with
images_per_s = batch * iters / (sum of the measured iteration times).
"""
import argparse
import json
import resource
import time

import torch
import torchvision


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="resnet18")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--input", type=int, default=64)
    p.add_argument("--classes", type=int, default=1000)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    model = getattr(torchvision.models, a.model)(num_classes=a.classes)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    x = torch.randn(a.batch, 3, a.input, a.input)
    y = torch.randint(0, a.classes, (a.batch,))
    samples = []
    loss = None
    ru0 = None
    for i in range(a.warmup + a.iters):
        if i == a.warmup:
            ru0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        t1 = time.perf_counter()
        if i >= a.warmup:
            samples.append(t1 - t0)
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    seconds = sum(samples)
    print(json.dumps({"images_per_s": a.batch * a.iters / seconds, "seconds": seconds,
                      "user_s": ru1.ru_utime - ru0.ru_utime, "sys_s": ru1.ru_stime - ru0.ru_stime,
                      "threads": torch.get_num_threads(), "loss_last": float(loss)}))


if __name__ == "__main__":
    main()
