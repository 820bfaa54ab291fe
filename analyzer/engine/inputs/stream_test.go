package inputs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parsers/claudecode"
	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// transcriptOf is n JSONL lines of a Claude Code transcript naming tag.
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

// streamed is what a Speculation's parses read, by path.
type streamed struct {
	mu    sync.Mutex
	bytes map[string][]byte
	wait  map[string]bool
	errs  map[string]error
	wg    sync.WaitGroup
}

func (st *streamed) speculation() *Speculation {
	st.bytes, st.wait, st.errs = map[string][]byte{}, map[string]bool{}, map[string]error{}
	return &Speculation{Verdicts: &Verdicts{}, Wait: st.wg.Wait, Parse: func(s *Source, f *File, wait bool) {
		st.wg.Add(1)
		run := func() {
			defer st.wg.Done()
			b, err := readAll(f)
			st.mu.Lock()
			st.bytes[f.Path], st.wait[f.Path], st.errs[f.Path] = b, wait, err
			st.mu.Unlock()
		}
		if wait {
			run()
			return
		}
		go run()
	}}
}

func readAll(f *File) ([]byte, error) {
	in, done := f.ParserInput(os.TempDir())
	defer done()
	rc, err := in.OpenRaw()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func openSpec(t *testing.T, raw []byte, sp *Speculation) (*Source, error) {
	p := filepath.Join(t.TempDir(), "b.tar.zst")
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	rt := NewRouter([]parser.Parser{claudecode.Transcript(), claudecode.Settings()})
	s, err := OpenParsing(context.Background(), Unit{Path: p, Kind: KindBundle}, t.TempDir(), rt, nil, sp)
	if s != nil {
		t.Cleanup(s.Close)
	}
	return s, err
}

// TestLazyMembersParsedAsRead: the transcripts are parsed as the bundle is
// read, the small one from memory beside the reading, the big one from
// the stream; the settings file is spooled; the verdicts are decided by
// the manifest; a later open spools the transcripts and reads the same
// bytes.
func TestLazyMembersParsedAsRead(t *testing.T) {
	want := map[string][]byte{smallPath: transcriptOf("a", 10), bigPath: transcriptOf("a", 50000)}
	if len(want[bigPath]) <= streamBuffer {
		t.Fatalf("big member is %d bytes, not over %d", len(want[bigPath]), streamBuffer)
	}
	raw := bundletest.Build(t, []bundletest.File{
		{Path: smallPath, Agent: claudecode.Agent, Target: "projects", User: "alice", Data: want[smallPath]},
		{Path: bigPath, Agent: claudecode.Agent, Target: "projects", User: "alice", Data: want[bigPath]},
		{Path: setPath, Agent: claudecode.Agent, Target: "settings", Kind: "config", User: "alice", Data: []byte(`{"model":"x"}`)},
	})
	var st streamed
	sp := st.speculation()
	s, err := openSpec(t, raw, sp)
	if err != nil || sp.Failed() != "" {
		t.Fatalf("open: %v, failed %q", err, sp.Failed())
	}
	if len(st.bytes) != 2 || st.wait[smallPath] || !st.wait[bigPath] {
		t.Fatalf("parsed %d files, wait %v", len(st.bytes), st.wait)
	}
	for p, b := range want {
		if st.errs[p] != nil || !bytes.Equal(st.bytes[p], b) {
			t.Fatalf("%s: %d bytes, %v", p, len(st.bytes[p]), st.errs[p])
		}
	}
	var eager, lazy []string
	for _, f := range s.Eager() {
		eager = append(eager, f.Path)
	}
	for _, f := range s.Lazy() {
		lazy = append(lazy, f.Path)
		if v := sp.Verdicts.Resolve(f.VerdictToken()); v != "true" {
			t.Fatalf("%s: verified %q", f.Path, v)
		}
	}
	if strings.Join(eager, ",") != setPath || len(lazy) != 2 {
		t.Fatalf("eager %q, lazy %q", eager, lazy)
	}
	if s.spooledAll {
		t.Fatal("spooled although every member was opened once")
	}
	for _, f := range s.Lazy() {
		b, err := readAll(f)
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

func rawTranscript(user string, data []byte) (bundletest.Raw, bundle.Entry) {
	path := "/home/" + user + "/.claude/projects/-p/s.jsonl"
	pax := map[string]string{"DOUBLEAGENT.path": path, "DOUBLEAGENT.agent": "claude-code", "DOUBLEAGENT.target": "projects",
		"DOUBLEAGENT.kind": "transcript", "DOUBLEAGENT.user": user, "DOUBLEAGENT.home": "/home/" + user}
	sum := sha256.Sum256(data)
	e := bundle.Entry{Record: "file", Path: path, ArchivePath: "files" + path, User: user, Home: "/home/" + user, Agent: "claude-code", Target: "projects",
		Kind: "transcript", Type: "file", Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), MTime: "1970-01-01T00:00:00Z", Status: "collected"}
	return bundletest.Raw{Name: e.ArchivePath, Data: data, PAX: pax}, e
}

// TestSpeculationFails: what the manifest, read last, says otherwise than
// the member was parsed as fails the speculation, so the engine reads the
// bundle again spooled; a good raw bundle, a hash mismatch and a bundle
// cut short (no manifest) hold, with their verdicts.
func TestSpeculationFails(t *testing.T) {
	data := transcriptOf("a", 10)
	summary := bundle.Summary{Record: "summary", Complete: true}
	good, e := rawTranscript("alice", data)
	swapped := good
	bob, _ := rawTranscript("bob", data)
	swapped.PAX = bob.PAX
	bad := e
	bad.SHA256 = strings.Repeat("0", 64)
	notCollected := e
	notCollected.Status = "skipped"
	big := transcriptOf("b", 50000)
	bigRaw, bigE := rawTranscript("alice", big)
	for _, c := range []struct {
		name     string
		members  []bundletest.Raw
		cut      int // bytes of the bundle kept, 0 for all
		failed   string
		verified string
	}{
		{"good", []bundletest.Raw{good, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, summary)}}, 0, "", "true"},
		{"hash mismatch", []bundletest.Raw{good, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, bad, summary)}}, 0, "", "false"},
		{"no manifest", []bundletest.Raw{good}, 0, "", "false"},
		{"PAX swapped", []bundletest.Raw{swapped, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, summary)}}, 0, "the manifest attributes it otherwise", ""},
		{"duplicate name", []bundletest.Raw{good, good, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, e, summary)}}, 0, "two members named", ""},
		{"not collected", []bundletest.Raw{good, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, notCollected, summary)}}, 0, "is not kept", ""},
		{"big member cut while parsed", []bundletest.Raw{bigRaw, {Name: bundle.ManifestName, Data: bundletest.ManifestLine(t, bigE, summary)}}, -2000, "ended early while it was parsed", ""},
	} {
		raw := bundletest.RawBundle(t, c.members, false)
		if c.cut < 0 {
			raw = cutInMember(t, raw, big)
		}
		var st streamed
		sp := st.speculation()
		s, err := openSpec(t, raw, sp)
		if got := sp.Failed(); (c.failed == "") != (got == "") || !strings.Contains(got, c.failed) {
			t.Fatalf("%s: failed %q, want %q (open: %v)", c.name, got, c.failed, err)
		}
		if len(st.bytes) != 1 {
			t.Fatalf("%s: %d members parsed", c.name, len(st.bytes))
		}
		if c.failed != "" {
			continue
		}
		if err != nil || len(s.Lazy()) != 1 {
			t.Fatalf("%s: open %v, %d lazy files", c.name, err, len(s.Lazy()))
		}
		if v := sp.Verdicts.Resolve(s.Lazy()[0].VerdictToken()); v != c.verified {
			t.Fatalf("%s: verified %q, want %q", c.name, v, c.verified)
		}
	}
}

// cutInMember returns raw cut where the decompressed stream is inside
// member data (past its first 4 MiB, so its parser already reads it).
func cutInMember(t *testing.T, raw, data []byte) []byte {
	t.Helper()
	for n := len(raw) / 2; n < len(raw); n += 64 {
		var st streamed
		sp := st.speculation()
		p := filepath.Join(t.TempDir(), "cut.tar.zst")
		os.WriteFile(p, raw[:n], 0o600)
		rt := NewRouter([]parser.Parser{claudecode.Transcript()})
		s, _ := OpenParsing(context.Background(), Unit{Path: p, Kind: KindBundle}, t.TempDir(), rt, nil, sp)
		if s != nil {
			s.Close()
		}
		if sp.Failed() != "" {
			return raw[:n]
		}
	}
	t.Fatal("no cut inside the member found")
	return nil
}
