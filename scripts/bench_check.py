#!/usr/bin/env python3
"""How long a course's autograder takes: `warpscope check` on a folder of N submissions.

Makes N distinct submissions for a shipped exercise (each a different text, so each is built
afresh, as a class's files are): 50% its reference solution, 20% its starting file, 10% with a
syntax error, 10% with an endless loop in the kernel, 10% that crash as they load (a static
initialiser raises SIGSEGV). Grades the folder once with `--jobs J` and
prints the wall time, files per minute, and the per-file median and longest time that
`check` reports, plus how many passed (expected: the solutions only).

  scripts/bench_check.py [--exe build/app/warpscope] [--exercise reduce-conflicts] [--count 50] [--jobs 2]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def submissions(exercise, count):
    start = open(os.path.join(ROOT, "exercises", exercise + ".cu")).read()
    solution = open(os.path.join(ROOT, "tests", "exercises", "solutions", exercise + ".cu")).read()
    # The last statement of the kernel's first line with ';' after '__global__': where a student's
    # edit breaks it (a missing ';') or loops forever.
    body = solution.index("__global__")
    semi = solution.index(";", solution.index("{", body))
    out = []
    for i in range(count):
        kind = ["solution"] * 5 + ["start"] * 2 + ["syntax", "loop", "crash"]
        kind = kind[i % 10]
        if kind == "solution":
            text = solution
        elif kind == "start":
            text = start
        elif kind == "syntax":
            text = solution[:semi] + solution[semi + 1:]
        elif kind == "loop":
            text = solution[:semi + 1] + " for (volatile int spin = 1; spin;) {}" + solution[semi + 1:]
        else:
            text = "#include <csignal>\nstatic int crash_on_load = (std::raise(SIGSEGV), 1);\n" + solution
        out.append((f"student{i:03d}_{kind}.cu", f"// submission {i}\n" + text, kind))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", default=os.path.join(ROOT, "build", "app", "warpscope"))
    ap.add_argument("--exercise", default="reduce-conflicts")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=5)
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="ws-bench-check-")
    try:
        subs = submissions(a.exercise, a.count)
        for name, text, _ in subs:
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
        cmd = [a.exe, "check", os.path.join(ROOT, "exercises", a.exercise + ".toml"), "--file", folder,
               "--jobs", str(a.jobs), "--timeout", str(a.timeout)]
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        lines = p.stdout.strip().splitlines()
        summary = lines[-1] if lines else ""
        m = re.search(r"median ([\d.]+) s, longest ([\d.]+) s", summary)
        passed = sum(1 for l in lines if "  PASS  " in l)
        kinds = {k: sum(1 for _, _, x in subs if x == k) for k in ("start", "syntax", "loop", "crash")}
        said = {"syntax": sum("does not build:" in l for l in lines), "loop": sum("did not finish:" in l for l in lines),
                "crash": sum("crashed:" in l for l in lines)}
        want = sum(1 for _, _, k in subs if k == "solution")
        print(f"exercise {a.exercise}: {a.count} submissions, {a.jobs} at once, {os.cpu_count()} cores, run limit {a.timeout:g} s")
        print(f"  wall {wall:.1f} s = {60 * a.count / wall:.1f} files/min; per file: median {m.group(1) if m else '?'} s, "
              f"longest {m.group(2) if m else '?'} s")
        print(f"  passed {passed} (the {want} solutions should), exit {p.returncode}")
        print(f"  said: does not build {said['syntax']} of {kinds['syntax']}, did not finish {said['loop']} of {kinds['loop']}, "
              f"crashed {said['crash']} of {kinds['crash']}; one line per file: {len(lines) - 1 == a.count}")
        print(f"  check said: {summary}")
        ok = passed == want and len(lines) - 1 == a.count and all(said[k] == kinds[k] for k in said)
        return 0 if ok else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
