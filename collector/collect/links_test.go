//go:build unix

package collect

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// linkRow is what a test expects of one manifest row.
type linkRow struct {
	path, status, typ, linkTarget, realPath, viaLink, err string
	followed                                              bool
	// outside: a followed link whose target lies outside every home and
	// container volume folder (outside_homes, a link_outside_homes warning).
	outside bool
}

func checkLinkRow(t *testing.T, m map[string]bundle.Entry, w linkRow) {
	t.Helper()
	e := rowOf(t, m, w.path)
	if e.Status != w.status || e.Type != w.typ || e.LinkTarget != w.linkTarget || e.RealPath != w.realPath || e.ViaLink != w.viaLink || e.Error != w.err || e.LinkFollowed != w.followed || e.OutsideHomes != w.outside {
		t.Errorf("%s:\n got status=%s type=%s link_target=%q real_path=%q via_link=%q followed=%v outside=%v error=%q\nwant status=%s type=%s link_target=%q real_path=%q via_link=%q followed=%v outside=%v error=%q",
			w.path, e.Status, e.Type, e.LinkTarget, e.RealPath, e.ViaLink, e.LinkFollowed, e.OutsideHomes, e.Error,
			w.status, w.typ, w.linkTarget, w.realPath, w.viaLink, w.followed, w.outside, w.err)
	}
	if w.status == bundle.StatusCollected && (e.SHA256 == "" || e.ArchivePath == "") {
		t.Errorf("%s: collected without content: %+v", w.path, e)
	}
	if w.status != bundle.StatusCollected && e.MTime == "" {
		t.Errorf("%s: no MACB times: %+v", w.path, e)
	}
}

