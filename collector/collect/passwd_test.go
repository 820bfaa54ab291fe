//go:build unix

package collect

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// logLines parses a bundle's log.jsonl into maps.
func logLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// findLog returns the first log line with message msg, or nil.
func findLog(lines []map[string]any, msg string) map[string]any {
	for _, l := range lines {
		if l["message"] == msg {
			return l
		}
	}
	return nil
}

// TestPasswdEdges: every way /etc/passwd cannot be read is logged, in the
// bundle's log and on the log writer (stderr), naming passwd, the error and
// a link's target; the folder listing still finds /home/alice and says how
// many homes it gave.
func TestPasswdEdges(t *testing.T) {
	for _, tc := range []struct {
		name, level, msg, err, link string
		setup                       func(t *testing.T, root string)
	}{
		{"link to /dev/zero", "warn", "/etc/passwd could not be read: homes outside /home, /Users and /root are not found", "no such file or directory", "/dev/zero",
			func(t *testing.T, root string) { symlink(t, "/dev/zero", root, "etc/passwd") }},
		{"link loop", "warn", "/etc/passwd could not be read: homes outside /home, /Users and /root are not found", "too many levels of symbolic links", "passwd",
			func(t *testing.T, root string) { symlink(t, "passwd", root, "etc/passwd") }},
		{"fifo", "warn", "/etc/passwd could not be read: homes outside /home, /Users and /root are not found", "/etc/passwd: not a regular file", "",
			func(t *testing.T, root string) {
				os.MkdirAll(filepath.Join(root, "etc"), 0o755)
				if err := syscall.Mkfifo(filepath.Join(root, "etc/passwd"), 0o644); err != nil {
					t.Skip(err)
				}
			}},
		{"directory", "warn", "/etc/passwd could not be read: homes outside /home, /Users and /root are not found", "/etc/passwd: not a regular file", "",
			func(t *testing.T, root string) { os.MkdirAll(filepath.Join(root, "etc/passwd"), 0o755) }},
		{"unreadable", "warn", "/etc/passwd could not be read: homes outside /home, /Users and /root are not found", "permission denied", "",
			func(t *testing.T, root string) {
				if os.Geteuid() == 0 {
					t.Skip("root reads a mode-000 file")
				}
				p := put(t, root, "etc/passwd", "x:x:1:1::/srv/x:/bin/sh\n")
				os.Chmod(p, 0)
			}},
		{"missing", "info", "no /etc/passwd: homes are listed from the folders only", "no such file or directory", "", func(t *testing.T, root string) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			put(t, root, "home/alice/.claude/history.jsonl", "{}\n")
			tc.setup(t, root)
			var stderr bytes.Buffer
			b, _, err := run(t, t.Context(), Options{Root: root, LogWriter: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			_, vr := verify(t, b)
			lines := logLines(t, vr.Log)
			l := findLog(lines, tc.msg)
			if l == nil {
				t.Fatalf("no log line %q:\n%s", tc.msg, vr.Log)
			}
			if l["level"] != tc.level || l["source"] != "passwd" || !strings.Contains(l["error"].(string), tc.err) {
				t.Errorf("log line %v: want level %s, source passwd, error %q", l, tc.level, tc.err)
			}
			if lt, _ := l["link_target"].(string); lt != tc.link {
				t.Errorf("link_target %q, want %q", lt, tc.link)
			}
			if !strings.Contains(stderr.String(), tc.msg) {
				t.Errorf("not on stderr: %s", stderr.String())
			}
			h := findLog(lines, "homes listed from the folder")
			if h == nil || h["dir"] != "/home" || h["entries"] != 1.0 || h["new_homes"] != 1.0 {
				t.Errorf("/home listing log: %v", h)
			}
			rowOf(t, byPath(vr.Manifest), "/home/alice/.claude/history.jsonl")
		})
	}
}

// TestPasswdSlashHome: a home of "/" (a container's user) is walked once,
// as the first account with a login shell naming it, and /.claude is
// collected; the passwd log line counts lines, accounts and homes.
func TestPasswdSlashHome(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "nobody:x:65534:65534::/:/sbin/nologin\ndbus:x:81:81::/:/usr/sbin/nologin\nnode:x:1000:1000::/:/bin/bash\nsvc:x:999:999::/nonexistent:/bin/false\nbob:x:1001:1001::/srv/bob:/bin/sh\n")
	put(t, root, ".claude/history.jsonl", `{"display":"in a container"}`+"\n")
	put(t, root, "srv/bob/.codex/history.jsonl", "{}\n")
	b, res, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b)
	e := rowOf(t, byPath(vr.Manifest), "/.claude/history.jsonl")
	if e.User != "node" || e.Home != "/" || e.Status != "collected" {
		t.Errorf("row %+v", e)
	}
	rowOf(t, byPath(vr.Manifest), "/srv/bob/.codex/history.jsonl")
	var users []string
	for _, h := range res.Homes {
		users = append(users, h.User+"="+h.Orig)
	}
	if got := strings.Join(users, " "); got != "bob=/srv/bob node=/" {
		t.Errorf("homes %s", got)
	}
	lines := logLines(t, vr.Log)
	l := findLog(lines, "homes read from /etc/passwd")
	if l == nil || l["lines"] != 5.0 || l["accounts"] != 5.0 || l["new_homes"] != 2.0 || l["placeholder_homes"] != 1.0 {
		t.Errorf("passwd log: %v", l)
	}
	l = findLog(lines, "home / is walked once (container users keep /.claude)")
	if l == nil || l["walked_as"] != "node" || strings.Join(anyStrings(l["accounts"]), ",") != "nobody,dbus,node" {
		t.Errorf("slash log: %v", l)
	}
}

// TestUsersLogged: --users says which homes it kept and which names it
// did not find.
func TestUsersLogged(t *testing.T) {
	root := t.TempDir()
	put(t, root, "home/alice/.claude/history.jsonl", "{}\n")
	put(t, root, "home/bob/.claude/history.jsonl", "{}\n")
	b, _, err := run(t, t.Context(), Options{Root: root, Users: []string{"alice", "mallory"}})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b)
	l := findLog(logLines(t, vr.Log), "homes kept by --users")
	if l == nil || l["homes_kept"] != 1.0 || strings.Join(anyStrings(l["not_found"]), ",") != "mallory" || strings.Join(anyStrings(l["users"]), ",") != "alice,mallory" {
		t.Errorf("--users log: %v", l)
	}
}

func anyStrings(v any) []string {
	a, _ := v.([]any)
	var out []string
	for _, x := range a {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
