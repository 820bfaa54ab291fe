//go:build unix

package collect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// rowKey is what --inventory and a collection must agree on for a row.
func rowKey(e bundle.Entry) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s|link=%s|followed=%v|via=%s|real=%s|sidecar=%s|size=%d|err=%s|found_via=%s",
		e.Path, e.Status, e.Type, e.User, e.Home, e.Agent, e.Target, e.Kind, e.LinkTarget, e.LinkFollowed, e.ViaLink, e.RealPath, e.SidecarOf, e.Size, e.Error, e.FoundVia)
}

// agreeRows runs a collection and --inventory's walk with opts and fails
// unless both give the same rows, in the same order.
func agreeRows(t *testing.T, opts Options) []bundle.Entry {
	t.Helper()
	b, _, err := run(t, t.Context(), opts)
	if err != nil && !errors.Is(err, ErrNoHome) {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError, bundle.ProblemLinkOutsideHomes)
	_, _, tl, err := inventoryWalk(t.Context(), opts, true)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, e := range vr.Manifest {
		want = append(want, rowKey(e))
	}
	for _, e := range tl.rows {
		got = append(got, rowKey(e))
	}
	if !slices.Equal(got, want) {
		t.Errorf("--inventory and the collection disagree:\n--inventory:\n%s\ncollection:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return vr.Manifest
}

// TestInventoryAgreesWithCollection: over every fixture root, --inventory
// walks exactly the paths a collection records, with the same statuses,
// and its files and bytes per user and agent are the collection's
// collected rows.
func TestInventoryAgreesWithCollection(t *testing.T) {
	roots, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "roots", "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range roots {
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(r), func(t *testing.T) {
			abs, _ := filepath.Abs(r)
			man := agreeRows(t, Options{Root: abs})
			var out bytes.Buffer
			if err := Inventory(&out, Options{Root: abs}); err != nil {
				t.Fatal(err)
			}
			type tot struct {
				files int
				bytes int64
			}
			want, got := map[string]tot{}, map[string]tot{}
			for _, e := range man {
				if e.Agent != "" && e.Status == bundle.StatusCollected {
					k := e.Home + "|" + e.User + "|" + e.Agent
					w := want[k]
					w.files++
					w.bytes += e.Size
					want[k] = w
				}
			}
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
				var row InventoryRow
				if err := json.Unmarshal([]byte(l), &row); err != nil {
					t.Fatal(err)
				}
				if row.Files > 0 {
					got[row.Home+"|"+row.User+"|"+row.Agent] = tot{row.Files, row.Bytes}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("files and bytes per home, user and agent:\n got %v\nwant %v", got, want)
			}
			if len(want) == 0 {
				t.Error("the fixture root gave no collected file")
			}
		})
	}
	// A root is added, never removed: fewer than the 13 of this commit
	// means the glob missed them, not that there is nothing to compare.
	if n < 13 {
		t.Errorf("%d fixture roots, want at least 13 (fixtures/roots)", n)
	}
}

// TestInventoryAgreesOnAHostileHome: links (a planted link to a root-owned
// file outside every home, the owner's data disk, a dangling link, a link
// to a FIFO), a relocated config folder, an empty agent folder, a file
// over the size limit, a secret under --no-secrets, an agent seen only as
// a dangling link (present, nothing collected), a relocated folder named
// but not there (an error_read row with found_via) and --users: the
// inventory's rows are the collection's, and its lines say so exactly.
func TestInventoryAgreesOnAHostileHome(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "alice:x:1000:1000::/home/alice:/bin/bash\nbob:x:1001:1001::/home/bob:/bin/bash\n")
	put(t, root, "etc/hostname", "hostile\n")
	put(t, root, "etc/shadow", "root:$6$SHADOWSECRET:19000:0:99999:7:::\n")
	symlink(t, "/etc/shadow", root, "home/alice/.claude/settings.json")
	put(t, root, "data/cc/-home-alice-p/s1.jsonl", `{"type":"user","cwd":"/home/alice/p"}`+"\n")
	symlink(t, "/data/cc", root, "home/alice/.claude/projects")
	symlink(t, "nowhere", root, "home/alice/.claude/history.jsonl")
	if err := syscall.Mkfifo(filepath.Join(root, "home/alice/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../fifo", root, "home/alice/.claude.json")
	put(t, root, "home/alice/.bashrc", "export CODEX_HOME=\"$HOME/work/codex\"\nexport QWEN_HOME=/data/gone-qwen\n")
	put(t, root, "home/alice/work/codex/sessions/2026/11/30/rollout-1.jsonl", `{"type":"session_meta"}`+"\n")
	put(t, root, "home/alice/work/codex/sessions/2026/11/30/rollout-2.jsonl", strings.Repeat("x", 2000)+"\n")
	put(t, root, "home/alice/work/codex/auth.json", `{"OPENAI_API_KEY":"sk-doubleagentFIXTUREnotAkey"}`)
	if err := os.MkdirAll(filepath.Join(root, "home/alice/.gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "/gone/goose", root, "home/alice/.config/goose")
	put(t, root, "home/bob/.codex/history.jsonl", "{}\n")
	uids := map[string]int64{"/home/alice": 1000, "/etc/shadow": 0, "/data/cc": 1000, "/home/alice/work/codex": 1000}
	opts := Options{Root: root, Users: []string{"alice"}, MaxFileSize: 1000, NoSecrets: true, uidOf: func(p string) int64 {
		if u, ok := uids[origPath(root, p)]; ok {
			return u
		}
		return 1000
	}}
	agreeRows(t, opts)
	var out bytes.Buffer
	if err := Inventory(&out, opts); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var host InventoryHost
	if err := json.Unmarshal([]byte(lines[0]), &host); err != nil || host.Host != "hostile" || host.Users != 1 {
		t.Errorf("host line %s: %v", lines[0], err)
	}
	var got []string
	for _, l := range lines[1:] {
		var r InventoryRow
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		st, _ := json.Marshal(r.Statuses)
		got = append(got, fmt.Sprintf("%s %s files=%d bytes=%d %s presence=%q found_via=%q projects=%q", r.User, r.Agent, r.Files, r.Bytes, st, r.Presence, r.FoundVia, r.Projects))
	}
	want := []string{
		`alice claude-code files=1 bytes=38 {"collected":1,"folder":2,"symlink":4} presence="files kept" found_via=[] projects=["/home/alice/p"]`,
		`alice codex-cli files=1 bytes=24 {"collected":1,"folder":2,"skipped_secret":1,"skipped_size":1} presence="files kept" found_via=["CODEX_HOME=$HOME/work/codex in /home/alice/.bashrc:1"] projects=[]`,
		`alice gemini-cli files=0 bytes=0 {"folder":1} presence="present, nothing kept" found_via=[] projects=[]`,
		`alice goose files=0 bytes=0 {"symlink":1} presence="present, nothing collected" found_via=[] projects=[]`,
		`alice qwen-code files=0 bytes=0 {"error_read":1} presence="present, nothing collected" found_via=["QWEN_HOME=/data/gone-qwen in /home/alice/.bashrc:2"] projects=[]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("inventory lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(out.String(), "SHADOWSECRET") || strings.Contains(out.String(), "sk-doubleagent") {
		t.Error("--inventory printed a file's content")
	}
}
