package openclaw

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home  = "/home/examiner"
	dot   = home + "/.openclaw"
	agent = dot + "/agents/main/agent/openclaw-agent.sqlite"
	state = dot + "/state/openclaw.sqlite"
)

// realRoot is the real-agents-4 fixture's OpenClaw folder (written by
// openclaw 2026.9.6, scripts/gen-real-fixtures-4.sh).
var realRoot = filepath.Join("..", "..", "..", "fixtures", "roots", "real-agents-4", "home", "examiner4", ".openclaw")

var mtime = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func input(t *testing.T, id, local, orig, target string) (parser.Parser, *parser.Input) {
	t.Helper()
	p := byID(t, id)
	f := parser.File{Path: orig, Rel: strings.TrimPrefix(orig, home+"/"), Agent: Agent, Target: target, MTime: mtime}
	if strings.HasSuffix(local, "openclaw.json") || strings.Contains(local, "config") {
		f.Kind, f.Secret = "secret", true
	}
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s (target %s)", id, orig, target)
	}
	return p, parsertest.Input(t, local, f, nil)
}

func realFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(realRoot, rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("real-agents-4 fixture file missing: %v", err)
	}
	return p
}

func run(t *testing.T, id, local, orig, target string) *parsertest.Sink {
	t.Helper()
	p, in := input(t, id, local, orig, target)
	return parsertest.Run(t, p, in)
}

func find(s *parsertest.Sink, tt timeline.TurnType, sub string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			out = append(out, e)
		}
	}
	return out
}

func one(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	got := find(s, tt, sub)
	if len(got) != 1 {
		t.Fatalf("%d %s rows containing %q, want 1", len(got), tt, sub)
	}
	return got[0]
}

func TestGoldens(t *testing.T) {
	for _, c := range []struct{ id, local, orig, target, name string }{
		{"openclaw/agent-db", realFile(t, "agents/main/agent/openclaw-agent.sqlite"), agent, "agent-db", "agent_db_real"},
		{"openclaw/agent-db", parsertest.SQLite(t, "testdata/agent_quirks.sql"), agent, "agent-db", "agent_db_quirks"},
		{"openclaw/state-db", realFile(t, "state/openclaw.sqlite"), state, "state-db", "state_db_real"},
		{"openclaw/state-db", parsertest.SQLite(t, "testdata/state_quirks.sql"), state, "state-db", "state_db_quirks"},
		{"openclaw/quarantine-db", parsertest.SQLite(t, "testdata/quarantine.sql"), dot + "/state/openclaw-quarantine.sqlite", "quarantine-db", "quarantine"},
		{"openclaw/quarantine-db", realFile(t, "state/openclaw-quarantine.sqlite"), dot + "/state/openclaw-quarantine.sqlite", "quarantine-db", "quarantine_real"},
		{"openclaw/config", realFile(t, "openclaw.json"), dot + "/openclaw.json", "config", "config_real"},
		{"openclaw/config", realFile(t, "openclaw.json.bak"), dot + "/openclaw.json.bak", "config", "config_real_bak"},
		{"openclaw/config", "testdata/config_channels.json", dot + "/openclaw.json", "config", "config_channels"},
		{"openclaw/session", "testdata/legacy.jsonl", dot + "/agents/main/sessions/0b6f4c1e-aaaa-4e55-9a51-3c1f2f9d8e10.jsonl", "sessions", "session_legacy"},
		{"openclaw/session", "testdata/legacy_reset.jsonl", dot + "/agents/main/sessions/0b6f4c1e-aaaa-4e55-9a51-3c1f2f9d8e10.jsonl.reset.2026-02-02T00-00-00.000Z", "sessions", "session_reset"},
		{"openclaw/session", "testdata/legacy_cold.jsonl.zst", dot + "/agents/main/sessions/cold/0b6f4c1e-aaaa-4e55-9a51-3c1f2f9d8e10.jsonl.zst", "sessions", "session_cold"},
		{"openclaw/session", "testdata/empty.jsonl", dot + "/agents/main/sessions/e.jsonl", "sessions", "session_empty"},
		{"openclaw/session", "testdata/malformed.jsonl", dot + "/agents/main/sessions/m.jsonl", "sessions", "session_malformed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, in := input(t, c.id, c.local, c.orig, c.target)
			parsertest.Golden(t, p, in, "testdata/"+c.name+".golden.jsonl")
		})
	}
}

