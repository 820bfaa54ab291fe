package opencode

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	kiloHome = "/home/examiner"
	// the subagent session of the real Kilo 7.7.7 run, and its sha256
	kiloSess = "ses_dd77a88ecffecxgX0Y5l304jq9"
	kiloHash = "8a5200c85fdc3eb168fc2b31a209c7680cf6190e7dd64906aa7cca77d6322f61"
)

func kiloInput(t *testing.T, local, orig, target string, related parsertest.Files) *parser.Input {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Agent: agentKilo, Target: target, Rel: strings.TrimPrefix(orig, kiloHome+"/"),
		MTime: time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)}, related)
	p := byTarget(t, agentKilo, target)
	if !p.Match(&in.File) {
		t.Fatalf("%s does not match %s", p.ID(), orig)
	}
	return in
}

func byTarget(t *testing.T, agent, target string) parser.Parser {
	t.Helper()
	for _, p := range Parsers() {
		for _, tg := range p.(parser.Specced).Spec().Targets {
			if p.Agent() == agent && tg == target {
				return p
			}
		}
	}
	t.Fatalf("no %s parser for %s", agent, target)
	return nil
}

func texts(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Text)
	}
	return out
}

// TestKiloSandbox: the sandbox policy snapshot of a session (its id
// recovered from the sha256 directory name against the collected session
// files), the older per-directory form, and a project's sandbox preference.
func TestKiloSandbox(t *testing.T) {
	related := parsertest.Files{kiloHome + "/.local/share/kilo/storage/session_diff/" + kiloSess + ".json": "testdata/kilo/session_diff.json"}
	snap := kiloInput(t, "testdata/kilo/policy/snapshot.json", kiloHome+"/.local/state/kilo-sandbox-policy/"+kiloHash+"/snapshot.json", "sandbox", related)
	s := parsertest.Golden(t, byTarget(t, agentKilo, "sandbox"), snap, "testdata/kilo_sandbox_snapshot.golden.jsonl")
	want := "sandbox policy: enabled=true network=deny version=3 (session " + kiloSess + ", matched by its sha256) (from .local/state/kilo-sandbox-policy/" + kiloHash + "/snapshot.json, file mtime)"
	if len(s.Events) != 1 || s.Events[0].Text != want || s.Events[0].SessionID != kiloSess || s.Events[0].TimeBasis != timeline.TimeFileMTime || s.Events[0].TimeString() != "2026-01-05T08:00:00.000Z" {
		t.Fatalf("snapshot: %+v", s.Events)
	}
	dirHash := strings.Repeat("ab", 32)
	legacy := kiloInput(t, "testdata/kilo/policy/legacy.json", kiloHome+"/.local/state/kilo-sandbox-policy/"+strings.Repeat("cd", 32)+"/"+dirHash+".json", "sandbox", nil)
	s = parsertest.Run(t, byTarget(t, agentKilo, "sandbox"), legacy)
	want = "sandbox policy: enabled=false network=allow version=1 (for the session whose id has sha256 " + strings.Repeat("cd", 32) + ") (per-directory form, directory sha256 " + dirHash + ") (from .local/state/kilo-sandbox-policy/" + strings.Repeat("cd", 32) + "/" + dirHash + ".json, file mtime)"
	if got := texts(s); len(got) != 1 || got[0] != want || s.Events[0].SessionID != "" {
		t.Fatalf("legacy snapshot: %q", got)
	}
	pref := kiloInput(t, "testdata/kilo/preference.json", kiloHome+"/.local/state/kilo-sandbox-preference/"+dirHash+".json", "sandbox", nil)
	s = parsertest.Golden(t, byTarget(t, agentKilo, "sandbox"), pref, "testdata/kilo_sandbox_preference.golden.jsonl")
	want = "sandbox preference: enabled=true for the project whose directory has sha256 " + dirHash + " (from .local/state/kilo-sandbox-preference/" + dirHash + ".json, file mtime)"
	if got := texts(s); len(got) != 1 || got[0] != want {
		t.Fatalf("preference: %q", got)
	}
	bad := kiloInput(t, "testdata/kilo/retention_state.json", kiloHome+"/.local/state/kilo-sandbox-preference/"+dirHash+".json", "sandbox", nil)
	if s = parsertest.Run(t, byTarget(t, agentKilo, "sandbox"), bad); len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 1: sandbox preference is not true or false") {
		t.Fatalf("bad preference: %+v %v", s.Events, s.Problems)
	}
}

