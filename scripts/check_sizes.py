#!/usr/bin/env python3
"""Fails when a function grows past 150 lines or a long file has no [SECTION] index.

A function is read on one screen: at most 150 lines from its opening line to its closing brace.
A file over 800 lines lists its parts in a `// [SECTION]` index at the top (as Dear ImGui's do).
The functions and files that were longer when the check came in are listed in
scripts/size_allowance.txt with their length then: each may shrink, none may grow, and a function
that has come under the limit must leave the list (so the list only ever shrinks).

    scripts/check_sizes.py [REPO]            # exit 0: all within; 1: what is over, and by how much
    scripts/check_sizes.py [REPO] --list     # every function over the limit now (for the allowance)
    scripts/check_sizes.py --self-test       # the check on made-up files: it must catch each case

A function is found the way a reader finds one: a `{` whose statement has a parameter list and
that opens at namespace or class level (not inside another function), in .cpp, .cu, .h and .cuh
files outside build folders and third_party. Comments, strings and character literals are ignored.
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 150
MAX_FILE_LINES = 800
SOURCES = (".cpp", ".cu", ".h", ".cuh")
SKIP_DIRS = {"third_party", ".git", ".carry", ".gl", "corpus"}
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|return|try)\b")
TYPE = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def strip(text):
    """The text with comments, strings and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                end = n if end < 0 else end + len(m.group(1)) + 2
                out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
                i = end
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, line count) of every function defined in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = strip(f.read())
    found = []
    stack = []  # per open brace: "ns", "type", "func" (with its start) or "block"
    stmt_start = 0  # where the current statement's text began
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c in ";":
            stmt_start = i + 1
        elif c == "{":
            head = text[stmt_start:i]
            inside_function = any(k[0] == "func" for k in stack)
            if inside_function:
                stack.append(("block",))
            elif TYPE.search(head) and "(" not in head.split("=")[0][-1:] and not re.search(r"\)\s*(const|noexcept|override|->[^{]*)*\s*$", head.strip()):
                stack.append(("type",))
            elif ")" in head and not CONTROL.match(head) and not head.strip().endswith("="):
                name = re.findall(r"([~\w:<>]+)\s*\(", head)
                stack.append(("func", name[0] if name else "?", line))
            else:
                stack.append(("block",))
            stmt_start = i + 1
        elif c == "}":
            if stack:
                k = stack.pop()
                if k[0] == "func":
                    found.append((k[1], k[2], line - k[2] + 1))
            stmt_start = i + 1
    return found


def sources(repo):
    for root, dirs, files in os.walk(repo):
        rel_root = os.path.relpath(root, repo)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build") and not d.startswith("."))
        for f in sorted(files):
            if f.endswith(SOURCES):
                yield os.path.normpath(os.path.join(rel_root, f))


def measure(repo):
    """{(file, function): lines} over the limit, and [(file, lines)] of long files with no index."""
    long_functions, long_files = {}, []
    for rel in sources(repo):
        path = os.path.join(repo, rel)
        for name, first, count in functions(path):
            if count > MAX_FUNCTION_LINES:
                key = (rel, name)
                long_functions[key] = max(count, long_functions.get(key, 0))
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if len(lines) > MAX_FILE_LINES and not any("[SECTION]" in l for l in lines[:60]):
            long_files.append((rel, len(lines)))
    return long_functions, long_files


def allowance(repo):
    allowed = {}
    path = os.path.join(repo, "scripts", "size_allowance.txt")
    if os.path.exists(path):
        with open(path) as f:
            for l in f:
                l = l.split("#")[0].strip()
                if l:
                    file, name, count = l.split()
                    allowed[(file, name)] = int(count)
    return allowed


def self_test():
    """Runs the check on a made-up tree and asserts what it reports (the check must be able to fail)."""
    import tempfile

    def function(name, lines):  # a function `lines` long, braces and strings inside
        body = [f'  if (x) {{ s = "}}{{"; }}  // {{' for _ in range(lines - 2)]
        return "\n".join([f"int {name}(int x) {{"] + body + ["}"]) + "\n"

    with tempfile.TemporaryDirectory() as repo:
        os.makedirs(os.path.join(repo, "scripts"))
        os.makedirs(os.path.join(repo, "src"))
        os.makedirs(os.path.join(repo, "build", "gen"))
        with open(os.path.join(repo, "src", "a.cpp"), "w") as f:
            f.write("namespace n {\nstruct S {\n" + function("fits", 150) + "};\n" + function("too_long", 151) + "}\n")
        with open(os.path.join(repo, "src", "b.cpp"), "w") as f:
            f.write(function("grew", 170) + function("shrank", 160))
        with open(os.path.join(repo, "build", "gen", "c.cpp"), "w") as f:
            f.write(function("generated", 400))
        with open(os.path.join(repo, "src", "long.h"), "w") as f:
            f.write("\n".join(["int x;"] * 801))
        with open(os.path.join(repo, "src", "indexed.h"), "w") as f:
            f.write("// [SECTION] one\n" + "\n".join(["int y;"] * 801))
        with open(os.path.join(repo, "scripts", "size_allowance.txt"), "w") as f:
            f.write("src/b.cpp grew 160\nsrc/b.cpp shrank 170  # may shrink\nsrc/a.cpp fits 200\n")
        found, long_files = measure(repo)
        assert found == {("src/a.cpp", "too_long"): 151, ("src/b.cpp", "grew"): 170, ("src/b.cpp", "shrank"): 160}, found
        assert long_files == [("src/long.h", 801)], long_files
        problems = check(repo)
        expected = ["src/a.cpp: too_long is 151 lines", "src/b.cpp: grew grew from 160 to 170",
                    "src/a.cpp fits is within 150 lines now", "src/long.h: 801 lines with no [SECTION]"]
        for e in expected:
            assert any(e in p for p in problems), (e, problems)
        assert len(problems) == len(expected), problems
    print("check_sizes self-test: every case caught")
    return 0


def check(repo):
    """The size problems of the tree, one sentence each."""
    long_functions, long_files = measure(repo)
    allowed = allowance(repo)
    problems = []
    for (file, name), count in sorted(long_functions.items()):
        limit = allowed.get((file, name))
        if limit is None:
            problems.append(f"{file}: {name} is {count} lines (at most {MAX_FUNCTION_LINES}: cut it into named steps)")
        elif count > limit:
            problems.append(f"{file}: {name} grew from {limit} to {count} lines (it may only shrink; the limit is {MAX_FUNCTION_LINES})")
    for (file, name), limit in sorted(allowed.items()):
        if (file, name) not in long_functions:
            problems.append(f"scripts/size_allowance.txt: {file} {name} is within {MAX_FUNCTION_LINES} lines now: take it off the list")
    for file, count in long_files:
        problems.append(f"{file}: {count} lines with no [SECTION] index at its top (over {MAX_FILE_LINES} lines, list its parts)")
    return problems


def main():
    if "--self-test" in sys.argv:
        return self_test()
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    repo = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    if "--list" in sys.argv:
        for (file, name), count in sorted(measure(repo)[0].items()):
            print(f"{file} {name} {count}")
        return 0
    problems = check(repo)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} size problems")
        return 1
    print(f"sizes: every function within {MAX_FUNCTION_LINES} lines or under its allowance ({len(allowance(repo))} allowed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
