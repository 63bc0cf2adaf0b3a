#!/usr/bin/env python3
"""Fails when a source file includes a header, or a library links a library, from a layer it may
not depend on.

warpscope is a stack of libraries, one folder each (README, "Where things are"). Every
`#include "..."` of a project header must point to the file's own layer or to one the table
below allows, so the folder tree tells the truth about what depends on what. Tests and
benchmarks may include anything; nothing may include them.

    scripts/check_layers.py [REPO]     # exit 0: every include allowed; 1: a list of violations

Each violation names the file, the line, the header it includes and the two layers, e.g.
    backends/gpu/include/ws/gpu/gpu_backend.cuh:19: includes kernels/reduction/reduce.cuh
      (layer backends may include kernel_api, run, rules, trace, util; not kernels)
and each link names the CMakeLists.txt, the two libraries and the two layers.
"""
import os
import re
import sys

# Top-level folder -> layer: one folder is one layer, and the folder tree tells the layers.
LAYERS = {
    "util/": "util",
    "trace/": "trace",
    "run/": "run",
    "isolation/": "isolation",
    "rules/": "rules",
    "kernel_api/": "kernel_api",
    "backends/": "backends",
    "kernels/": "kernels",
    "plain_cuda/": "plain_cuda",
    "catalog/": "catalog",
    "analysis/": "analysis",
    "grading/": "grading",
    "timing/": "timing",
    "viz/": "viz",
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
    # What a kernel includes: the shared pieces and one flavour per backend (emu/, gpu/).
    "kernel_api": {"trace"},
    # The emulator and the GPU's backends (gpu-fast, gpu-trace; gpu/host decodes gpu-trace).
    "backends": {"kernel_api", "run", "rules", "trace", "util"},
    "kernels": {"kernel_api", "run", "trace"},
    # Plain CUDA rewritten into recorded accesses (libclang): text in, text out.
    "plain_cuda": {"util"},
    # builtin/: the generated glue that compiles each kernel once per backend and registers it.
    # file/: a user's kernel file built at run time; its prelude is what the generated code
    # includes (the kernel API, a backend, the kernels' checks), its code runs in the run process
    # when there is one (remote.h).
    "catalog": {"plain_cuda", "kernels", "backends", "kernel_api", "run", "isolation", "trace", "util"},
    "analysis": {"rules", "trace", "util"},
    # An exercise's goals measured on a run's reports (the check command, the exercise panel).
    "grading": {"analysis", "run", "rules", "trace", "util"},
    # gpu-fast runs timed: the catalog's runners are reached through a Catalog& it is given.
    "timing": {"run", "isolation", "analysis", "backends", "rules", "trace", "util"},
    "viz": {"analysis", "rules", "trace", "util"},
    "app": {"viz", "grading", "timing", "isolation", "analysis", "catalog", "plain_cuda", "kernels", "backends", "kernel_api",
            "rules", "run", "trace", "util"},
}
CONSUMERS = {"tests", "bench"}  # may include anything; no one includes them

TARGET = re.compile(r"\badd_(?:library|executable)\(\s*([A-Za-z0-9_]+)")
LINK = re.compile(r"\btarget_link_libraries\(\s*([A-Za-z0-9_]+)([^)]*)\)", re.S)

SOURCE = re.compile(r"\.(h|hpp|cpp|cc|cu|cuh|in|inl)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"@]+)"')


def layer_of(path):
    return LAYERS.get(path.split("/", 1)[0] + "/")


def link_problems(repo):
    """The libraries' link edges (target_link_libraries) against the same table: a library may
    link only the layers it may include. Returns (edges checked, problems)."""
    lists = []
    for top in LAYERS:
        for dirpath, _, names in os.walk(os.path.join(repo, top)):
            if "CMakeLists.txt" in names:
                lists.append(os.path.relpath(os.path.join(dirpath, "CMakeLists.txt"), repo))
    layer_of_target, texts = {}, {}
    for f in sorted(lists):
        with open(os.path.join(repo, f), encoding="utf-8") as fh:
            texts[f] = re.sub(r"#[^\n]*", "", fh.read())
        for name in TARGET.findall(texts[f]):
            layer_of_target[name] = layer_of(f)
    checked, problems = 0, []
    for f, text in texts.items():
        for target, rest in LINK.findall(text):
            src = layer_of_target.get(target, layer_of(f))
            for dep in re.findall(r"[A-Za-z0-9_]+", rest):
                dst = layer_of_target.get(dep)
                if dst is None or src in CONSUMERS:
                    continue
                checked += 1
                if dst in CONSUMERS:
                    problems.append(f"{f}: {target} links {dep} (nothing outside tests/ and bench/ may link them)")
                elif dst != src and dst not in MAY_INCLUDE[src]:
                    problems.append(f"{f}: {target} links {dep}\n  (layer {src} may use "
                                    f"{', '.join(sorted(MAY_INCLUDE[src])) or 'nothing else'}; not {dst})")
    return checked, problems


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
    links, link_issues = link_problems(repo)
    problems += link_issues
    if problems:
        print("\n".join(problems))
        print(f"check_layers: {len(problems)} include(s) or link(s) against the layer table (scripts/check_layers.py)")
        return 1
    print(f"check_layers: {checked} includes of {len(files)} files and {links} library links follow the layer table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
