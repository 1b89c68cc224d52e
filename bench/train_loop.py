#!/usr/bin/env python3
"""train_loop.py: the plain PyTorch training loop rlx is compared with (bench/train_vs_pytorch.sh).

Same work as rlx.train with synthetic data: a torchvision model in train mode, SGD with momentum
and weight decay, cross-entropy, input made once (randn, random labels), `warmup` unmeasured and
`iters` measured iterations, each timed with a monotonic clock. Prints one JSON object with
images_per_s = batch * iters / (sum of the measured iteration times), CPU seconds and page faults
of the measured section. --memory-format channels_last converts the model and the input as
PyTorch's tuning guide shows (model.to(memory_format=...)); the default is PyTorch's (contiguous).
--malloc rlx applies rlx's glibc settings with the same mallopt calls (the comparison with
identical settings). --precision bf16 runs the forward pass under torch.autocast("cpu", torch.bfloat16), as rlx does;
with PyTorch 1.13 (Debian's, RLX_PYTHON=/usr/bin/python3) it computes ReLU6 with clamp in bf16, as
rlx built against 1.13 does: 1.13 has no bf16 hardtanh backward on the CPU (MobileNetV2 fails with
"hardshrink_backward_cpu not implemented for 'BFloat16'"); 2.x has it and runs torchvision's ReLU6.
--compile wraps the model in torch.compile (what a user of 2026 tries for speed; inductor's C++ code
for the CPU): the warm-up steps include the compilation, reported as compile_s (the wall time of the
warm-up steps), and the measured steps run the compiled model.
"""
import argparse
import ctypes
import json
import resource
import sys
import time

import torch
import torchvision


def rlx_malloc_settings():
    """rlx's glibc settings (engine/util/process_tuning.cpp), made the same way: mallopt at start."""
    libc = ctypes.CDLL("libc.so.6")
    m_trim_threshold, m_mmap_max = -1, -4  # <malloc.h>
    return libc.mallopt(m_mmap_max, 0) == 1 and libc.mallopt(m_trim_threshold, -1) == 1


class ReLU6Bf16(torch.nn.Module):
    """torchvision's ReLU6 (hardtanh(0, 6)); clamp when the input is bf16 (see the header)."""

    def forward(self, x):
        if x.dtype == torch.bfloat16:
            return torch.clamp(x, 0.0, 6.0)
        return torch.nn.functional.hardtanh(x, 0.0, 6.0)


def replace_relu6(module):
    for name, child in module.named_children():
        if isinstance(child, torch.nn.ReLU6):
            setattr(module, name, ReLU6Bf16())
        else:
            replace_relu6(child)


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
    p.add_argument("--lr", type=float, default=0.1, help="learning rate (rlx train's default 0.1)")
    p.add_argument("--memory-format", choices=["contiguous", "channels_last"], default="contiguous")
    p.add_argument("--precision", choices=["fp32", "bf16"], default="fp32")
    p.add_argument("--malloc", choices=["default", "rlx"], default="default",
                   help="rlx: glibc without mmap'd chunks or trimming, as rlx sets it")
    p.add_argument("--compile", action="store_true", help="torch.compile the model (inductor)")
    p.add_argument("--mkldnn", choices=["on", "off"], default="on",
                   help="off: convolutions without oneDNN (im2col and the BLAS), to measure that path")
    a = p.parse_args()
    if a.malloc == "rlx" and not rlx_malloc_settings():
        sys.exit("train_loop.py: mallopt refused rlx's settings")

    torch.set_num_threads(a.threads)
    torch.backends.mkldnn.enabled = a.mkldnn == "on"
    torch.manual_seed(a.seed)
    model = getattr(torchvision.models, a.model)(num_classes=a.classes)
    if a.precision == "bf16" and int(torch.__version__.split(".")[0]) < 2:
        replace_relu6(model)
    fmt = torch.channels_last if a.memory_format == "channels_last" else torch.contiguous_format
    model = model.to(memory_format=fmt)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9, weight_decay=1e-4)
    step_model = torch.compile(model) if a.compile else model
    x = torch.randn(a.batch, 3, a.input, a.input).contiguous(memory_format=fmt)
    y = torch.randint(0, a.classes, (a.batch,))
    samples = []
    loss = None
    ru0 = None
    warmup_start = time.perf_counter()
    compile_s = None
    for i in range(a.warmup + a.iters):
        if i == a.warmup:
            ru0 = resource.getrusage(resource.RUSAGE_SELF)
            compile_s = time.perf_counter() - warmup_start if a.compile else None
        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=a.precision == "bf16"):
            out = step_model(x)
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
                      "page_faults": (ru1.ru_minflt + ru1.ru_majflt) - (ru0.ru_minflt + ru0.ru_majflt),
                      "threads": torch.get_num_threads(), "memory_format": a.memory_format,
                      "precision": a.precision, "malloc": a.malloc, "mkldnn": a.mkldnn, "loss_last": loss.item(),
                      "compiled": a.compile, "compile_s": compile_s, "torch": torch.__version__,
                      "samples": samples}))


if __name__ == "__main__":
    main()