// The real 2026.9.6 database: every scenario's typed prompt is a user row
// with its project path, the resume's model switch is a row, the refused
// exec is an error result followed by a decision, every transcript row
// carries its entry id, and the trajectory's copies are secondary.
func TestRealAgentDB(t *testing.T) {
	s := run(t, "openclaw/agent-db", realFile(t, "agents/main/agent/openclaw-agent.sqlite"), agent, "agent-db")
	if len(s.Problems) != 0 {
		t.Errorf("problems: %v", s.Problems)
	}
	for _, p := range []string{
		"Run the shell command `echo doubleagent-openclaw-marker && date -u +%Y` and tell me what it printed.",
		"Run the shell command `echo doubleagent-openclaw-resumed` and tell me what it printed.",
		"Create the file `/home/examiner4/demo/openclaw-notes.txt` containing `doubleagent-openclaw-edit` and tell me when it is done.",
		"Run the shell command `echo doubleagent-openclaw-denied > denied.txt` and tell me what it printed.",
	} {
		var primary, secondary int
		for _, e := range find(s, timeline.User, p) {
			if e.Text != p || e.ProjectPath != "/home/examiner4/demo" {
				t.Errorf("user row %q project %q", e.Text, e.ProjectPath)
			}
			if e.Secondary {
				secondary++
				continue
			}
			primary++
			if len(e.RecordID) != 36 {
				t.Errorf("user row record id %q, want the entry uuid", e.RecordID)
			}
		}
		if primary != 1 || secondary != 1 {
			t.Errorf("%q: %d primary and %d secondary user rows, want 1 and 1", p, primary, secondary)
		}
	}
	sw := one(t, s, timeline.System, "model: mock-coder -> mock-coder-2")
	if sw.Text != "model: mock-coder -> mock-coder-2 provider=mock" || sw.SessionID != "1fe415b6-3a78-4701-b84a-f30c8a364092" {
		t.Errorf("model switch %+v", sw)
	}
	var res timeline.Event
	for _, e := range find(s, timeline.ToolResult, "Exec denied") {
		if !e.Secondary {
			res = e
		}
	}
	if res.IsError != "true" || res.ToolName != "exec" || res.ToolUseID != "call_mockf4fe1662405a49863b3b8118" {
		t.Errorf("denied result %+v", res)
	}
	d := one(t, s, timeline.System, "permission decision: denied")
	if d.Text != "permission decision: denied source=exec-approvals code=SYSTEM_RUN_DENIED reason=approval cannot safely bind this command" ||
		d.ToolUseID != res.ToolUseID || d.RecordID != res.RecordID+"#decision" {
		t.Errorf("decision %+v (result record %q)", d, res.RecordID)
	}
	for _, e := range s.Events {
		if !e.Secondary && e.RecordID == "" {
			t.Errorf("primary row without a record id: %+v", e)
		}
	}
	if c := s.SkipCounts(); c["copy_in_transcript"] != 12 || c["no_evidence:custom:openclaw.cache-ttl"] != 5 {
		t.Errorf("skips %v", c)
	}
}

