package cursor

import (
	"strings"
	"testing"
)

// TestEngineTraceOfDeletedConversation (issue 30): a conversation deleted
// from state.vscdb whose header outlived it, with no transcript and no
// stray bubble, is a sessions.jsonl entry with recovered trace: its name,
// the header's time, its project, and the files that name it (the state
// database and the AI tracking database, whose ai_deleted_files row
// names the conversation). A composer only the tracking database names
// (its bubbles and header gone) is a trace too; the live conversation
// reads no.
func TestEngineTraceOfDeletedConversation(t *testing.T) {
	const tracking = ".cursor/ai-tracking/ai-code-tracking.db"
	const onlyTracked = "eeeeeeee-0000-4000-8000-000000000005"
	home := writeHome(t, map[string]string{
		homeDB: readFile(t, "testdata/typical.sql"),
		tracking: readFile(t, "testdata/ai-code-tracking.sql") +
			"\nINSERT INTO ai_deleted_files VALUES (2, '/home/examiner/proj/.env', '" + onlyTracked + "', 'gpt-5', 1784630000000);\n",
	})
	rows, sess := runEngine(t, home)
	s := sess[deletedID]
	if s.Recovered != "trace" || s.ProjectPath != "/home/examiner/proj" || s.FirstUTC != "2026-07-21T10:25:00.000Z" ||
		s.LastUTC != "2026-07-21T10:40:00.000Z" || s.UserTurns != 0 || s.Events != 3 || len(s.SourceFiles) != 2 ||
		!strings.HasSuffix(s.SourceFiles[0], "/"+homeDB) || !strings.HasSuffix(s.SourceFiles[1], "/"+tracking) {
		t.Errorf("deleted conversation: %+v", s)
	}
	var got []string
	for _, r := range rowsOf(rows, deletedID) {
		got = append(got, r.TimestampUTC+"|"+r.Text+"|"+r.Parser)
	}
	if want := "2026-07-21T10:25:00.000Z|session name: Delete the temp dir|cursor/state-db\n" +
		"2026-07-21T10:26:40.000Z|file deleted by agent: /home/examiner/proj/tmp/scratch.txt|cursor/ai-tracking\n" +
		"2026-07-21T10:40:00.000Z|conversation deleted|cursor/state-db"; strings.Join(got, "\n") != want {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if o := sess[onlyTracked]; o.Recovered != "trace" || o.Events != 1 || len(o.SourceFiles) != 1 || !strings.HasSuffix(o.SourceFiles[0], "/"+tracking) {
		t.Errorf("composer only the tracking database names: %+v", o)
	}
	if l := sess[liveID]; l.Recovered != "no" {
		t.Errorf("live conversation: %+v", l)
	}
}
