"""Gradient ALE of every feature of an MLP from one Jacobian, against finite differences and effector (issue 25).

    python benchmarks/bench_gradient.py                       # 1,000,000 rows; writes docs/performance.md
    python benchmarks/bench_gradient.py --n 100000 --repeats 1 --out -
    PYALE_EFFECTOR_PYTHON=/path/to/venv/bin/python python benchmarks/bench_gradient.py   # with effector

A PyTorch MLP (20 inputs, two hidden layers of 64 tanh units, float32,
seeded, ``eval()``) on n rows of 20 standard normal features.  Timed,
interleaved (median of ``--repeats`` runs each), all 20 features per call:

* ``forward``: one prediction of all rows (the unit of the ratios);
* ``jacobian``: one autograd pass over all rows (what gradient ALE needs);
* ``pyale.ale(net, X, all, method="gradient")`` on ALEPlot's grid (40
  intervals), and with ``binning="dp"`` (RHALE's bins);
* ``pyale.ale(net, X, all)``: finite differences, two predictions per row
  and feature;
* effector 0.6.0's ``RHALE(X, predict, jacobian, nof_instances="all")``
  ``.fit("all", binning_method="dp")`` with the same network and the same
  autograd Jacobian, run by the Python named in ``PYALE_EFFECTOR_PYTHON``
  (effector and torch installed there); its own forward pass is timed in
  that process too, so its ratio is to its own unit.

The machine may be shared: the ratios (each to the forward pass measured in
the same run) are what to compare, not the seconds.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pyale

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sections import write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- gradient: written by benchmarks/bench_gradient.py -->"
END = "<!-- end of gradient -->"
INTRO = (
    "\n## Gradient ALE (DALE/RHALE) of a neural network\n\n"
    "`pyale.ale(net, X, features, method=\"gradient\")` reads every feature's local effects from one Jacobian\n"
    "of all rows (autograd for a `torch.nn.Module`), instead of two predictions per row and feature.\n\n"
)
P, HIDDEN = 20, 64

NETWORK = """
import torch
def network(p={p}, hidden={hidden}):
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(p, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, hidden),
                               torch.nn.Tanh(), torch.nn.Linear(hidden, 1)).eval()
def predict_fn(net):
    def predict(values):
        with torch.no_grad():
            return net(torch.as_tensor(values, dtype=torch.float32)).numpy().astype("float64").ravel()
    return predict
def jacobian_fn(net):
    def jacobian(values):
        x = torch.tensor(values, dtype=torch.float32, requires_grad=True)
        (g,) = torch.autograd.grad(net(x).sum(), x)
        return g.numpy().astype("float64")
    return jacobian
""".format(p=P, hidden=HIDDEN)

EFFECTOR = NETWORK + """
import json, statistics, sys, time
import numpy as np, effector
X = np.load(sys.argv[1])
repeats = int(sys.argv[2])
net = network()
predict, jacobian = predict_fn(net), jacobian_fn(net)
times = {"forward": [], "rhale": []}
for _ in range(repeats):
    t = time.perf_counter(); predict(X); times["forward"].append(time.perf_counter() - t)
    t = time.perf_counter()
    r = effector.RHALE(X, predict, jacobian, nof_instances="all")
    r.fit("all", binning_method="dp")
    times["rhale"].append(time.perf_counter() - t)