// TestKiloRetention: the last retention pass, at its own time.
func TestKiloRetention(t *testing.T) {
	in := kiloInput(t, "testdata/kilo/retention_state.json", kiloHome+"/.local/share/kilo/retention/state.json", "retention", nil)
	s := parsertest.Golden(t, byTarget(t, agentKilo, "retention"), in, "testdata/kilo_retention.golden.jsonl")
	want := "session retention: a pass deleted 3 of 40 session(s) (1 skipped as active, 0 failed, 120 ms; from .local/share/kilo/retention/state.json)"
	if got := texts(s); len(got) != 1 || got[0] != want || s.Events[0].TimeString() != "2026-01-01T10:00:00.000Z" || s.Events[0].TimeBasis != "" {
		t.Fatalf("retention: %q %+v", got, s.Events)
	}
}

// TestKiloRemoteControlLog: only the remote control lines of a Kilo log
// give rows (the token masked); every other line is a counted skip.
func TestKiloRemoteControlLog(t *testing.T) {
	in := kiloInput(t, "testdata/kilo/kilo.log", kiloHome+"/.local/share/kilo/log/2026-11-29T181428.log", "logs", nil)
	s := parsertest.Golden(t, byTarget(t, agentKilo, "logs"), in, "testdata/kilo_log.golden.jsonl")
	want := []string{
		"remote control: remote-ws connecting [connectionId=6f1c gen=1 endpoint=wss://ingest.kilosessions.ai/api/user/cli?token=***&connectionId=6f1c] (info, service kilo-sessions)",
		"remote control: remote-ws connected [gen=1 buffered=0] (info, service kilo-sessions)",
		"remote control: remote connection enabled [connected=true] (info, service kilo-sessions)",
		"remote control: Unable to enable remote: no Kilo credentials found. remote not enabled [error=Error:] (warn, service kilo-sessions)",
		"remote control: remote connection disabled (info, service kilo-sessions)",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if s.Events[0].TimeString() != "2026-11-29T18:14:34.000Z" || s.Events[0].SourceLine != 3 {
		t.Errorf("first row: %+v", s.Events[0])
	}
	if sk := s.SkipCounts(); len(sk) != 1 || sk["no_evidence:log line"] != 3 {
		t.Errorf("skips: %v", s.Skips)
	}
	// the lines of the real Kilo 7.7.7 runs hold no remote control line
	root, _ := realRoot(t)
	logs, _ := filepathGlob(root, "home/*/.local/share/kilo/log/*.log")
	if len(logs) != 8 {
		t.Fatalf("real Kilo logs: %v", logs)
	}
	for _, l := range logs {
		rs := parsertest.Run(t, byTarget(t, agentKilo, "logs"), kiloInput(t, l, kiloHome+"/.local/share/kilo/log/"+baseName(l), "logs", nil))
		if len(rs.Events) != 0 || len(rs.Problems) != 0 || len(rs.Skips) == 0 {
			t.Errorf("%s: %d rows %v problems %d skips", l, len(rs.Events), rs.Problems, len(rs.Skips))
		}
	}
}

// TestTUISession: session.json lists the pinned, dismissed and recently
// opened sessions (OpenCode) or the pinned ones (Kilo): secondary system
// rows of those sessions at the file's mtime.
func TestTUISession(t *testing.T) {
	in := fileInput(t, "testdata/kilo/session.json", "/home/examiner/.local/state/opencode/session.json", agentOpenCode, "tui-state")
	p := byID(t, "opencode/tui-state")
	if !p.Match(&in.File) {
		t.Fatal("no match")
	}
	s := parsertest.Golden(t, p, in, "testdata/tui_session.golden.jsonl")
	type row struct{ sess, text string }
	var got []row
	for _, e := range s.Events {
		if !e.Secondary || e.TurnType != timeline.System || e.TimeBasis != timeline.TimeFileMTime {
			t.Errorf("row: %+v", e)
		}
		got = append(got, row{e.SessionID, e.Text})
	}
	want := []row{
		{"ses_p1", "session pinned in the TUI (from session.json, file mtime)"},
		{"ses_p2", "session pinned in the TUI (from session.json, file mtime)"},
		{"ses_d1", "session dismissed from the TUI's recent list (from session.json, file mtime)"},
		{"ses_r1", "session opened in the TUI: rank 1 of 2 in the recent list (from session.json, file mtime)"},
		{"ses_p1", "session opened in the TUI: rank 2 of 2 in the recent list (from session.json, file mtime)"},
	}
	if len(got) != len(want) {
		t.Fatalf("rows: %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	k := kiloInput(t, "testdata/kilo/kilo_session.json", kiloHome+"/.local/state/kilo/session.json", "prompt-history", nil)
	ks := parsertest.Run(t, byTarget(t, agentKilo, "prompt-history"), k)
	if got := texts(ks); len(got) != 1 || got[0] != "session pinned in the TUI (from session.json, file mtime)" || ks.Events[0].SessionID != "ses_k1" {
		t.Fatalf("kilo session.json: %q", got)
	}
}