// TestLinkPolicy: one fixture root per case of the link policy, each row
// asserted exactly (status, type, link target, real path, via link, error).
func TestLinkPolicy(t *testing.T) {
	const alice = "/home/alice"
	type tc struct {
		name  string
		setup func(t *testing.T, root, outside string)
		uids  map[string]int64 // host path -> owner (the rest: the test's uid)
		rows  []linkRow
		none  []string // paths that must have no row
	}
	for _, c := range []tc{
		{
			name: "dotfiles: ~/.claude a link to a folder the owner owns",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "home/alice/dotfiles/claude/projects/-home-alice-p/s1.jsonl", `{"type":"user"}`+"\n")
				put(t, root, "home/alice/dotfiles/claude/settings.json", `{}`)
				symlink(t, "dotfiles/claude", root, "home/alice/.claude")
			},
			rows: []linkRow{
				{path: alice + "/.claude", status: "symlink", typ: "symlink", linkTarget: "dotfiles/claude", realPath: alice + "/dotfiles/claude", followed: true},
				{path: alice + "/dotfiles/claude", status: "folder", typ: "dir", viaLink: alice + "/.claude"},
				{path: alice + "/.claude/projects/-home-alice-p/s1.jsonl", status: "collected", typ: "file", realPath: alice + "/dotfiles/claude/projects/-home-alice-p/s1.jsonl", viaLink: alice + "/.claude"},
				{path: alice + "/.claude/settings.json", status: "collected", typ: "file", realPath: alice + "/dotfiles/claude/settings.json", viaLink: alice + "/.claude"},
			},
		},
		{
			name: "~/.claude/projects linked to a data disk, absolute",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "home/alice/.claude/history.jsonl", "{}\n")
				put(t, root, "data/cc/-home-alice-p/s2.jsonl", "{}\n")
				symlink(t, "/data/cc", root, "home/alice/.claude/projects")
			},
			rows: []linkRow{
				{path: alice + "/.claude/projects", status: "symlink", typ: "symlink", linkTarget: "/data/cc", realPath: "/data/cc", followed: true, outside: true},
				{path: "/data/cc", status: "folder", typ: "dir", viaLink: alice + "/.claude/projects"},
				{path: alice + "/.claude/projects/-home-alice-p/s2.jsonl", status: "collected", typ: "file", realPath: "/data/cc/-home-alice-p/s2.jsonl", viaLink: alice + "/.claude/projects"},
				{path: alice + "/.claude/history.jsonl", status: "collected", typ: "file"},
			},
		},
		{
			name: "a single project folder linked, and a settings file linked (stow)",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "srv/work/s3.jsonl", "{}\n")
				put(t, root, "home/alice/.claude/projects/-home-alice-q/s4.jsonl", "{}\n")
				symlink(t, "/srv/work", root, "home/alice/.claude/projects/-home-alice-w")
				put(t, root, "home/alice/stow/claude/settings.json", `{"permissions":{}}`)
				symlink(t, "../stow/claude/settings.json", root, "home/alice/.claude/settings.json")
			},
			rows: []linkRow{
				{path: alice + "/.claude/projects/-home-alice-w", status: "symlink", typ: "symlink", linkTarget: "/srv/work", realPath: "/srv/work", followed: true, outside: true},
				{path: "/srv/work", status: "folder", typ: "dir", viaLink: alice + "/.claude/projects/-home-alice-w"},
				{path: alice + "/.claude/projects/-home-alice-w/s3.jsonl", status: "collected", typ: "file", realPath: "/srv/work/s3.jsonl", viaLink: alice + "/.claude/projects/-home-alice-w"},
				{path: alice + "/.claude/projects/-home-alice-q/s4.jsonl", status: "collected", typ: "file"},
				// A link to a file: one row, the file's, naming the link.
				{path: alice + "/.claude/settings.json", status: "collected", typ: "file", linkTarget: "../stow/claude/settings.json", realPath: alice + "/stow/claude/settings.json", followed: true},
			},
		},
		{
			// The owner's own file outside every home (a dotfiles folder
			// under /srv): followed, and its row marked outside_homes, as a
			// link to a folder there is.
			name: "a settings file linked outside every home",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "srv/dot/settings.json", `{"model":"x"}`)
				symlink(t, "/srv/dot/settings.json", root, "home/alice/.claude/settings.json")
			},
			rows: []linkRow{
				{path: alice + "/.claude/settings.json", status: "collected", typ: "file", linkTarget: "/srv/dot/settings.json", realPath: "/srv/dot/settings.json", followed: true, outside: true},
			},
		},
		{
			name: "a link to /proc",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "proc/1/environ", "SECRET=1")
				symlink(t, "/proc/1", root, "home/alice/.claude")
			},
			rows: []linkRow{
				{path: alice + "/.claude", status: "symlink", typ: "symlink", linkTarget: "/proc/1", realPath: "/proc/1", err: `link to "/proc/1" not followed: its target is under /proc`},
			},
			none: []string{"/proc/1", alice + "/.claude/environ"},
		},
		{
			name: "loops: a link to its own parent, and a chain back to the home",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "home/alice/.claude/projects/-home-alice-p/s5.jsonl", "{}\n")
				symlink(t, "..", root, "home/alice/.claude/projects/up")
				put(t, root, "data/c2/history.jsonl", "{}\n")
				symlink(t, "/data/c2", root, "home/alice/.claude-work")
				symlink(t, "/home/alice", root, "data/c2/projects")
			},
			rows: []linkRow{
				{path: alice + "/.claude/projects/up", status: "symlink", typ: "symlink", linkTarget: "..", realPath: alice + "/.claude", err: `link to ".." not followed: a loop: its target /home/alice/.claude holds /home/alice/.claude/projects, already on the way`},
				{path: alice + "/.claude-work", status: "symlink", typ: "symlink", linkTarget: "/data/c2", realPath: "/data/c2", followed: true, outside: true},
				{path: alice + "/.claude-work/history.jsonl", status: "collected", typ: "file", realPath: "/data/c2/history.jsonl", viaLink: alice + "/.claude-work"},
				{path: alice + "/.claude-work/projects", status: "symlink", typ: "symlink", linkTarget: "/home/alice", realPath: alice, viaLink: alice + "/.claude-work", err: `link to "/home/alice" not followed: a loop: its target /home/alice holds /home/alice, already on the way`},
			},
		},
		{
			name: "a link out of --root",
			setup: func(t *testing.T, root, outside string) {
				put(t, outside, "claude/history.jsonl", outsideSecret)
				symlink(t, filepath.Join(outside, "claude"), root, "home/alice/.claude")
				symlink(t, "../../../../../../../../../.."+filepath.ToSlash(outside)+"/claude", root, "home/alice/.claude-up")
			},
			rows: []linkRow{
				{path: alice + "/.claude", status: "symlink", typ: "symlink", linkTarget: "OUTSIDE/claude", err: `link to "OUTSIDE/claude" not followed: its target does not exist inside --root (an absolute target is taken relative to the root)`},
				{path: alice + "/.claude-up", status: "symlink", typ: "symlink", linkTarget: "../../../../../../../../../..OUTSIDE/claude", err: `link to "../../../../../../../../../..OUTSIDE/claude" not followed: its target does not exist inside --root (an absolute target is taken relative to the root)`},
			},
		},
		{
			name: "a link to another user's folder",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "home/bob/.claude/history.jsonl", "{}\n")
				put(t, root, "home/alice/.keep", "")
				symlink(t, "/home/bob/.claude", root, "home/alice/.claude")
			},
			uids: map[string]int64{"/home/alice": 1000, "/home/bob": 1001, "/home/bob/.claude": 1001, "/home/bob/.claude/history.jsonl": 1001},
			rows: []linkRow{
				{path: alice + "/.claude", status: "symlink", typ: "symlink", linkTarget: "/home/bob/.claude", realPath: "/home/bob/.claude", err: `link to "/home/bob/.claude" not followed: its target is owned by uid 1001, neither the home's owner (uid 1000) nor root`},
				{path: "/home/bob/.claude/history.jsonl", status: "collected", typ: "file"},
			},
			none: []string{alice + "/.claude/history.jsonl"},
		},
		{
			name: "a planted link to /etc/shadow: root-owned, outside every home",
			setup: func(t *testing.T, root, _ string) {
				put(t, root, "etc/shadow", "root:$6$SHADOWSECRET:19000:0:99999:7:::\n")
				symlink(t, "/etc/shadow", root, "home/alice/.claude/settings.json")
				// Root-owned inside a home, and the owner's own data disk:
				// followed.
				put(t, root, "home/alice/stow/settings.local.json", `{}`)
				symlink(t, "../stow/settings.local.json", root, "home/alice/.claude/settings.local.json")
				put(t, root, "data/cc/-home-alice-p/s6.jsonl", "{}\n")
				symlink(t, "/data/cc", root, "home/alice/.claude/projects")
			},
			uids: map[string]int64{"/home/alice": 1000, "/etc/shadow": 0, "/home/alice/stow/settings.local.json": 0, "/data/cc": 1000},
			rows: []linkRow{
				{path: alice + "/.claude/settings.json", status: "symlink", typ: "symlink", linkTarget: "/etc/shadow", realPath: "/etc/shadow", err: `link to "/etc/shadow" not followed: its target is owned by root and lies outside every home and the container volume folders`},
				{path: alice + "/.claude/settings.local.json", status: "collected", typ: "file", linkTarget: "../stow/settings.local.json", realPath: alice + "/stow/settings.local.json", followed: true},
				{path: alice + "/.claude/projects", status: "symlink", typ: "symlink", linkTarget: "/data/cc", realPath: "/data/cc", followed: true, outside: true},
				{path: alice + "/.claude/projects/-home-alice-p/s6.jsonl", status: "collected", typ: "file", realPath: "/data/cc/-home-alice-p/s6.jsonl", viaLink: alice + "/.claude/projects"},
			},
			none: []string{"/etc/shadow"},
		},
		{
			name: "a link to a FIFO, a dangling link, two links to one folder",
			setup: func(t *testing.T, root, _ string) {
				os.MkdirAll(filepath.Join(root, "home/alice/.claude"), 0o755)
				if err := syscall.Mkfifo(filepath.Join(root, "home/alice/fifo"), 0o644); err != nil {
					t.Fatal(err)
				}
				symlink(t, "../fifo", root, "home/alice/.claude/history.jsonl")
				symlink(t, "nowhere", root, "home/alice/.claude/settings.json")
				put(t, root, "data/shared/t.json", "[]")
				symlink(t, "/data/shared", root, "home/alice/.claude/todos")
				symlink(t, "/data/shared", root, "home/alice/.claude-2/todos")
			},
			rows: []linkRow{
				{path: alice + "/.claude/history.jsonl", status: "symlink", typ: "symlink", linkTarget: "../fifo", realPath: alice + "/fifo", err: `link to "../fifo" not followed: its target is fifo, not a folder or a regular file`},
				{path: alice + "/.claude/settings.json", status: "symlink", typ: "symlink", linkTarget: "nowhere", err: `link to "nowhere" not followed: its target does not exist inside --root (an absolute target is taken relative to the root)`},
				{path: alice + "/.claude/todos", status: "symlink", typ: "symlink", linkTarget: "/data/shared", realPath: "/data/shared", followed: true, outside: true},
				{path: alice + "/.claude/todos/t.json", status: "collected", typ: "file", realPath: "/data/shared/t.json", viaLink: alice + "/.claude/todos"},
				{path: alice + "/.claude-2/todos", status: "symlink", typ: "symlink", linkTarget: "/data/shared", realPath: "/data/shared", followed: true, outside: true},
			},
			none: []string{alice + "/.claude-2/todos/t.json"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
			c.setup(t, root, outside)
			opts := Options{Root: root}
			if c.uids != nil {
				opts.uidOf = func(p string) int64 {
					if u, ok := c.uids[origPath(root, p)]; ok {
						return u
					}
					return int64(os.Getuid())
				}
			}
			b, _, err := run(t, t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			_, vr := verify(t, b, bundle.ProblemRowError, bundle.ProblemLinkOutsideHomes)
			checkRows(t, root, vr.Manifest)
			m := byPath(vr.Manifest)
			refused, outsideHomes := 0, 0
			for _, w := range c.rows {
				w.linkTarget = strings.ReplaceAll(w.linkTarget, "OUTSIDE", filepath.ToSlash(outside))
				w.err = strings.ReplaceAll(w.err, "OUTSIDE", filepath.ToSlash(outside))
				checkLinkRow(t, m, w)
				if w.err != "" {
					refused++
				}
				if w.outside {
					outsideHomes++
				}
			}
			// Every refused link is a row_error problem naming the link and
			// its target, which the analyzer turns into a problem row; every
			// link followed outside every home a link_outside_homes warning.
			if len(vr.Problems) != refused+outsideHomes {
				t.Errorf("%d problems for %d refused links and %d followed outside every home: %v", len(vr.Problems), refused, outsideHomes, vr.Problems)
			}
			for _, p := range vr.Problems {
				e := m[p.Path]
				switch {
				case p.Kind == bundle.ProblemRowError && e.Type == "symlink" && p.Msg == "symlink: "+e.Error:
				case p.Kind == bundle.ProblemLinkOutsideHomes && e.OutsideHomes && p.Warning() &&
					p.Msg == "a link (to \""+e.LinkTarget+"\") followed by the link policy (its target "+e.RealPath+" is owned by the home's owner), though its target lies outside every home of the host and the container volume folders: its files are read as alice's":
				default:
					t.Errorf("problem %v for row %+v", p, e)
				}
			}
			for _, p := range c.none {
				if e, ok := m[p]; ok {
					t.Errorf("%s has a row: %+v", p, e)
				}
			}
			for _, e := range vr.Manifest {
				if strings.Contains(e.Path, filepath.ToSlash(outside)) || strings.Contains(e.RealPath, filepath.ToSlash(outside)) {
					t.Errorf("outside the root: %+v", e)
				}
			}
			if s := string(decompress(t, b)); strings.Contains(s, outsideSecret) || strings.Contains(s, "SECRET=1") || strings.Contains(s, "SHADOWSECRET") {
				t.Error("content the policy refuses is in the bundle")
			}
		})
	}
}

