#!/usr/bin/env bash
# Fails (exit 1, listing file:line) when a reference to a document outside this repository
# remains (the old wire-contract, app-routes, design and guide documents, ../shared paths,
# issue numbers), or when a reference to the project's own documents names a file or a section
# number that does not exist. Own references look like `Protocol/Auth.md §4.2` (a page of
# Documentation/Protocol/) or `Documentation/Architecture.md §1`; a list such as
# `Protocol/Push.md §2.4–§2.6, §2.9` checks every number. In Documentation/Protocol/*.md a bare
# `§N` names a section of the same page. Needs bash and python3 (standard library only).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, sys

EXTS = (".swift", ".md", ".sh", ".py", ".txt")
SKIP = {".build", ".git", ".swiftpm"}
WS = r"(?:[ \t]+|[ \t]*\n[ \t]*(?:///?|#)?[ \t]*)"
OUTSIDE = [
    (re.compile(r"wire" + WS + r"contract|wire-contract", re.I), "wire contract document"),
    (re.compile(r"\bapp" + WS + r"routes\b", re.I), "app routes document"),
    (re.compile(r"\bcontract" + WS + r"v[12]\b", re.I), "wire contract document"),
    (re.compile(r"(?<![\w-])v[12]" + WS + r"§"), "wire contract section"),
    (re.compile(r"\.\./shared|/work/shared|\(in shared/\)"), "path outside the repository"),
    (re.compile(r"\bDESIGN(?:\.md)?\b"), "design document outside the repository"),
    (re.compile(r"architecture-and-style|architecture guide|linux-toolchain-notes", re.I),
     "guide outside the repository"),
    (re.compile(r"\bissues? #?\d+", re.I), "issue number"),
    (re.compile(r"\broutes" + WS + r"§\d+" + WS + r"pitfall", re.I), "app routes document"),
]
NUM = r"\d+(?:\.\d+)*"
OWN = re.compile(
    r"(?P<file>(?:Documentation/)?Protocol/[A-Za-z]+\.md|Documentation/(?:[A-Za-z]+/)*[A-Za-z0-9-]+\.md)"
    r"`?(?P<chain>(?:" + WS + r"§" + NUM + r"(?:`?(?:,|[–-]|/|" + WS + r"and|" + WS + r"or)"
    + WS + r"?§" + NUM + r")*)?)")
SEC = re.compile(r"§(" + NUM + r")")
HEAD = re.compile(r"^#{2,6}[ \t]+(" + NUM + r")\.?[ \t]", re.M)

def files():
    for d, dirs, names in os.walk("."):
        dirs[:] = sorted(x for x in dirs if x not in SKIP)
        for n in sorted(names):
            if n.endswith(EXTS):
                yield os.path.relpath(os.path.join(d, n))

heads = {}
def sections(path):
    if path not in heads:
        with open(path, encoding="utf-8") as f:
            heads[path] = set(HEAD.findall(f.read()))
    return heads[path]

me = os.path.join("scripts", "check-references.sh")
problems, checked = [], 0
for path in files():
    if path == me:
        continue
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    line_of = lambda pos: text.count("\n", 0, pos) + 1
    for rx, what in OUTSIDE:
        for m in rx.finditer(text):
            problems.append(f"{path}:{line_of(m.start())}: {what}: {m.group(0)!r}")
    spans = []
    for m in OWN.finditer(text):
        checked += 1
        ref = m.group("file")
        target = ref if ref.startswith("Documentation/") else "Documentation/" + ref
        spans.append((m.start(), m.end()))
        if not os.path.isfile(target):
            problems.append(f"{path}:{line_of(m.start())}: no such document: {ref}")
            continue
        known = sections(target)
        for s in SEC.findall(m.group("chain")):
            if s not in known:
                problems.append(f"{path}:{line_of(m.start())}: {ref} has no section §{s}")
    # Same-page references inside the protocol pages.
    if path.replace(os.sep, "/").startswith("Documentation/Protocol/") and path.endswith(".md"):
        known = sections(path)
        for m in re.finditer(r"§(" + NUM + r")", text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            checked += 1
            if m.group(1) not in known:
                problems.append(f"{path}:{line_of(m.start())}: this page has no section §{m.group(1)}")

seen, unique = set(), []
for p in problems:  # one line per place, even when several patterns see it
    where = p.split(": ", 1)[0]
    if where not in seen:
        seen.add(where)
        unique.append(p)
def place(p):
    file, line = p.split(": ", 1)[0].rsplit(":", 1)
    return (file, int(line))
unique.sort(key=place)
for p in unique:
    print(p)
if unique:
    print(f"references: {len(unique)} place(s) to fix", file=sys.stderr)
    sys.exit(1)
print(f"references: {checked} checked, all resolve")
PY
