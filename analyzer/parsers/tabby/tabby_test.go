package tabby

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	home = "/home/alice"
	vol  = "/var/lib/docker/volumes/tabby_data/_data"
)

var mtime = time.Date(2026, 10, 11, 9, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(append(Parsers(), vscodestate.ExtensionStateParsers(StateExtension())...))

func run(t *testing.T, id, local string, f parser.File, golden string) *parsertest.Sink {
	t.Helper()
	p := byID(t, id)
	f.MTime = mtime
	if f.Agent == "" {
		f.Agent = Agent
	}
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s (%s)", id, f.Path, f.Target)
	}
	if strings.HasSuffix(local, ".sql") {
		local = parsertest.SQLite(t, local)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, nil), golden)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name, id, local string
		f               parser.File
	}{
		{"db", "tabby/server-db", "testdata/db.sql", parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db"}},
		{"db_volume", "tabby/server-db", "testdata/db.sql", parser.File{Path: vol + "/ee/db.sqlite", Target: "volume"}},
		{"backup", "tabby/server-db", "testdata/backup.sql", parser.File{Path: home + "/.tabby/ee/db.backup-20260930.sqlite", Target: "server-db"}},
		{"notdb", "tabby/server-db", "testdata/notdb.sql", parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db"}},
		{"events", "tabby/events", "testdata/events.json", parser.File{Path: home + "/.tabby/events/2026-10-06.json", Target: "events"}},
		{"config", "tabby/config", "testdata/config.toml", parser.File{Path: home + "/.tabby/config.toml", Rel: ".tabby/config.toml", Target: "config"}},
		{"jetbrains_history", "tabby/jetbrains-history", "testdata/intellij-tabby-command-history.xml", parser.File{Path: home + "/.config/JetBrains/GoLand2025.1/options/intellij-tabby-command-history.xml", Target: "jetbrains-history"}},
		{"vscode_state", "vscode/extension-state", "testdata/state.sql", parser.File{Path: home + "/.config/Code/User/globalStorage/state.vscdb", Agent: "vscode", Target: "state-db"}},
	} {
		t.Run(c.name, func(t *testing.T) { run(t, c.id, c.local, c.f, "testdata/"+c.name+".golden.jsonl") })
	}
}

func find(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			return e
		}
	}
	t.Fatalf("no %s row containing %q", tt, sub)
	return timeline.Event{}
}

func noSecrets(t *testing.T, s *parsertest.Sink) {
	t.Helper()
	for _, e := range s.Events {
		for _, x := range []string{"SECRET", "NEVER", "argon2", "ghp_"} {
			if strings.Contains(e.Text, x) {
				t.Fatalf("secret %s in row %q", x, e.Text)
			}
		}
	}
}

