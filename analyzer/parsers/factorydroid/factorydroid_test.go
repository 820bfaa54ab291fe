package factorydroid

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

const home = "/home/examiner5/"

func input(t *testing.T, file, rel, target string, related parsertest.Files) *parser.Input {
	return parsertest.Input(t, "testdata/"+file, parser.File{Path: home + rel, Rel: rel, Agent: Agent, Target: target, MTime: mtime}, related)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct{ id, file, rel, target string }{
		{"factory-droid/session", "real-resume.jsonl", ".factory/sessions/-home-examiner5-demo/96f80e95-50e3-4d2b-b718-6849f5101f6e.jsonl", "sessions"},
		{"factory-droid/session", "real-denied.jsonl", ".factory/sessions/-home-examiner5-demo/b3509610-d945-4bb3-830c-25e387c64fec.jsonl", "sessions"},
		{"factory-droid/session", "quirks.jsonl", ".factory/sessions/-w/s-quirk.jsonl", "sessions"},
		{"factory-droid/session", "empty.jsonl", ".factory/sessions/-w/empty.jsonl", "sessions"},
		{"factory-droid/session-settings", "real.settings.json", ".factory/sessions/-home-examiner5-demo/96f80e95-50e3-4d2b-b718-6849f5101f6e.settings.json", "session-settings"},
		{"factory-droid/session-settings", "real.settings.json.bak", ".factory/sessions/-home-examiner5-demo/96f80e95-50e3-4d2b-b718-6849f5101f6e.settings.json.bak", "session-settings"},
		{"factory-droid/settings", "settings.json", ".factory/settings.json", "settings"},
		{"factory-droid/settings", "malformed.json", ".factory/settings.json", "settings"},
		{"factory-droid/history", "history.json", ".factory/state/history.json", "history"},
		{"factory-droid/session-index", "session-discovery-index.json", ".factory/cache/session-discovery-index.json", "session-discovery"},
		{"factory-droid/droids", "droid.md", ".factory/droids/scrutiny-feature-reviewer.md", "droids"},
		{"factory-droid/state", "state.json", ".factory/state/background-processes.json", "state"},
		{"factory-droid/log", "droid-log-single.log", ".factory/logs/droid-log-single.log", "logs"},
	} {
		name := strings.TrimPrefix(c.id, "factory-droid/") + "-" + c.file
		t.Run(name, func(t *testing.T) {
			p := byID(t, c.id)
			in := input(t, c.file, c.rel, c.target, nil)
			if !p.Match(&in.File) {
				t.Fatalf("%s does not match %s", c.id, c.rel)
			}
			parsertest.Golden(t, p, in, "testdata/"+name+".golden.jsonl")
		})
	}
}

func find(s *parsertest.Sink, tt timeline.TurnType, prefix string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.HasPrefix(e.Text, prefix) {
			out = append(out, e)
		}
	}
	return out
}

// The message droid injects before the prompt (id context-<prompt id>,
// <system-reminder> blocks) is system context; only the typed prompt is a
// user row.
func TestInjectedReminderIsNotUser(t *testing.T) {
	s := parsertest.Run(t, byID(t, "factory-droid/session"), input(t, "real-resume.jsonl", ".factory/sessions/-home-examiner5-demo/96f80e95-50e3-4d2b-b718-6849f5101f6e.jsonl", "sessions", nil))
	users := find(s, timeline.User, "")
	if len(users) != 2 || users[0].Text != "Run the shell command `echo doubleagent-droid-marker && date -u +%Y` and tell me what it printed." ||
		users[1].Text != "Run the shell command `echo doubleagent-droid-resumed` and tell me what it printed." {
		t.Fatalf("user rows %+v", users)
	}
	// Seven blocks, two of them elided by the fixture's sanitizer; the
	// resume injected none.
	var ctx []timeline.Event
	for _, e := range s.Events {
		if strings.HasPrefix(e.RecordID, "context-") {
			ctx = append(ctx, e)
		}
	}
	if len(ctx) != 7 || ctx[0].TurnType != timeline.System || ctx[6].RecordID != "context-8dbd27a5-f87d-4523-88ef-7af1e8ccf8f1#6" || len(find(s, timeline.System, "<system-reminder>")) != 5 {
		t.Fatalf("%d context rows", len(ctx))
	}
}

