#!/usr/bin/env python3
"""Compares SASS instruction counts of the gpu-fast kernels with their hand-written twins.

    cuobjdump -sass build/bench/bench_gpu_overhead | scripts/sass_compare.py

Counts the instructions of each function for one architecture (default sm_90), leaving out the
NOP padding and the final self-branch, and prints one row per (ws kernel, twin) pair.
"""
import re
import sys

PAIRS = [("reduce3<int>", "twin_reduce3"), ("reduce6<256u, int>", "twin_reduce6<256u>"),
         ("reduce8<int>", "twin_reduce8")]


def functions(text, arch):
    current_arch, name, out = None, None, {}
    for line in text.splitlines():
        m = re.search(r"arch = (sm_\d+)", line)
        if m:
            current_arch = m.group(1)
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            if current_arch == arch:
                out[name] = []
            continue
        if current_arch == arch and name in out:
            m = re.search(r"/\*[0-9a-f]{4}\*/\s+(.*?);", line)
            if m:
                out[name].append(m.group(1).strip())
    return out


def demangle(names):
    try:
        import subprocess
        res = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
        return dict(zip(names, res.stdout.splitlines()))
    except Exception:
        return {n: n for n in names}


def count(instrs):
    real = [i for i in instrs if not i.startswith("NOP")]
    while real and re.match(r"BRA\b", real[-1]) and len(real) > 1:  # the trailing self-loop
        real.pop()
    return len(real)


def main():
    arch = sys.argv[1] if len(sys.argv) > 1 else "sm_90"
    funcs = functions(sys.stdin.read(), arch)
    names = demangle(list(funcs))
    by_pretty = {}
    for mangled, pretty in names.items():
        base = re.sub(r"\(.*$", "", pretty)
        by_pretty[base] = funcs[mangled]
    print(f"SASS instructions ({arch}, without NOP padding)")
    print(f"{'kernel':28} {'ws':>6} {'twin':>6}  verdict")
    ok = True
    for ws_name, twin_name in PAIRS:
        a = next((v for k, v in by_pretty.items() if k.endswith(ws_name) and "twin" not in k), None)
        b = next((v for k, v in by_pretty.items() if k.endswith(twin_name)), None)
        if a is None or b is None:
            print(f"{ws_name:28} {'?':>6} {'?':>6}  not found in the dump")
            ok = False
            continue
        ca, cb = count(a), count(b)
        verdict = "equal" if ca == cb else f"differ by {ca - cb:+d}"
        ok &= ca == cb
        print(f"{ws_name:28} {ca:6d} {cb:6d}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
