#!/usr/bin/env python3
"""sgd_reference.py OUT.json [--device cuda]: torch.optim.SGD's numbers for tests/gpu/sgd_cuda.sh.

The case of tests/unit/train/test_sgd_cuda.cpp, made with the same ATen ops: three float32
parameters (64x32x3x3 in channels_last, 1000, 7) from sin of a float64 ramp, five steps of
gradients from cos of another, lr 0.1, momentum 0.9, weight decay 1e-4, gradients replaced (not
accumulated) each step. Writes {"torch": version, "device": ..., "foreach": [p0, p1, p2] (flat
lists), "fused": [...] (where this torch has SGD(fused=True) on the device)}.
"""
import json
import sys

import torch

SHAPES = [(64, 32, 3, 3), (1000,), (7,)]
STEPS = 5


def ramp(shape, a, b, cos=False):
    n = 1
    for d in shape:
        n *= d
    x = torch.arange(n, dtype=torch.float64) * a + b
    return (torch.cos(x) if cos else torch.sin(x)).to(torch.float32).reshape(shape)


def layout(t):
    return t.contiguous(memory_format=torch.channels_last) if t.dim() == 4 else t


def run(device, **variant):
    params = [layout(ramp(s, 0.001, float(i)).to(device)).requires_grad_() for i, s in enumerate(SHAPES)]
    opt = torch.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=1e-4, **variant)
    for step in range(STEPS):
        for i, p in enumerate(params):
            p.grad = layout(ramp(SHAPES[i], 0.002, float(step + i), cos=True).to(device))
        opt.step()
    return [p.detach().cpu().contiguous().reshape(-1).tolist() for p in params]


def main():
    out = sys.argv[1]
    device = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--device" else "cuda"
    result = {"torch": torch.__version__, "device": device, "foreach": run(device, foreach=True)}
    try:
        result["fused"] = run(device, fused=True)
    except (RuntimeError, TypeError, ValueError) as e:
        result["fused_error"] = str(e).splitlines()[0]
    with open(out, "w") as f:
        json.dump(result, f)
    print(f"torch.optim.SGD reference on {device} (torch {torch.__version__}): "
          f"foreach{', fused' if 'fused' in result else ' (no fused: ' + result.get('fused_error', '') + ')'} -> {out}")


if __name__ == "__main__":
    main()