// A resume with --model writes the new model on the appended messages:
// one "model: <old> -> <new>" row.
func TestModelSwitch(t *testing.T) {
	s := parsertest.Run(t, byID(t, "factory-droid/session"), input(t, "real-resume.jsonl", ".factory/sessions/-home-examiner5-demo/96f80e95-50e3-4d2b-b718-6849f5101f6e.jsonl", "sessions", nil))
	got := find(s, timeline.System, "model: ")
	if len(got) != 2 || got[0].Text != "model: custom:Mock-Coder-0 reasoning=none" ||
		got[1].Text != "model: custom:Mock-Coder-0 -> custom:Mock-Coder-2-0 reasoning=none" || got[1].Model != "custom:Mock-Coder-2-0" {
		t.Fatalf("model rows %+v", got)
	}
	if got[1].Time != parsertest.Time(t, "2026-12-01T14:40:37.513Z") {
		t.Errorf("switch at %s", got[1].Time)
	}
}

// A commandDenylist refusal: the error result, a permission decision row
// linked to the call, and droid's own closing text as a system row.
func TestDenial(t *testing.T) {
	s := parsertest.Run(t, byID(t, "factory-droid/session"), input(t, "real-denied.jsonl", ".factory/sessions/-home-examiner5-demo/b3509610-d945-4bb3-830c-25e387c64fec.jsonl", "sessions", nil))
	calls := find(s, timeline.ToolUse, "Execute: echo doubleagent-droid-denied")
	if len(calls) != 1 || calls[0].ToolInput != `{"command":"echo doubleagent-droid-denied","riskLevel":"low","riskLevelReason":"mock answer","summary":"mock answer"}` {
		t.Fatalf("calls %+v", calls)
	}
	res := find(s, timeline.ToolResult, "Error: Exec ended early")
	if len(res) != 1 || res[0].IsError != "true" || res[0].ToolUseID != calls[0].ToolUseID {
		t.Fatalf("results %+v", res)
	}
	dec := find(s, timeline.System, "permission decision: reject (Exec ended early: insufficient permission to proceed. Re-run with --skip-permissions-unsafe.)")
	if len(dec) != 1 || dec[0].ToolUseID != calls[0].ToolUseID || !strings.HasSuffix(dec[0].RecordID, "#decision") {
		t.Fatalf("decision %+v", dec)
	}
	if h := find(s, timeline.System, "droid: Exec ended early"); len(h) != 1 || h[0].Model != "" {
		t.Fatalf("harness text %+v", h)
	}
	if n := len(find(s, timeline.Assistant, "Exec ended early")); n != 0 {
		t.Errorf("droid's own text given as %d assistant row(s)", n)
	}
}

// Every line is accounted for: a bad line is a problem, an empty message a
// skip, an unknown record kind a system row with its JSON.
func TestQuirks(t *testing.T) {
	s := parsertest.Run(t, byID(t, "factory-droid/session"), input(t, "quirks.jsonl", ".factory/sessions/-w/s-quirk.jsonl", "sessions", nil))
	if len(s.Problems) != 2 || s.Problems[0] != "line 2: malformed JSON line (cut short or corrupt), skipped: invalid character 'o' in literal null (expecting 'u')" || s.Problems[1] != "line 8: skipped_record: message record without a message" {
		t.Fatalf("problems %v", s.Problems)
	}
	if k := s.SkipCounts(); k["empty_message"] != 1 || len(k) != 1 {
		t.Fatalf("skips %v", k)
	}
	if u := find(s, timeline.User, "typed as a plain string"); len(u) != 1 || u[0].SessionID != "s-quirk" || u[0].ProjectPath != "/w" {
		t.Fatalf("string content %+v", u)
	}
	if th := find(s, timeline.Thinking, "let me think"); len(th) != 1 || th[0].RecordID != "m2#0" || th[0].Model != "claude-x" {
		t.Fatalf("thinking %+v", th)
	}
	if r := find(s, timeline.ToolResult, "a.txt"); len(r) != 1 || r[0].IsError != "false" || r[0].ToolUseID != "t1" {
		t.Fatalf("result from blocks %+v", r)
	}
	if c := find(s, timeline.System, "record compaction_summary: "); len(c) != 1 || c[0].Time != parsertest.Time(t, "2026-01-02T03:04:08Z") {
		t.Fatalf("unknown kind %+v", c)
	}
	if o := find(s, timeline.System, "turn outcome: cancelled"); len(o) != 1 || o[0].TimeBasis != timeline.TimeInherited || o[0].Time != parsertest.Time(t, "2026-01-02T03:04:09Z") {
		t.Fatalf("outcome %+v", o)
	}
	st := find(s, timeline.System, "session start: s-quirk cwd=/w owner=o title=t version=2")
	if len(st) != 1 || st[0].TimeBasis != timeline.TimeInherited || st[0].Time != parsertest.Time(t, "2026-01-02T03:04:05Z") {
		t.Fatalf("session start %+v", st)
	}
}

