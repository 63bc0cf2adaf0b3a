#!/usr/bin/env python3
"""Fails when a source file includes a header from a layer it may not depend on.

warpscope is a stack of libraries, one folder each (README, "Where things are"). Every
`#include "..."` of a project header must point to the file's own layer or to one the table
below allows, so the folder tree tells the truth about what depends on what. Tests and
benchmarks may include anything; nothing may include them.

    scripts/check_layers.py [REPO]     # exit 0: every include allowed; 1: a list of violations

Each violation names the file, the line, the header it includes and the two layers, e.g.
    backends/gpu/include/ws/gpu/gpu_backend.cuh:19: includes kernels/reduction/reduce.cuh
      (layer gpu may include kernel_api, run, rules, trace, util; not kernels)
"""
import os
import re
import sys

# Folder prefix -> layer. The longest matching prefix wins: the backends' device-side flavours
# of the kernel API belong to the kernel API, which kernels compile against.
LAYERS = {
    "util/": "util",
    "trace/": "trace",
    "run/": "run",
    "isolation/": "isolation",
    "rules/": "rules",
    "backends/kernel_api/": "kernel_api",
    "backends/emu/api/": "kernel_api",
    "backends/gpu/device/": "kernel_api",
    "backends/emu/": "emu",
    "backends/gpu/": "gpu",
    "kernels/catalog/": "catalog",
    "kernels/file/": "kernel_file",
    "kernels/plain_cuda/": "plain_cuda",
    "kernels/": "kernels",
    "analysis/": "analysis",
    "grading/": "grading",
    "timing/": "timing",
    "viz/": "viz",
    "shaders/": "viz",
    "app/": "app",
    "tests/": "tests",
    "bench/": "bench",
}

# Layer -> the layers it may include (besides itself).
MAY_INCLUDE = {
    "util": set(),
    "trace": {"util"},
    "run": {"trace", "util"},
    # The run process: runs sent away from the viewer (knows the run contract, no backend).
    "isolation": {"run", "trace", "util"},
    "rules": set(),
    "kernel_api": {"trace"},
    "emu": {"kernel_api", "run", "rules", "trace", "util"},
    "gpu": {"kernel_api", "run", "rules", "trace", "util"},
    "kernels": {"kernel_api", "run", "trace"},
    # The generated glue that compiles each kernel once per backend and registers it.
    "catalog": {"kernels", "emu", "gpu", "kernel_api", "run", "trace"},
    # A user's kernel file built at run time: the library reads and compiles it; its prelude is
    # what the generated code includes (the kernel API, a backend, the catalog's checks).
    # Its code runs in the run process when there is one (remote.h).
    "kernel_file": {"plain_cuda", "kernels", "emu", "gpu", "kernel_api", "run", "isolation", "trace", "util"},
    # Plain CUDA rewritten into recorded accesses (libclang): text in, text out.
    "plain_cuda": {"util"},
    "analysis": {"rules", "trace", "util"},
    # An exercise's goals measured on a run's reports (the check command, the exercise panel).
    "grading": {"analysis", "run", "rules", "trace", "util"},
    "timing": {"run", "isolation", "analysis", "gpu", "rules", "trace", "util"},
    "viz": {"analysis", "rules", "trace", "util"},
    "app": {"viz", "grading", "timing", "isolation", "analysis", "catalog", "kernel_file", "kernels", "emu", "gpu", "kernel_api", "rules",
            "run", "trace", "util"},
}
CONSUMERS = {"tests", "bench"}  # may include anything; no one includes them

SOURCE = re.compile(r"\.(h|hpp|cpp|cc|cu|cuh|in|inl)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"@]+)"')


def layer_of(path):
    best = None
    for prefix, layer in LAYERS.items():
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return best[1] if best else None


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    files = []
    for top in LAYERS:
        root = os.path.join(repo, top)
        for dirpath, _, names in os.walk(root):
            for n in names:
                if SOURCE.search(n):
                    files.append(os.path.relpath(os.path.join(dirpath, n), repo))
    files = sorted(set(files))
    by_suffix = {}
    for f in files:
        parts = f.split("/")
        for k in range(len(parts)):
            by_suffix.setdefault("/".join(parts[k:]), []).append(f)

    problems = []
    checked = 0
    for f in files:
        src_layer = layer_of(f)
        with open(os.path.join(repo, f), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
                if here in files:
                    target = here
                else:
                    candidates = by_suffix.get(inc, [])
                    if not candidates:
                        continue  # a system or generated header
                    same = [c for c in candidates if layer_of(c) == src_layer]
                    target = (same or candidates)[0]
                    if len(same or candidates) > 1:
                        problems.append(f"{f}:{lineno}: \"{inc}\" is ambiguous: {', '.join(same or candidates)}")
                        continue
                checked += 1
                dst_layer = layer_of(target)
                if dst_layer in CONSUMERS and src_layer not in CONSUMERS:
                    problems.append(f"{f}:{lineno}: includes {target} (nothing outside tests/ and bench/ may include them)")
                    continue
                if src_layer in CONSUMERS or dst_layer == src_layer:
                    continue
                allowed = MAY_INCLUDE[src_layer]
                if dst_layer not in allowed:
                    problems.append(f"{f}:{lineno}: includes {target}\n  (layer {src_layer} may include "
                                    f"{', '.join(sorted(allowed)) or 'nothing else'}; not {dst_layer})")
    if problems:
        print("\n".join(problems))
        print(f"check_layers: {len(problems)} include(s) against the layer table (scripts/check_layers.py)")
        return 1
    print(f"check_layers: {checked} includes of {len(files)} files follow the layer table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
