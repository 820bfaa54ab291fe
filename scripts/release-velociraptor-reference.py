#!/usr/bin/env python3
"""Extract the Velociraptor reference list that collector/velociraptor's
test checks the artifacts against: the artifact schema's YAML keys
(artifacts/proto/artifact.proto), the parameter types the launcher knows
(services/launcher/parameters.go), every VQL function and plugin with its
argument names (docs/references/vql.yaml), and the parameters of the
built-in artifacts ours call. Only names are extracted; no code is copied.

  scripts/release-velociraptor-reference.py GITDIR > collector/velociraptor/testdata/velociraptor-reference.txt

GITDIR is a bare clone of github.com/Velocidex/velociraptor (read with git show).
"""
import re, subprocess, sys
import yaml

git = sys.argv[1]
def show(path):
    return subprocess.run(["git", "--git-dir", git, "show", "HEAD:" + path], check=True, capture_output=True, text=True).stdout
commit = subprocess.run(["git", "--git-dir", git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
out = ["# Velociraptor names the DoubleAgent artifacts are checked against.",
       "# Extracted by scripts/release-velociraptor-reference.py from github.com/Velocidex/velociraptor",
       "# commit " + commit + " (names only, no code).",
       "source " + commit]

proto = show("artifacts/proto/artifact.proto")
proto = re.sub(r"//[^\n]*", "", proto)
for m in re.finditer(r"\bmessage\s+(\w+)\s*\{", proto):
    depth, i = 1, m.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(proto[i], 0)
        i += 1
    body = proto[m.end():i - 1]
    body = re.sub(r"\[\(sem_type\)[^\]]*\]", "", body, flags=re.S)
    body = re.sub(r"option\s*\(semantic\)\s*=\s*\{.*?\};", "", body, flags=re.S)
    fields = re.findall(r"^\s*(?:repeated\s+)?(?:map<[^>]+>|[\w.]+)\s+(\w+)\s*=\s*\d+", body, flags=re.M)
    out.append("message %s %s" % (m.group(1), ",".join(fields)))

params = show("services/launcher/parameters.go")
types = sorted(set(t for case in re.findall(r"case ([^:]*):", params) for t in re.findall(r'"([^"]*)"', case)))
out.append("paramtypes " + ",".join(t or '""' for t in types))

for e in yaml.safe_load(show("docs/references/vql.yaml")):
    kind = (e.get("type") or "").lower()
    if kind in ("function", "plugin"):
        out.append("%s %s %s" % (kind, e["name"], ",".join(a["name"] for a in e.get("args") or [])))

for path in ["artifacts/definitions/Generic/Utils/FetchBinary.yaml", "artifacts/definitions/System/Flow/Completion.yaml"]:
    a = yaml.safe_load(show(path))
    out.append("artifact %s %s %s" % (a["name"], a.get("type", "CLIENT"), ",".join(p["name"] for p in a.get("parameters") or [])))
print("\n".join(out))
