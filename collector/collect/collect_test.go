//go:build unix

package collect

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

const (
	outsideSecret = "OUTSIDE-THE-ROOT: must never be collected"
	aliceCwd      = `{"type":"user","cwd":"/home/alice/proj","message":{"role":"user","content":"hi"}}` + "\n"
)

// fakeRoot builds an image with several users: alice and bob under /home,
// svc with its home at /srv/svc (passwd only), carol under /Users with a
// Windows profile layout, dave under /mnt/c/Users (WSL), and root. It
// returns the root and a folder outside it that links point to.
func fakeRoot(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	put(t, outside, "secret.txt", outsideSecret)
	put(t, outside, "dir/inner.json", outsideSecret)
	put(t, root, "etc/hostname", "imagehost\n")
	put(t, root, "etc/os-release", "NAME=Test\nPRETTY_NAME=\"Test Linux 1\"\n")
	put(t, root, "etc/passwd", strings.Join([]string{
		"root:x:0:0:root:/root:/bin/bash",
		"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin",
		"alice:x:1000:1000::/home/alice:/bin/bash",
		"bob:x:1001:1001::/home/bob:/bin/bash",
		"svc:x:998:998::/srv/svc:/usr/sbin/nologin",
		"ghost:x:1002:1002::/home/ghost:/bin/bash", // no such directory
	}, "\n")+"\n")

	// alice: Claude Code transcripts naming a project, odd names, links, a FIFO.
	p := "home/alice/.claude/projects/-home-alice-proj/"
	put(t, root, p+"sess1.jsonl", aliceCwd)
	put(t, root, p+"name with spaces.jsonl", `{"n":1}`+"\n")
	put(t, root, p+"new\nline.jsonl", `{"n":2}`+"\n")
	put(t, root, p+"bad\xffutf8.jsonl", `{"n":3}`+"\n")
	put(t, root, p+"100%\\x.jsonl", `{"n":4}`+"\n")
	symlink(t, "loop-b.jsonl", root, p+"loop-a.jsonl")
	symlink(t, "loop-a.jsonl", root, p+"loop-b.jsonl")
	symlink(t, ".", root, p+"selfdir")
	symlink(t, filepath.Join(outside, "secret.txt"), root, p+"escape.jsonl")
	symlink(t, filepath.Join(outside, "dir"), root, p+"escdir.jsonl")
	symlink(t, "../../../../../../../../../../"+filepath.ToSlash(outside)+"/secret.txt", root, p+"climb.jsonl")
	symlink(t, filepath.Join(outside, "dir"), root, "home/alice/.claude/todos")
	if err := syscall.Mkfifo(filepath.Join(root, p+"pipe.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	put(t, root, "home/alice/.claude/.credentials.json", `{"token":"s3cret"}`)
	put(t, root, "home/alice/.claude/settings.json", `{"permissions":{}}`)
	put(t, root, "home/alice/proj/CLAUDE.md", "# project rules\n")
	put(t, root, "home/alice/proj/.mcp.json", `{"mcpServers":{}}`)
	put(t, root, "home/alice/proj/README.md", "not an agent file\n")
	put(t, root, "home/alice/.claude/plugins/node_modules/pkg/index.js", strings.Repeat("x", 1000))

	// bob: Codex, and n8n's SQLite store with a live WAL.
	put(t, root, "home/bob/.codex/sessions/2026/01/01/rollout-1.jsonl", `{"type":"session_meta","payload":{"cwd":"/home/bob"}}`+"\n")
	put(t, root, "home/bob/.n8n/database.sqlite", sqliteHeader+strings.Repeat("\x00", 4080))
	put(t, root, "home/bob/.n8n/database.sqlite-wal", "WAL-FRAMES")
	put(t, root, "home/bob/.n8n/database.sqlite-shm", "SHM")

	// svc: a home outside /home, known from passwd only.
	put(t, root, "srv/svc/.claude/history.jsonl", `{"display":"svc"}`+"\n")

	// carol: a Windows profile (C:\Users\carol) on the image.
	put(t, root, "Users/carol/AppData/Local/Claude/local-agent-mode-sessions/s1/local_1.json", `{"cwd":"C:\\Users\\carol\\work","title":"t"}`)
	put(t, root, "Users/carol/work/AGENTS.md", "# agents\n")
	put(t, root, "Users/Public/.claude/history.jsonl", "{}\n") // skipped profile

	// dave: a Windows profile seen from WSL.
	put(t, root, "mnt/c/Users/dave/.claude/history.jsonl", `{"display":"dave"}`+"\n")

	// root's own home.
	put(t, root, "root/.claude/history.jsonl", `{"display":"root"}`+"\n")

	// A Docker named volume of n8n, with its store and WAL, and one of nothing known.
	put(t, root, "var/lib/docker/volumes/stack_n8n_data/_data/database.sqlite", sqliteHeader+"volume")
	put(t, root, "var/lib/docker/volumes/stack_n8n_data/_data/database.sqlite-wal", "VOLUME-WAL")
	put(t, root, "var/lib/docker/volumes/other_data/_data/x.json", "{}")
	return root, outside
}

func TestCollectFakeRoot(t *testing.T) {
	root, outside := fakeRoot(t)
	var ticks int
	b, res, err := run(t, context.Background(), Options{Root: root, Case: "CASE-1", Examiner: "E. Xaminer",
		Progress: func(Progress) { ticks++ }})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	hdr, vr := verify(t, b, bundle.ProblemRowError)
	if !vr.Complete || vr.Summary == nil || !vr.Summary.Complete {
		t.Fatalf("bundle not complete: %+v", vr.Summary)
	}
	rows := vr.Manifest
	checkRows(t, root, rows)
	m := byPath(rows)

	// Header.
	if !hdr.RootMode || hdr.Root != root || hdr.Host.Hostname != "imagehost" || hdr.Host.OS != "linux" || hdr.Host.OSVersion != "Test Linux 1" {
		t.Errorf("header: %+v", hdr)
	}
	if hdr.Host.Case != "CASE-1" || hdr.Host.Examiner != "E. Xaminer" || len(hdr.Host.CommandLine) != 3 || hdr.StartedUTC == "" {
		t.Errorf("header case/examiner/command line: %+v", hdr.Host)
	}

	// Homes from every source.
	src := map[string]string{}
	for _, h := range res.Homes {
		src[h.User+" "+h.Orig] = h.Source
		if !within(h.Dir, root) {
			t.Errorf("home %s outside the root", h.Dir)
		}
	}
	for _, want := range []string{"alice /home/alice", "bob /home/bob", "svc /srv/svc", "carol /Users/carol", "dave /mnt/c/Users/dave", "root /root"} {
		if src[want] == "" {
			t.Errorf("home %q not found; homes: %v", want, src)
		}
	}
	if src["svc /srv/svc"] != "passwd" || src["dave /mnt/c/Users/dave"] != "wsl" || src["carol /Users/carol"] != "users-dir" {
		t.Errorf("home sources: %v", src)
	}
	for k := range src {
		if strings.Contains(k, "Public") || strings.Contains(k, "ghost") {
			t.Errorf("home %q should not be listed", k)
		}
	}

	// One artifact per home.
	for path, user := range map[string]string{
		"/home/alice/.claude/projects/-home-alice-proj/sess1.jsonl":                   "alice",
		"/home/bob/.codex/sessions/2026/01/01/rollout-1.jsonl":                        "bob",
		"/srv/svc/.claude/history.jsonl":                                              "svc",
		"/Users/carol/AppData/Local/Claude/local-agent-mode-sessions/s1/local_1.json": "carol",
		"/mnt/c/Users/dave/.claude/history.jsonl":                                     "dave",
		"/root/.claude/history.jsonl":                                                 "root",
	} {
		e := rowOf(t, m, path)
		if e.Status != bundle.StatusCollected || e.User != user {
			t.Errorf("%s: status %s user %q, want collected by %s", path, e.Status, e.User, user)
		}
	}
	if e := rowOf(t, m, "/Users/carol/AppData/Local/Claude/local-agent-mode-sessions/s1/local_1.json"); e.Agent != "claude-desktop" || e.Home != "/Users/carol" {
		t.Errorf("carol's Windows session: %+v", e)
	}

	// Odd names: escaped in path and member name, raw bytes in path_b64.
	p := "/home/alice/.claude/projects/-home-alice-proj/"
	for raw, esc := range map[string]string{
		p + "new\nline.jsonl":        p + "new%0Aline.jsonl",
		p + "bad\xffutf8.jsonl":      p + "bad%FFutf8.jsonl",
		p + "100%\\x.jsonl":          p + "100%25%5Cx.jsonl",
		p + "name with spaces.jsonl": p + "name with spaces.jsonl",
	} {
		e := rowOf(t, m, esc)
		wantB64 := ""
		if raw != esc {
			wantB64 = base64.StdEncoding.EncodeToString([]byte(raw))
		}
		if e.PathB64 != wantB64 || e.Status != bundle.StatusCollected || !archiveNameOK(e.ArchivePath, raw) || !strings.HasPrefix(e.ArchivePath, "files/home/alice/") {
			t.Errorf("%q: path_b64 %q archive %q status %s", raw, e.PathB64, e.ArchivePath, e.Status)
		}
		if !vr.Verified[e.ArchivePath] {
			t.Errorf("%q: member not verified by the reader", raw)
		}
	}

	// Links: each refused by the link policy, recorded with its target
	// and why; none followed.
	missing := "not followed: its target does not exist inside --root (an absolute target is taken relative to the root)"
	for name, want := range map[string][2]string{
		"loop-a.jsonl": {"loop-b.jsonl", "not followed: a loop of links (more than 40 links in one chain)"},
		"loop-b.jsonl": {"loop-a.jsonl", "not followed: a loop of links (more than 40 links in one chain)"},
		"selfdir":      {".", "not followed: a loop: its target /home/alice/.claude/projects/-home-alice-proj holds /home/alice/.claude/projects/-home-alice-proj, already on the way"},
		"escape.jsonl": {filepath.Join(outside, "secret.txt"), missing},
		"escdir.jsonl": {filepath.Join(outside, "dir"), missing},
		"climb.jsonl":  {"../../../../../../../../../../" + filepath.ToSlash(outside) + "/secret.txt", missing},
		"../../todos":  {filepath.Join(outside, "dir"), missing},
	} {
		e := rowOf(t, m, filepath.Clean(p+name))
		msg := "link to \"" + want[0] + "\" " + want[1]
		if e.Status != bundle.StatusSymlink || e.LinkTarget != want[0] || e.Type != "symlink" || e.LinkFollowed || e.Error != msg {
			t.Errorf("%s: %s %q %s followed=%v error %q, want a refused symlink row %q", name, e.Status, e.LinkTarget, e.Type, e.LinkFollowed, e.Error, msg)
		}
	}
	if len(vr.Problems) != 7 {
		t.Errorf("want 7 row_error problems, one per refused link: %v", vr.Problems)
	}
	for _, e := range rows {
		if strings.Contains(e.Path, "secret.txt") && e.Status != bundle.StatusSymlink || strings.Contains(e.Path, "inner.json") || strings.HasPrefix(e.Path, filepath.ToSlash(outside)) {
			t.Errorf("a path outside the root was collected: %+v", e)
		}
	}
	if bytes.Contains(decompress(t, b), []byte(outsideSecret)) {
		t.Error("content from outside the root is in the bundle")
	}

	// The FIFO is recorded, never opened.
	if e := rowOf(t, m, p+"pipe.jsonl"); e.Status != bundle.StatusSkippedSpecial || e.Type != "fifo" {
		t.Errorf("FIFO row: %+v", e)
	}
	// An excluded folder: one row with its size.
	if e := rowOf(t, m, "/home/alice/.claude/plugins/node_modules"); e.Status != bundle.StatusSkippedExcluded || e.Size != 1000 || e.Type != "dir" {
		t.Errorf("excluded folder row: %+v", e)
	}
	// Secrets are collected and flagged by default.
	if e := rowOf(t, m, "/home/alice/.claude/.credentials.json"); e.Status != bundle.StatusCollected || !e.Secret || e.Kind != "secret" {
		t.Errorf("secret row: %+v", e)
	}

	// SQLite stores travel with their sidecars, one after the other.
	checkSQLite(t, rows, "/home/bob/.n8n/database.sqlite", "-shm", "-wal")
	checkSQLite(t, rows, "/var/lib/docker/volumes/stack_n8n_data/_data/database.sqlite", "-wal")
	if e := rowOf(t, m, "/var/lib/docker/volumes/stack_n8n_data/_data/database.sqlite"); e.Agent != "n8n" || e.Target != "volume" {
		t.Errorf("volume row: %+v", e)
	}
	if _, ok := m["/var/lib/docker/volumes/other_data/_data/x.json"]; ok {
		t.Error("a volume no agent names was collected")
	}

	// Project artifacts from the folders the state names.
	for _, path := range []string{"/home/alice/proj/CLAUDE.md", "/home/alice/proj/.mcp.json", "/Users/carol/work/AGENTS.md"} {
		e := rowOf(t, m, path)
		if e.Status != bundle.StatusCollected || e.Target != "project" {
			t.Errorf("project artifact %s: %+v", path, e)
		}
	}
	if e := m["/home/alice/proj/CLAUDE.md"]; e.User != "alice" || e.Agent != "claude-code" || e.Kind != "settings" {
		t.Errorf("project CLAUDE.md: %+v", e)
	}
	if _, ok := m["/home/alice/proj/README.md"]; ok {
		t.Error("a project file no agent names was collected")
	}

	// The summary: counts per status, bytes, and progress after every row.
	s := vr.Summary
	counts := map[string]int{}
	var bytesCollected int64
	for _, e := range rows {
		counts[e.Status]++
		if e.Status == bundle.StatusCollected {
			bytesCollected += e.Size
		}
	}
	for k, v := range counts {
		if s.Counts[k] != v {
			t.Errorf("summary count %s = %d, rows say %d", k, s.Counts[k], v)
		}
	}
	if s.BytesCollected != bytesCollected || s.Files != counts[bundle.StatusCollected] || s.EndedUTC == "" {
		t.Errorf("summary %+v; rows: %d bytes, %d files", s, bytesCollected, counts[bundle.StatusCollected])
	}
	if ticks != len(rows) {
		t.Errorf("progress called %d times for %d rows", ticks, len(rows))
	}
	if len(vr.Log) == 0 || !bytes.Contains(vr.Log, []byte("collection ended")) {
		t.Errorf("log.jsonl: %q", vr.Log)
	}
}

// checkSQLite asserts the store's row is directly followed by its sidecars
// (in catalog order), each pointing at it.
func checkSQLite(t *testing.T, rows []bundle.Entry, store string, sidecars ...string) {
	t.Helper()
	for i, e := range rows {
		if e.Path != store {
			continue
		}
		if e.Status != bundle.StatusCollected {
			t.Errorf("%s: %s", store, e.Status)
		}
		got := []string{}
		for _, s := range rows[i+1:] {
			if s.SidecarOf != store {
				break
			}
			got = append(got, strings.TrimPrefix(s.Path, store))
			if s.Status != bundle.StatusCollected || s.Agent != e.Agent || s.Target != e.Target {
				t.Errorf("sidecar %s: %+v", s.Path, s)
			}
		}
		// catalog.Sidecars order is -wal, -shm, -journal.
		want := []string{}
		for _, s := range []string{"-wal", "-shm", "-journal"} {
			for _, x := range sidecars {
				if x == s {
					want = append(want, s)
				}
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: sidecars following it %v, want %v", store, got, want)
		}
		return
	}
	t.Errorf("no row for %s", store)
}

func TestNoSecretsMaxSizeFull(t *testing.T) {
	root, _ := fakeRoot(t)
	put(t, root, "home/alice/.claude/history.jsonl", strings.Repeat("h", 5000))
	put(t, root, "home/bob/.n8n/database.sqlite", sqliteHeader+strings.Repeat("\x00", 5000))
	b, _, err := run(t, context.Background(), Options{Root: root, NoSecrets: true, MaxFileSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	if e := rowOf(t, m, "/home/alice/.claude/.credentials.json"); e.Status != bundle.StatusSkippedSecret || !e.Secret || e.Size != int64(len(`{"token":"s3cret"}`)) {
		t.Errorf("--no-secrets: %+v", e)
	}
	if e := rowOf(t, m, "/home/alice/.claude/history.jsonl"); e.Status != bundle.StatusSkippedSize || e.Size != 5000 || e.Error == "" {
		t.Errorf("--max-file-size: %+v", e)
	}
	// A store over the limit: its sidecars are not copied either, but recorded.
	if e := rowOf(t, m, "/home/bob/.n8n/database.sqlite"); e.Status != bundle.StatusSkippedSize {
		t.Errorf("store over the limit: %+v", e)
	}
	if e := rowOf(t, m, "/home/bob/.n8n/database.sqlite-wal"); e.Status != bundle.StatusSkippedSize || e.SidecarOf != "/home/bob/.n8n/database.sqlite" {
		t.Errorf("sidecar of a store over the limit: %+v", e)
	}
	if bytes.Contains(decompress(t, b), []byte("s3cret")) {
		t.Error("--no-secrets: the secret's content is in the bundle")
	}

	b, _, err = run(t, context.Background(), Options{Root: root, MaxFileSize: 4096, Full: true})
	if err != nil {
		t.Fatal(err)
	}
	_, vr = verify(t, b, bundle.ProblemRowError)
	m = byPath(vr.Manifest)
	if e := rowOf(t, m, "/home/alice/.claude/history.jsonl"); e.Status != bundle.StatusCollected || e.Size != 5000 {
		t.Errorf("--full: %+v", e)
	}
	for _, e := range vr.Manifest {
		if e.Status == bundle.StatusSkippedSize {
			t.Errorf("--full left %s skipped", e.Path)
		}
	}
}

func TestUsers(t *testing.T) {
	root, _ := fakeRoot(t)
	b, res, err := run(t, context.Background(), Options{Root: root, Users: []string{"bob", "svc"}})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b)
	checkRows(t, root, vr.Manifest)
	if len(res.Homes) != 2 {
		t.Errorf("homes: %+v", res.Homes)
	}
	users := map[string]int{}
	for _, e := range vr.Manifest {
		users[e.User]++
	}
	if users["bob"] == 0 || users["svc"] == 0 || len(users) != 2 {
		t.Errorf("rows per user with --users bob,svc: %v", users)
	}

	// A user asked for whom no home is found is said, not passed over:
	// the examiner may have mistyped the account name.
	b, res, err = run(t, context.Background(), Options{Root: root, Users: []string{"bob", "nobody"}})
	if err != nil {
		t.Fatal(err)
	}
	_, vr = verify(t, b)
	if len(res.Homes) != 1 {
		t.Errorf("homes: %+v", res.Homes)
	}
	for _, want := range []string{`{"level":"warn","user":"nobody",`, `"message":"--users names an account with no home found on this host: nothing collected for it"}`} {
		if !bytes.Contains(vr.Log, []byte(want)) {
			t.Errorf("log.jsonl has no %s:\n%s", want, vr.Log)
		}
	}
}

func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which reads a mode-000 file: scripts/test-unprivileged.sh covers this as user nobody")
	}
	root, _ := fakeRoot(t)
	f := put(t, root, "home/alice/.claude/settings.local.json", "{}")
	d := filepath.Join(root, "home/alice/.claude/sessions")
	put(t, root, "home/alice/.claude/sessions/a.json", "{}")
	if err := os.Chmod(f, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(d, 0o755) })
	b, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError) // each unreadable path is a warning
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	if e := rowOf(t, m, "/home/alice/.claude/settings.local.json"); e.Status != bundle.StatusErrorRead || e.Error != "open: permission denied" || e.MTime == "" {
		t.Errorf("unreadable file: %+v", e)
	}
	// The cause once, without the walked path (under --root it holds the
	// examiner's mount point): the row names its path.
	if e := rowOf(t, m, "/home/alice/.claude/sessions"); e.Status != bundle.StatusErrorRead || e.Type != "dir" || e.Error != "open: permission denied" {
		t.Errorf("unreadable folder: %+v", e)
	}
}

