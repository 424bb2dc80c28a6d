#!/usr/bin/env python3
"""A sample photograph for the images scenarios' origin, as a binary PPM on stdout (for
cjpeg): mostly smooth with grain, as photographs are: a gradient with seeded noise.

Usage: sample-ppm.py WIDTH HEIGHT SEED
"""

import random
import sys

width, height, seed = (int(argument) for argument in sys.argv[1:4])
noise = random.Random(seed)
pixels = bytes(
    min(255, max(0, x * 180 // width + y * 60 // height + noise.randint(-24, 24) + 10 * channel))
    for y in range(height) for x in range(width) for channel in range(3))
sys.stdout.buffer.write(b"P6\n%d %d\n255\n" % (width, height) + pixels)
