//go:build unix

package collect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
)

// put writes a file below root (rel is '/' separated), creating folders.
func put(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func symlink(t *testing.T, target, root, rel string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// run collects root into memory with a deadline, so a FIFO or a loop that
// hangs the collector fails the test instead of the suite.
func run(t *testing.T, ctx context.Context, opts Options) ([]byte, *Result, error) {
	t.Helper()
	if opts.SettleDelay == 0 {
		opts.SettleDelay = time.Millisecond
	}
	if opts.CommandLine == nil {
		opts.CommandLine = []string{"doubleagent-collector", "--root", opts.Root}
	}
	type out struct {
		b   []byte
		res *Result
		err error
	}
	ch := make(chan out, 1)
	go func() {
		var buf bytes.Buffer
		res, err := Run(ctx, &buf, opts)
		ch <- out{buf.Bytes(), res, err}
	}()
	select {
	case o := <-ch:
		return o.b, o.res, o.err
	case <-time.After(60 * time.Second):
		t.Fatal("collection did not finish within 60s (blocked on a FIFO or a link loop?)")
	}
	return nil, nil, nil
}

// verify reads a bundle with the analyzer's reader and fails on any problem
// whose kind is not in allowed.
func verify(t *testing.T, b []byte, allowed ...string) (*bundle.Header, *bundle.Result) {
	t.Helper()
	hdr, res, err := bundle.Verify(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatalf("bundle.Verify: %v", err)
	}
	ok := map[string]bool{}
	for _, k := range allowed {
		ok[k] = true
	}
	for _, p := range res.Problems {
		if !ok[p.Kind] {
			t.Errorf("unexpected bundle problem: %s", p)
		}
	}
	return hdr, res
}

// rawPath is a row's original path as bytes.
func rawPath(t *testing.T, e bundle.Entry) string {
	t.Helper()
	if e.PathB64 == "" {
		return e.Path
	}
	b, err := base64.StdEncoding.DecodeString(e.PathB64)
	if err != nil {
		t.Fatalf("%s: bad path_b64: %v", e.Path, err)
	}
	return string(b)
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// checkRows applies the invariants every manifest row keeps: collected
// rows hash to the file's content on disk and have a member; every row
// read from the tree has its times; only links have a link target.
func checkRows(t *testing.T, root string, rows []bundle.Entry) {
	t.Helper()
	for _, e := range rows {
		disk := joinRoot(root, rawPath(t, e))
		if e.RealPath != "" && e.Type == "file" {
			disk = joinRoot(root, e.RealPath) // reached through a followed link
		}
		switch e.Status {
		case bundle.StatusCollected:
			b, err := os.ReadFile(disk)
			if err != nil {
				t.Errorf("%s: collected but unreadable on disk: %v", e.Path, err)
				continue
			}
			if !e.ChangedDuringCopy && e.SHA256 != sha(b) {
				t.Errorf("%s: sha256 %s, content hashes to %s", e.Path, e.SHA256, sha(b))
			}
			if e.Size != int64(len(b)) && !e.ChangedDuringCopy {
				t.Errorf("%s: size %d, file has %d bytes", e.Path, e.Size, len(b))
			}
			if e.ArchivePath == "" || e.Type != "file" {
				t.Errorf("%s: collected row without member or of type %q", e.Path, e.Type)
			}
			if !archiveNameOK(e.ArchivePath, rawPath(t, e)) && !strings.Contains(e.ArchivePath, "%23") {
				t.Errorf("%s: archive path %q, want %q", e.Path, e.ArchivePath, bundle.ArchiveName(rawPath(t, e)))
			}
		default:
			if e.ArchivePath != "" || e.SHA256 != "" {
				t.Errorf("%s: %s row with content", e.Path, e.Status)
			}
		}
		if e.Status != bundle.StatusVanished && e.Status != bundle.StatusErrorRead {
			if e.MTime == "" || e.ATime == "" || e.CTime == "" || e.Mode == "" || e.UID < 0 {
				t.Errorf("%s (%s): missing times, mode or owner: %+v", e.Path, e.Status, e)
			}
		}
		if (e.LinkTarget != "") != (e.Status == bundle.StatusSymlink || e.LinkFollowed) {
			t.Errorf("%s: status %s with link target %q", e.Path, e.Status, e.LinkTarget)
		}
		if e.Status == bundle.StatusSymlink && e.Type != "symlink" {
			t.Errorf("%s: symlink row of type %q", e.Path, e.Type)
		}
	}
}

func byPath(rows []bundle.Entry) map[string]bundle.Entry {
	m := map[string]bundle.Entry{}
	for _, e := range rows {
		m[e.Path] = e
	}
	return m
}

func rowOf(t *testing.T, m map[string]bundle.Entry, path string) bundle.Entry {
	t.Helper()
	e, ok := m[path]
	if !ok {
		t.Fatalf("no manifest row for %q", path)
	}
	return e
}

// archiveNameOK reports whether member is the archive name of the raw
// original path: "files/" + the path escaped once (bundle/docs/format.md).
func archiveNameOK(member, raw string) bool {
	return member == bundle.ArchiveName(raw)
}
