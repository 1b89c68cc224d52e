#!/usr/bin/python3
"""make_jpegs.py: an ImageFolder of generated JPEGs with ImageNet-like sizes, for
bench/data_pipeline.sh. ROOT/train/cNN/NNNNN.jpg, `classes` folders, `count` images in all.

Sizes are drawn from the shapes most common in ImageNet's training set (500x375, 375x500, 500x333,
500x500, 333x500, 500x400, 640x480 and a few larger), content is smooth colour fields plus
fine-grained noise so that the files compress like photographs (quality 90, 4:2:0, about 60-150
kB each) rather than like flat colour. Deterministic for a given seed.
    /usr/bin/python3 bench/make_jpegs.py ROOT [COUNT=2000] [CLASSES=10] [SEED=0]
"""
import os
import random
import sys

import numpy as np
from PIL import Image

SIZES = [(500, 375)] * 6 + [(375, 500)] * 2 + [(500, 333)] * 2 + [(500, 500), (333, 500), (500, 400),
                                                                     (640, 480), (800, 600), (1024, 768)]


def picture(rng, w, h):
    # A coarse random field upsampled (smooth shading and edges) plus per-pixel noise (texture).
    coarse = rng.integers(0, 256, size=(h // 32 + 2, w // 32 + 2, 3), dtype=np.uint8)
    base = np.asarray(Image.fromarray(coarse).resize((w, h), Image.BICUBIC), dtype=np.int16)
    noise = rng.normal(0, 12, size=(h, w, 3)).astype(np.int16)
    return Image.fromarray(np.clip(base + noise, 0, 255).astype(np.uint8))


def main():
    root = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    classes = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    pick = random.Random(seed)
    rng = np.random.default_rng(seed)
    total = 0
    for i in range(count):
        d = os.path.join(root, "train", f"c{i % classes:02d}")
        os.makedirs(d, exist_ok=True)
        w, h = pick.choice(SIZES)
        path = os.path.join(d, f"{i:05d}.jpg")
        picture(rng, w, h).save(path, quality=90)
        total += os.path.getsize(path)
    print(f"{count} JPEGs in {root}/train ({classes} classes), {total / count / 1e3:.0f} kB on average")


if __name__ == "__main__":
    main()
