#!/usr/bin/env bash
# Run the collector as user nobody (uid 65534) over a fake root holding a
# root-owned 0600 file and a root-owned 0700 folder under a home's .claude:
# the run must exit 0, the bundle must verify (bin/doubleagent verify), and
# the manifest must record both paths as error_read while the readable files
# are collected. Must be started as root (scripts/test.sh calls it then).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "test-unprivileged: must run as root (it switches to nobody)"; exit 1; fi
if command -v setpriv >/dev/null; then
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
elif command -v runuser >/dev/null; then
  as_nobody() { runuser -u nobody -- "$@"; }
else
  echo "test-unprivileged: neither setpriv nor runuser is available"; exit 1
fi
work=$(mktemp -d /tmp/doubleagent-unpriv.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
export CGO_ENABLED=0
go build -trimpath -o "$work/doubleagent-collector" ./collector
go build -trimpath -o "$work/doubleagent" ./analyzer
root="$work/root"
claude="$root/home/alice/.claude"
mkdir -p "$claude/projects/p" "$claude/sessions" "$root/etc"
echo unpriv-host > "$root/etc/hostname"
echo '{"type":"user","cwd":"/home/alice"}' > "$claude/projects/p/s.jsonl"
echo '{"display":"readable"}' > "$claude/history.jsonl"
echo '{"secret":"root only"}' > "$claude/settings.json"
echo '{}' > "$claude/sessions/hidden.json"
chmod -R a+rX "$root"
chmod 600 "$claude/settings.json"     # root-owned, unreadable by nobody
chmod 700 "$claude/sessions"          # root-owned folder nobody cannot list
out="$work/out"
mkdir "$out" && chown 65534:65534 "$out"
set +e
as_nobody "$work/doubleagent-collector" --root "$root" -o "$out/b.tar.zst" --log-format json 2> "$work/stderr"
rc=$?
set -e
fail=0
if [ "$rc" != 0 ]; then echo "test-unprivileged: collector exit code $rc, want 0"; cat "$work/stderr"; fail=1; fi
if ! "$work/doubleagent" verify "$out/b.tar.zst"; then echo "test-unprivileged: verify failed"; fail=1; fi
manifest="$work/manifest.jsonl"
zstd -dcq "$out/b.tar.zst" | tar --warning=no-unknown-keyword -xO -f - manifest.jsonl > "$manifest"
python3 - "$manifest" <<'PY' || fail=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
files = {r["path"]: r for r in rows if r["record"] == "file"}
summary = rows[-1]
want = {
    "/home/alice/.claude/settings.json": ("error_read", "file"),
    "/home/alice/.claude/sessions": ("error_read", "dir"),
    "/home/alice/.claude/history.jsonl": ("collected", "file"),
    "/home/alice/.claude/projects/p/s.jsonl": ("collected", "file"),
}
bad = 0
for path, (status, typ) in want.items():
    r = files.get(path)
    if r is None or r["status"] != status or r["type"] != typ:
        print(f"test-unprivileged: {path}: {r}, want {status} {typ}")
        bad = 1
    elif status == "error_read" and ("permission denied" not in r["error"] or r["archive_path"] or r["sha256"]):
        print(f"test-unprivileged: {path}: error_read row without the error or with content: {r}")
        bad = 1
if summary.get("record") != "summary" or not summary.get("complete") or summary["counts"].get("error_read") != 2:
    print(f"test-unprivileged: summary {summary}")
    bad = 1
if bad:
    sys.exit(1)
print("test-unprivileged: error_read rows for the unreadable file and folder, run complete")
PY
# The header records the unprivileged user.
if ! zstd -dcq "$out/b.tar.zst" | tar --warning=no-unknown-keyword -xO -f - bundle.json | grep -q '"privileged": false'; then
  echo "test-unprivileged: header does not say unprivileged"; fail=1
fi
# The Go test that needs an unprivileged user (it skips as root).
(cd collector && go test -c -o "$work/collect.test" ./collect)
mkdir "$work/gotmp" && chown 65534:65534 "$work/gotmp"
if ! (cd "$work" && TMPDIR="$work/gotmp" as_nobody "$work/collect.test" -test.run '^(TestUnreadableFile|TestUnlistableHomesFolder)$' -test.v 2>&1 | tee "$work/gotest" | tail -3) || ! grep -q -- '--- PASS: TestUnreadableFile' "$work/gotest" || ! grep -q -- '--- PASS: TestUnlistableHomesFolder' "$work/gotest"; then
  echo "test-unprivileged: TestUnreadableFile or TestUnlistableHomesFolder did not pass as nobody"; fail=1
fi
(cd analyzer && go test -c -o "$work/analyze.test" ./analyze)
if ! (cd "$work" && TMPDIR="$work/gotmp" as_nobody "$work/analyze.test" -test.run '^(TestLooseUnlistableHomesFolder|TestLooseUnreadableFileNamed)$' -test.v 2>&1 | tee "$work/gotest2" | tail -3) || ! grep -q -- '--- PASS: TestLooseUnlistableHomesFolder' "$work/gotest2" || ! grep -q -- '--- PASS: TestLooseUnreadableFileNamed' "$work/gotest2"; then
  echo "test-unprivileged: TestLooseUnlistableHomesFolder or TestLooseUnreadableFileNamed did not pass as nobody"; fail=1
fi
if [ "$fail" != 0 ]; then echo "test-unprivileged: FAILED"; exit 1; fi
echo "test-unprivileged: passed"