// settings.json carries API keys: never in a row.
func TestSettingsNoSecret(t *testing.T) {
	s := parsertest.Run(t, byID(t, "factory-droid/settings"), input(t, "settings.json", ".factory/settings.json", "settings", nil))
	var texts []string
	for _, e := range s.Events {
		texts = append(texts, e.Text)
		if strings.Contains(e.Text, "dummy") {
			t.Errorf("api key value in %q", e.Text)
		}
	}
	want := []string{
		`permission setting: commandDenylist=["echo doubleagent-droid-denied"] (from .factory/settings.json, file mtime)`,
		`model setting: custom model displayName="Mock Coder" model=mock-coder provider=generic-chat-completion-api baseUrl=http://127.0.0.1:39921/v1 apiKey=(set, not shown) (from .factory/settings.json, file mtime)`,
		`model setting: custom model displayName="Mock Coder 2" model=mock-coder-2 provider=generic-chat-completion-api baseUrl=http://127.0.0.1:39921/v1 apiKey=(set, not shown) (from .factory/settings.json, file mtime)`,
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(texts, "\n"))
	}
}

// The TUI history is secondary, timed, without a session; a slash command
// is not a prompt; a blank entry is skipped.
func TestHistory(t *testing.T) {
	p := byID(t, "factory-droid/history")
	if sp := p.(parser.Specced).Spec(); sp.Secondary == nil || sp.Secondary.Window != time.Minute {
		t.Fatal("history must declare a one-minute Secondary window")
	}
	s := parsertest.Run(t, p, input(t, "history.json", ".factory/state/history.json", "history", nil))
	if len(s.Events) != 2 || s.Events[0].TurnType != timeline.User || s.Events[0].Text != "fix the bug in main.go" || !s.Events[0].Secondary ||
		s.Events[0].Time != parsertest.Time(t, "2026-01-02T03:04:05.120Z") || s.Events[1].Text != "typed command: /model" || s.Events[1].TurnType != timeline.System {
		t.Fatalf("rows %+v", s.Events)
	}
	if s.SkipCounts()["empty_prompt"] != 1 {
		t.Fatalf("skips %v", s.Skips)
	}
}

// The discovery index speaks only for sessions whose transcript is gone.
func TestDiscoveryIndexOnlyForMissingTranscripts(t *testing.T) {
	p := byID(t, "factory-droid/session-index")
	rel := ".factory/sessions/-home-examiner5-demo/"
	all := parsertest.Files{
		home + rel + "96f80e95-50e3-4d2b-b718-6849f5101f6e.jsonl": "testdata/real-resume.jsonl",
		home + rel + "b3509610-d945-4bb3-830c-25e387c64fec.jsonl": "testdata/real-denied.jsonl",
		home + rel + "baede0c4-4bae-4165-83fe-ff38d6e5b831.jsonl": "testdata/real-denied.jsonl",
	}
	s := parsertest.Run(t, p, input(t, "session-discovery-index.json", ".factory/cache/session-discovery-index.json", "session-discovery", all))
	if len(s.Events) != 0 || s.SkipCounts()["indexed_session_collected"] != 3 {
		t.Fatalf("all collected: rows %d skips %v", len(s.Events), s.Skips)
	}
	delete(all, home+rel+"baede0c4-4bae-4165-83fe-ff38d6e5b831.jsonl")
	s = parsertest.Run(t, p, input(t, "session-discovery-index.json", ".factory/cache/session-discovery-index.json", "session-discovery", all))
	if len(s.Events) != 1 || s.Events[0].SessionID != "baede0c4-4bae-4165-83fe-ff38d6e5b831" || !s.Events[0].Secondary ||
		!strings.Contains(s.Events[0].Text, "title=\"Create the file `/home/examiner5/demo/droid-notes.txt` containing `doubleagent-droid-edit` and tell me when it is done.\"") {
		t.Fatalf("rows %+v", s.Events)
	}
}