// Each quirk of the synthetic database, with its exact value.
func TestAgentDBQuirks(t *testing.T) {
	s := run(t, "openclaw/agent-db", parsertest.SQLite(t, "testdata/agent_quirks.sql"), agent, "agent-db")
	// A zstd-compressed row is read like event_json.
	z := one(t, s, timeline.Assistant, "stored zstd-compressed")
	if z.RecordID != "p-e6#1" || z.Model != "claude-opus-4-6" {
		t.Errorf("zstd row %+v", z)
	}
	// The subagent's task is a system row, its rows carry the parent.
	task := one(t, s, timeline.System, "subagent task: ")
	if task.Text != "subagent task: Run the tests" || task.SessionID != "s-2222" || task.ParentSessionID != "p-1111" {
		t.Errorf("subagent task %+v", task)
	}
	sub := one(t, s, timeline.System, "subagent s-2222 of p-1111")
	if sub.ParentSessionID != "p-1111" || sub.RecordID != "s-2222#subagent" {
		t.Errorf("subagent row %+v", sub)
	}
	if a := one(t, s, timeline.Assistant, "All 12 tests pass."); a.ParentSessionID != "p-1111" {
		t.Errorf("subagent assistant row parent %q", a.ParentSessionID)
	}
	var parentState bool
	for _, st := range s.States {
		if st.Key.SessionID == "s-2222" && st.ParentSessionID == "p-1111" {
			parentState = true
		}
	}
	if !parentState {
		t.Errorf("no session state linking s-2222 to p-1111: %+v", s.States)
	}
	// A child's completion report is not typed text.
	if r := one(t, s, timeline.System, "tests passed"); r.Text != "inter-session message from agent:main:subagent:abc via subagent_announce: tests passed" {
		t.Errorf("completion report %q", r.Text)
	}
	if u := find(s, timeline.User, "tests passed"); len(u) != 0 {
		t.Errorf("completion report as user row: %+v", u)
	}
	// A channel message from someone other than the owner is still typed.
	if c := one(t, s, timeline.User, "what is on my calendar?"); c.SessionID != "c-3333" {
		t.Errorf("channel prompt %+v", c)
	}
	// A refused exec: error result, then the decision.
	if d := one(t, s, timeline.System, "permission decision"); d.Text != "permission decision: denied source=exec-approvals code=SYSTEM_RUN_DENIED reason=approval timed out" || d.ToolUseID != "call_rm" {
		t.Errorf("decision %+v", d)
	}
	// A prompt that never reached the transcript is a user row and says so.
	q := one(t, s, timeline.User, "are you there?")
	if q.RecordID != "in-1" || q.SessionID != "c-3333" {
		t.Errorf("pending prompt %+v", q)
	}
	if n := one(t, s, timeline.System, "prompt accepted but not in the transcript"); n.Text != "prompt accepted but not in the transcript: state=queued run run-c1" {
		t.Errorf("pending note %q", n.Text)
	}
	// The search index keeps an entry the transcript lost: secondary.
	lost := one(t, s, timeline.User, "a prompt the transcript lost")
	if !lost.Secondary || lost.RecordID != "lost-1" || !lost.Time.Equal(time.UnixMilli(1775037606500).UTC()) {
		t.Errorf("lost entry %+v", lost)
	}
	// A deleted transcript stays: the archive row, then its entries.
	del := one(t, s, timeline.System, "transcript deleted")
	if del.Text != "transcript deleted: archive d-4444.jsonl.deleted.2026-03-31T00-00-00.000Z.zst (zstd, sha256 0000000000000000000000000000000000000000000000000000000000000000), not published (2 attempts, last error: EACCES: permission denied)" {
		t.Errorf("archive row %q", del.Text)
	}
	if u := one(t, s, timeline.User, "copy the customer database"); u.SessionID != "d-4444" || u.ProjectPath != "/home/examiner/secret-project" || u.RecordID != "d-e1" {
		t.Errorf("archived prompt %+v", u)
	}
	one(t, s, timeline.System, "session forgotten from memory (agent main): session deleted")
	one(t, s, timeline.System, "session p-5555 follows p-1111 (reason reset, key agent:main:main)")
	one(t, s, timeline.System, "session relayed: channel=telegram account=default chat=direct")
	one(t, s, timeline.System, "session relayed: conversation conv-1 (primary) channel=telegram account=default kind=direct peer=42 target=telegram:42 label=\"Alice\"")
	one(t, s, timeline.System, "channel reply to op-1 (message tg-101): thanks!")
	one(t, s, timeline.System, "channel send rejected: conversation conv-1 (rejected: bot was blocked by the user)")
	one(t, s, timeline.System, "model override: anthropic/claude-opus-4-6")
	one(t, s, timeline.System, "permission setting: permissionMode=auto")
	one(t, s, timeline.System, "session archived (session agent:main:main)")
	// Secrets never reach a row.
	out := string(parsertest.Render(s))
	for _, secret := range []string{"SECRETSHARETOKEN", "sk-ant-doubleagentSECRET"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q in output", secret)
		}
	}
	want := []string{"line 7: entry is not a JSON object: invalid character 'n' looking for beginning of object key string"}
	if strings.Join(s.Problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems %q", s.Problems)
	}
}

