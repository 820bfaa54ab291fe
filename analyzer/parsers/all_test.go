package parsers_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/parsers"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

var idRe = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+$`)

func spec(p parser.Parser) parser.Spec {
	if s, ok := p.(parser.Specced); ok {
		return s.Spec()
	}
	return parser.Spec{ID: p.ID(), Agent: p.Agent()}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range parsers.All() {
		if !idRe.MatchString(p.ID()) {
			t.Errorf("parser id %q does not match %s", p.ID(), idRe)
		}
		if seen[p.ID()] {
			t.Errorf("duplicate parser id %q", p.ID())
		}
		seen[p.ID()] = true
		prefixOK := strings.HasPrefix(p.ID(), p.Agent()+"/")
		for _, e := range spec(p).Emits {
			prefixOK = prefixOK || strings.HasPrefix(p.ID(), e+"/")
		}
		if !prefixOK {
			t.Errorf("parser %q: id does not start with its agent %q (or an agent it emits)", p.ID(), p.Agent())
		}
		a, ok := catalog.Lookup(p.Agent())
		if !ok {
			t.Errorf("parser %q: agent %q not in the catalog", p.ID(), p.Agent())
			continue
		}
		for _, tg := range spec(p).Targets {
			if tg == catalog.ProjectTarget && len(a.ProjectFiles) > 0 {
				continue
			}
			if _, ok := a.Target(tg); !ok {
				t.Errorf("parser %q: target %q not in catalog agent %q", p.ID(), tg, a.Name)
			}
		}
		for _, e := range spec(p).Emits {
			if _, ok := catalog.Lookup(e); !ok {
				t.Errorf("parser %q: emits unknown agent %q", p.ID(), e)
			}
		}
	}
}

// parsedAgents are the agents whose rows some registered parser writes.
func parsedAgents() map[string]bool {
	m := map[string]bool{}
	for _, p := range parsers.All() {
		m[p.Agent()] = true
		for _, e := range spec(p).Emits {
			m[e] = true
		}
	}
	return m
}

// TestCatalogStatusIsReal: an agent is "parsed" in the catalog exactly
// when a registered parser reads it.
func TestCatalogStatusIsReal(t *testing.T) {
	parsed := parsedAgents()
	for _, a := range catalog.All() {
		if parsed[a.Name] && a.Status != catalog.StatusParsed {
			t.Errorf("%s: a parser is registered but the catalog says %s", a.Name, a.Status)
		}
		if !parsed[a.Name] && a.Status == catalog.StatusParsed {
			t.Errorf("%s: the catalog says parsed but no registered parser reads it", a.Name)
		}
	}
}

// knownGaps are transcript targets of parsed agents that no parser reads
// yet, each with the reason; the list is the honest state, shrinking as
// parsers land.
var knownGaps = map[string]string{
	"little-coder/sessions": "the retired v0.0.x Python releases' session files: not parsed yet",
	"cline/sdk-sessions":    "the Cline SDK's sessions/<id>/<id>.json and *.messages.json: not parsed yet",
	"zed/conversations":     "the legacy text-thread assistant's conversations/*.zed.json: not parsed yet",
	"letta/transcripts":     "the cloud backend's transcript mirror: not written by 0.32.18's local backend, not parsed yet",
	"letta/runs":            "scheduled-task runs (cloud backend, 0.34.x source): not written by 0.32.18, not parsed yet",
}

// TestTranscriptTargetsAreParsed: every transcript target of a parsed agent
// is matched by some parser, or listed in knownGaps.
func TestTranscriptTargetsAreParsed(t *testing.T) {
	byAgent := map[string]map[string]bool{}
	for _, p := range parsers.All() {
		if byAgent[p.Agent()] == nil {
			byAgent[p.Agent()] = map[string]bool{}
		}
		for _, tg := range spec(p).Targets {
			byAgent[p.Agent()][tg] = true
		}
	}
	for _, a := range catalog.All() {
		if byAgent[a.Name] == nil {
			continue
		}
		for _, tg := range a.Targets {
			if _, gap := knownGaps[a.Name+"/"+tg.ID]; gap {
				if byAgent[a.Name][tg.ID] {
					t.Errorf("%s/%s is parsed now: remove it from knownGaps", a.Name, tg.ID)
				}
				continue
			}
			if tg.Kind == catalog.KindTranscript && !byAgent[a.Name][tg.ID] {
				t.Errorf("%s target %s (transcript) is read by no parser", a.Name, tg.ID)
			}
		}
	}
}

// Docs renders analyzer/docs/parsers.md.
func docs() []byte {
	var b bytes.Buffer
	b.WriteString("# Parsers\n\nGenerated from `analyzer/parsers/all.go` and the catalog by `go test ./parsers -update`; do not edit.\n\n")
	b.WriteString("| parser | agent | version | catalog targets | files | what it reads |\n|---|---|---|---|---|---|\n")
	for _, p := range parsers.All() {
		s := spec(p)
		fmt.Fprintf(&b, "| `%s` | %s | %d | %s | %s | %s |\n", p.ID(), p.Agent(), p.Version(), strings.Join(s.Targets, ", "), strings.Join(s.Names, ", "), strings.ReplaceAll(s.Doc, "|", "\\|"))
	}
	parsed := parsedAgents()
	var names []string
	for n := range parsed {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "\nAgents parsed: %d (%s).\n", len(names), strings.Join(names, ", "))
	var rest []string
	for _, a := range catalog.All() {
		if !parsed[a.Name] {
			rest = append(rest, fmt.Sprintf("%s (%s)", a.Name, a.Status))
		}
	}
	fmt.Fprintf(&b, "\nAgents collected but not parsed: %d: %s.\n", len(rest), strings.Join(rest, ", "))
	return b.Bytes()
}

func TestDocsInSync(t *testing.T) {
	const path = "../docs/parsers.md"
	got := docs()
	if *parsertest.Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("analyzer/docs/parsers.md is out of date: run go test ./parsers -update")
	}
}

type nopSink struct{ n int }

func (s *nopSink) Event(e timeline.Event) {
	s.n++
	if e.TurnType == "" {
		panic("event without turn type")
	}
}
func (s *nopSink) Session(timeline.SessionState) {}
func (s *nopSink) Problem(int64, string)         {}
func (s *nopSink) Report(int64, string, string)  {}
func (s *nopSink) Skip(int64, string)            {}

// FuzzParsers feeds arbitrary bytes to every parser's entry point, as a
// file of each target it matches: none may panic or hang.
func FuzzParsers(f *testing.F) {
	f.Add([]byte(`{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), uint8(0))
	f.Add([]byte(`{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x","cwd":"/p"}}`+"\n"), uint8(3))
	f.Add([]byte(`{"sessionId":"s","messages":[{"id":"m","type":"user","content":"x","timestamp":"2026-01-01T00:00:00Z"}]}`), uint8(6))
	f.Add([]byte("{\"$set\":{\"messages\":[1,2]}}\n{\"$rewindTo\":\"m\"}\n\x00\x00{\"id\":\"m\",\"type\":\"gemini\""), uint8(7))
	ps := parsers.All()
	f.Fuzz(func(t *testing.T, data []byte, idx uint8) {
		p := ps[int(idx)%len(ps)]
		s := spec(p)
		f := parser.File{Path: "/home/u/x.jsonl", Agent: p.Agent(), MTime: time.Unix(0, 0)}
		if len(s.Targets) > 0 {
			f.Target = s.Targets[int(idx)%len(s.Targets)]
		}
		if len(s.Names) > 0 {
			f.Path = "/home/u/" + strings.ReplaceAll(strings.ReplaceAll(s.Names[0], "*", "x"), "?", "y")
		}
		path := t.TempDir() + "/in"
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		in := parsertest.Input(t, path, f, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = p.Parse(ctx, in, &nopSink{})
	})
}
