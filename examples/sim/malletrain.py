#!/usr/bin/env python3
"""malletrain.py - a job set like MalleTrain's: hyper-parameter sweeps of short jobs.

    python3 examples/sim/malletrain.py [--seed N] [--hours H] [--start S] CURVES >jobs.csv

MalleTrain (ICPE '24) evaluates its job profiling advisor on many short jobs of
hyper-parameter sweeps and architecture searches, whose scalability nobody knows
in advance. This makes such a set for bf-sim(1) from real curves only (CURVES,
bf-sim's curve layout: model, nodes_or_gpus, throughput; every model in it is
used), deterministic for a seed (Python's random.Random, Mersenne Twister, the
same numbers on every platform and version since 3.2; only .random() is used).

The recipe (bench/jpa.md repeats it):
- sweeps start one after the other, the gap exponential with mean 20 min, from
  --start (default 72743 s after the trace's t=0: BFTrainer's starting point,
  2021-02-10T20:21:15Z on the Summit trace) for --hours; each sweep trains one model (uniform over CURVES's models);
- a sweep has 8 to 32 trials (uniform); its trials are submitted one after the
  other, the gap uniform in [0, 60] s (a sweep driver submitting its grid);
- a sweep's max_nodes is 8, 16 or 32 (uniform), min_nodes 1: a trial is small;
- a trial's work is its model's rate at 8 nodes times a duration uniform in
  [10, 60] min, rounded to 100,000 samples: short jobs;
- rescale costs: 18 s up, 12 s down, BFTrainer's measured values
  (../shared/data/scaling/SOURCES.md: its jitter of +-1 s is dropped);
- what the job file declares (column `declared`), per sweep, since a sweep's
  trials share one job file: with probability 0.6 nothing (profile online),
  0.15 its own model's curve (a user who measured), 0.25 another model's curve,
  uniform over the others (a user who guessed wrong: copied a curve from a
  different network).
Names: S<sweep>-<model>-t<trial>, model without its -ImageNet style suffix.
"""
import argparse
import csv
import math
import random
import sys


def models_of(path):
    seen = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["model"] not in seen:
                seen.append(row["model"])
    rate8 = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if int(row["nodes_or_gpus"]) == 8:
                rate8[row["model"]] = float(row["throughput"])
    missing = [m for m in seen if m not in rate8]
    if missing:
        sys.exit("malletrain.py: %s: no rate at 8 nodes for %s" %
                 (path, ", ".join(missing)))
    return seen, rate8


def pick(rng, items):
    return items[min(int(rng.random() * len(items)), len(items) - 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--hours", type=float, default=72)
    ap.add_argument("--start", type=float, default=72743)
    ap.add_argument("curves")
    a = ap.parse_args()
    models, rate8 = models_of(a.curves)
    rng = random.Random(a.seed)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["name", "model", "submit_s", "min_nodes", "max_nodes",
                "samples", "rescale_up_s", "rescale_down_s", "declared"])
    t, sweep = a.start, 0
    while True:
        t += -1200.0 * math.log(1.0 - rng.random())
        if t >= a.start + a.hours * 3600:
            break
        sweep += 1
        model = pick(rng, models)
        trials = 8 + min(int(rng.random() * 25), 24)
        max_nodes = pick(rng, [8, 16, 32])
        u = rng.random()
        if u < 0.6:
            declared = ""
        elif u < 0.75:
            declared = model
        else:
            declared = pick(rng, [m for m in models if m != model])
        short = model.split("-")[0]
        sub = t
        for k in range(1, trials + 1):
            minutes = 10 + 50 * rng.random()
            samples = max(1, round(rate8[model] * minutes * 60 / 1e5)) * 100000
            w.writerow(["S%03d-%s-t%02d" % (sweep, short, k), model,
                        "%.0f" % sub, 1, max_nodes, samples, 18, 12, declared])
            sub += 60 * rng.random()


if __name__ == "__main__":
    main()
