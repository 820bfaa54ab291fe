package gemini

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// TestLogsTraceOfSweptSession: Gemini CLI's retention sweep
// (google-gemini/gemini-cli@04fbf50 packages/cli/src/utils/sessionCleanup.ts
// cleanupExpiredSessions) unlinks an expired session's chats/ file, its
// logs/session-<id>.jsonl and tool-outputs/session-<id>/, and leaves the
// project's logs.json prompt log as it was. Here the real 0.61.0 home
// (fixtures/roots/real-agents) with the api-error session's chat swept
// and a logs.json naming both sessions in the shape the Logger writes:
// the swept session is a sessions.jsonl entry with recovered trace, at
// its prompt's time, with its project, its one typed prompt and logs.json
// as its only source file; the kept session reads no, its prompt
// one row (the chat's, the log's paired with it).
func TestLogsTraceOfSweptSession(t *testing.T) {
	const kept, swept = "a700cbdd-0252-4065-9e03-2b3c738ca65a", "b45f48bd-d218-4631-a1ce-816824c49291"
	dir := filepath.Join(realHome(t), ".gemini", "tmp", "demo")
	const orig = "/home/examiner/.gemini/tmp/demo/"
	logs := `[
  {"sessionId": "` + kept + `", "messageId": 0, "type": "user", "message": "Create the file ` + "`/home/examiner/demo/gemini-notes.txt` containing `doubleagent-gemini-edit`" + ` and tell me when it is done.", "timestamp": "2026-11-29T18:27:18.549Z"},
  {"sessionId": "` + swept + `", "messageId": 0, "type": "user", "message": "[mock:error] Run the shell command ` + "`echo doubleagent-gemini-retry`" + ` and tell me what it printed.", "timestamp": "2026-11-29T18:27:24.300Z"}
]
`
	files := []bundletest.File{
		{Path: orig + "chats/session-2026-11-29T18-27-a700cbdd.jsonl", Target: "chats", Data: readFile(t, filepath.Join(dir, "chats", "session-2026-11-29T18-27-a700cbdd.jsonl"))},
		{Path: orig + ".project_root", Target: "project-root", Data: readFile(t, filepath.Join(dir, ".project_root"))},
		{Path: orig + "logs.json", Target: "logs", Data: []byte(logs)},
	}
	o := runEngine(t, files)
	var found bool
	for _, s := range o.sessions {
		switch s.SessionID {
		case swept:
			found = true
			if s.Recovered != "trace" || s.ProjectPath != "/home/examiner/demo" || s.FirstUTC != "2026-11-29T18:27:24.300Z" ||
				s.LastUTC != "2026-11-29T18:27:24.300Z" || s.UserTurns != 1 || s.AssistantTurns != 0 || s.Events != 1 ||
				strings.Join(s.SourceFiles, " ") != orig+"logs.json" {
				t.Errorf("swept session: %+v", s)
			}
		case kept:
			if s.Recovered != "no" || s.UserTurns != 1 || strings.Join(s.SourceFiles, " ") != orig+"chats/session-2026-11-29T18-27-a700cbdd.jsonl" {
				t.Errorf("kept session: %+v", s)
			}
		default:
			t.Errorf("other session: %+v", s)
		}
	}
	if !found {
		t.Fatal("no sessions.jsonl entry for the swept session")
	}
	var rows []string
	for _, r := range o.rows {
		if r.SessionID == swept {
			rows = append(rows, r.TimestampUTC+" "+r.TurnType+" "+r.Text+" "+r.Parser)
		}
	}
	if strings.Join(rows, "|") != "2026-11-29T18:27:24.300Z user [mock:error] Run the shell command `echo doubleagent-gemini-retry` and tell me what it printed. gemini-cli/logs" {
		t.Errorf("rows of the swept session: %q", rows)
	}
}
