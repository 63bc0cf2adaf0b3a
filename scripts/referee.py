#!/usr/bin/env python3
"""The referees of warpscope's analysis, run on the GPU machine.

1. Nsight Compute: for each case, `ncu --clock-control none --metrics ...` on the gpu-fast build
   (first kernel launch) next to `warpscope analyze --backend emu --json` for the same launch.
2. The same on large launches (tens of thousands of blocks) next to the whole-grid counters that
   gpu-trace counts on the device (`analyze --backend gpu-trace --blocks 0 --json`, "grid"), with
   only block 0 recorded in full.
3. compute-sanitizer racecheck on the seeds' cache[2] race kernels next to warpscope's hazards.
4. Atomics (histogram, global max, sums, work queue): ncu's atomic requests, sectors, shared
   atomic wavefronts next to warpscope's, with the L2's atomic counts and SASS ATOM/RED beside.
5. Kernel files (examples/*.cu, as a user writes them): the same metrics as 1 (`--only files`).

    python3 scripts/referee.py [--warpscope PATH] [--out DIR]

Prints two tables: kernel, metric, ncu, warpscope, verdict; and variant, racecheck, warpscope.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys

METRICS = [
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
]
SHORT = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "shared ld conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "shared st conflicts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared ld wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared st wavefronts",
    "smsp__inst_executed_op_shared_ld.sum": "shared ld instr",
    "smsp__inst_executed_op_shared_st.sum": "shared st instr",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "global ld requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "global ld sectors",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "global st requests",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "global st sectors",
}


def cases():
    out = []
    for s in [1, 2, 4, 8, 16, 32, 33]:
        out.append((f"bank stride={s} float", ["-k", "bank", "-v", "stride", "--param", f"stride={s}"]))
    for t, strides in [("double", [1, 2]), ("float4", [1, 2]), ("char", [1, 4])]:
        for s in strides:
            out.append((f"bank stride={s} {t}", ["-k", "bank", "-v", "stride", "--dtype", t, "--param", f"stride={s}"]))
    out.append(("bank broadcast", ["-k", "bank", "-v", "broadcast"]))
    for v in ["1", "2", "3", "5"]:
        out.append((f"reduce {v} n=4096 b=256", ["-k", "reduce", "-v", v, "--n", "4096", "--block", "256"]))
    for v in ["tile", "padded"]:
        out.append((f"transpose {v} 96x96", ["-k", "transpose", "-v", v]))
    for name, args in [("offset=0", ["-v", "offset", "--param", "offset=0"]), ("offset=1", ["-v", "offset", "--param", "offset=1"]),
                       ("stride=2", ["-v", "stride", "--param", "stride=2"]), ("aos", ["-v", "aos"]),
                       ("aos-struct", ["-v", "aos-struct"])]:
        out.append((f"coalesce {name}", ["-k", "coalesce"] + args))
    return out


def file_cases():
    """Every example kernel file's variants, as `run --file` takes them."""
    out = []
    for f, variants, extra in [("saxpy.cu", [None], []), ("transpose.cu", ["naive", "tiled", "padded"], []),
                               ("warp_reduce.cu", [None], []), ("histogram.cu", [None], ["--param", "skew=90"]),
                               ("stencil.cu", [None], []), ("particles.cu", ["aos", "soa"], []),
                               ("race.cu", [None], ["--param", "fixed=1"]), ("divergence.cu", [None], [])]:
        for v in variants:
            args = ["--file", os.path.join("examples", f)] + (["-v", v] if v else []) + extra
            out.append((f"{f}{' ' + v if v else ''}", args))
    return out


def variants_of(path):
    """The variant ids a kernel file's description lists ([[variants]] ... id = "x"), or [None]."""
    with open(path) as f:
        text = f.read()
    ids = re.findall(r'^\[\[variants\]\]\s*\nid\s*=\s*"([^"]+)"', text, re.M)
    return ids or [None]


