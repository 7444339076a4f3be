#!/usr/bin/env bash
# Fails when a module imports (or Package.swift lets it depend on) anything the module table
# in scripts/layering.txt (Documentation/Architecture.md §1) does not allow. Lower layers never import higher ones.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "$@" <<'PY'
import json, os, re, subprocess, sys

TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch",
             "Synchronization", "Glibc", "Darwin", "Musl", "Android", "os"}
table = {}
sets = {}
for line in open("scripts/layering.txt", encoding="utf-8"):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, _, allowed = line.partition(":")
    if name.startswith("@"):
        sets[name[1:].strip()] = set(allowed.split())
    else:
        table[name.strip()] = set(allowed.split())
portable, native, shims = sets.get("portable", set()), sets.get("native", set()), sets.get("shims", set())
lean = sets.get("lean", set())

import_re = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
# Conditions that are false on Linux: a lean module may import Foundation under them.
apple_only = re.compile(r"canImport\((CryptoKit|Darwin|Security|UIKit|AppKit|UserNotifications)\)"
                        r"|os\((iOS|macOS|tvOS|watchOS|visionOS)\)")
problems = []
for module, allowed in sorted(table.items()):
    root = os.path.join("Modules", module)
    if not os.path.isdir(root):
        problems.append(f"{module}: folder {root} is missing")
        continue
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".swift"):
                continue
            path = os.path.join(dirpath, f)
            # The #if frames around each line: [condition, in #else branch].
            frames = []
            for number, text in enumerate(open(path, encoding="utf-8"), 1):
                directive = text.strip()
                if directive.startswith("#if "):
                    frames.append([directive[4:].strip(), False])
                elif directive.startswith("#elseif ") and frames:
                    frames[-1] = [directive[8:].strip(), False]
                elif directive == "#else" and frames:
                    frames[-1][1] = True
                elif directive == "#endif" and frames:
                    frames.pop()
                m = import_re.match(text)
                if not m:
                    continue
                imported = m.group(1)
                if module in lean and imported == "FoundationNetworking":
                    problems.append(f"{path}:{number}: {module} is lean and may not import FoundationNetworking")
                    continue
                if module in lean and imported == "Foundation" and not any(
                        (cond == "canImport(FoundationEssentials)" and in_else)
                        or (apple_only.fullmatch(cond) and not in_else) for cond, in_else in frames):
                    problems.append(f"{path}:{number}: {module} is lean: import FoundationEssentials, "
                                    "and Foundation only under #else of #if canImport(FoundationEssentials)")
                    continue
                if imported in TOOLCHAIN or imported == module:
                    continue
                if module in portable and imported in shims:
                    problems.append(f"{path}:{number}: portable {module} may not import the C shim {imported}")
                    continue
                if "*" in allowed or imported in allowed:
                    continue
                problems.append(f"{path}:{number}: {module} may not import {imported}")

# Declared dependencies in Package.swift must also stay inside the table.
try:
    dump = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                     capture_output=True, text=True).stdout)
except (OSError, subprocess.CalledProcessError) as error:
    problems.append(f"could not read Package.swift: {error}")
    dump = {"targets": []}
# Outside Linux (i.e. on iOS), what each target depends on: unconditional dependencies and
# those whose condition names a non-Linux platform.
apple_deps = {}
for target in dump["targets"]:
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                declared, condition = dependency[kind][0], dependency[kind][-1]
                platforms = (condition or {}).get("platformNames") if isinstance(condition, dict) else None
                if not platforms or any(p != "linux" for p in platforms):
                    names.append(declared)
    apple_deps[target["name"]] = names
for module in sorted(portable):
    seen, stack = set(), [module]
    while stack:
        for dep in apple_deps.get(stack.pop(), []):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    for bad in sorted(seen & native):
        problems.append(f"Package.swift: portable {module} depends on {bad} outside Linux (iOS cannot build it)")
for target in dump["targets"]:
    name = target["name"]
    if name not in table or "*" in table[name]:
        continue
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                declared = dependency[kind][0]
                if declared not in table[name]:
                    problems.append(f"Package.swift: {name} declares a dependency on {declared}")

if problems:
    print("layering check failed:")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print(f"layering check passed: {len(table)} modules import only what scripts/layering.txt allows; "
      f"{len(portable)} portable modules reach no native-stack module outside Linux")
PY