func TestServerDB(t *testing.T) {
	s := run(t, "tabby/server-db", "testdata/db.sql", parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db"}, "testdata/db.golden.jsonl")
	noSecrets(t, s)
	u := find(t, s, timeline.User, "how does login work?")
	if u.SessionID != "thread-1" || !u.Time.Equal(time.Date(2026, 10, 6, 9, 0, 1, 0, time.UTC)) || u.RecordID != "message-1" || u.SourceLine != 1 || u.ProjectPath != "https://github.com/acme/api" || u.Secondary {
		t.Fatalf("user row %+v", u)
	}
	a := find(t, s, timeline.Assistant, "password hash")
	if !a.Time.Equal(time.Date(2026, 10, 6, 9, 0, 5, 250e6, time.UTC)) {
		t.Fatalf("assistant time %v", a.Time)
	}
	if e := find(t, s, timeline.System, "thread 1:"); e.Text != "thread 1: owner=alice@example.com ephemeral=false" {
		t.Fatalf("thread row %q", e.Text)
	}
	if e := find(t, s, timeline.System, "attachments: code"); e.Text != "attachments: code https://github.com/acme/api auth/login.go:3; doc Auth docs https://docs.acme.dev/auth" {
		t.Fatalf("attachment row %q", e.Text)
	}
	find(t, s, timeline.System, "suggested follow-up questions: How is the token checked? | Where is the session stored?")
	find(t, s, timeline.System, "whose thread row is gone")
	if e := find(t, s, timeline.Assistant, "Tokens are JWTs"); e.SessionID != "page-1" || e.Text != "## Tokens\nTokens are JWTs." {
		t.Fatalf("section row %+v", e)
	}
	if e := find(t, s, timeline.Assistant, "return a + b"); e.RecordID != "cmpl-1#0" || e.ProjectPath != "https://github.com/acme/api" {
		t.Fatalf("completion choice %+v", e)
	}
	find(t, s, timeline.System, "completion cmpl-1 select choice=0 elapsed=1800ms")
	find(t, s, timeline.System, "source host integration: kind=github name=acme GitHub api_base=https://api.github.com synced=true")
	find(t, s, timeline.System, "provided repository: acme/api https://github.com/acme/api active=true (integration acme GitHub)")
	var orphan, skipped bool
	for _, p := range s.Problems {
		orphan = orphan || strings.Contains(p, "orphan_record: thread_messages 3")
		skipped = skipped || strings.Contains(p, `skipped_record: user_events: unknown event kind "mystery"`)
	}
	if !orphan || !skipped {
		t.Fatalf("problems %q", s.Problems)
	}
}

func TestBackupIsSecondary(t *testing.T) {
	s := run(t, "tabby/server-db", "testdata/backup.sql", parser.File{Path: home + "/.tabby/ee/db.backup-20260930.sqlite", Target: "server-db"}, "testdata/backup.golden.jsonl")
	u := find(t, s, timeline.User, "delete the staging database")
	if !u.Secondary || u.SessionID != "thread-9" || u.RecordID != "message-20" {
		t.Fatalf("backup row %+v", u)
	}
	find(t, s, timeline.System, "(from the pre-migration backup db.backup-20260930.sqlite)")
}

func TestEvents(t *testing.T) {
	f := parser.File{Path: home + "/.tabby/events/2026-10-06.json", Target: "events", Agent: Agent, MTime: mtime}
	in := parsertest.Input(t, "testdata/events.json", f, nil)
	s := parsertest.Run(t, byID(t, "tabby/events"), in)
	parsertest.Accounted(t, in, s)
	c := find(t, s, timeline.Assistant, "return a + b")
	if !c.Secondary || !c.Time.Equal(time.UnixMilli(1791277800000).UTC()) || c.SourceLine != 1 {
		t.Fatalf("event row %+v", c)
	}
	// the same rendering as the user_events row, so the pair drops as one
	db := run(t, "tabby/server-db", "testdata/db.sql", parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db"}, "testdata/db.golden.jsonl")
	if d := find(t, db, timeline.System, "completion request cmpl-1"); d.Text != find(t, s, timeline.System, "completion request cmpl-1").Text || !d.Time.Equal(c.Time) {
		t.Fatalf("user_events and event log render differently: %q", d.Text)
	}
}

func TestConfigAndHistories(t *testing.T) {
	s := run(t, "tabby/config", "testdata/config.toml", parser.File{Path: home + "/.tabby/config.toml", Rel: ".tabby/config.toml", Target: "config"}, "testdata/config.golden.jsonl")
	noSecrets(t, s)
	if e := find(t, s, timeline.System, "model.completion.http"); e.Model != "codellama:7b" || e.Text != "model setting: model.completion.http api_endpoint=http://localhost:11434 kind=ollama/completion model_name=codellama:7b (from .tabby/config.toml, file mtime)" {
		t.Fatalf("config row %+v", e)
	}
	j := run(t, "tabby/jetbrains-history", "testdata/intellij-tabby-command-history.xml", parser.File{Path: home + "/.config/JetBrains/GoLand2025.1/options/intellij-tabby-command-history.xml", Target: "jetbrains-history"}, "testdata/jetbrains_history.golden.jsonl")
	if e := find(t, j, timeline.User, "add input validation"); !e.Secondary || e.TimeBasis != timeline.TimeNone || e.SourceLine != 1 {
		t.Fatalf("command row %+v", e)
	}
	v := run(t, "vscode/extension-state", "testdata/state.sql", parser.File{Path: home + "/.config/Code/User/globalStorage/state.vscdb", Agent: "vscode", Target: "state-db"}, "testdata/vscode_state.golden.jsonl")
	if e := find(t, v, timeline.User, "convert to async"); e.Agent != Agent || !e.Secondary {
		t.Fatalf("vscode command row %+v", e)
	}
}

func TestEmpty(t *testing.T) {
	s := run(t, "tabby/events", "testdata/empty.txt", parser.File{Path: home + "/.tabby/events/2026-10-07.json", Target: "events"}, "testdata/empty_events.golden.jsonl")
	if len(s.Events)+len(s.Problems) != 0 {
		t.Fatalf("empty event log: %d rows %q", len(s.Events), s.Problems)
	}
	d := run(t, "tabby/server-db", "testdata/empty.sql", parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db"}, "testdata/empty_db.golden.jsonl")
	if len(d.Events) != 0 || len(d.Problems) != 1 || d.Problems[0] != "line 0: empty_store: empty file: 0 bytes (and no WAL holding a page), where a Tabby server database should be: nothing to read" {
		t.Fatalf("empty database: %d rows %q", len(d.Events), d.Problems)
	}
	j := run(t, "tabby/jetbrains-history", "testdata/empty.txt", parser.File{Path: home + "/.config/JetBrains/GoLand2025.1/options/intellij-tabby-command-history.xml", Target: "jetbrains-history"}, "testdata/empty_jetbrains.golden.jsonl")
	if len(j.Events)+len(j.Problems) != 0 {
		t.Fatalf("empty history: %d rows %q", len(j.Events), j.Problems)
	}
}

// TestServerDBAltered: the one SQLite policy. Without users the one
// problem names it and every row is still there (owners by id); with
// thread_messages lacking content the problem names it and every other
// table's row is there; a thread_messages of a store before migration
// 0040 (no code_source_id) is read without problem, only its code source
// row absent.
func TestServerDBAltered(t *testing.T) {
	f := parser.File{Path: home + "/.tabby/ee/db.sqlite", Target: "server-db", Agent: Agent, MTime: mtime}
	run := func(stmts ...string) *parsertest.Sink {
		return parsertest.Run(t, byID(t, "tabby/server-db"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/db.sql", stmts...), f, nil))
	}
	full := run()
	for _, c := range []struct {
		stmt, problem string
		keep          func(timeline.Event) bool
	}{
		{`DROP TABLE users`, "line 0: table users missing: its rows cannot be read; the other tables are read",
			func(e timeline.Event) bool { return true }},
		{`ALTER TABLE thread_messages DROP COLUMN content`, "line 0: unknown schema: table thread_messages lacks column(s) content: not read; the other tables are read",
			func(e timeline.Event) bool { return !strings.HasPrefix(e.RecordID, "message-") }},
		{`ALTER TABLE thread_messages DROP COLUMN code_source_id`, "",
			func(e timeline.Event) bool { return e.RecordID != "message-1#source" }},
	} {
		s := run(c.stmt)
		var want, got []string
		for _, e := range full.Events {
			if c.keep(e) {
				want = append(want, e.RecordID)
			}
		}
		for _, e := range s.Events {
			got = append(got, e.RecordID)
		}
		probs := strings.Join(s.Problems, "|")
		wantProbs := c.problem
		for _, p := range full.Problems {
			if c.stmt == `ALTER TABLE thread_messages DROP COLUMN content` && strings.Contains(p, "thread_messages") {
				continue // the orphaned message is not read
			}
			if wantProbs != "" {
				wantProbs += "|"
			}
			wantProbs += p
		}
		if probs != wantProbs || strings.Join(got, ",") != strings.Join(want, ",") || len(want) < 5 {
			t.Errorf("%s: problems %q want %q rows %v want %v", c.stmt, s.Problems, wantProbs, got, want)
		}
	}
}