from importlib.metadata import version
print(json.dumps({k: statistics.median(v) for k, v in times.items()} | {"version": version("effector")}))
"""


def _namespace():
    space: dict = {}
    exec(NETWORK, space)  # the same network definition as the effector process
    return space


def measure(n: int, repeats: int) -> dict:
    import torch

    space = _namespace()
    net = space["network"]()
    predict, jacobian = space["predict_fn"](net), space["jacobian_fn"](net)
    rng = np.random.default_rng(0)
    values = rng.normal(size=(n, P))
    X = pd.DataFrame(values, columns=[f"x{j}" for j in range(P)])
    features = list(X.columns)
    runs = {
        "forward": lambda: predict(values),
        "jacobian": lambda: jacobian(values),
        "gradient": lambda: pyale.ale(net, X, features, method="gradient"),
        "gradient_dp": lambda: pyale.ale(net, X, features, method="gradient", binning="dp"),
        "finite_difference": lambda: pyale.ale(net, X, features),
    }
    times = {name: [] for name in runs}
    for _ in range(repeats):
        for name, fn in runs.items():
            gc.collect()
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    out = {name: statistics.median(t) for name, t in times.items()}
    out["torch"] = torch.__version__
    out["threads"] = torch.get_num_threads()
    python = os.environ.get("PYALE_EFFECTOR_PYTHON")
    if python:
        with tempfile.TemporaryDirectory() as tmp:
            np.save(Path(tmp) / "X.npy", values)
            (Path(tmp) / "run.py").write_text(EFFECTOR)
            done = subprocess.run([python, str(Path(tmp) / "run.py"), str(Path(tmp) / "X.npy"), str(repeats)],
                                  capture_output=True, text=True)
        if done.returncode == 0:
            out["effector"] = json.loads(done.stdout.strip().splitlines()[-1])
        else:
            out["effector_error"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
    return out


def report(n: int, repeats: int, m: dict) -> str:
    unit = m["forward"]
    rows = [
        ("one forward pass (the unit)", m["forward"], unit),
        ("one Jacobian (autograd) pass", m["jacobian"], unit),
        ("`pyale.ale(..., method=\"gradient\")`, 20 features, ALEPlot's grid (K = 40)", m["gradient"], unit),
        ("`pyale.ale(..., method=\"gradient\", binning=\"dp\")`, 20 features (RHALE)", m["gradient_dp"], unit),
        ("`pyale.ale(...)` finite differences, 20 features (K = 40)", m["finite_difference"], unit),
    ]
    if "effector" in m:
        e = m["effector"]
        rows.append((f"effector {e['version']} `RHALE(..., nof_instances=\"all\").fit(\"all\", binning_method=\"dp\")` "
                     "(its own forward pass is its unit)", e["rhale"], e["forward"]))
    lines = [
        f"Generated {datetime.date.today().isoformat()} by `python benchmarks/bench_gradient.py --n {n} "
        f"--repeats {repeats}` (medians of {repeats} interleaved runs).",
        "",
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores (shared), Python "
        f"{platform.python_version()}, NumPy {np.__version__}, pandas {pd.__version__}, torch {m['torch']} "
        f"({m['threads']} threads), pyale {pyale.__version__}.",
        "",
        f"| MLP 20-64-64-1 (tanh, float32), n={n:,} rows | time (s) | / forward pass |",
        "|---|---:|---:|",
    ]
    lines += [f"| {label} | {t:.2f} | {t / u:.1f} |" for label, t, u in rows]
    lines.append("")
    fd, gr = m["finite_difference"], m["gradient"]
    lines.append(f"Gradient ALE of all 20 features took {gr / fd:.3f} of the finite-difference time "
                 f"({fd / gr:.0f} times faster).")
    if "effector" in m:
        lines.append(f"pyale's RHALE (gradient, DP bins) / effector's RHALE: "
                     f"{(m['gradient_dp'] / unit) / (m['effector']['rhale'] / m['effector']['forward']):.2f} "
                     "(ratios to each process's own forward pass).")
    elif "effector_error" in m:
        lines.append(f"effector failed: {m['effector_error']}")
    else:
        lines.append("effector not run (set PYALE_EFFECTOR_PYTHON to a Python with effector and torch).")
    lines.append("")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Gradient ALE of an MLP vs finite differences and effector")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(ROOT / "docs" / "performance.md"),
                        help="file whose section is rewritten, or - to print")
    args = parser.parse_args(argv)
    text = report(args.n, args.repeats, measure(args.n, args.repeats))
    if args.out == "-":
        print(text)
    else:
        write_section(Path(args.out), BEGIN, END, text, intro=INTRO)
    return 0


if __name__ == "__main__":
    sys.exit(main())
