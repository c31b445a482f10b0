#!/usr/bin/env python3
"""Fits the answerability model (src/knowledge/answerability.cpp) on the evaluation corpus.

Reads the signals the answer-quality test writes for every question (run
`PARLEY_EVAL_SIGNALS=/tmp/signals.jsonl build/parley_unit_tests --gtest_filter='AnswerQuality.Held*'`),
fits a logistic regression of "the answer is right" on the DEVELOPMENT questions only (an
out-of-scope question's answer is never right), with a small L2 penalty, by gradient descent, and
prints the weights to paste into answerability.cpp and, for a range of thresholds, the share of
in-scope questions answered right and of out-of-scope questions given the fallback on each split.
Standard library only.
"""

import json
import math
import sys

FEATURES = ["coverage", "sentence", "foreign", "margin", "number", "qa", "unasked"]


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(rows, l2=0.01, rate=0.5, rounds=6000):
    w = [0.0] * (len(FEATURES) + 1)
    for _ in range(rounds):
        grad = [0.0] * len(w)
        for r in rows:
            x = [1.0] + [r[f] for f in FEATURES]
            err = sigmoid(sum(a * b for a, b in zip(w, x))) - (1.0 if r["right"] else 0.0)
            for i, xi in enumerate(x):
                grad[i] += err * xi
        for i in range(len(w)):
            penalty = l2 * w[i] if i > 0 else 0.0
            w[i] -= rate * (grad[i] / len(rows) + penalty)
    return w


def curve(rows, w, split):
    rows = [r for r in rows if r["split"] == split]
    inscope = [r for r in rows if r["kind"] != "oos"]
    oos = [r for r in rows if r["kind"] == "oos"]
    out = []
    for t in [x / 20 for x in range(2, 19)]:
        p = lambda r: sigmoid(w[0] + sum(a * r[f] for a, f in zip(w[1:], FEATURES)))
        right = sum(1 for r in inscope if r["answered"] and p(r) >= t and r["right"])
        wrong = sum(1 for r in inscope if r["answered"] and p(r) >= t and not r["right"])
        clean = sum(1 for r in oos if not (r["answered"] and p(r) >= t))
        out.append((t, right / len(inscope), wrong / len(inscope), clean / len(oos)))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/signals.jsonl"
    rows = [json.loads(line) for line in open(path)]
    dev = [r for r in rows if r["split"] == "dev" and r["answered"]]
    w = fit(dev)
    print("kBias = %.3f" % w[0])
    for f, v in zip(FEATURES, w[1:]):
        print("k%s = %.3f" % (f.capitalize(), v))
    for split in ("dev", "heldout"):
        print("\n%s: threshold right wrong oos-clean" % split)
        for t, right, wrong, clean in curve(rows, w, split):
            print("  %.2f  %.3f  %.3f  %.3f" % (t, right, wrong, clean))


if __name__ == "__main__":
    main()
