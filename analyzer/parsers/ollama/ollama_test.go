package ollama

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var mtime = time.Date(2026, 8, 2, 7, 0, 0, 0, time.UTC)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, orig, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, nil)
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s %s model=%s id=%s rec=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.Model, e.ToolUseID, e.RecordID, e.ToolInput, e.IsError, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

const chat = "c0ffee00-0000-4000-8000-000000000001"

// TestAppDB: every row kind of the desktop store, the n-th tool message
// after an assistant message paired with its n-th call, attachment names
// without bytes, a deleted chat's message kept, an orphan call reported.
func TestAppDB(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/db_v18.sql")
	s := run(t, "ollama/app-db", db, "/Users/ex/Library/Application Support/Ollama/db.sqlite", "Library/Application Support/Ollama/db.sqlite", "app-db", "db_v18")
	want := strings.ReplaceAll(`1 {C} chat.. err= t=2026-08-01T09:00:00.000Z/: "chat: Weather in Lisbon (browser tool state kept, 45 bytes)"
1 {C} system  model=gpt-oss:20b id= rec=1#model in= err= t=2026-08-01T09:00:01.000Z/: "model: gpt-oss:20b"
1 {C} user  model=gpt-oss:20b id= rec=1 in= err= t=2026-08-01T09:00:01.000Z/: "what is the weather in Lisbon?"
2 {C} tool_use web_search model=gpt-oss:20b id={C}:1 rec={C}:1 in={"query":"Lisbon weather today"} err= t=2026-08-01T09:00:02.000Z/: "Lisbon weather today"
2 {C} tool_use web_fetch model=gpt-oss:20b id={C}:2 rec={C}:2 in={"url":"https://example.com/lisbon"} err= t=2026-08-01T09:00:02.000Z/: "https://example.com/lisbon"
2 {C} thinking  model=gpt-oss:20b id= rec=2#thinking in= err= t=2026-08-01T09:00:02.500Z/: "Search the web for it."
3 {C} tool_result web_search model= id={C}:1 rec=3 in= err=false t=2026-08-01T09:00:05.000Z/: "{\"results\":[{\"title\":\"Lisbon weather\",\"content\":\"Sunny, 28C\"}]}"
4 {C} tool_result web_fetch model= id={C}:2 rec=4 in= err=true t=2026-08-01T09:00:06.000Z/: "Error: fetch failed: timeout"
5 {C} assistant  model=gpt-oss:20b id= rec=5 in= err= t=2026-08-01T09:00:07.000Z/: "It is sunny and 28C in Lisbon."
6 {C} system  model=qwen3:8b id= rec=6#model in= err= t=2026-08-01T09:05:00.000Z/: "model: gpt-oss:20b -> qwen3:8b"
6 {C} user  model=qwen3:8b id= rec=6 in= err= t=2026-08-01T09:05:00.000Z/: "read this file"
6 {C} system  model=qwen3:8b id= rec=6#attachment0 in= err= t=2026-08-01T09:05:00.000Z/: "attachment: notes.txt (11 bytes, not read)"
8 deadbeef-0000-4000-8000-000000000002 user  model= id= rec=8 in= err= t=2026-08-01T12:00:00.000Z/: "a prompt whose chat row is gone"
`, "{C}", chat)
	want = strings.Replace(want, "chat..", "system  model= id= rec=chat:"+chat+" in=", 1)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 7, Reason: "no_evidence:empty_message"}) {
		t.Fatalf("skips: %+v", s.Skips)
	}
	wantP := []string{
		"line 8: orphan_record: message of chat deadbeef-0000-4000-8000-000000000002 whose chats row is gone (deleted chat): its rows are kept",
		`line 3: orphan_record: tool call 3 (web_fetch) of message 99, which is gone: arguments {"url":"https://example.com/gone"}`,
	}
	if strings.Join(s.Problems, "\n") != strings.Join(wantP, "\n") {
		t.Fatalf("problems:\n%s", strings.Join(s.Problems, "\n"))
	}
	if strings.Contains(string(parsertest.Render(s)), "hello world") || strings.Contains(string(parsertest.Render(s)), "ex@example.com") {
		t.Fatal("attachment bytes or the users table reached the output")
	}
}

// TestAppDBEarlySchema: a store from before tool_result and
// browser_state reads by column name.
func TestAppDBEarlySchema(t *testing.T) {
	db := parsertest.SQLite(t, "testdata/db_v3.sql")
	s := run(t, "ollama/app-db", db, "C:/Users/ex/AppData/Local/Ollama/db.sqlite", "AppData/Local/Ollama/db.sqlite", "app-db", "db_v3")
	want := `1 old-chat system  model= id= rec=chat:old-chat in= err= t=2025-09-01T08:00:00.000Z/: "chat: hello"
1 old-chat system  model=llama3.2 id= rec=1#model in= err= t=2025-09-01T08:00:01.000Z/: "model: llama3.2"
1 old-chat user  model=llama3.2 id= rec=1 in= err= t=2025-09-01T08:00:01.000Z/: "hello there"
2 old-chat assistant  model=llama3.2 id= rec=2 in= err= t=2025-09-01T08:00:02.000Z/: "Hi!"
`
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
}