func TestStateDBQuirks(t *testing.T) {
	s := run(t, "openclaw/state-db", parsertest.SQLite(t, "testdata/state_quirks.sql"), state, "state-db")
	one(t, s, timeline.System, "permission setting: exec approvals (current) security=allowlist ask=on-miss askFallback=deny autoAllowSkills=false, 1 agent(s), 2 allowlist entr(ies); approval socket token set (not shown)")
	one(t, s, timeline.System, "permission setting: exec allowlist agent main /usr/bin/git (last used: git status)")
	one(t, s, timeline.System, "permission setting: exec approvals agent main security=allowlist ask=always askFallback=")
	d := one(t, s, timeline.System, "permission decision: deny")
	if d.Text != "permission decision: deny (denied, user) by device phone-1" || d.ToolUseID != "call_rm" || d.SessionID != "p-1111" || d.RecordID != "ap-1#decision" {
		t.Errorf("decision %+v", d)
	}
	one(t, s, timeline.System, "permission decision: allow-once (allowed, user) by channel; used 2026-04-01T10:00:12.000Z by run-p1")
	if p := find(s, timeline.System, "permission request (plugin)"); len(p) != 1 || len(find(s, timeline.System, "permission decision: ( ")) != 0 {
		t.Errorf("pending request rows %+v", p)
	}
	one(t, s, timeline.System, "config audit: config.write /home/examiner/.openclaw/openclaw.json by `node openclaw config set tools.exec.mode full` in /home/examiner; changed tools.exec.mode; flagged missing-meta-before-write")
	one(t, s, timeline.System, "session synced: GitHub publication request")
	one(t, s, timeline.System, "subagent run run-s1: session key agent:main:subagent:abc spawned by agent:main:main")
	out := string(parsertest.Render(s))
	for _, secret := range []string{"SOCKETTOKEN", "XYZSECRET", "ABCSECRET"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q in output", secret)
		}
	}
}

// The socket token of the real exec approvals document never leaves it.
func TestRealStateDBNoToken(t *testing.T) {
	s := run(t, "openclaw/state-db", realFile(t, "state/openclaw.sqlite"), state, "state-db")
	one(t, s, timeline.System, "permission setting: exec approvals (current) security=allowlist ask=on-miss askFallback=deny")
	if out := string(parsertest.Render(s)); strings.Contains(out, `"token"`) || strings.Contains(out, "socket\":") {
		t.Errorf("socket material in output:\n%s", out)
	}
}

func TestConfigSecretsNeverInRows(t *testing.T) {
	s := run(t, "openclaw/config", "testdata/config_channels.json", dot+"/openclaw.json", "config")
	out := string(parsertest.Render(s))
	for _, secret := range []string{"ENVTOKEN", "CONFIGKEY", "BOTTOKEN", "xapp-secret", "GITHUB_TOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("secret %q in output", secret)
		}
	}
	one(t, s, timeline.System, "permission setting: tools.exec.mode=full")
	one(t, s, timeline.System, "channel configured: slack (disabled)")
}

func TestSessionFileKind(t *testing.T) {
	for in, want := range map[string][2]string{
		"/x/abc.jsonl": {"abc", ""},
		"/x/abc.jsonl.reset.2026-01-01T00-00-00.000Z":     {"abc", "reset archive"},
		"/x/abc.jsonl.deleted.2026-01-01T00-00-00Z.zst":   {"abc", "deleted archive"},
		"/x/abc.checkpoint.1234.jsonl":                    {"abc", "compaction checkpoint"},
		"/x/abc.jsonl.pre-doctor-tool-repair-2026-01.bak": {"abc", "pre-doctor repair backup"},
		"/x/cold/abc.jsonl.zst":                           {"abc", ""},
	} {
		sid, kind := sessionFileKind(in)
		if sid != want[0] || kind != want[1] {
			t.Errorf("sessionFileKind(%q) = %q, %q; want %q, %q", in, sid, kind, want[0], want[1])
		}
	}
}

