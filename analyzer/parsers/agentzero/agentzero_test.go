package agentzero

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 8, 8, 12, 0, 0, 0, time.UTC)

const root = "/home/ex/agent-zero/usr"

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, id, local, orig, target, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, "/home/ex/"), Agent: agentName, Target: target, MTime: mtime}, related)
	if golden == "" {
		return parsertest.Run(t, byID(t, id), in)
	}
	return parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		sec := ""
		if e.Secondary {
			sec = " secondary"
		}
		fmt.Fprintf(&b, "%d %s %s %s id=%s rec=%s in=%s par=%s p=%s t=%s/%s%s: %q\n", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.ToolUseID, e.RecordID, e.ToolInput, e.ParentSessionID, e.ProjectPath, e.TimeString(), e.ToRow().TimeBasis, sec, e.Text)
	}
	return b.String()
}

// TestChat: every row kind of a chat.json, times from the log, full text
// from the histories and messages/1.txt, the subordinate agent's rows in
// its own session, relay and sync state, the model override without its
// key, the bot token never read.
func TestChat(t *testing.T) {
	orig := root + "/chats/Kx7Qp2aB/chat.json"
	related := parsertest.Files{root + "/chats/Kx7Qp2aB/messages/1.txt": "testdata/usr/chats/Kx7Qp2aB/messages/1.txt"}
	s := run(t, "agent-zero/chat", "testdata/usr/chats/Kx7Qp2aB/chat.json", orig, "chats", "chat", related)
	P := " p=/a0/usr/projects/webshop"
	want := `0 Kx7Qp2aB system  id= rec=chat:Kx7Qp2aB in= par=` + P + ` t=2026-08-07T10:53:00.000Z/: "chat: Log cleanup (type user)"
0 Kx7Qp2aB system  id= rec=chat:Kx7Qp2aB#synced in= par=` + P + ` t=2026-08-07T10:53:00.000Z/: "a turn was chained on a provider-stored response (agent data responses_state): the conversation is also held by the provider"
0 Kx7Qp2aB system  id= rec=chat:Kx7Qp2aB#relay-telegram in= par=` + P + ` t=2026-08-07T10:53:00.000Z/: "relayed through telegram chat 5551234 (sender ops_anna)"
0 Kx7Qp2aB system  id= rec=chat:Kx7Qp2aB#model in= par=` + P + ` t=2026-08-07T10:53:00.000Z/: "model override for this chat: provider=openrouter name=anthropic/claude-sonnet-4.5"
1 Kx7Qp2aB user  id= rec=u1 in= par=` + P + ` t=2026-08-07T10:53:20.250Z/: "list the big files in /var/log"
2 Kx7Qp2aB thinking  id= rec=g1 in= par=` + P + ` t=2026-08-07T10:53:21.000Z/: "Use du."
3 Kx7Qp2aB tool_use code_execution_tool id=t1 rec=t1 in={"code":"du -sh /var/log/*","runtime":"terminal"} par=` + P + ` t=2026-08-07T10:53:22.000Z/: "du -sh /var/log/*"
3 Kx7Qp2aB tool_result code_execution_tool id=t1 rec=t1#output in= par=` + P + ` t=2026-08-07T10:53:22.000Z/: "12G /var/log/journal\n2.1G /var/log/syslog.1\n40M /var/log/auth.log\n(full output in file)\n"
4 Kx7Qp2aB system  id= rec=w1 in= par=` + P + ` t=2026-08-07T10:53:23.000Z/: "permission decision: denied source=policy: Tool 'code_execution_tool' blocked by the tool access policy: rm is not allowed"
5 Kx7Qp2aB/agent1 system  id= rec=s1 in= par=Kx7Qp2aB` + P + ` t=2026-08-07T10:53:24.000Z/: "subagent task: check journal retention"
6 Kx7Qp2aB/agent1 assistant  id= rec=r2 in= par=Kx7Qp2aB` + P + ` t=2026-08-07T10:53:25.000Z/: "Retention is 4 weeks."
7 Kx7Qp2aB assistant  id= rec=r1 in= par=` + P + ` t=2026-08-07T10:53:26.000Z/: "The journal uses 12G."
9 Kx7Qp2aB system  id= rec=e1 in= par=` + P + ` t=2026-08-07T10:53:28.000Z/: "error: Error: rate limited"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Relayed != "yes" || s.States[0].Synced != "yes" {
		t.Fatalf("states: %+v", s.States)
	}
	if len(s.Skips) != 1 || s.Skips[0] != (parsertest.Skip{Line: 8, Reason: "no_evidence:util"}) {
		t.Fatalf("skips: %+v", s.Skips)
	}
	if len(s.Problems) != 1 || s.Problems[0] != `line 10: skipped_record: log item type "sparkle" not read` {
		t.Fatalf("problems: %v", s.Problems)
	}
	out := string(parsertest.Render(s))
	for _, secret := range []string{"telegram-secret", "sk-or-v1"} {
		if strings.Contains(out, secret) {
			t.Fatalf("%s reached the output", secret)
		}
	}
}

// TestTrimmedLog: a log cut at its 1000 items leaves earlier turns in the
// histories only: they are rows with no time, and a row says why.
func TestTrimmedLog(t *testing.T) {
	b, err := os.ReadFile("testdata/usr/chats/Kx7Qp2aB/chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var chat map[string]any
	if err := json.Unmarshal(b, &chat); err != nil {
		t.Fatal(err)
	}
	// the log's 1000 items: the last one is the final response; the user
	// prompt, the tool call and the subordinate's task fell out.
	var logs []any
	for i := 0; i < logSize-1; i++ {
		logs = append(logs, map[string]any{"no": i, "id": fmt.Sprintf("p%d", i), "type": "progress", "heading": "", "content": "", "timestamp": 1786100000.0, "agentno": 0})
	}
	logs = append(logs, map[string]any{"no": 999, "id": "r1", "type": "response", "heading": "", "content": "The journal uses 12G.", "timestamp": 1786100006.0, "agentno": 0})
	chat["log"] = map[string]any{"logs": logs}
	nb, _ := json.Marshal(chat)
	local := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(local, nb, 0o600); err != nil {
		t.Fatal(err)
	}
	s := run(t, "agent-zero/chat", local, root+"/chats/Kx7Qp2aB/chat.json", "chats", "", nil)
	var hist []string
	for _, e := range s.Events {
		if e.SourceLine > logSize {
			hist = append(hist, fmt.Sprintf("%d %s %s %s rec=%s in=%s par=%s t=%s: %q", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.RecordID, e.ToolInput, e.ParentSessionID, e.ToRow().TimeBasis, e.Text))
		}
	}
	want := []string{
		`1001 Kx7Qp2aB user  rec=u1 in= par= t=none: "list the big files in /var/log"`,
		`1002 Kx7Qp2aB thinking  rec=a1#0 in= par= t=none: "Use du."`,
		`1002 Kx7Qp2aB tool_use code_execution_tool rec=a1#1 in={"runtime":"terminal","code":"du -sh /var/log/*"} par= t=none: "code_execution_tool"`,
		`1003 Kx7Qp2aB tool_result code_execution_tool rec=t1 in= par= t=none: "12G /var/log/journal (full output in file)"`,
		`1004 Kx7Qp2aB thinking  rec=a2#0 in= par= t=none: "Answer."`,
		`1004 Kx7Qp2aB assistant  rec=a2#1 in= par= t=none: "The journal uses 12G."`,
		`1005 Kx7Qp2aB/agent1 system  rec=s1 in= par=Kx7Qp2aB t=none: "subagent task: check journal retention"`,
	}
	if strings.Join(hist, "\n") != strings.Join(want, "\n") {
		t.Fatalf("history rows:\n%s", strings.Join(hist, "\n"))
	}
	found := false
	for _, e := range s.Events {
		found = found || (e.RecordID == "chat:Kx7Qp2aB#log-trimmed" && strings.HasPrefix(e.Text, "the chat's UI log holds its last 1000 items only"))
	}
	if !found {
		t.Fatal("no trimmed-log row")
	}
	if c := s.SkipCounts(); c["no_evidence:progress"] != logSize-1 {
		t.Fatalf("skips: %v", c)
	}
}

