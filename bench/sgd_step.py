"""sgd_step.py: how long torch.optim.SGD's step and zero_grad take (momentum 0.9, weight decay
1e-4, 2 threads, channels_last) for the three 224x224 models, best of 5 after one step; the share
of a training step that rlx's one-pass SGD (engine/train/sgd.h) works on.

    /usr/bin/python3 bench/sgd_step.py
"""
import torch, torchvision, time
torch.set_num_threads(2)
for name in ["resnet50", "vgg16", "mobilenet_v2"]:
    m = getattr(torchvision.models, name)(num_classes=1000).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    for p in m.parameters(): p.grad = torch.randn_like(p)
    opt.step()
    ts = []; tz = []
    for i in range(5):
        t0 = time.perf_counter(); opt.step(); t1 = time.perf_counter(); opt.zero_grad(set_to_none=False); t2 = time.perf_counter()
        ts.append(t1 - t0); tz.append(t2 - t1)
    n = sum(p.numel() for p in m.parameters())
    print(name, f"{n/1e6:.1f} M params, step {min(ts)*1e3:.1f} ms, zero_grad {min(tz)*1e3:.1f} ms")
