#!/usr/bin/env python3
"""Sanitize a copied Claude Code home for a fixture root, in place.

usage: sanitize-claude-home.py HOME KEEP...

Drops caches, node_modules and bin folders and every link; replaces
.credentials.json with a marker; in transcripts under projects/, replaces
each string over 2 KiB that holds none of the KEEP markers (vendor text:
system prompts, tool descriptions) with a note of its size, keeping each
file's mtime. Shared by the gen-*-fixture.sh generators.
"""
import json, os, shutil, sys

root, KEEP = sys.argv[1], tuple(sys.argv[2:])
DROP_DIRS = {"node_modules", "cache", "caches", ".cache", "statsig", "bin"}
AUTH_FILES = {".credentials.json"}
LONG = 2048
def walk(v):
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x) for x in v]
    if isinstance(v, str) and len(v.encode()) > LONG and not any(k in v for k in KEEP):
        return "[doubleagent fixture: vendor text elided, %d bytes]" % len(v.encode())
    return v
for dirpath, dirnames, filenames in os.walk(root, topdown=True):
    for d in list(dirnames):
        if d in DROP_DIRS:
            shutil.rmtree(os.path.join(dirpath, d)); dirnames.remove(d)
    for f in filenames:
        p = os.path.join(dirpath, f)
        if os.path.islink(p):
            os.remove(p); continue
        if f in AUTH_FILES:
            open(p, "w").write("REDACTED-FIXTURE"); continue
        if f.endswith(".jsonl") and "/projects/" in p:
            st = os.stat(p)
            out = [json.dumps(walk(json.loads(l)), ensure_ascii=False, separators=(",", ":")) for l in open(p, encoding="utf-8") if l.strip()]
            open(p, "w", encoding="utf-8").write("".join(l + "\n" for l in out))
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
