package cursor

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/analyze/analyzetest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Tests through the engine: what timeline.jsonl and sessions.jsonl say
// once the correlation pass has paired the transcripts with the store.

// writeHome builds a loose home: files maps a home-relative path to its
// content; a path ending in .vscdb is built from its SQL text.
func writeHome(t *testing.T, files map[string]string) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "examiner")
	for rel, body := range files {
		p := filepath.Join(home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, ".vscdb") || strings.HasSuffix(p, ".db") {
			db, err := sql.Open("sqlite", p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(body); err != nil {
				t.Fatal(err)
			}
			db.Close()
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func runEngine(t *testing.T, home string) ([]timeline.Row, map[string]timeline.Session) {
	t.Helper()
	o := analyzetest.Run(t, Parsers(), home)
	sess := map[string]timeline.Session{}
	for _, s := range o.Sessions {
		sess[s.SessionID] = s
	}
	return o.Rows, sess
}

func rowsOf(rows []timeline.Row, sid string) []timeline.Row {
	var out []timeline.Row
	for _, r := range rows {
		if r.SessionID == sid {
			out = append(out, r)
		}
	}
	return out
}

const homeDB = ".config/Cursor/User/globalStorage/state.vscdb"

// TestEngineDeletedConversationRecovered (issue 12): a conversation
// deleted from state.vscdb that survives in its agent transcript is in the
// timeline, its transcript rows named cursor/transcript, and
// sessions.jsonl says recovered yes; the live conversation's transcript
// repeats the database and gives no row of its own.
func TestEngineDeletedConversationRecovered(t *testing.T) {
	tr := func(id string) string {
		return readFile(t, localTr+id+"/"+id+".jsonl")
	}
	home := writeHome(t, map[string]string{
		homeDB: readFile(t, "testdata/typical.sql"),
		".cursor/projects/home-examiner-proj/agent-transcripts/" + liveID + "/" + liveID + ".jsonl":       tr(liveID),
		".cursor/projects/home-examiner-proj/agent-transcripts/" + deletedID + "/" + deletedID + ".jsonl": tr(deletedID),
	})
	rows, sess := runEngine(t, home)
	var del []string
	for _, r := range rowsOf(rows, deletedID) {
		del = append(del, r.TurnType+"|"+r.Text+"|"+r.Parser+"|"+r.Secondary)
	}
	want := []string{
		"system|session name: Delete the temp dir|cursor/state-db|",
		"user|delete the temp dir|cursor/transcript|true",
		"assistant|I'll remove tmp/.|cursor/transcript|true",
		"tool_use|rm -rf tmp|cursor/transcript|true",
		"assistant|Done: tmp/ is gone.|cursor/transcript|true",
		"system|conversation deleted|cursor/state-db|",
	}
	if strings.Join(del, "\n") != strings.Join(want, "\n") {
		t.Fatalf("deleted conversation rows:\n%s", strings.Join(del, "\n"))
	}
	if s := sess[deletedID]; s.Recovered != "yes" {
		t.Fatalf("deleted session: %+v", s)
	}
	for _, r := range rowsOf(rows, liveID) {
		if r.Secondary == "true" {
			t.Fatalf("live conversation's transcript row not paired with the database: %+v", r)
		}
	}
	if s := sess[liveID]; s.Recovered != "no" || s.Origin != "local" || s.UserTurns != 1 || s.ToolCalls != 1 {
		t.Fatalf("live session: %+v", s)
	}
}

// TestEngineUndatedTranscriptKept (issue 12): a transcript without a
// <timestamp> tag, alone, is in the timeline, undated (time_basis none),
// and its session reads recovered yes (no store of record holds it).
func TestEngineUndatedTranscriptKept(t *testing.T) {
	const id = "0b0b0b0b-0000-4000-8000-00000000000c"
	home := writeHome(t, map[string]string{
		".cursor/projects/home-examiner-proj/agent-transcripts/" + id + "/" + id + ".jsonl": readFile(t, "testdata/transcripts/no_timestamp.jsonl"),
	})
	rows, sess := runEngine(t, home)
	var got []string
	for _, r := range rows {
		got = append(got, r.TurnType+"|"+r.Text+"|"+r.TimeBasis+"|"+r.TimestampUTC)
	}
	want := "user|clear the logs|none|\nassistant|Removing the log directory.|none|\ntool_use|rm -rf logs/|none|"
	if strings.Join(got, "\n") != want {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if s := sess[id]; s.Recovered != "yes" || s.UserTurns != 1 {
		t.Fatalf("session: %+v", s)
	}
}

// TestEngineLongTurnOnce: a tool call several minutes after its prompt
// (the transcript dates it only by the prompt's minute) still pairs with
// the database's row: one row, not two.
func TestEngineLongTurnOnce(t *testing.T) {
	const id = "1c1c1c1c-0000-4000-8000-00000000000d"
	db := `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
INSERT INTO cursorDiskKV VALUES ('composerData:` + id + `', '{"composerId":"` + id + `","createdAt":1784628000000,"fullConversationHeadersOnly":[{"bubbleId":"u","type":1},{"bubbleId":"c","type":2},{"bubbleId":"r","type":2}]}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:` + id + `:u', '{"type":1,"text":"run the slow build","createdAt":"2026-07-21T10:00:30Z"}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:` + id + `:c', '{"type":2,"createdAt":"2026-07-21T10:07:00Z","toolFormerData":{"name":"run_terminal_cmd","toolCallId":"call_slow","rawArgs":"{\"command\":\"make all\"}"}}');
INSERT INTO cursorDiskKV VALUES ('bubbleId:` + id + `:r', '{"type":2,"text":"The build passed.","createdAt":"2026-07-21T10:12:00Z"}');`
	trText := `{"role":"user","message":{"content":[{"type":"text","text":"<timestamp>Tuesday, Jul 21, 2026, 10:00 AM (UTC)</timestamp>\n<user_query>run the slow build</user_query>"}]}}
{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Shell","input":{"command":"make all"}}]}}
{"role":"assistant","message":{"content":[{"type":"text","text":"The build passed."}]}}
`
	home := writeHome(t, map[string]string{homeDB: db, ".cursor/projects/p/agent-transcripts/" + id + "/" + id + ".jsonl": trText})
	rows, sess := runEngine(t, home)
	var got []string
	for _, r := range rows {
		got = append(got, r.TurnType+"|"+r.Text+"|"+r.Parser)
	}
	want := "user|run the slow build|cursor/state-db\ntool_use|make all|cursor/state-db\nassistant|The build passed.|cursor/state-db"
	if strings.Join(got, "\n") != want {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if s := sess[id]; s.Recovered != "no" {
		t.Fatalf("session: %+v", s)
	}
}

// TestEngineWSL (issue 16): Cursor runs on Windows and its agent writes
// the transcripts on the Linux side, so under WSL the store is
// /mnt/c/Users/<name>/AppData/Roaming/Cursor and the transcripts are in
// /home/<name>/.cursor: the two still pair and the deleted conversation is
// recovered.
func TestEngineWSL(t *testing.T) {
	tr := func(id string) string { return readFile(t, localTr+id+"/"+id+".jsonl") }
	home := writeHome(t, map[string]string{
		"mnt/c/Users/alice/AppData/Roaming/Cursor/User/globalStorage/state.vscdb":                                 readFile(t, "testdata/typical.sql"),
		"home/alice/.cursor/projects/home-alice-proj/agent-transcripts/" + liveID + "/" + liveID + ".jsonl":       tr(liveID),
		"home/alice/.cursor/projects/home-alice-proj/agent-transcripts/" + deletedID + "/" + deletedID + ".jsonl": tr(deletedID),
	})
	rows, sess := runEngine(t, home)
	var dbRows, trRows int
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.SourceFile, "/mnt/c/Users/alice/AppData/Roaming/Cursor/"):
			dbRows++
		case strings.HasPrefix(r.SourceFile, "/home/alice/.cursor/"):
			trRows++
			if r.SessionID != deletedID {
				t.Fatalf("transcript row of the live conversation not paired: %+v", r)
			}
		}
		if r.User != "alice" {
			t.Fatalf("row of user %q: %+v", r.User, r)
		}
	}
	if dbRows == 0 || trRows != 4 || sess[deletedID].Recovered != "yes" || sess[liveID].Recovered != "no" {
		t.Fatalf("db rows %d, transcript rows %d, sessions %+v", dbRows, trRows, sess)
	}
}