// TestFollowedLinkSwapRace: below a followed link the files are opened by
// their real path with the same openat(O_NOFOLLOW) chain: a folder of the
// target swapped for a link after the walk gives error_read, and nothing
// behind the swapped-in link is read.
func TestFollowedLinkSwapRace(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	put(t, root, "data/cc/projects/p/s.jsonl", "{}\n")
	symlink(t, "/data/cc", root, "home/alice/.claude")
	put(t, outside, "swap/p/s.jsonl", "ROOT-ONLY SECRET\n")
	target := filepath.Join(root, "data/cc/projects/p/s.jsonl")
	swapped := false
	b, _, err := run(t, t.Context(), Options{Root: root, beforeCopy: func(p string) {
		if p == target && !swapped {
			swapped = true
			dir := filepath.Join(root, "data/cc/projects")
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
	_, vr := verify(t, b, bundle.ProblemRowError, bundle.ProblemLinkOutsideHomes)
	if !swapped {
		t.Fatal("the file was never copied")
	}
	if l := rowOf(t, byPath(vr.Manifest), "/home/alice/.claude"); !l.LinkFollowed || !l.OutsideHomes {
		t.Errorf("~/.claude -> /data/cc: %+v, want followed and outside_homes", l)
	}
	e := rowOf(t, byPath(vr.Manifest), "/home/alice/.claude/projects/p/s.jsonl")
	if e.Status != bundle.StatusErrorRead || e.RealPath != "/data/cc/projects/p/s.jsonl" || e.ViaLink != "/home/alice/.claude" || !strings.HasSuffix(e.Error, "a folder on the way is no longer a folder (a link swapped in since the walk?): not followed") || e.SHA256 != "" {
		t.Errorf("read through a link swapped in below a followed link: %+v", e)
	}
	if strings.Contains(string(decompress(t, b)), "ROOT-ONLY SECRET") {
		t.Error("the bundle holds the file behind the swapped-in link")
	}
}