// An agent database with no tables gives no rows and no problem; a state
// or quarantine database with none of its tables is one problem naming
// them (CheckStore); a file that is not SQLite is an error (a problem row
// for the file).
func TestEmptyAndNotAStore(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.sqlite")
	db, err := os.Create(empty)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	text := filepath.Join(dir, "text.sqlite")
	if err := os.WriteFile(text, []byte("this is not a database, it is a note\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, orig, target, empty string }{
		{"openclaw/agent-db", agent, "agent-db", "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where an OpenClaw agent database should be: nothing to read"},
		{"openclaw/state-db", state, "state-db", "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where an OpenClaw state database should be: nothing to read"},
		{"openclaw/quarantine-db", dot + "/state/openclaw-quarantine.sqlite", "quarantine-db", "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where an OpenClaw quarantine database should be: nothing to read"},
	} {
		s := run(t, c.id, empty, c.orig, c.target)
		if len(s.Events) != 0 || strings.Join(s.Problems, "|") != c.empty || len(s.Skips) != 0 {
			t.Errorf("%s on an empty database: %d rows, problems %v, skips %v", c.id, len(s.Events), s.Problems, s.Skips)
		}
		s = run(t, c.id, text, c.orig, c.target)
		if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "error: ") || !strings.Contains(s.Problems[0], "not a database") {
			t.Errorf("%s on a text file: %d rows, problems %v", c.id, len(s.Events), s.Problems)
		}
	}
	// A config that is not JSON: one problem, its content never quoted.
	bad := filepath.Join(dir, "openclaw.json")
	if err := os.WriteFile(bad, []byte(`{"apiKey": "sk-doubleagentBADCONFIG0123456789", oops`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := run(t, "openclaw/config", bad, dot+"/openclaw.json", "config")
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 1: openclaw.json is not valid JSON" {
		t.Errorf("bad config: %d rows, problems %v", len(s.Events), s.Problems)
	}
}

// TestStateDBUnknownSchema: a copy of the real state store (openclaw
// 2026.9.6) whose exec_approvals_config lacks raw_json (renamed with
// modernc sqlite on the copy): one problem names the table and the
// column, that table gives no rows, and every other row of the real store
// is still read.
func TestStateDBUnknownSchema(t *testing.T) {
	src, err := os.ReadFile(realFile(t, "state/openclaw.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "openclaw.sqlite")
	if err := os.WriteFile(p, src, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`ALTER TABLE exec_approvals_config RENAME COLUMN raw_json TO raw_document`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	full := run(t, "openclaw/state-db", realFile(t, "state/openclaw.sqlite"), state, "state-db")
	s := run(t, "openclaw/state-db", p, state, "state-db")
	want := "line 0: unknown schema: table exec_approvals_config lacks column(s) raw_json: not read; the other tables are read"
	if len(s.Problems) != 1 || s.Problems[0] != want {
		t.Fatalf("problems %q, want [%q]", s.Problems, want)
	}
	fromTable := 0
	kept := map[string]bool{}
	for _, e := range full.Events {
		if strings.HasPrefix(e.RecordID, "exec-approvals:") {
			fromTable++
			continue
		}
		kept[e.RecordID+"\x00"+e.Text] = true
	}
	if fromTable == 0 || len(kept) == 0 {
		t.Fatalf("the real store has %d exec approvals rows and %d others: the test reads nothing", fromTable, len(kept))
	}
	if len(s.Events) != len(full.Events)-fromTable {
		t.Errorf("%d rows, want %d (the real store's %d less the %d of the table not read)", len(s.Events), len(full.Events)-fromTable, len(full.Events), fromTable)
	}
	for _, e := range s.Events {
		if !kept[e.RecordID+"\x00"+e.Text] {
			t.Errorf("row not in the real store's other tables: %+v", e)
		}
	}
}

// TestAgentDBSchema (issue 25), on copies of the quirks store: without
// conversation_deliveries it is one problem naming it and every row of
// the other tables is there; a memory_session_tombstones without
// session_id (renamed: a key column cannot be dropped) names table and
// column, and every other row is there.
func TestAgentDBSchema(t *testing.T) {
	full := run(t, "openclaw/agent-db", parsertest.SQLite(t, "testdata/agent_quirks.sql"), agent, "agent-db")
	render := func(s *parsertest.Sink, drop func(timeline.Event) bool) string {
		var b strings.Builder
		for _, e := range s.Events {
			if !drop(e) {
				b.WriteString(string(e.TurnType) + " " + e.SessionID + " " + e.RecordID + " " + e.Text + "\n")
			}
		}
		return b.String()
	}
	none := func(timeline.Event) bool { return false }
	for _, c := range []struct {
		stmt, problem string
		gone          func(timeline.Event) bool
	}{
		{`DROP TABLE conversation_deliveries`, "line 0: table conversation_deliveries missing: its rows cannot be read; the other tables are read",
			func(e timeline.Event) bool { return strings.HasPrefix(e.RecordID, "delivery:") }},
		{`ALTER TABLE memory_session_tombstones RENAME COLUMN session_id TO sid`, "line 0: unknown schema: table memory_session_tombstones lacks column(s) session_id: not read; the other tables are read",
			func(e timeline.Event) bool { return strings.HasSuffix(e.RecordID, "#tombstone") }},
	} {
		s := run(t, "openclaw/agent-db", parsertest.SQLiteAltered(t, "testdata/agent_quirks.sql", c.stmt), agent, "agent-db")
		if want := append([]string{c.problem}, full.Problems...); strings.Join(s.Problems, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: problems:\n%s", c.stmt, strings.Join(s.Problems, "\n"))
		}
		gone := 0
		for _, e := range full.Events {
			if c.gone(e) {
				gone++
			}
		}
		if got, want := render(s, none), render(full, c.gone); gone == 0 || got != want {
			t.Errorf("%s: %d rows gone; rows:\n%s\nwant:\n%s", c.stmt, gone, got, want)
		}
	}
}