def given_file_cases(specs):
    """The files given on the command line (FILE or FILE:VARIANT), every variant when none is named."""
    out = []
    for spec in specs:
        path, _, v = spec.partition(":")
        for variant in [v] if v else variants_of(path):
            out.append((f"{os.path.basename(path)}{' ' + variant if variant else ''}",
                        ["--file", path] + (["-v", variant] if variant else [])))
    return out


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# Asked for beside METRICS, to explain differences: data bank conflicts from the L1 data clients'
# arbitration (a shared access waiting for global/texture traffic of other warps: large grids show
# them, a one-block launch does not), and shared instructions counted by SASS patching.
EXTRA = [
    "l1tex__data_bank_conflicts_type_arbitration.sum",
    "sm__sass_inst_executed_op_shared_ld.sum",
    "sm__sass_inst_executed_op_shared_st.sum",
]


def ncu_metrics(ws, args):
    cmd = ["ncu", "--clock-control", "none", "--csv", "--launch-count", "1", "--metrics", ",".join(METRICS + EXTRA),
           ws, "run", "--backend", "gpu-fast"] + args
    p = run(cmd)
    text = p.stdout
    start = text.find('"ID"')
    if start < 0:
        return None, (p.stderr or p.stdout)[-400:]
    vals = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        try:
            vals[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            pass
    return vals, row.get("Kernel Name", "") if vals else ""


def grid_cases():
    out = []
    for v in ["1", "2", "3", "5"]:
        out.append((f"reduce {v} n=2^22 b=256", ["-k", "reduce", "-v", v, "--n", str(1 << 22), "--block", "256"]))
    out.append(("reduce 2 n=2^22 b=128", ["-k", "reduce", "-v", "2", "--n", str(1 << 22), "--block", "128"]))
    for v in ["tile", "padded"]:
        out.append((f"transpose {v} 2048^2", ["-k", "transpose", "-v", v, "--n", "2048"]))
    out.append(("matmul tiled-transposed 512", ["-k", "matmul", "-v", "tiled-transposed", "--n", "512"]))
    return out


def ws_metrics(ws, args):
    p = run([ws, "analyze", "--backend", "emu", "--json", "--launch", "0"] + args)
    if p.returncode != 0:
        return None
    return json.loads(p.stdout)["totals"]


def ws_grid_metrics(ws, args):
    p = run([ws, "analyze", "--backend", "gpu-trace", "--blocks", "0", "--json", "--launch", "0"] + args)
    if p.returncode != 0:
        return None
    grid = json.loads(p.stdout).get("grid")
    return grid["totals"] if grid else None


# Atomics: ncu counts an atomic whose return value is unused (RED) apart from one whose value is
# used (ATOM); the trace cannot tell them apart, so warpscope's op_atom is compared with ncu's
# op_atom + op_red. Asked for only where this ncu knows the name (--query-metrics).
ATOMIC_PAIRS = [
    ("global atomic requests", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
     ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"]),
    # ncu's atomic sectors count passes: lanes on one address serialise, each pass over a sector
    # counted (the access map's sectors are distinct ones). Compared as nvcc compiles the atomics:
    # a warp-uniform integer atomic is one lane's after a warp reduction (..._compiled; the count
    # as the source writes them, warpscope__atomic_sector_passes_global, is printed beside).
    ("global atomic sector passes", "warpscope__atomic_sector_passes_global_compiled",
     ["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"]),
    ("shared atomic instr", "smsp__inst_executed_op_shared_atom.sum", ["smsp__inst_executed_op_shared_atom.sum"]),
    ("shared atomic wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
     ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"]),
    ("shared atomic conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
     ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"]),
]
# Printed beside them (no warpscope counterpart): SASS instruction counts and the L2's view.
ATOMIC_EXTRA = [
    "l1tex__data_bank_conflicts_type_arbitration.sum",
    "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum", "lts__t_requests_srcunit_tex_op_atom.sum",
    "lts__t_requests_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_atom.sum",
    "lts__t_sectors_srcunit_tex_op_red.sum",
]


def atomic_cases():
    out = []
    for v in ["global", "shared", "warp"]:
        for i in ["uniform", "one-colour", "image", "sorted"]:
            out.append((f"histogram {v} {i}", ["-k", "histogram", "-v", v, "--n", "16384", "--param", f"input={i}"]))
    out.append(("atomics max (naive)", ["-k", "atomics", "-v", "max", "--n", "4096"]))
    out.append(("atomics add", ["-k", "atomics", "-v", "add", "--n", "4096"]))
    out.append(("atomics hier", ["-k", "atomics", "-v", "hier", "--n", "4096"]))
    out.append(("workqueue queue", ["-k", "workqueue", "-v", "queue", "--n", "2048"]))
    return out


def known_metrics():
    """The metric base names this ncu knows for the GPU here (empty if the query fails)."""
    p = run(["ncu", "--query-metrics"])
    names = set()
    for line in p.stdout.splitlines():
        f = line.split()
        if f and "__" in f[0]:
            names.add(f[0])
    return names


def compare_atomics(ws, rows):
    known = known_metrics()
    wanted = sorted({m for _, _, ms in ATOMIC_PAIRS for m in ms} | set(ATOMIC_EXTRA))
    usable = [m for m in wanted if not known or m.rsplit(".", 1)[0] in known]
    missing = [m for m in wanted if m not in usable]
    if missing:
        print("(this ncu does not know: " + ", ".join(missing) + ")")
    print(f"{'case':30} {'metric':26} {'ncu':>10} {'warpscope':>10}  verdict")
    matched = total = 0
    for name, args in atomic_cases():
        cmd = ["ncu", "--clock-control", "none", "--csv", "--launch-count", "1", "--metrics", ",".join(usable),
               ws, "run", "--backend", "gpu-fast"] + args
        p = run(cmd)
        start = p.stdout.find('"ID"')
        w = ws_metrics(ws, args)
        if start < 0 or w is None:
            print(f"{name:30} could not run: {(p.stderr or p.stdout)[-200:] if start < 0 else 'analyze failed'}")
            continue
        n = {}
        for row in csv.DictReader(io.StringIO(p.stdout[start:])):
            try:
                n[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
            except (KeyError, ValueError):
                pass
        for short, mine, theirs in ATOMIC_PAIRS:
            if not all(t in n for t in theirs):
                continue
            nv, wv = sum(n[t] for t in theirs), w.get(mine, 0)
            if nv == 0 and wv == 0:
                continue
            total += 1
            ok = abs(nv - wv) < 0.5
            matched += ok
            verdict = "match" if ok else "DIFFERS"
            req = sum(n.get(t, 0) for t in ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                                            "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"])
            written = w.get("warpscope__atomic_sector_passes_global", wv)
            if ok and "sector passes" in short and written != wv:
                verdict = f"match as nvcc compiles it ({written:.0f} as written: warp-uniform integer atomics, one lane's after REDUX)"
            elif not ok and "sector passes" in short and abs(nv - req) < 0.5 and wv > nv:
                verdict = "nvcc aggregated the warp-uniform atomic: one lane's RED/ATOM after REDUX (cuobjdump -sass)"
            elif (not ok and "shared atomic" in short and nv > wv
                  and nv - wv <= n.get("l1tex__data_bank_conflicts_type_arbitration.sum", -1) + 0.5):
                verdict = f"ncu +{nv - wv:.0f}, within the L1 arbitration conflicts (other warps' global traffic)"
            elif not ok and name.startswith("workqueue queue"):
                verdict = "order-dependent: how many takes a warp makes depends on who ran first"
            elif not ok and "sector passes" in short and 0 < nv - wv <= 0.03 * nv:
                verdict = f"ncu +{nv - wv:.0f} ({100 * (nv - wv) / nv:.1f}%): random words sharing a sector (unexplained)"
            rows.append({"case": name, "metric": mine, "ncu": nv, "warpscope": wv, "match": ok, "verdict": verdict})
            print(f"{name:30} {short:26} {nv:10.0f} {wv:10.0f}  {verdict}")
        same = w.get("warpscope__atomic_max_same_address_global", 0), w.get("warpscope__atomic_max_same_address_shared", 0)
        extra = ", ".join(f"{k.split('__', 1)[1].replace('.sum', '')} {n[k]:.0f}" for k in ATOMIC_EXTRA if k in n)
        print(f"{'':30} (warpscope: most lanes on one address global {same[0]}, shared {same[1]}; ncu: {extra})")
    print(f"{matched} of {total} nonzero atomic metrics match")


def racecheck(ws, variant, placement):
    p = run(["compute-sanitizer", "--tool", "racecheck", "--racecheck-report", "hazard", ws, "run", "--backend", "gpu-fast",
             "-k", "race", "-v", variant, "--param", f"placement={placement}"])
    text = p.stdout + p.stderr
    m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    kinds = sorted(set(re.findall(r"(Read-after-Write|Write-after-Read|Write-after-Write) hazard", text)))
    if not m:
        return "no summary: " + text.strip().splitlines()[-1][:60] if text.strip() else "no output"
    abbrev = {"Read-after-Write": "RAW", "Write-after-Read": "WAR", "Write-after-Write": "WAW"}
    return f"{m.group(1)} hazards ({m.group(2)} err, {m.group(3)} warn) {'/'.join(abbrev[k] for k in kinds)}"


def ws_hazards(ws, variant, placement):
    p = run([ws, "analyze", "--backend", "emu", "--json", "-k", "race", "-v", variant, "--param", f"placement={placement}"])
    if p.returncode != 0:
        return "analyze failed"
    # racecheck looks at shared memory only: so does the comparison.
    hz = [h for h in json.loads(p.stdout).get("hazards", []) if h.get("space", "shared") == "shared"]
    inter = sorted({h.get("kind", "?") for h in hz if h.get("scope") != "intra-warp-lockstep"})
    lock = sorted({h.get("kind", "?") for h in hz if h.get("scope") == "intra-warp-lockstep"})
    parts = []
    if inter:
        parts.append("race " + "/".join(inter))
    if lock:
        parts.append("lockstep-only " + "/".join(lock))
    return ", ".join(parts) or "no hazard"


def explain(m, n, w):
    """Why ncu's number differs from warpscope's, when the difference has a known cause; else None."""
    nv, wv = n.get(m, 0), w.get(m, 0)
    ops = ["ld", "st", "atom"]
    if m.startswith("smsp__inst_executed_op_shared_") and nv > wv:
        sass = n.get(m.replace("smsp__inst_executed", "sm__sass_inst_executed"))
        wf = m.replace("smsp__inst_executed_op_shared_", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_")
        # ncu's inst_executed also counts instructions that a warp executed with every lane
        # predicated off (the compiler turns `if (tid < s) sdata[..] += ..` into predicated
        # LDS/STS); warpscope counts source-level instructions with at least one active lane, as
        # the SASS-patched counter does. A predicated-off instruction moves nothing.
        if sass is not None and abs(sass - wv) < 0.5:
            return f"ncu counts predicated-off warps; SASS-patched count {sass:.0f} agrees"
        if abs(n.get(wf, -1) - w.get(wf, -2)) < 0.5:
            return "ncu counts predicated-off warps (wavefronts agree)"
    if "_mem_shared_op_ld" in m or m.startswith("smsp__inst_executed_op_shared_ld"):
        sass = n.get("sm__sass_inst_executed_op_shared_ld.sum")
        mine = w.get("smsp__inst_executed_op_shared_ld.sum", 0)
        for k in (2, 4):
            if sass and abs(sass * k - mine) < 0.5:
                return f"the compiler merged {k} loads into one {4 * k}-byte LDS ({sass:.0f} SASS loads)"
    if "_mem_shared_op_" in m and nv > wv:
        # Data bank conflicts from the L1 data clients' arbitration (a shared access waiting for
        # other warps' global traffic; large grids show them, a one-block launch does not): ncu adds
        # them to the conflicts and wavefronts of the shared op. Explained when all the extra
        # conflicts of the launch fit in the arbitration count.
        arb = n.get("l1tex__data_bank_conflicts_type_arbitration.sum")
        conf = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
        extra = sum(max(0.0, n.get(conf + o + ".sum", 0) - w.get(conf + o + ".sum", 0)) for o in ops)
        if arb is not None and extra <= arb + 0.5 and nv - wv <= arb + 0.5:
            return f"ncu +{nv - wv:.0f}, within the L1 arbitration conflicts ({arb:.0f})"
    return None


def compare(ws, case_list, ws_fn, rows):
    print(f"{'case':28} {'metric':22} {'ncu':>10} {'warpscope':>10}  verdict")
    matched = total = explained = 0
    for name, args in case_list:
        n, kernel = ncu_metrics(ws, args)
        w = ws_fn(ws, args)
        if n is None or w is None:
            print(f"{name:28} {'-':22} {'-':>10} {'-':>10}  could not run: {kernel if n is None else 'analyze failed'}")
            continue
        for m in METRICS:
            nv, wv = n.get(m), w.get(m)
            if nv is None or wv is None or (nv == 0 and wv == 0):
                continue
            total += 1
            ok = abs(nv - wv) < 0.5
            matched += ok
            verdict = "match" if ok else "DIFFERS"
            if not ok:
                why = explain(m, n, w)
                if why:
                    verdict = why
                    explained += 1
            rows.append({"case": name, "metric": m, "ncu": nv, "warpscope": wv, "match": ok, "verdict": verdict,
                         "kernel": kernel})
            print(f"{name:28} {SHORT[m]:22} {nv:10.0f} {wv:10.0f}  {verdict}")
        extra = ", ".join(f"{k.split('__', 1)[1]} {n[k]:.0f}" for k in EXTRA if k in n)
        if extra:
            print(f"{'':28} (ncu: {extra})")
    print(f"{matched} of {total} nonzero metrics match; {explained} differ for a known reason (said on the row)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", default=".carry/bin/warpscope")
    ap.add_argument("--out", default=os.environ.get("OUT", "/tmp"))
    ap.add_argument("--only", choices=["emu", "grid", "racecheck", "atomics", "files"], help="run one of the referees")
    ap.add_argument("--file", action="append", default=[], metavar="FILE[:VARIANT]",
                    help="with --only files: hold these kernel files (every variant, or the one named) against "
                         "Nsight Compute instead of the examples")
    a = ap.parse_args()
    ws = a.warpscope
    rows = []
    if a.only in (None, "emu"):
        print("== Nsight Compute referee (first launch, gpu-fast) vs warpscope analyze (emulator)")
        compare(ws, cases(), ws_metrics, rows)
        print()
    if a.only in (None, "grid"):
        print("== Nsight Compute (whole launch) vs the whole-grid counters gpu-trace counts on the GPU")
        compare(ws, grid_cases(), ws_grid_metrics, rows)
        print()
    if a.only in (None, "files"):
        print("== Nsight Compute (first launch, gpu-fast) vs warpscope analyze (emulator) on the example kernel files")
        compare(ws, given_file_cases(a.file) if a.file else file_cases(), ws_metrics, rows)
        print()
    if a.only in (None, "atomics"):
        print("== Nsight Compute vs warpscope on atomics (histogram, the seed's global max, sums, work queue)")
        compare_atomics(ws, rows)
        print()
    if a.only not in (None, "racecheck"):
        with open(os.path.join(a.out, "referee.json"), "w") as f:
            json.dump(rows, f, indent=1)
        return 0
    print("== compute-sanitizer racecheck vs warpscope hazards (race kernel, the seeds' cache[2])")
    print(f"{'variant':26} {'racecheck':42} warpscope")
    for v, vname in [("0", "no barrier"), ("1", "one barrier"), ("2", "two barriers")]:
        for pl, pname in [("0", "threads in 2 warps"), ("1", "threads in 1 warp")]:
            print(f"{v} {vname:12} {pname:12} {racecheck(ws, v, pl):42} {ws_hazards(ws, v, pl)}")
    with open(os.path.join(a.out, "referee.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
