#!/usr/bin/env python3
"""The CUDA intrinsics a kernel can use on warpscope's emulator, read from its kernel API
(kernel_api/emu/ws/emu/intrinsics.h and kernel_api.h), so that the list in
docs/writing-kernels.md cannot drift from the code.

    python3 scripts/intrinsics.py                 # the names, one per line
    python3 scripts/intrinsics.py --check DOC.md  # exit 1 naming every intrinsic DOC.md lacks

ctest runs the check as the test "intrinsics_documented".
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "kernel_api/emu/ws/emu/intrinsics.h", ROOT / "kernel_api/emu/ws/emu/kernel_api.h"]

# A function the kernel can call: `inline R name(`, `T name(`, `unsigned name(` at the start of a
# line, or a macro row that defines one (`WS_EMU_ATOMIC(atomicAdd, Add)`).
DEF = re.compile(r"^(?:template <[^>]*>\s*)?(?:inline\s+)?(?:[\w:<>]+\s+)+(__\w+|rsqrtf?|sincosf|atomic\w+|clock64)\s*\(", re.M)
ROW = re.compile(r"^WS_EMU_(?:ATOMIC|WARP_REDUCE|CONVERT|LOAD_HINT|STORE_HINT)\((\w+)", re.M)


def names():
    found = set()
    for f in FILES:
        text = f.read_text()
        found.update(m.group(1) for m in DEF.finditer(text))
        for m in ROW.finditer(text):
            found.add(m.group(1))
        # A SIMD row names a pair: NAME2 on halfwords, NAME4 on bytes.
        for m in re.finditer(r"^WS_EMU_SIMD1?\((\w+)", text, re.M):
            found.update({m.group(1) + "2", m.group(1) + "4"})
        # The conversion macro's family: __float2int##SUFFIX for each suffix row.
        suffixes = re.findall(r"^WS_EMU_CONVERT\((_\w+),", text, re.M)
        stems = re.findall(r"inline \w+(?: \w+)? (__\w+)##SUFFIX", text)
        found.update(stem + s for stem in stems for s in suffixes)
    found.discard("WS_EMU_CONVERT")
    return sorted(n for n in found if not n.startswith("WS_") and n not in ("_rn", "_rz", "_ru", "_rd"))


def main():
    all_names = names()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        doc = Path(sys.argv[2]).read_text()
        missing = [n for n in all_names if not re.search(r"(?<![\w])" + re.escape(n) + r"(?![\w])", doc)]
        if missing:
            print(f"{sys.argv[2]} does not list {len(missing)} intrinsics the emulator has: " + ", ".join(missing))
            return 1
        print(f"{sys.argv[2]} lists all {len(all_names)} intrinsics")
        return 0
    print("\n".join(all_names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