// TestTrimmedLogCopy (issue 25): in a log cut at its 1000 items, the
// history message whose id the log still holds (here a2, the final
// response) is that record in another form: its reply row is named as the
// log's row of that turn type (rec=a2, which the correlate stage merges:
// TestEngineHistoryCopy), its thoughts, which the response item does not
// hold, keep the history's name (a2#0); no copy is dropped here.
func TestTrimmedLogCopy(t *testing.T) {
	b, err := os.ReadFile("testdata/usr/chats/Kx7Qp2aB/chat.json")
	if err != nil {
		t.Fatal(err)
	}
	var chat map[string]any
	if err := json.Unmarshal(b, &chat); err != nil {
		t.Fatal(err)
	}
	// the log's 1000 items: the last one is the final response; the user
	// prompt, the tool call and the subordinate's task fell out.
	var logs []any
	for i := 0; i < logSize-1; i++ {
		logs = append(logs, map[string]any{"no": i, "id": fmt.Sprintf("p%d", i), "type": "progress", "heading": "", "content": "", "timestamp": 1786100000.0, "agentno": 0})
	}
	logs = append(logs, map[string]any{"no": 999, "id": "a2", "type": "response", "heading": "", "content": "The journal uses 12G.", "timestamp": 1786100006.0, "agentno": 0})
	chat["log"] = map[string]any{"logs": logs}
	nb, _ := json.Marshal(chat)
	local := filepath.Join(t.TempDir(), "chat.json")
	if err := os.WriteFile(local, nb, 0o600); err != nil {
		t.Fatal(err)
	}
	s := run(t, "agent-zero/chat", local, root+"/chats/Kx7Qp2aB/chat.json", "chats", "", nil)
	var hist []string
	for _, e := range s.Events {
		if e.SourceLine > logSize {
			hist = append(hist, fmt.Sprintf("%d %s %s %s rec=%s in=%s par=%s t=%s: %q", e.SourceLine, e.SessionID, e.TurnType, e.ToolName, e.RecordID, e.ToolInput, e.ParentSessionID, e.ToRow().TimeBasis, e.Text))
		}
	}
	want := []string{
		`1001 Kx7Qp2aB user  rec=u1 in= par= t=none: "list the big files in /var/log"`,
		`1002 Kx7Qp2aB thinking  rec=a1#0 in= par= t=none: "Use du."`,
		`1002 Kx7Qp2aB tool_use code_execution_tool rec=a1#1 in={"runtime":"terminal","code":"du -sh /var/log/*"} par= t=none: "code_execution_tool"`,
		`1003 Kx7Qp2aB tool_result code_execution_tool rec=t1 in= par= t=none: "12G /var/log/journal (full output in file)"`,
		`1004 Kx7Qp2aB thinking  rec=a2#0 in= par= t=none: "Answer."`,
		`1004 Kx7Qp2aB assistant  rec=a2 in= par= t=none: "The journal uses 12G."`,
		`1005 Kx7Qp2aB/agent1 system  rec=s1 in= par=Kx7Qp2aB t=none: "subagent task: check journal retention"`,
	}
	if strings.Join(hist, "\n") != strings.Join(want, "\n") {
		t.Fatalf("history rows:\n%s", strings.Join(hist, "\n"))
	}
	found := false
	for _, e := range s.Events {
		found = found || (e.RecordID == "chat:Kx7Qp2aB#log-trimmed" && strings.HasPrefix(e.Text, "the chat's UI log holds its last 1000 items only"))
	}
	if !found {
		t.Fatal("no trimmed-log row")
	}
	if c := s.SkipCounts(); len(c) != 1 || c["no_evidence:progress"] != logSize-1 {
		t.Fatalf("skips: %v", c)
	}
}

