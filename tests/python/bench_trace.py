#!/usr/bin/env python3
"""Batched traces from Python against the same traces in C++ (docs/runtime.md, "Python").

    PYTHONPATH=build/python python3 tests/python/bench_trace.py build/tests/trace_rate MAP [ROWS] [RUNS]

Compiles MAP (default ../shared/maps/id_e1m1.map) with the module, draws ROWS (100,000)
segments as tests/python/test_shallot.py does, times tree.trace for each pose (best of
RUNS, one thread, NumPy in and out) and the same segments through the C++ runtime
(tests/runtime/trace_rate.cpp: Tree::traceBatch and Tree::trace one by one), taking
turns three times, and prints
the rates and Python's share of the C++ batch rate (the target is at least 80%).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import shallot


def main():
    rate_program = sys.argv[1]
    map_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__),
                                                                  "../../../shared/maps/id_e1m1.map")
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    tree = shallot.compile(map_path)
    rng = np.random.default_rng(32)
    lo, hi = np.array([-800.0, -2000.0, -500.0]), np.array([2800.0, 1900.0, 600.0])
    starts = rng.uniform(lo, hi, size=(rows, 3))
    ends = starts + rng.uniform(-300, 300, size=(rows, 3))
    with tempfile.TemporaryDirectory() as tmp:
        level, segments = os.path.join(tmp, "level.obsp"), os.path.join(tmp, "segments.f64")
        tree.save(level)
        np.concatenate([starts, ends]).astype("<f8").tofile(segments)
        for pose in tree.poses:
            # Python and C++ take turns, three times, each keeping its best: on a shared
            # machine a burst of other work then slows both sides alike.
            python, cpp = 0.0, {"batch": 0.0, "one_by_one": 0.0}
            for _ in range(3):
                best = min(timed(lambda: tree.trace(pose, starts, ends)) for _ in range(runs))
                python = max(python, rows / best)
                answer = json.loads(subprocess.run([rate_program, level, segments, pose, str(runs)], check=True,
                                                   capture_output=True, text=True).stdout)
                cpp = {key: max(cpp[key], answer[key]) for key in cpp}
            print(json.dumps({"pose": pose, "rows": rows, "python_per_second": round(python),
                              "cpp_batch_per_second": cpp["batch"], "cpp_one_by_one_per_second": cpp["one_by_one"],
                              "python_share_of_cpp_batch": round(python / cpp["batch"], 3)}))


def timed(body):
    start = time.perf_counter()
    body()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