func TestChangedDuringCopy(t *testing.T) {
	root, _ := fakeRoot(t)
	target := put(t, root, "home/alice/.claude/history.jsonl", `{"n":0}`+"\n")
	settles := put(t, root, "home/alice/.claude/settings.local.json", `{"a":1}`)
	appendTo := func(p, s string) {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		f.WriteString(s)
		f.Close()
	}
	reads := map[string]int{}
	opts := Options{Root: root, Retries: 3, afterRead: func(path string, try int) {
		reads[path]++
		switch path {
		case target: // a writer that never stops
			appendTo(target, `{"n":1}`+"\n")
		case settles: // one write during the first read, then quiet
			if try == 0 {
				appendTo(settles, " ")
			}
		}
	}}
	b, _, err := run(t, context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemChanged, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	var changed []string
	for _, p := range vr.Problems {
		if p.Kind == bundle.ProblemChanged {
			changed = append(changed, p.String())
		}
	}
	if len(changed) != 1 || changed[0] != "changed_during_copy /home/alice/.claude/history.jsonl: the file kept changing while it was copied: its content may be torn or padded" {
		t.Errorf("problems %v", vr.Problems)
	}
	if e := rowOf(t, m, "/home/alice/.claude/history.jsonl"); !e.ChangedDuringCopy || e.Status != bundle.StatusCollected || reads[target] != 3 {
		t.Errorf("growing file: read %d times, row %+v", reads[target], e)
	}
	e := rowOf(t, m, "/home/alice/.claude/settings.local.json")
	final, _ := os.ReadFile(settles)
	if e.ChangedDuringCopy || reads[settles] != 2 || e.SHA256 != sha(final) || e.Size != int64(len(final)) {
		t.Errorf("file that settled: read %d times, row %+v (want the settled content %q)", reads[settles], e, final)
	}
	if !bytes.Contains(vr.Log, []byte("changed_during_copy")) {
		t.Error("no log line about the changing file")
	}
}

func TestVanished(t *testing.T) {
	root, _ := fakeRoot(t)
	gone := filepath.Join(root, "home/alice/.claude/settings.json")
	b, _, err := run(t, context.Background(), Options{Root: root, beforeCopy: func(p string) {
		if p == gone {
			os.Remove(p)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	if e := rowOf(t, byPath(vr.Manifest), "/home/alice/.claude/settings.json"); e.Status != bundle.StatusVanished || e.Error != "no such file or directory" || e.Type != "file" {
		t.Errorf("vanished file: %+v", e)
	}
}

func TestInterrupted(t *testing.T) {
	root, _ := fakeRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, res, err := run(t, ctx, Options{Root: root, Progress: func(p Progress) {
		if p.Files >= 3 {
			cancel()
		}
	}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run returned %v, want ErrInterrupted", err)
	}
	_, vr := verify(t, b, bundle.ProblemIncomplete)
	checkRows(t, root, vr.Manifest)
	if vr.Summary == nil || vr.Summary.Complete || vr.Summary.Reason != "interrupted" || vr.Complete {
		t.Fatalf("summary of an interrupted run: %+v", vr.Summary)
	}
	if vr.Summary.Files != 3 || res.Summary.Files != 3 || len(vr.Verified) != 3 {
		t.Errorf("interrupted after 3 files: summary %+v, %d verified", vr.Summary, len(vr.Verified))
	}
	found := false
	for _, p := range vr.Problems {
		found = found || p.Kind == bundle.ProblemIncomplete
	}
	if !found {
		t.Error("the reader does not report the bundle as incomplete")
	}
}

func TestSymlinkedSidecarAndStore(t *testing.T) {
	root, outside := fakeRoot(t)
	os.Remove(filepath.Join(root, "home/bob/.n8n/database.sqlite-wal"))
	symlink(t, filepath.Join(outside, "secret.txt"), root, "home/bob/.n8n/database.sqlite-wal")
	if err := syscall.Mkfifo(filepath.Join(root, "home/bob/.n8n/database.sqlite-journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	store := "/home/bob/.n8n/database.sqlite"
	if e := rowOf(t, m, store+"-wal"); e.Status != bundle.StatusSymlink || e.SidecarOf != store || e.LinkTarget != filepath.Join(outside, "secret.txt") ||
		e.Error != `link to "`+filepath.Join(outside, "secret.txt")+`" not followed: a SQLite side file is read only beside its store, never through a link` {
		t.Errorf("linked WAL: %+v", e)
	}
	if e := rowOf(t, m, store+"-journal"); e.Status != bundle.StatusSkippedSpecial || e.Type != "fifo" || e.SidecarOf != store {
		t.Errorf("FIFO journal: %+v", e)
	}
	if bytes.Contains(decompress(t, b), []byte(outsideSecret)) {
		t.Error("a linked sidecar was followed")
	}
}

func TestFullDisk(t *testing.T) {
	root, _ := fakeRoot(t)
	// Incompressible content, so the compressor must write as it goes.
	pcg := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 8; i++ {
		rnd := make([]byte, 300<<10)
		for j := range rnd {
			rnd[j] = byte(pcg.Uint32())
		}
		put(t, root, "home/alice/.claude/paste-cache/"+string(rune('a'+i))+".txt", string(rnd))
	}
	fw := &failWriter{left: 1 << 20}
	res, err := Run(context.Background(), fw, Options{Root: root})
	if !errors.Is(err, ErrWrite) || !errors.Is(err, errNoSpace) {
		t.Fatalf("Run returned %v, want a write error wrapping ENOSPC", err)
	}
	if !strings.Contains(err.Error(), "no space left") || res == nil || res.Summary.Complete {
		t.Errorf("error %q, summary %+v", err, res.Summary)
	}
	br, err := bundle.Open(bytes.NewReader(fw.buf.Bytes()), nil)
	if err != nil {
		t.Fatalf("the partial bundle does not open: %v", err)
	}
	var names []string
	for {
		mb, err := br.Next()
		if err != nil {
			break
		}
		names = append(names, mb.Name)
	}
	r := br.Result()
	// Every member's header has a zstd block of its own: the member the
	// disk filled in is returned too, its bytes short, and named.
	if len(names) < 2 || r.Members != len(names)-1 || !r.Truncated {
		t.Fatalf("partial bundle: %d members read (%v), %d whole, truncated=%v", len(names), names, r.Members, r.Truncated)
	}
	kinds := map[string]bool{}
	var cut []bundle.Problem
	for _, p := range r.Problems {
		kinds[p.Kind] = true
		if p.Kind == bundle.ProblemTruncated {
			cut = append(cut, p)
		}
	}
	if !kinds[bundle.ProblemNoManifest] || len(cut) != 1 || cut[0].Member != names[len(names)-1] ||
		!strings.HasPrefix(cut[0].Msg, "bundle cut short or corrupt inside this member after ") {
		t.Errorf("problems of a partial bundle: %v", r.Problems)
	}
}

var errNoSpace = syscall.ENOSPC

// failWriter accepts left bytes, then fails like a full disk.
type failWriter struct {
	buf  bytes.Buffer
	left int
}

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.buf.Write(p[:n])
		w.left = 0
		return n, &os.PathError{Op: "write", Path: "/out/bundle.tar.zst", Err: errNoSpace}
	}
	w.left -= len(p)
	return w.buf.Write(p)
}

func decompress(t *testing.T, b []byte) []byte {
	t.Helper()
	br, err := bundle.Open(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for {
		m, err := br.Next()
		if err != nil {
			break
		}
		all.ReadFrom(m)
	}
	br.Result()
	return all.Bytes()
}

// TestParentSwappedForALink: a folder on the way to a walked file swapped
// for a link after the walk and before the copy (a race a user can run
// against a collector working as root) was read through: the link's
// target was collected as alice's settings.json, verified. The file is
// opened from the root one folder at a time, never through a link: the
// row is error_read, saying why, and nothing behind the link is read.
func TestParentSwappedForALink(t *testing.T) {
	root, outside := fakeRoot(t)
	target := filepath.Join(root, "home/alice/.claude/settings.json")
	put(t, outside, "swap/settings.json", "ROOT-ONLY SECRET\n")
	swapped := false
	b, _, err := run(t, context.Background(), Options{Root: root, beforeCopy: func(p string) {
		if p == target && !swapped {
			swapped = true
			dir := filepath.Join(root, "home/alice/.claude")
			if err := os.Rename(dir, dir+".moved"); err != nil {
				t.Error(err)
			}
			if err := os.Symlink(filepath.Join(outside, "swap"), dir); err != nil {
				t.Error(err)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	if !swapped {
		t.Fatal("the file was never copied")
	}
	e := rowOf(t, byPath(vr.Manifest), "/home/alice/.claude/settings.json")
	if e.Status != bundle.StatusErrorRead || !strings.HasSuffix(e.Error, "a folder on the way is no longer a folder (a link swapped in since the walk?): not followed") || e.SHA256 != "" {
		t.Errorf("read through a link swapped in on the way: %+v", e)
	}
	for _, r := range vr.Manifest {
		if r.SHA256 == sha([]byte("ROOT-ONLY SECRET\n")) {
			t.Errorf("the bundle holds the file behind the link: %+v", r)
		}
	}
}

// TestUnlistableHomesFolder: a /home the collector's account cannot list
// is an error_read row naming why (before: a log line only), and the home
// /etc/passwd names under it is still walked. Needs an unprivileged user:
// scripts/test-unprivileged.sh runs it as nobody.
func TestUnlistableHomesFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which lists a mode-000 folder: scripts/test-unprivileged.sh runs this as user nobody")
	}
	root, _ := fakeRoot(t)
	put(t, root, "Users/bob/.claude/history.jsonl", `{"display":"x"}`+"\n")
	d := filepath.Join(root, "home")
	if err := os.Chmod(d, 0o311); err != nil { // traversable, not listable
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(d, 0o755) })
	b, _, err := run(t, context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	m := byPath(vr.Manifest)
	want := "homes folder could not be listed whole (0 entries read): permission denied (the collector's account cannot list it): homes under it are found only through /etc/passwd"
	if e := rowOf(t, m, "/home"); e.Status != bundle.StatusErrorRead || e.Type != "dir" || e.Error != want {
		t.Errorf("/home: %+v, want error_read %q", e, want)
	}
	if e := rowOf(t, m, "/Users/bob/.claude/history.jsonl"); e.Status != bundle.StatusCollected {
		t.Errorf("the readable home: %+v", e)
	}
}