// TestLegacyChat: the v0.8.0 chats/<ctxid>.json layout, a naive
// created_at as local-as-utc.
func TestLegacyChat(t *testing.T) {
	s := run(t, "agent-zero/chat", "testdata/legacy01.json", "/home/ex/agent-zero/tmp/chats/legacy01.json", "tmp-chats", "legacy01", nil)
	want := `0 legacy01 system  id= rec=chat:legacy01 in= par= p= t=2025-03-01T09:00:00.000Z/local-as-utc: "chat: old"
1 legacy01 user  id= rec=lu in= par= p= t=2025-03-01T09:00:00.000Z/: "hello"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Relayed != "no" || s.States[0].Synced != "no" {
		t.Fatalf("states: %+v", s.States)
	}
}

func TestChatMalformed(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "chat.json")
	if err := os.WriteFile(p, []byte(`{"id": "x", "log": `), 0o600); err != nil {
		t.Fatal(err)
	}
	s := run(t, "agent-zero/chat", p, root+"/chats/x/chat.json", "chats", "", nil)
	if len(s.Events) != 0 || len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 0: not an Agent Zero chat") {
		t.Fatalf("%+v %v", s.Events, s.Problems)
	}
}

func TestMessageFile(t *testing.T) {
	s := run(t, "agent-zero/chat-messages", "testdata/usr/chats/Kx7Qp2aB/messages/1.txt", root+"/chats/Kx7Qp2aB/messages/1.txt", "chat-messages", "chat_messages", nil)
	if len(s.Events) != 0 || len(s.Skips) != 1 || s.Skips[0].Reason != "read_with_chat_json" {
		t.Fatalf("%+v %+v", s.Events, s.Skips)
	}
}

func TestScheduler(t *testing.T) {
	s := run(t, "agent-zero/scheduler", "testdata/tasks.json", root+"/scheduler/tasks.json", "scheduler", "tasks", nil)
	want := `1 Kx7Qp2aB system  id= rec=task:T1 in= par= p= t=2026-08-01T00:00:00.000Z/ secondary: "scheduled task \"nightly cleanup\" (scheduled, state idle, schedule {\"minute\":\"0\",\"hour\":\"1\",\"day\":\"*\",\"month\":\"*\",\"weekday\":\"*\",\"timezone\":\"UTC\"}): prompt: delete logs older than 30 days"
1 Kx7Qp2aB assistant  id= rec=task:T1#last_result in= par= p= t=2026-08-08T01:00:00.000Z/ secondary: "Deleted 14 files."
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Problems) != 1 || s.Problems[0] != "line 2: skipped_record: not a scheduler task" {
		t.Fatalf("problems: %v", s.Problems)
	}
}