func TestAppDBNotOllama(t *testing.T) {
	dir := t.TempDir()
	sqlp := filepath.Join(dir, "other.sql")
	if err := os.WriteFile(sqlp, []byte("CREATE TABLE t (x);"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := parsertest.SQLite(t, sqlp)
	s := parsertest.Run(t, byID(t, "ollama/app-db"), parsertest.Input(t, db, parser.File{Path: "/u/db.sqlite", Agent: agentName, Target: "app-db"}, nil))
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: not an Ollama app database: none of the tables attachments, chats, messages, tool_calls" {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

// TestHistory: undated prompts, a pasted multi-line prompt as several
// rows, slash commands as system rows.
func TestHistory(t *testing.T) {
	s := run(t, "ollama/history", "testdata/history", "/home/ex/.ollama/history", ".ollama/history", "history", "history")
	want := `1  user  model= id= rec= in= err= t=/none: "why is the sky blue"
2  system  model= id= rec= in= err= t=/none: "command: /set parameter temperature 0.2"
3  user  model= id= rec= in= err= t=/none: "\"\"\"summarise this:"
4  user  model= id= rec= in= err= t=/none: "line two of the paste"
5  user  model= id= rec= in= err= t=/none: "\"\"\""
6  system  model= id= rec= in= err= t=/none: "command: /bye"
`
	got := rows(s)
	first := "0  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: \"prompt history last written (file mtime): 6 line(s); ollama run rewrites the file on every entry and keeps the last 100, with no time or session per entry\"\n"
	if got != first+want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestConfig(t *testing.T) {
	s := run(t, "ollama/config", "testdata/config.json", "/home/ex/.ollama/config.json", ".ollama/config.json", "config", "config")
	want := `4  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "model setting: integrations.claude.models=qwen3-coder:30b (from .ollama/config.json, file mtime)"
5  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "permission setting: integrations.claude.automode=true (from .ollama/config.json, file mtime)"
9  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "model setting: integrations.codex.models=gpt-oss:20b,gpt-oss:120b (from .ollama/config.json, file mtime)"
12  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "model setting: last_model=gpt-oss:20b (from .ollama/config.json, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestClaudeProfile: autoModeEnabled only; the gateway key never shows.
func TestClaudeProfile(t *testing.T) {
	s := run(t, "ollama/claude-profile", "testdata/claude-profile.json", "/Users/ex/Library/Application Support/Claude-3p/configLibrary/00000000-0000-4000-8000-000000000114.json",
		"Library/Application Support/Claude-3p/configLibrary/00000000-0000-4000-8000-000000000114.json", "claude-profile", "claude-profile")
	want := `7  system  model= id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "permission setting: Claude Desktop autoModeEnabled=false (from Library/Application Support/Claude-3p/configLibrary/00000000-0000-4000-8000-000000000114.json, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if strings.Contains(string(parsertest.Render(s)), "sk-ollama") {
		t.Fatal("the gateway key reached the output")
	}
}

// The schema policy (issue 25), on copies of the v18 store: without
// tool_calls it is one problem naming the table, and every chat, message
// and attachment row is still there (the tool messages unpaired); an
// attachments table without filename names table and column and every
// other row is there; without messages the chats are read and each tool
// call is named as unread with its table.
func TestAppDBSchema(t *testing.T) {
	p := byID(t, "ollama/app-db")
	f := parser.File{Path: "/u/db.sqlite", Agent: agentName, Target: "app-db"}
	run := func(stmt string) *parsertest.Sink {
		return parsertest.Run(t, p, parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/db_v18.sql", stmt), f, nil))
	}
	render := func(s *parsertest.Sink, drop func(timeline.Event) bool) string {
		var b strings.Builder
		for _, e := range s.Events {
			if !drop(e) {
				fmt.Fprintf(&b, "%d %s %s %s\n", e.SourceLine, e.TurnType, e.RecordID, e.Text)
			}
		}
		return b.String()
	}
	none := func(timeline.Event) bool { return false }
	full := parsertest.Run(t, p, parsertest.Input(t, parsertest.SQLite(t, "testdata/db_v18.sql"), f, nil))
	orphanMsg := "line 8: orphan_record: message of chat deadbeef-0000-4000-8000-000000000002 whose chats row is gone (deleted chat): its rows are kept"

	s := run(`DROP TABLE tool_calls`)
	if got := strings.Join(s.Problems, "\n"); got != "line 0: table tool_calls missing: its rows cannot be read; the other tables are read\n"+orphanMsg {
		t.Fatalf("problems:\n%s", got)
	}
	if got, want := render(s, none), render(full, func(e timeline.Event) bool { return e.TurnType == timeline.ToolUse }); got != want || len(s.Events) != len(full.Events)-2 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}

	s = run(`ALTER TABLE attachments DROP COLUMN filename`)
	want := "line 0: unknown schema: table attachments lacks column(s) filename: not read; the other tables are read\n" + orphanMsg + "\n" +
		`line 3: orphan_record: tool call 3 (web_fetch) of message 99, which is gone: arguments {"url":"https://example.com/gone"}`
	if got := strings.Join(s.Problems, "\n"); got != want {
		t.Fatalf("problems:\n%s", got)
	}
	if got, want := render(s, none), render(full, func(e timeline.Event) bool { return strings.Contains(e.RecordID, "#attachment") }); got != want || len(s.Events) != len(full.Events)-1 {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}

	s = run(`DROP TABLE messages`)
	want = "line 0: table messages missing: its rows cannot be read; the other tables are read\n" +
		`line 1: tool call 1 (web_search) of message 2, whose table messages is not read: arguments {"query":"Lisbon weather today"}` + "\n" +
		`line 2: tool call 2 (web_fetch) of message 2, whose table messages is not read: arguments {"url":"https://example.com/lisbon"}` + "\n" +
		`line 3: tool call 3 (web_fetch) of message 99, whose table messages is not read: arguments {"url":"https://example.com/gone"}`
	if got := strings.Join(s.Problems, "\n"); got != want {
		t.Fatalf("problems:\n%s", got)
	}
	if got := render(s, none); got != "1 system chat:"+chat+" chat: Weather in Lisbon (browser tool state kept, 45 bytes)\n" {
		t.Fatalf("rows:\n%s", got)
	}
}

// TestManifest: a model manifest is one row at the file's mtime, the
// model's shortest name as model, every layer's kind, digest and size;
// a manifest of another registry keeps its full name; bad files are
// problems.
func TestManifest(t *testing.T) {
	rel := ".ollama/models/manifests/registry.ollama.ai/library/gpt-oss/20b"
	s := run(t, "ollama/manifest", "testdata/manifest-gpt-oss-20b", "/home/ex/"+rel, rel, "manifests", "manifest-gpt-oss-20b")
	want := `1  system  model=gpt-oss:20b id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "model manifest: gpt-oss:20b (registry.ollama.ai/library/gpt-oss:20b), 4 layer(s), 13780173724 bytes: model sha256:c9fea8ccce6da7e1d7d0c305d5a0dd3acd14ba50519f0f66dd87237c22cdca93 (13780154624 bytes), license sha256:db12f9fcf82ac96a08a9ff935eb2006be5d2ddf09a16f5a372c7829344544e2f (11353 bytes), template sha256:9a23ffe45913fb3c96181cec7deff5875d4d292a55cf5218fa15393a1e5a10e7 (7240 bytes), params sha256:5de8b7c1d72bdcd059ac96838e8abf9953c2a1a559a97060c47bc6cc0e28e677 (18 bytes), config sha256:e8a371d233aa86dfb27847e2df60011c5db37a17e144a345f0fc5bddcce4d736 (489 bytes); written when the model was pulled or created (from .ollama/models/manifests/registry.ollama.ai/library/gpt-oss/20b, file mtime)"
`
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
	rel = ".ollama/models/manifests/hf.co/someone/coder-GGUF/Q4_K_M"
	s = run(t, "ollama/manifest", "testdata/manifest-hf.json", "/home/ex/"+rel, rel, "manifests", "manifest-hf")
	want = `1  system  model=hf.co/someone/coder-GGUF:Q4_K_M id= rec= in= err= t=2026-08-02T07:00:00.000Z/file-mtime: "model manifest: hf.co/someone/coder-GGUF:Q4_K_M (hf.co/someone/coder-GGUF:Q4_K_M), 2 layer(s), 4000000410 bytes: model sha256:2222222222222222222222222222222222222222222222222222222222222222 (4000000000 bytes), template (no digest) (10 bytes), config sha256:1111111111111111111111111111111111111111111111111111111111111111 (400 bytes); written when the model was pulled or created (from .ollama/models/manifests/hf.co/someone/coder-GGUF/Q4_K_M, file mtime)"
`
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nproblems %v", got, s.Problems)
	}
	dir := t.TempDir()
	for _, c := range []struct{ body, problem string }{
		{"not json", "line 0: model manifest is not a JSON object: invalid character"},
		{`{"schemaVersion":2,"layers":[]}`, "line 1: model manifest of registry.ollama.ai/library/x:latest names no layer and no config (not an ollama manifest, or emptied)"},
	} {
		p := filepath.Join(dir, "latest")
		if err := os.WriteFile(p, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		rel := ".ollama/models/manifests/registry.ollama.ai/library/x/latest"
		s := parsertest.Run(t, byID(t, "ollama/manifest"), parsertest.Input(t, p, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: "manifests", MTime: mtime}, nil))
		if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], c.problem) {
			t.Errorf("%q: %+v %v", c.body, s.Events, s.Problems)
		}
	}
}
