package cursor

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	cliID  = "5a5a5a5a-0000-4000-8000-00000000000f"
	cliDir = "/home/examiner/.cursor/chats/0f1e2d3c4b5a69788796a5b4c3d2e1f0/" + cliID + "/"
)

func cliInput(t *testing.T, local, name, target string) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: cliDir + name, Rel: ".cursor/chats/0f1e2d3c4b5a69788796a5b4c3d2e1f0/" + cliID + "/" + name,
		Agent: Agent, Target: target, MTime: fileMTime}, nil)
}

func rowTexts(s *parsertest.Sink) string {
	var out []string
	for _, e := range s.Events {
		out = append(out, string(e.TurnType)+"|"+e.Text+"|"+e.RecordID+"|"+string(e.TimeBasis))
	}
	return strings.Join(out, "\n")
}

// TestCLIStore (issue 16): the Agent CLI's own chat store, the message
// tree walked from latestRootBlobId, a message off the tree kept.
func TestCLIStore(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/cli-chats"), cliInput(t, parsertest.SQLite(t, "testdata/cli/store.sql"), "store.db", "cli-chats"), "testdata/cli_store.golden.jsonl")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	want := strings.Join([]string{
		"system|session name: Remove the build dir|" + cliID + "#name|",
		"system|model last used: gpt-5|" + cliID + "#model|",
		"system|run mode: auto-run|" + cliID + "#mode|",
		"system|injected context: <user_info>OS: linux</user_info>|" + cliID + ":25c4516c9c95e3587a5e55235b540c132988226a7f2357dbb103942999bf2f3f#0|inherited",
		"user|remove the build dir|" + cliID + ":25c4516c9c95e3587a5e55235b540c132988226a7f2357dbb103942999bf2f3f#1|inherited",
		"thinking|Simple rm.|" + cliID + ":845174b0f2d90cebff94b63dd9a84200fd47df22fdad6365bafca8601e83253e#0|inherited",
		"assistant|Removing build/.|" + cliID + ":845174b0f2d90cebff94b63dd9a84200fd47df22fdad6365bafca8601e83253e#1|inherited",
		"tool_use|rm -rf build/|" + cliID + ":845174b0f2d90cebff94b63dd9a84200fd47df22fdad6365bafca8601e83253e#2|inherited",
		"tool_result|done|" + cliID + ":68205b767b6800b9af4bde71c9630f20f2c6116464c426a584f0a688d46cbcb2#0|inherited",
		"system|1 message(s) not in the conversation's latest tree (from an edited, rewound or superseded branch): kept below|" + cliID + "#unreached|inherited",
		"user|remove the dist dir|" + cliID + ":fe68bea3657f137b27aacbe79dd1f134f114e87c77645db409484a8bb302b85c#0|inherited",
	}, "\n")
	if got := rowTexts(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	for _, e := range s.Events {
		if e.SessionID != cliID || e.Secondary || !e.Time.Equal(parsertest.Time(t, "2026-07-21T10:00:00Z")) {
			t.Fatalf("row: %+v", e)
		}
	}
	if sk := s.SkipCounts(); sk["no_evidence:system_prompt"] != 1 || sk["state_only"] != 3 {
		t.Fatalf("skips: %v", sk)
	}
	if len(s.States) != 1 || s.States[0].Origin != "local" || s.States[0].Key.SessionID != cliID {
		t.Fatalf("states: %+v", s.States)
	}
}