// TestTelegramState: a mapped chat that is gone gives a "session deleted"
// row.
func TestTelegramState(t *testing.T) {
	related := parsertest.Files{root + "/chats/Kx7Qp2aB/chat.json": "testdata/usr/chats/Kx7Qp2aB/chat.json"}
	s := run(t, "agent-zero/telegram-state", "testdata/state.json", root+"/plugins/_telegram_integration/state.json", "telegram-state", "telegram_state", related)
	want := `1 Kx7Qp2aB system  id= rec= in= par= p= t=/none secondary: "Telegram chat mapped to this chat: bot opsbot, user 42, chat 5551234"
1 GoneChat1 system  id= rec= in= par= p= t=/none secondary: "session deleted: Telegram chat mapped to this chat: bot opsbot, user 42, chat 999 (its chat.json is not among the collected files)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
}

func TestPluginState(t *testing.T) {
	s := run(t, "agent-zero/plugin-state", "testdata/tool_access_config.json", root+"/plugins/_tool_access/config.json", "plugin-state", "tool_access", nil)
	want := `2  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: _tool_access.allow_code_execution=true at global scope (from agent-zero/usr/plugins/_tool_access/config.json, file mtime)"
3  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: _tool_access.blocked_tools=[\"browser_agent\"] at global scope (from agent-zero/usr/plugins/_tool_access/config.json, file mtime)"
6  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: _tool_access.api_token=\"[redacted]\" at global scope (from agent-zero/usr/plugins/_tool_access/config.json, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	tg := run(t, "agent-zero/plugin-state", "testdata/toggle", root+"/agents/researcher/plugins/_infection_check/.toggle-0", "plugin-state", "", nil)
	if rows(tg) != `0  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: plugin _infection_check disabled at agent profile researcher (from agent-zero/usr/agents/researcher/plugins/_infection_check/.toggle-0, file mtime)"`+"\n" {
		t.Fatalf("toggle: %s", rows(tg))
	}
}

// TestConnectorEnv: the connector's last chat and instance give origin
// remote; the restore token never reaches a row.
func TestConnectorEnv(t *testing.T) {
	s := run(t, "agent-zero/connector-env", "testdata/connector.env", "/home/ex/.agent-zero/.env", "connector-env", "connector_env", nil)
	want := `3 Kx7Qp2aB system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "last chat used by the A0 CLI connector: Kx7Qp2aB on https://a0.example.net (remote instance; from .agent-zero/.env, file mtime)"
5  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: AGENT_ZERO_COMPUTER_USE_ENABLED=true (from .agent-zero/.env, file mtime)"
6  system  id= rec= in= par= p= t=2026-08-08T12:00:00.000Z/file-mtime: "permission setting: AGENT_ZERO_COMPUTER_USE_TRUST_MODE=full (from .agent-zero/.env, file mtime)"
`
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.States) != 1 || s.States[0].Origin != "remote" || s.States[0].Key.SessionID != "Kx7Qp2aB" {
		t.Fatalf("states: %+v", s.States)
	}
	if strings.Contains(string(parsertest.Render(s)), "rt-secret") {
		t.Fatal("the restore token reached the output")
	}
	if c := s.SkipCounts(); c["comment"] != 1 || c["setting_not_read"] != 2 {
		t.Fatalf("skips: %v", c)
	}
	if !isLoopback("http://127.0.0.1:50001") || !isLoopback("localhost") || isLoopback("https://a0.example.net") {
		t.Fatal("isLoopback")
	}
}
