package vscode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// TestRealAgentChatSessions parses the in-repo typical chatSessions files
// and every chatSessions file a real VS Code run left under
// fixtures/roots/real-agents*/home/examiner: no problems, every user row
// has a time and a session; and it checks each scenario's prompt of the
// expect file's "vscode" entry. No VS Code run exists there yet (Copilot
// Chat needs a GitHub sign-in), so today only the in-repo files run; the
// test never skips.
func TestRealAgentChatSessions(t *testing.T) {
	roots := filepath.Join("..", "..", "..", "fixtures", "roots")
	origs := map[string]string{
		"testdata/typical.json":    wsDir + "/chatSessions/7f1d2c3b-aaaa-4bbb-8ccc-000000000001.json",
		"testdata/compacted.jsonl": wsDir + "/chatSessions/c0c0c0c0-1111-4222-8333-444444444444.jsonl",
	}
	files := []string{"testdata/typical.json", "testdata/compacted.jsonl"}
	for _, set := range []string{"real-agents", "real-agents-2"} {
		home := filepath.Join(roots, set, "home") // every fixture user
		_ = filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && strings.Contains(filepath.ToSlash(p), "/chatSessions/") &&
				(strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")) {
				files = append(files, p)
			}
			return nil
		})
	}
	var prompts []string
	for _, set := range []string{"real-agents", "real-agents-2"} {
		b, err := os.ReadFile(filepath.Join(roots, set+".expect.json"))
		if err != nil {
			continue
		}
		var all map[string]json.RawMessage
		if json.Unmarshal(b, &all) != nil {
			continue
		}
		var c struct {
			Scenarios []struct {
				Prompt string `json:"prompt"`
			} `json:"scenarios"`
		}
		if json.Unmarshal(all["vscode"], &c) == nil {
			for _, sc := range c.Scenarios {
				prompts = append(prompts, sc.Prompt)
			}
		}
	}
	var users []string
	for _, local := range files {
		orig, inRepo := origs[local]
		if !inRepo {
			slash := filepath.ToSlash(local)
			orig = "/home/examiner/" + slash[strings.Index(slash, "/home/examiner/")+len("/home/examiner/"):]
		}
		rel := parsertest.Files{}
		if d := storageDir(orig); d != "" {
			rel[d+"/workspace.json"] = filepath.Join(filepath.Dir(filepath.Dir(local)), "workspace.json")
			if inRepo {
				rel[d+"/workspace.json"] = "testdata/workspace.json"
			}
		}
		s := parsertest.Run(t, byID(t, "vscode/chat-session"), parsertest.Input(t, local, parser.File{Path: orig, Agent: Agent, Target: "chat-sessions"}, rel))
		if len(s.Problems) != 0 {
			t.Errorf("%s: problems %v", orig, s.Problems)
		}
		for _, e := range find(s, timeline.User, "") {
			if e.Time.IsZero() || e.SessionID == "" {
				t.Errorf("%s: user row without time or session: %+v", orig, e)
			}
			users = append(users, e.Text)
		}
	}
	if len(users) == 0 {
		t.Error("no user row in any chatSessions file")
	}
	for _, p := range prompts {
		found := false
		for _, u := range users {
			if strings.Contains(u, p) {
				found = true
			}
		}
		if !found {
			t.Errorf("scenario prompt %q not found in any user row", p)
		}
	}
}