func TestCLIStoreNotAStore(t *testing.T) {
	s := parsertest.Run(t, byID(t, "cursor/cli-chats"), cliInput(t, parsertest.SQLite(t, "testdata/empty.sql"), "store.db", "cli-chats"))
	if len(s.Events) != 0 || len(s.Problems) != 1 || s.Problems[0] != "line 0: not a Cursor Agent CLI chat database: none of the tables blobs, meta" {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
}

// TestCLIStoreAltered: the one SQLite policy. Without blobs the one
// problem names it and the meta table's three session rows are all
// there; with meta lacking value the problem names the column and every
// blob message row is there (undated: the time was meta's createdAt).
func TestCLIStoreAltered(t *testing.T) {
	full := parsertest.Run(t, byID(t, "cursor/cli-chats"), cliInput(t, parsertest.SQLite(t, "testdata/cli/store.sql"), "store.db", "cli-chats"))
	var metaIDs, blobIDs []string
	for _, e := range full.Events {
		if strings.Contains(e.RecordID, ":") {
			blobIDs = append(blobIDs, e.RecordID)
		} else {
			metaIDs = append(metaIDs, e.RecordID)
		}
	}
	if len(metaIDs) != 4 || len(blobIDs) != 7 {
		t.Fatalf("full store: meta rows %v blob rows %v", metaIDs, blobIDs)
	}
	for _, c := range []struct {
		alter, problem string
		want           []string
	}{
		{`DROP TABLE blobs`, "line 0: table blobs missing: its rows cannot be read; the other tables are read", metaIDs[:3]},
		{`ALTER TABLE meta DROP COLUMN value`, "line 0: unknown schema: table meta lacks column(s) value: not read; the other tables are read", append([]string{cliID + "#unreached"}, blobIDs...)},
	} {
		s := parsertest.Run(t, byID(t, "cursor/cli-chats"), cliInput(t, parsertest.SQLiteAltered(t, "testdata/cli/store.sql", c.alter), "store.db", "cli-chats"))
		var got []string
		for _, e := range s.Events {
			got = append(got, e.RecordID)
		}
		if strings.Join(s.Problems, "|") != c.problem || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Fatalf("%s: problems %q rows %v want %v", c.alter, s.Problems, got, c.want)
		}
	}
}

// TestCLIChatMeta: meta.json repeats the store's metadata with the same
// record ids; prompt_history.json gives secondary user rows.
func TestCLIChatMeta(t *testing.T) {
	s := parsertest.Golden(t, byID(t, "cursor/cli-chat-meta"), cliInput(t, "testdata/cli/meta.json", "meta.json", "cli-chat-meta"), "testdata/cli_meta.golden.jsonl")
	want := "system|session name: Remove the build dir|" + cliID + "#name|\nsystem|model last used: gpt-5|" + cliID + "#model|\nsystem|run mode: auto-run|" + cliID + "#mode|"
	if got := rowTexts(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("meta.json rows:\n%s\n%v", got, s.Problems)
	}
	s = parsertest.Golden(t, byID(t, "cursor/cli-chat-meta"), cliInput(t, "testdata/cli/prompt_history.json", "prompt_history.json", "cli-chat-meta"), "testdata/cli_prompt_history.golden.jsonl")
	want = "user|remove the dist dir||\nuser|remove the build dir||none"
	if got := rowTexts(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("prompt history rows:\n%s\n%v", got, s.Problems)
	}
	for _, e := range s.Events {
		if !e.Secondary || e.SessionID != cliID {
			t.Fatalf("row: %+v", e)
		}
	}
	if sk := s.SkipCounts(); sk["no_content"] != 1 {
		t.Fatalf("skips: %v", sk)
	}
}

// TestMCPOAuthAttempt (issue 16): one row per attempt; the verifier, the
// state and the URL's query are never printed.
func TestMCPOAuthAttempt(t *testing.T) {
	in := parsertest.Input(t, "testdata/cli/attempt.json", parser.File{Path: "/home/examiner/.config/Cursor/User/globalStorage/mcp-oauth-attempts/9a9a9a9a-0000-4000-8000-000000000010.json",
		Agent: Agent, Target: "mcp-oauth-attempts", MTime: fileMTime}, nil)
	s := parsertest.Golden(t, byID(t, "cursor/mcp-oauth-attempts"), in, "testdata/mcp_oauth_attempt.golden.jsonl")
	if len(s.Events) != 1 || len(s.Problems) != 0 {
		t.Fatalf("got %+v %v", s.Events, s.Problems)
	}
	e := s.Events[0]
	if e.Text != "mcp oauth attempt: plugin-google-calendar-google-calendar url=https://calendar.mcp.example/mcp client=cid-1" ||
		!e.Time.Equal(parsertest.Time(t, "2026-07-21T10:13:20Z")) || e.TurnType != timeline.System ||
		e.RecordID != "mcp-oauth-attempt:9a9a9a9a-0000-4000-8000-000000000010" {
		t.Fatalf("row: %+v", e)
	}
}
