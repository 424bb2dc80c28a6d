#!/usr/bin/env python3
"""Plots a soak CSV (scripts/reliability-soak.sh): RSS and p99 over time, and prints
the trend of each over the second half (least squares), which should be flat.

Usage: scripts/plot-soak.py soak.csv soak.png   (needs matplotlib)
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def slope(xs, ys):
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / den if den else 0.0


rows = list(csv.DictReader(open(sys.argv[1])))
minutes = [float(row["elapsed_s"]) / 60 for row in rows]
rss = [float(row["rss_mib"]) for row in rows]
p99 = [float(row["p99_ms"]) for row in rows]
fds = [int(row["fds"]) for row in rows]
half = len(rows) // 2
print(f"samples: {len(rows)}; RSS {min(rss):.1f}..{max(rss):.1f} MiB, second-half trend "
      f"{slope(minutes[half:], rss[half:]):+.2f} MiB/min; p99 {min(p99):.1f}..{max(p99):.1f} ms, second-half trend "
      f"{slope(minutes[half:], p99[half:]):+.2f} ms/min; descriptors {min(fds)}..{max(fds)}")

figure, (top, middle, bottom) = plt.subplots(3, 1, sharex=True, figsize=(9, 7))
top.plot(minutes, rss, color="tab:blue")
top.set_ylabel("RSS (MiB)")
top.set_ylim(bottom=0)
middle.plot(minutes, p99, color="tab:red", label="p99")
middle.plot(minutes, [float(row["p50_ms"]) for row in rows], color="tab:gray", label="p50")
middle.set_ylabel("latency (ms)")
middle.set_ylim(bottom=0)
middle.legend(loc="upper right")
bottom.plot(minutes, fds, color="tab:green")
bottom.set_ylabel("open descriptors")
bottom.set_ylim(bottom=0)
bottom.set_xlabel("minutes")
figure.suptitle("Soak: mixed traffic, 10 s samples")
figure.tight_layout()
figure.savefig(sys.argv[2], dpi=100)
