#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fuzzes the project loader and the CLI end to end: mutates the example .wbproj files and runs
`warpbench-cli run --backend cpu` on each with a time limit, counting crashes (the CLI killed by
a signal), hangs (past the limit) and unexpected exit codes (anything but 0-4). Kernel faults
caught by the runner are exit 3 and counted apart. Every run writes its outputs and the project's
exports with --output into a fresh folder; a file written anywhere else in the test's folders is an
escape (issue 26). Failing inputs are kept in --out.

    tests/fuzz/fuzz-cli.py --cli build/ci/bin/warpbench-cli --minutes 20 --out /tmp/fuzz-cli

Deterministic for a given --seed (the inputs; timings of course vary). See docs/testing.md.
"""
import argparse
import collections
import copy
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EDGE_NUMBERS = [0, -1, 1, 2, 3, 7, 64, 1024, 1025, 2048, 65535, 65536, 2**31 - 1, 2**31,
                2**32 + 16, 2**53 + 1, 2**64, 1e10, 1e308, -1e308, 0.5, -0.5, 1e-320]
EDGE_STRINGS = ["", " ", "n", "n*n", "2^32+16", "1/0", "0/0", "-1", "ceil(", "n*n*n*n*n*n",
                "/dev/zero", "/proc/self/mem", ".", "..", "../../../../etc/passwd", "\u0000",
                "f16", "bf16", "i8", "u64", "npy", "bin", "image", "iota", "uniform", "constant",
                "cpu", "cuda", "auto", "files", "kernel", "cpp", "none", "in", "out", "inout",
                "x" * 5000, "nonexistent.cu", "reference", "grey", "rgba"]
EDGE_VALUES = [None, True, False, [], {}, [1, 2, 3, 4], [0], [2048], [1024, 2], [1, 1, 65],
               {"kind": "npy", "path": "/dev/zero"}, {"kind": "bin", "path": "."}]
# Exports that once escaped --output (issue 26), and some that are fine.
EXPORT_VALUES = [["../escaped.npy"], ["../../escaped.bin"], ["/tmp/wb-fuzz-escaped.bin"],
                 ["x.npy\u0000.png"], ["sub/x.npy"], [".."], [""], ["a\\b.npy"],
                 ["ok.npy", "ok.bin"], ["ok.png"]]


def walk(node, path=()):
    """Every (container, key) in the JSON tree."""
    if isinstance(node, dict):
        for k in list(node):
            yield node, k
            yield from walk(node[k], path + (k,))
    elif isinstance(node, list):
        for i in range(len(node)):
            yield node, i
            yield from walk(node[i], path + (i,))


def mutate_tree(rng, project, seeds):
    slots = list(walk(project))
    if not slots:
        return project
    # Mostly one change, so that most inputs get past the loader into the run.
    for _ in range(1 if rng.random() < 0.7 else 2):
        container, key = rng.choice(slots)
        choice = rng.random()
        try:
            if choice < 0.35:
                container[key] = rng.choice(EDGE_NUMBERS)
            elif choice < 0.65:
                container[key] = rng.choice(EDGE_STRINGS)
            elif choice < 0.75:
                container[key] = copy.deepcopy(rng.choice(EDGE_VALUES))
            elif choice < 0.85 and isinstance(container, dict):
                del container[key]
            elif choice < 0.88 and isinstance(container, dict):
                container[rng.choice(["extra", "sharedBytes", "warmup", "seed", "path"])] = \
                    rng.choice(EDGE_NUMBERS + EDGE_STRINGS)
            elif choice < 0.91 and isinstance(container, dict) and "role" in container:
                container["exports"] = copy.deepcopy(rng.choice(EXPORT_VALUES))
            else:  # graft a value from another project
                other = list(walk(rng.choice(seeds)))
                if other:
                    c2, k2 = rng.choice(other)
                    container[key] = copy.deepcopy(c2[k2])
        except (KeyError, IndexError, TypeError):
            pass
    return project


def evaluate(expr, names):
    """A muparser expression of the project, approximately, in Python; None if it cannot."""
    if isinstance(expr, bool) or expr is None:
        return None
    if isinstance(expr, (int, float)):
        return float(expr)
    if not isinstance(expr, str) or len(expr) > 200:
        return None
    env = {"ceil": math.ceil, "floor": math.floor, "round": round, "trunc": math.trunc,
           "mod": math.fmod, "sqrt": math.sqrt, "min": min, "max": max, "abs": abs,
           "__builtins__": {}}
    env.update(names)
    try:
        return float(eval(expr.replace("^", "**"), env))  # noqa: S307 (our own test inputs)
    except Exception:
        return None


def heavy(project):
    """Whether the project asks for genuinely heavy work: more than 1 GiB of buffers or more
    than 2^28 threads (a run may then take minutes, which is not a hang)."""
    try:
        names = {}
        for sc in project.get("scalars", []):
            v = evaluate(sc.get("value"), names)
            if v is not None:
                names[sc.get("name", "")] = v
        total = 0.0
        for b in project.get("buffers", []):
            shape = b.get("shape")
            dims = shape if isinstance(shape, list) else [shape]
            n = 1.0
            for d in dims:
                v = evaluate(d, names)
                n *= abs(v) if v is not None else 1.0
            total += n * 8
        launch = project.get("launch", {})
        threads = 1.0
        for key in ("grid", "block"):
            dims = launch.get(key)
            for d in dims if isinstance(dims, list) else [dims]:
                v = evaluate(d, names)
                threads *= abs(v) if v is not None else 1.0
        return total > 2**30 or threads > 2**28
    except Exception:
        return False


def mutate_bytes(rng, text):
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 4)):
        if not data:
            break
        op = rng.random()
        at = rng.randrange(len(data))
        if op < 0.4:
            data[at] = rng.randrange(256)
        elif op < 0.7:
            del data[at:at + rng.randint(1, 16)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=str(ROOT / "build/ci/bin/warpbench-cli"))
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=0, help="stop after this many runs (0: no limit)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    ap.add_argument("--out", default=None, help="folder for failing inputs and the summary")
    ap.add_argument("--cli-arg", action="append", default=[],
                    help="extra argument for every run (repeatable), e.g. --cli-arg=--timeout "
                         "--cli-arg=2")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    out = Path(args.out or tempfile.mkdtemp(prefix="fuzz-cli-"))
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="fuzz-cli-work-"))
    # Each example folder is copied once: mutated projects sit next to their kernel files.
    seeds = []
    for proj in sorted((ROOT / "resources/examples").rglob("*.wbproj")):
        dest = work / str(len(seeds))
        shutil.copytree(proj.parent, dest)
        seeds.append((dest, json.loads(proj.read_text())))
    trees = [s[1] for s in seeds]
    env = dict(os.environ)
    env.setdefault("WARPBENCH_CACHE_DIR", str(work / "cache"))
    # Every run writes its outputs (and the project's exports) to a fresh --output folder: a
    # file anywhere but directly in it is an escape (issue 26). What the runs may legitimately
    # leave is known: the cache, the output folder, each example's fuzz.wbproj.
    outdir = work / "out"
    before = {folder: set(os.listdir(folder)) | {"fuzz.wbproj"} for folder, _ in seeds}
    work_entries = set(os.listdir(work)) | {"cache", "out"}

    counts = collections.Counter()
    crashes, hangs, unexpected, heavy_runs, escapes = [], [], [], [], []

    def check_stray(folder, data):
        stray = [str(outdir / e) for e in os.listdir(outdir) if not (outdir / e).is_file()]
        stray += [str(folder / e) for e in set(os.listdir(folder)) - before[folder]]
        stray += [str(work / e) for e in set(os.listdir(work)) - work_entries]
        if stray:
            counts["escape"] += 1
            name = out / f"escape-{runs}.wbproj"
            name.write_bytes(data)
            escapes.append({"input": str(name), "wrote": stray})
            for path in stray:
                shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)
    started = time.monotonic()
    runs = 0
    slowest = 0.0
    while time.monotonic() - started < args.minutes * 60 and (not args.runs or runs < args.runs):
        folder, tree = rng.choice(seeds)
        project = mutate_tree(rng, copy.deepcopy(tree), trees)
        text = json.dumps(project, indent=1)
        data = mutate_bytes(rng, text) if rng.random() < 0.2 else text.encode()
        target = folder / "fuzz.wbproj"
        target.write_bytes(data)
        runs += 1
        t0 = time.monotonic()
        shutil.rmtree(outdir, ignore_errors=True)
        outdir.mkdir()
        proc = subprocess.Popen([args.cli, "run", str(target), "--backend", "cpu",
                                 "--output", str(outdir)] + args.cli_arg,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            check_stray(folder, data)
            if data == text.encode() and heavy(project):
                counts["heavy-timeout"] += 1  # asked for GiBs or 2^28+ threads: not a hang
                name = out / f"heavy-{runs}.wbproj"
                heavy_runs.append(str(name))
            else:
                counts["hang"] += 1
                name = out / f"hang-{runs}.wbproj"
                hangs.append(str(name))
            name.write_bytes(data)
            continue
        check_stray(folder, data)
        took = time.monotonic() - t0
        slowest = max(slowest, took)
        code = proc.returncode
        text_out = (stdout + stderr).decode(errors="replace")
        if code < 0:
            counts["crash"] += 1
            name = out / f"crash-{runs}-sig{-code}.wbproj"
            name.write_bytes(data)
            crashes.append(str(name))
        elif code > 4:
            counts["unexpected"] += 1
            name = out / f"exit{code}-{runs}.wbproj"
            name.write_bytes(data)
            unexpected.append(str(name))
        else:
            counts[f"exit{code}"] += 1
            if code == 3 and ("runner" in text_out and ("crash" in text_out or "signal" in text_out)):
                counts["kernel-fault-in-runner"] += 1
        if runs % 50 == 0:
            print(f"[{time.monotonic() - started:6.0f} s] {runs} runs {dict(counts)}", flush=True)

    summary = {"runs": runs, "seconds": round(time.monotonic() - started, 1), "seed": args.seed,
               "crashes": len(crashes), "hangs": len(hangs), "unexpectedExits": len(unexpected),
               "counts": dict(counts), "slowestRunS": round(slowest, 2),
               "heavyTimeouts": len(heavy_runs), "escapes": len(escapes),
               "crashInputs": crashes, "hangInputs": hangs,
               "unexpectedInputs": unexpected, "heavyInputs": heavy_runs, "escapeInputs": escapes}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if crashes or hangs or unexpected or escapes else 0


if __name__ == "__main__":
    sys.exit(main())
