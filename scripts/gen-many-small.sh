#!/usr/bin/env bash
# gen-many-small.sh: write a home of many tiny agent files under catalog
# targets, the input of TRYOUT.md T12 (a bundle of 60,000 tiny files read 3x
# slower than the same tree in place). Not run by CI or the test suite; a
# benchmark input only.
#
#   scripts/gen-many-small.sh OUT [N]      # N files in all (default 60000)
#
# Half are Claude todo lists (~/.claude/todos/<uuid>-agent-<uuid>.json, one
# item each), half are one-record Claude sessions
# (~/.claude/projects/-home-examiner-demo<k>/<uuid>.jsonl: one user line with a
# UTC timestamp), spread over 100 project folders. Deterministic: the same N
# gives the same bytes. Then: collector --root OUT -o many.tar.zst, and
# doubleagent timeline many.tar.zst / timeline OUT.
set -eu
[ $# -ge 1 ] || { sed -n 2,13p "$0" >&2; exit 2; }
out=$1 n=${2:-60000}
python3 - "$out" "$n" <<'PY'
import os, sys, uuid
out, n = sys.argv[1], int(sys.argv[2])
home = os.path.join(out, "home", "examiner")
todos = os.path.join(home, ".claude", "todos")
os.makedirs(todos, exist_ok=True)
ns = uuid.UUID("6f1c2a4e-0000-4000-8000-000000000000")
for i in range(n // 2):
    u = str(uuid.uuid5(ns, "todo%d" % i))
    with open(os.path.join(todos, "%s-agent-%s.json" % (u, u)), "w") as f:
        f.write('[{"content":"task %d","status":"pending","activeForm":"task %d"}]\n' % (i, i))
for i in range(n - n // 2):
    u = str(uuid.uuid5(ns, "sess%d" % i))
    d = os.path.join(home, ".claude", "projects", "-home-examiner-demo%d" % (i % 100))
    os.makedirs(d, exist_ok=True)
    ts = "2026-12-01T%02d:%02d:%02d.%03dZ" % ((i // 3600) % 24, (i // 60) % 60, i % 60, i % 1000)
    with open(os.path.join(d, u + ".jsonl"), "w") as f:
        f.write('{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hello %d"},"uuid":"%s","timestamp":"%s","sessionId":"%s","cwd":"/home/examiner/demo%d"}\n' % (i, str(uuid.uuid5(ns, "msg%d" % i)), ts, u, i % 100))
PY
