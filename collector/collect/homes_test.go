//go:build unix

package collect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An image whose /home is an absolute link (/home -> /data/home) must be
// resolved inside the image, and a link out of it must not be followed.
func TestFindHomesThroughLinks(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	put(t, outside, "eve/.claude/history.jsonl", "{}")
	put(t, root, "data/home/alice/.claude/history.jsonl", "{}")
	put(t, root, "data/home/bob/.keep", "")
	symlink(t, "/data/home", root, "home")                        // absolute: inside the image
	symlink(t, outside, root, "Users")                            // absolute, to a path that is not in the image
	symlink(t, "../../../../../../../../..", root, "mnt/c/Users") // climbs: clamped at the root
	symlink(t, "/data/home/bob", root, "srv/bobhome")
	put(t, root, "etc/passwd", "alice:x:1000:1000::/home/alice:/bin/sh\nbob2:x:1001:1001::/srv/bobhome:/bin/sh\n")

	homes := FindHomes(root, false)
	got := map[string]string{}
	for _, h := range homes {
		got[h.User] = h.Orig
		if !within(h.Dir, root) {
			t.Errorf("home %+v is outside the root", h)
		}
		if strings.Contains(h.Dir, "outside") {
			t.Errorf("home %+v reached through a link out of the image", h)
		}
	}
	if got["alice"] != "/data/home/alice" {
		t.Errorf("alice: %q (homes %+v)", got["alice"], homes)
	}
	// bob is listed once: as bob2 from passwd (first), not again from /home.
	if got["bob2"] != "/data/home/bob" || got["bob"] != "" {
		t.Errorf("bob: %+v", homes)
	}
	if _, ok := got["eve"]; ok {
		t.Errorf("eve, outside the image, was listed: %+v", homes)
	}

	// Collecting through the linked /home: manifest paths are the image's
	// resolved paths and nothing outside is read.
	b, _, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b)
	checkRows(t, root, vr.Manifest)
	rowOf(t, byPath(vr.Manifest), "/data/home/alice/.claude/history.jsonl")
	for _, e := range vr.Manifest {
		if strings.Contains(e.Path, "eve") {
			t.Errorf("collected outside the image: %+v", e)
		}
	}
}

func TestResolveIn(t *testing.T) {
	root := t.TempDir()
	put(t, root, "a/b/f", "")
	symlink(t, "b", root, "a/l1")
	symlink(t, "/a/b", root, "abs")
	symlink(t, "../../../../a", root, "a/b/up")
	symlink(t, "loop2", root, "loop1")
	symlink(t, "loop1", root, "loop2")
	for in, want := range map[string]string{
		"/a/l1/f": "/a/b/f", "/abs/f": "/a/b/f", "/a/b/up/b/f": "/a/b/f", "/a/../../a/b": "/a/b",
	} {
		walked, got, err := resolveIn(root, in)
		if err != nil || got != want || walked != filepath.Join(root, want) {
			t.Errorf("resolveIn(%q) = %q, %q, %v; want %q", in, walked, got, err, want)
		}
	}
	if _, _, err := resolveIn(root, "/loop1/x"); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("link loop: %v", err)
	}
	if _, _, err := resolveIn(root, "/missing"); !os.IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
}

func TestPasswdHome(t *testing.T) {
	for h, want := range map[string]bool{"/home/a": true, "/srv/svc": true, "/var/lib/x": true, "/": false, "/nonexistent": false,
		"/proc/1": false, "/dev/null": false, "/sysadmin": true, "relative": false, "/usr/sbin": false} {
		if passwdHome(h) != want {
			t.Errorf("passwdHome(%q) = %v", h, !want)
		}
	}
}
