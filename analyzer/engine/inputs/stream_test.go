package inputs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// transcriptOf is n JSONL lines of a Claude Code transcript, each
// naming tag, so two versions of one member differ.
func transcriptOf(tag string, n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"type":"user","sessionId":"s","uuid":"u%d","timestamp":"2026-05-01T00:00:00Z","message":{"role":"user","content":"%s %d"}}`+"\n", i, tag, i)
	}
	return b.Bytes()
}

const (
	smallPath = "/home/alice/.claude/projects/-p/small.jsonl"
	bigPath   = "/home/alice/.claude/projects/-p/big.jsonl"
	setPath   = "/home/alice/.claude/settings.json"
)

func streamBundle(t *testing.T, tag string) []byte {
	files := []bundletest.File{
		{Path: smallPath, Agent: claudecode.Agent, Target: "projects", Kind: "transcript", User: "alice", Data: transcriptOf(tag, 10)},
		{Path: bigPath, Agent: claudecode.Agent, Target: "projects", Kind: "transcript", User: "alice", Data: transcriptOf(tag, 50000)},
		{Path: setPath, Agent: claudecode.Agent, Target: "settings", Kind: "config", User: "alice", Data: []byte(`{"model":"x"}`)},
	}
	return bundletest.Build(t, files)
}

func openStreamBundle(t *testing.T, raw []byte) (*Source, string) {
	p := filepath.Join(t.TempDir(), "b.tar.zst")
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	rt := NewRouter([]parser.Parser{claudecode.Transcript(), claudecode.Settings()})
	s, err := Open(context.Background(), Unit{Path: p, Kind: KindBundle}, t.TempDir(), rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, p
}

func readAll(t *testing.T, f *File) ([]byte, error) {
	t.Helper()
	in, done := f.ParserInput(t.TempDir())
	defer done()
	rc, err := in.OpenRaw()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// TestLazyMembersReadFromASecondPass: the transcripts are left out of the
// spool and read from a second read of the bundle, the small one from
// memory and the big one from the stream; the settings file is spooled;
// a later Open of either spools them and gives the same bytes.
func TestLazyMembersReadFromASecondPass(t *testing.T) {
	raw := streamBundle(t, "a")
	want := map[string][]byte{smallPath: transcriptOf("a", 10), bigPath: transcriptOf("a", 50000)}
	if len(want[bigPath]) <= streamBuffer {
		t.Fatalf("big member is %d bytes, not over %d", len(want[bigPath]), streamBuffer)
	}
	s, _ := openStreamBundle(t, raw)
	if !s.Lazy() {
		t.Fatal("no lazy file")
	}
	var eager []string
	for _, f := range s.Eager() {
		eager = append(eager, f.Path)
	}
	if strings.Join(eager, ",") != setPath {
		t.Fatalf("eager files %q", eager)
	}
	got := map[string]string{}
	s.Stream(context.Background(), func(f *File, inline bool) {
		b, err := readAll(t, f)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if !bytes.Equal(b, want[f.Path]) {
			t.Fatalf("%s: %d bytes read, want %d", f.Path, len(b), len(want[f.Path]))
		}
		got[f.Path] = fmt.Sprint(inline)
	})
	if got[smallPath] != "false" || got[bigPath] != "true" || len(got) != 2 {
		t.Fatalf("streamed %v", got)
	}
	if s.spooledAll {
		t.Fatal("spooled although every file was opened once")
	}
	for _, f := range s.Files() {
		if f.Path == setPath {
			continue
		}
		b, err := readAll(t, f)
		if err != nil || !bytes.Equal(b, want[f.Path]) {
			t.Fatalf("%s read again: %d bytes, %v", f.Path, len(b), err)
		}
	}
	if !s.spooledAll {
		t.Fatal("read again without spooling")
	}
	if ps := s.LateProblems(); len(ps) != 0 {
		t.Fatalf("problems %+v", ps)
	}
}

// TestLazyMemberChangedBetweenReads: a bundle file rewritten after its
// first read gives a checksum_mismatch problem for each lazy member; the
// small one is then not given to its parser at all (Open fails), the big
// one, already parsed from the stream, is named.
func TestLazyMemberChangedBetweenReads(t *testing.T) {
	s, p := openStreamBundle(t, streamBundle(t, "a"))
	// The same inode, other content: the held descriptor reads it.
	if err := os.WriteFile(p, streamBundle(t, "b"), 0o600); err != nil {
		t.Fatal(err)
	}
	opened := map[string]string{}
	s.Stream(context.Background(), func(f *File, inline bool) {
		_, err := readAll(t, f)
		opened[f.Path] = fmt.Sprint(err)
	})
	if opened[bigPath] != "<nil>" || opened[smallPath] != "the bundle file changed while it was read" {
		t.Fatalf("opened %v", opened)
	}
	ps := s.LateProblems()
	if len(ps) != 2 {
		t.Fatalf("problems %+v", ps)
	}
	for i, path := range []string{smallPath, bigPath} {
		if ps[i].Kind != bundle.ProblemChecksum || ps[i].SourceFile != path || !strings.Contains(ps[i].Message, "the file changed while it was read") {
			t.Fatalf("problem %d: %+v", i, ps[i])
		}
	}
}
