#!/usr/bin/env python3
"""gpu_train_loop.py: the plain PyTorch CUDA training loop rlx is compared with (bench/gpu_vs_pytorch.sh).

The work of rlx.train on CUDA with synthetic data: a torchvision model (weights=None) in train
mode, channels_last, input made once on the GPU (randn, random labels), cross-entropy, SGD with
momentum 0.9 and weight decay 1e-4, TF32 off and cuDNN benchmark off (rlx's defaults), amp = fp16
autocast with torch.amp.GradScaler, bf16 = bf16 autocast; each timed step bracketed by CUDA events
and synchronized, as rlx does. Variants, each a fresh model:
  foreach    torch.optim.SGD's CUDA default (foreach=True), eager
  per_param  SGD(foreach=False): one set of kernels per parameter, eager (what rlx ran before issue 46)
  graphs     the whole step (forward, loss, backward, optimizer, scaler) captured once with
             torch.cuda.graph after the warm-up on a side stream, then replayed (PyTorch's
             whole-network capture recipe; SGD(fused=True) with amp, so GradScaler needs no host
             sync, else foreach; autocast(cache_enabled=False) as its notes advise)
Prints one JSON object per line per case and variant: tool, round, case, model, precision, batch,
variant, optimizer, ok, error, images_per_s, median_ms, samples (seconds).

  gpu_train_loop.py --cases resnet50:amp:64,mobilenet_v2:amp:64 --variants foreach,per_param,graphs
"""
import argparse
import json
import statistics
import sys

import torch
import torchvision


def build(model_name, device, classes):
    model = getattr(torchvision.models, model_name)(weights=None, num_classes=classes)
    return model.to(device).to(memory_format=torch.channels_last).train()


class Case:
    def __init__(self, args, model_name, precision, batch, variant):
        self.device = torch.device("cuda")
        self.precision, self.variant = precision, variant
        torch.manual_seed(args.seed)
        self.model = build(model_name, self.device, args.classes)
        self.x = torch.randn(batch, 3, args.input, args.input, device=self.device).contiguous(
            memory_format=torch.channels_last)
        self.y = torch.randint(0, args.classes, (batch,), device=self.device)
        if variant == "per_param":
            self.optimizer_kind, kind = "per_param", {"foreach": False}
        elif variant == "graphs" and precision == "amp":
            self.optimizer_kind, kind = "fused", {"fused": True}
        else:
            self.optimizer_kind, kind = "foreach", {"foreach": True}
        self.opt = torch.optim.SGD(self.model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4, **kind)
        self.scaler = torch.amp.GradScaler("cuda") if precision == "amp" else None
        self.dtype = {"amp": torch.float16, "bf16": torch.bfloat16}.get(precision)

    def step(self, cache=True):
        with torch.autocast("cuda", dtype=self.dtype or torch.float32, enabled=self.dtype is not None,
                            cache_enabled=cache):
            loss = torch.nn.functional.cross_entropy(self.model(self.x), self.y)
        if self.scaler:
            self.scaler.scale(loss).backward()
            self.scaler.step(self.opt)
            self.scaler.update()
        else:
            loss.backward()
            self.opt.step()
        return loss

    def eager_step(self):
        self.step()
        self.opt.zero_grad(set_to_none=True)

    def capture(self, warmup):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(warmup):
                self.eager_step()
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        self.opt.zero_grad(set_to_none=True)
        with torch.cuda.graph(self.graph):
            self.step(cache=False)


def timed(fn, iters):
    samples = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / 1e3)
    return samples


def run(args, spec, variant):
    model_name, precision, batch = spec.split(":")
    batch = int(batch)
    out = {"tool": "python", "round": args.round, "case": f"{model_name} {precision} b{batch}", "model": model_name,
           "precision": precision, "batch": batch, "variant": variant, "ok": False}
    try:
        c = Case(args, model_name, precision, batch, variant)
        out["optimizer"] = c.optimizer_kind
        if variant == "graphs":
            c.capture(args.warmup)
            samples = timed(c.graph.replay, args.iters)
        else:
            for _ in range(args.warmup):
                c.eager_step()
            torch.cuda.synchronize()
            samples = timed(c.eager_step, args.iters)
        out.update(ok=True, samples=samples, images_per_s=batch * len(samples) / sum(samples),
                   median_ms=statistics.median(samples) * 1e3)
    except Exception as e:  # a failed variant is a row with its error, not the end of the bench
        out["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    finally:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cases", default="resnet50:amp:64,resnet50:bf16:64,mobilenet_v2:amp:64",
                   help="MODEL:PRECISION:BATCH, comma-separated")
    p.add_argument("--variants", default="foreach,per_param,graphs")
    p.add_argument("--input", type=int, default=224)
    p.add_argument("--classes", type=int, default=1000)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--round", type=int, default=1)
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = False
    for spec in args.cases.split(","):
        for variant in args.variants.split(","):
            print(json.dumps(run(args, spec, variant)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
