package cursor

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func cfgInput(t *testing.T, local, orig, target string) *parser.Input {
	t.Helper()
	rel := strings.TrimPrefix(orig, "/home/examiner/")
	return parsertest.Input(t, local, parser.File{Path: orig, Rel: rel, Agent: Agent, Target: target, MTime: fileMTime}, nil)
}

func texts(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, e.Text)
	}
	return out
}

func TestCLIConfig(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/cli-config"), cfgInput(t, "testdata/cli-config.json", "/home/examiner/.cursor/cli-config.json", "cli-config"), "testdata/cli-config.golden.jsonl")
	want := []string{
		"permission setting: cli-config.approvalMode=allowlist (from .cursor/cli-config.json, file mtime)",
		"permission setting: cli-config.permissions.allow=Shell(ls) (from .cursor/cli-config.json, file mtime)",
		"permission setting: cli-config.permissions.allow=Read(**) (from .cursor/cli-config.json, file mtime)",
		"permission setting: cli-config.permissions.deny=Shell(rm) (from .cursor/cli-config.json, file mtime)",
		"permission setting: cli-config.sandbox.mode=enabled (from .cursor/cli-config.json, file mtime)",
		"permission setting: cli-config.sandbox.networkAccess=allowlist (from .cursor/cli-config.json, file mtime)",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
	for _, e := range s.Events {
		if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(fileMTime) || strings.Contains(e.Text, "SECRET") || strings.Contains(e.Text, "examiner@") {
			t.Fatalf("row: %+v", e)
		}
	}
}

func TestPermissionsJSONC(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/cli-config"), cfgInput(t, "testdata/permissions.json", "/home/examiner/proj/.cursor/permissions.json", "project"), "testdata/permissions.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	want := []string{
		"permission setting: permissions.autoRun.guidance=never delete files // even temp ones (from proj/.cursor/permissions.json, file mtime)",
		"permission setting: permissions.mcpAllowlist=github:list_issues (from proj/.cursor/permissions.json, file mtime)",
		"permission setting: permissions.terminalAllowlist=npm test (from proj/.cursor/permissions.json, file mtime)",
		"permission setting: permissions.terminalAllowlist=git status (from proj/.cursor/permissions.json, file mtime)",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s", strings.Join(got, "\n"))
	}
	if s.Events[0].ProjectPath != "/home/examiner/proj" {
		t.Fatalf("project: %+v", s.Events[0])
	}
}

func TestCLIConfigMalformed(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/cli-config"), cfgInput(t, "testdata/bad-cli-config.json", "/home/examiner/.cursor/cli-config.json", "cli-config"), "testdata/cli-config_malformed.golden.jsonl")
	if len(s.Events) != 0 || len(s.Problems) != 1 {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
}

func TestAITracking(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/ai-code-tracking.sql"), parser.File{
		Path: "/home/examiner/.cursor/ai-tracking/ai-code-tracking.db", Agent: Agent, Target: "ai-tracking"}, nil)
	s := parsertest.Golden(t, byID(t, "cursor/ai-tracking"), in, "testdata/ai-tracking.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	ai := withText(s, "ai code:")
	if len(ai) != 2 || ai[0].Text != "ai code: /home/examiner/proj/main.go source=composer model=gpt-5 hash=5f2a9c" ||
		ai[0].SessionID != liveID || !ai[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:11:09Z")) ||
		ai[1].Text != "ai code: /home/examiner/proj/tool.py source=cli hash=77e0b1" || !ai[1].Time.Equal(parsertest.Time(t, "2026-07-21T10:11:40Z")) {
		t.Fatalf("ai code: %+v", ai)
	}
	if cs := withText(s, "conversation summary:"); len(cs) != 1 || cs[0].Text != "conversation summary: Listed the Go files with ls." || cs[0].SessionID != liveID {
		t.Fatalf("summary: %+v", cs)
	}
	if fd := withText(s, "file deleted by agent:"); len(fd) != 1 || fd[0].Text != "file deleted by agent: /home/examiner/proj/tmp/scratch.txt" || fd[0].SessionID != deletedID ||
		!fd[0].Time.Equal(parsertest.Time(t, "2026-07-21T10:26:40Z")) {
		t.Fatalf("deleted file: %+v", fd)
	}
	if sc := withText(s, "scored commit:"); len(sc) != 1 || sc[0].Text != "scored commit: 1a2b3c4d branch=main composerLinesAdded=8 humanLinesAdded=2 linesAdded=12 linesDeleted=3 tabLinesAdded=2 message=wip" {
		t.Fatalf("scored commit: %+v", sc)
	}
}

func TestAITrackingEmpty(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/empty.sql"), parser.File{
		Path: "/home/examiner/.cursor/ai-tracking/ai-code-tracking.db", Agent: Agent, Target: "ai-tracking"}, nil)
	if s := parsertest.Run(t, byID(t, "cursor/ai-tracking"), in); len(s.Events) != 0 ||
		strings.Join(s.Problems, "|") != "line 0: not a Cursor AI code tracking database: none of the tables ai_code_hashes, ai_deleted_files, conversation_summaries, scored_commits" {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
}

// TestAITrackingAltered: the one SQLite policy. Without scored_commits
// the one problem names it and every row of the other three tables is
// there; with ai_code_hashes lacking hash the problem names the column
// and every other table's row is there.
func TestAITrackingAltered(t *testing.T) {
	file := parser.File{Path: "/home/examiner/.cursor/ai-tracking/ai-code-tracking.db", Agent: Agent, Target: "ai-tracking"}
	full := parsertest.Run(t, byID(t, "cursor/ai-tracking"), parsertest.Input(t, parsertest.SQLite(t, "testdata/ai-code-tracking.sql"), file, nil))
	if len(full.Events) != 5 {
		t.Fatalf("full store: %d rows", len(full.Events))
	}
	for _, c := range []struct{ alter, problem, dropped string }{
		{`DROP TABLE scored_commits`, "line 0: table scored_commits missing: its rows cannot be read; the other tables are read", "scored commit:"},
		{`ALTER TABLE ai_code_hashes RENAME COLUMN hash TO h`, "line 0: unknown schema: table ai_code_hashes lacks column(s) hash: not read; the other tables are read", "ai code:"},
	} {
		s := parsertest.Run(t, byID(t, "cursor/ai-tracking"), parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/ai-code-tracking.sql", c.alter), file, nil))
		var want, got []string
		for _, e := range full.Events {
			if !strings.HasPrefix(e.Text, c.dropped) {
				want = append(want, e.Text)
			}
		}
		for _, e := range s.Events {
			got = append(got, e.Text)
		}
		if strings.Join(s.Problems, "|") != c.problem || strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == len(full.Events) {
			t.Fatalf("%s: problems %q rows %q want %q", c.alter, s.Problems, got, want)
		}
	}
}

func TestConversationSearch(t *testing.T) {
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/conversation-search.sql"), parser.File{
		Path: "/home/examiner/.config/Cursor/User/globalStorage/conversation-search.db", Agent: Agent, Target: "conversation-search"}, nil)
	s := parsertest.Golden(t, byID(t, "cursor/conversation-search"), in, "testdata/conversation-search.golden.jsonl")
	if len(s.Events) != 2 || s.Events[0].Text != "conversation index: List the Go files source=local" || s.Events[0].SessionID != liveID ||
		s.Events[0].ProjectPath != "/home/examiner/proj" || s.Events[1].Text != "conversation index: bc-0001 source=cloud-cache" {
		t.Fatalf("rows: %+v", s.Events)
	}
}
