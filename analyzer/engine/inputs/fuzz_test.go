//go:build unix

package inputs

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/bundle"
)

// openedInside checks that everything a source reads is a regular file
// inside the tree the evidence rule names: the file really opened (its
// /proc/self/fd link, where there is one) lies under the tree's real path.
func openedInside(t *testing.T, s *Source, input string) {
	t.Helper()
	realInput, _ := filepath.EvalSymlinks(input)
	for _, r := range s.files {
		if r.spooled {
			continue
		}
		realTree, err := filepath.EvalSymlinks(r.tree)
		if err != nil {
			t.Fatal(err)
		}
		if realTree != realInput && realTree != filepath.Dir(realInput) {
			t.Fatalf("tree %s is neither the input %s nor its parent", realTree, realInput)
		}
		rc, err := s.open(r)
		if err != nil {
			continue // refused (changed, or reported): never read
		}
		f := rc.(*os.File)
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s opened, and is not a regular file", r.local)
		}
		if real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err == nil && !strings.HasPrefix(real, realTree+string(filepath.Separator)) {
			t.Fatalf("%s opened %s, outside its tree %s", r.local, real, realTree)
		}
		io.Copy(io.Discard, io.LimitReader(f, 1<<16))
		f.Close()
	}
}

// quickMinimize bounds the minimizing of each new interesting input to ten
// runs unless -fuzzminimizetime was given: an execution here builds a
// tree on disk (milliseconds per folder on slow filesystems), so the
// default minute per input left a 5-second fuzz run a handful of
// executions.
func quickMinimize() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		flag.Set("test.fuzzminimizetime", "10x")
	}
}

// writeNew creates a file that is not there yet: never onto a FIFO the
// script made earlier (a blocking open of the test's own making).
func writeNew(p string, data []byte) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return
	}
	f.Write(data)
	f.Close()
}

// FuzzExtractedFolder: an extracted collection of any shape (header,
// manifest and one file from the fuzzer; FIFOs and links where shape's
// bits say) is read without a panic or a hang, and nothing outside it or
// other than a regular file is ever opened.
func FuzzExtractedFolder(f *testing.F) {
	f.Add([]byte(`{"format_version":1,"bundle_id":"b"}`),
		[]byte(`{"record":"file","path":"/home/a/.claude/history.jsonl","archive_path":"files/home/a/.claude/history.jsonl","agent":"claude-code","target":"history","kind":"history","user":"a","home":"/home/a","size":3,"sha256":"","status":"collected"}`+"\n"+`{"record":"summary","complete":true}`+"\n"),
		"home/a/.claude/history.jsonl", []byte("{}\n"), uint8(0))
	f.Add([]byte(`{"format_version":1,"bundle_id":"b"}`), []byte(`{"record":"file","archive_path":"files/home/a/x","status":"collected"}`+"\n"), "home/a/x", []byte("x"), uint8(4))
	f.Add([]byte(`{"format_version":1}`), []byte("{"), "x", []byte{}, uint8(3))
	rt := NewRouter(parsers.All())
	quickMinimize()
	f.Fuzz(func(t *testing.T, header, manifest []byte, name string, content []byte, shape uint8) {
		base := t.TempDir()
		root := filepath.Join(base, "ext")
		outside := filepath.Join(base, "outside")
		os.MkdirAll(filepath.Join(root, "files"), 0o755)
		os.MkdirAll(outside, 0o755)
		place := func(rel string, data []byte, fifo bool) {
			p := filepath.Join(root, rel)
			if fifo {
				syscall.Mkfifo(p, 0o644)
				return
			}
			writeNew(p, data)
		}
		place(bundle.HeaderName, header, shape&1 != 0)
		place(bundle.ManifestName, manifest, shape&2 != 0)
		if bundle.UnsafeName(name) == "" && !strings.ContainsRune(name, 0) && len(name) < 200 && strings.Count(name, "/") < 8 {
			p := filepath.Join(root, "files", filepath.FromSlash(name))
			if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
				switch {
				case shape&8 != 0: // the file is a link to a copy outside
					op := filepath.Join(outside, "copy")
					writeNew(op, content)
					os.Symlink(op, p)
				case shape&16 != 0:
					syscall.Mkfifo(p, 0o644)
				default:
					writeNew(p, content)
				}
			}
		}
		if shape&4 != 0 { // files/home is a link out of the tree
			os.Rename(filepath.Join(root, "files", "home"), filepath.Join(outside, "home"))
			os.Symlink(filepath.Join(outside, "home"), filepath.Join(root, "files", "home"))
		}
		_ = IsExtracted(root) // detection never blocks either
		s, err := openExtracted(context.Background(), root, rt)
		if err != nil {
			return
		}
		defer s.Close()
		for _, r := range s.files {
			if r.tree != root {
				t.Fatalf("file %s read from tree %s", r.local, r.tree)
			}
		}
		openedInside(t, s, root)
	})
}

// FuzzLooseTree: a loose tree built from a small script (one entry a
// line: "d PATH", "f PATH TEXT", "l PATH TARGET", "p PATH" for a FIFO) is
// read without a panic or a hang, and only regular files inside it are
// ever opened, whatever links and FIFOs it holds.
func FuzzLooseTree(f *testing.F) {
	f.Add([]byte("f home/alice/.claude/history.jsonl {}\nl home/bob /\np root/.claude/history.jsonl\n"))
	f.Add([]byte("l home ../..\nf Users/c/.codex/history.jsonl {}\n"))
	f.Add([]byte("d mnt/c\nl mnt/c/Users /etc\nf .claude/projects/p/s.jsonl {\"type\":\"user\"}\n"))
	f.Add([]byte("l .claude/projects/p/s.jsonl /etc/passwd\nf .claude/settings.json {}\n"))
	rt := NewRouter(parsers.All())
	quickMinimize()
	f.Fuzz(func(t *testing.T, script []byte) {
		base := t.TempDir()
		root := filepath.Join(base, "tree")
		outside := filepath.Join(base, "outside")
		os.MkdirAll(root, 0o755)
		os.MkdirAll(filepath.Join(outside, "home", "eve", ".claude"), 0o755)
		os.WriteFile(filepath.Join(outside, "home", "eve", ".claude", "history.jsonl"), []byte("{\"display\":\"outside\"}\n"), 0o644)
		for i, line := range strings.Split(string(script), "\n") {
			if i >= 40 {
				break
			}
			op, rest, _ := strings.Cut(line, " ")
			rel, arg, _ := strings.Cut(rest, " ")
			rel = filepath.Clean("/" + rel)[1:]
			if rel == "" || strings.ContainsRune(rel, 0) || len(rel) > 200 || strings.Count(rel, "/") > 8 {
				continue
			}
			p := filepath.Join(root, rel)
			os.MkdirAll(filepath.Dir(p), 0o755)
			switch op {
			case "d":
				os.MkdirAll(p, 0o755)
			case "f":
				writeNew(p, []byte(arg+"\n"))
			case "l":
				if arg == "outside" {
					arg = outside
				}
				os.Symlink(arg, p)
			case "p":
				syscall.Mkfifo(p, 0o644)
			}
		}
		s, err := openLoose(context.Background(), root, rt)
		if err != nil {
			return
		}
		defer s.Close()
		openedInside(t, s, root)
	})
}
