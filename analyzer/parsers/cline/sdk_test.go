package cline

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Synthetic SDK files for what the real runs could not write (an
// imported session with an enterprise upload, Cline Cloud, the VS Code
// sync queue, aborted and failed runs, slash commands and mode switches),
// shaped after the source (cline/cline at 345f6a48 and @cline/core 0.0.86;
// see doc.go).

const sdkSess = cliData + "/sessions/1796100000000_impt1"

func sdkGolden(t *testing.T, name, id, target, local, orig string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: mtime}
	p := byID(t, id)
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, orig)
	}
	return parsertest.Golden(t, p, parsertest.Input(t, local, f, related), "testdata/sdk/"+name+".golden.jsonl")
}

func texts(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		out = append(out, string(e.TurnType)+": "+e.Text)
	}
	return out
}

// An imported session whose upload the enterprise config registered: the
// import origin on the start row, "session synced" naming the bucket and
// object (never the keys), the standing settings, synced yes.
func TestSDKSessionImportedAndUploaded(t *testing.T) {
	s := sdkGolden(t, "session_imported", "cline/sdk-session", "sdk-sessions",
		"testdata/sdk/1796100000000_impt1/1796100000000_impt1.json", sdkSess+"/1796100000000_impt1.json", nil)
	want := []string{
		"system: session started: source=vscode interactive=true provider=anthropic model=claude-sonnet-4-5 history_origin=import trigger=session-import version=4.1.13 imported_from=claude-code source_session=0f8e7d6c-1111-4222-8333-944455556666 source_path=/home/examiner/.claude/projects/-home-examiner-proj/0f8e7d6c-1111-4222-8333-944455556666.jsonl source_model=anthropic/claude-opus-4-1 imported_at=2026-11-30T10:21:00.000Z",
		"user: port the tests to vitest",
		"system: permission setting: autoApproveTools=false mode=plan (session metadata)",
		"system: session synced: enterprise blob upload adapter=s3 bucket=acme-cline-audit object=prod/sessions/user_8f2/1796100000000_impt1/messages.json",
		"system: session ended: status=completed exit_code=0",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !s.Events[1].Secondary || s.Events[1].RecordID != "1796100000000_impt1#prompt" {
		t.Errorf("prompt row %+v", s.Events[1])
	}
	if len(s.States) != 1 || s.States[0].Synced != "yes" || s.States[0].Origin != "local" {
		t.Errorf("state %+v", s.States)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "must-never-print") || strings.Contains(e.Text, "AKIA") {
			t.Fatalf("a key reached a row: %q", e.Text)
		}
	}
}

// Messages: a plan-mode prompt, thinking, read_files with both paths, a
// mode switch with its notice kept as a system row, an image, a typed
// slash command, a message without id or time, a call blocked by a hook,
// an unknown block, an empty message and a broken element.
func TestSDKMessagesSynthetic(t *testing.T) {
	s := sdkGolden(t, "messages_synthetic", "cline/sdk-messages", "sdk-messages",
		"testdata/sdk/1796100000000_impt1/1796100000000_impt1.messages.json", sdkSess+"/1796100000000_impt1.messages.json",
		parsertest.Files{sdkSess + "/1796100000000_impt1.json": "testdata/sdk/1796100000000_impt1/1796100000000_impt1.json"})
	want := []string{
		"system: mode: plan",
		"user: port the tests to vitest",
		"system: model: claude-sonnet-4-5",
		"thinking: look at the config first",
		"assistant: Plan: ...",
		"tool_use: /home/examiner/proj/jest.config.js\n/home/examiner/proj/package.json",
		"tool_result: module.exports = {}",
		"system: mode: plan -> act",
		"user: go ahead",
		"system: <mode_notice>The user switched from plan mode to act mode before sending this message.</mode_notice>",
		"system: [image]",
		"user: /compact keep the test list",
		"system: model: claude-sonnet-4-5 -> claude-opus-4-1",
		"tool_use: rm -rf node_modules\nnpm i -D vitest",
		`system: server_tool block: {"type":"server_tool","text":"","thinking":"","reasoning":"","id":"","name":"web","input":null,"tool_use_id":"","content":null,"is_error":null}`,
		"tool_result: Tool run_commands was blocked by a runtime hook",
		"system: permission decision: denied tool=run_commands source=hook reason=Tool run_commands was blocked by a runtime hook",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range s.Events {
		if e.ProjectPath != "/home/examiner/proj" || e.SessionID != "1796100000000_impt1" {
			t.Fatalf("row %+v", e)
		}
	}
	// The slash command has no ts: it inherits the previous message's.
	if e := s.Events[11]; e.TimeBasis != timeline.TimeInherited || !e.Time.Equal(s.Events[8].Time) || e.RecordID != "u3#0" {
		t.Errorf("slash command row %+v", e)
	}
	// The assistant message without an id is named by its position.
	if e := s.Events[13]; e.RecordID != "1796100000000_impt1:6#0" || e.ToolInput != `{"commands":["rm -rf node_modules","npm i -D vitest"]}` {
		t.Errorf("id-less call %+v", e)
	}
	if c := s.SkipCounts(); c["empty_message"] != 1 || len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "not an SDK message") {
		t.Errorf("skips %v problems %v", c, s.Problems)
	}
}

// A messages file cut mid-rewrite keeps the messages before the cut and
// says where it broke.
func TestSDKMessagesCut(t *testing.T) {
	s := sdkGolden(t, "messages_cut", "cline/sdk-messages", "sdk-messages", "testdata/sdk/cut.messages.json", cliData+"/sessions/cut1/cut1.messages.json", nil)
	if len(s.Events) != 2 || s.Events[1].Text != "first" || len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "after 1 message(s)") {
		t.Fatalf("events %v problems %v", texts(s), s.Problems)
	}
}

// hooks.jsonl audit rows for a start, an abort and an error; the prompt
// it repeats as a secondary row; records without content accounted.
func TestSDKHooksSynthetic(t *testing.T) {
	s := sdkGolden(t, "hooks_synthetic", "cline/hooks", "hooks-log", "testdata/sdk/hooks.jsonl", cliData+"/logs/hooks.jsonl", nil)
	want := []string{
		"system: hook audit: agent_start agent=agent_1 task=conv_1",
		"user: port the tests to vitest",
		"system: hook audit: agent_abort agent=agent_1 reason=user cancelled",
		"system: hook audit: agent_error agent=agent_1 APIError: 429 rate limited",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if !s.Events[1].Secondary || s.Events[0].Secondary {
		t.Errorf("secondary flags: %+v", s.Events)
	}
	if len(s.Problems) != 3 || s.SkipCounts()["no_evidence:agent_end"] != 1 {
		t.Errorf("problems %v skips %v", s.Problems, s.SkipCounts())
	}
}

// globalState.json: the Cline Cloud sessions it remembers are remote and
// synced; cloudTaskTarget is a standing setting.
func TestSDKCloudStatuses(t *testing.T) {
	s := sdkGolden(t, "global_state_cloud", "cline/settings", "settings", "testdata/sdk/globalState.json", cliData+"/globalState.json", nil)
	want := []string{
		"system: permission setting: cloudTaskTarget=cloud (from globalState.json, file mtime)",
		"system: permission setting: mode=act (from globalState.json, file mtime)",
		"system: session origin: remote (Cline Cloud, from globalState.json)",
		"system: session synced: Cline Cloud status=failed",
		"system: session origin: remote (Cline Cloud, from globalState.json)",
		"system: session synced: Cline Cloud status=completed",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	// Rows sort by time: the status without observedAt takes the file's mtime.
	if s.Events[4].SessionID != "cloud_01JZ6Q8W2B3" || s.Events[4].Time.UnixMilli() != 1796000000000 || s.Events[2].TimeBasis != timeline.TimeFileMTime || s.Events[2].SessionID != "cloud_01JZ6Q8W2C4" {
		t.Errorf("cloud rows %+v", s.Events[2:])
	}
	if len(s.States) != 2 || s.States[0].Origin != "remote" || s.States[0].Synced != "yes" {
		t.Errorf("states %+v", s.States)
	}
}

// A pending cloud start journal: the sandbox's session is remote, at the
// journal's mtime; a record without a session id is reported.
func TestSDKCloudPending(t *testing.T) {
	s := sdkGolden(t, "cloud_pending", "cline/cloud-pending", "cloud-pending", "testdata/sdk/4242-9f1c2d3e-0000-4000-8000-000000000001.json",
		cliData+"/cloud-pending-starts/4242-9f1c2d3e-0000-4000-8000-000000000001.json", nil)
	if len(s.Events) != 1 || s.Events[0].Text != "session origin: remote (Cline Cloud start pending) endpoint=https://api.cline.bot account=user_8f2/org_11 host_pid=4242" ||
		s.Events[0].TimeBasis != timeline.TimeFileMTime || s.Events[0].SessionID != "cloud_01JZ7PENDING" || len(s.Problems) != 1 {
		t.Fatalf("events %+v problems %v", s.Events, s.Problems)
	}
}

// The VS Code sync queue: each upload with status and retries (the data
// counted, not printed); synced yes for a task with a synced item, no for
// one whose upload failed.
func TestSDKSyncQueue(t *testing.T) {
	vs := "/home/examiner/.config/Code/User/globalStorage/saoudrizwan.claude-dev/cache/sync-queue.json"
	s := sdkGolden(t, "sync_queue", "cline/sync-queue", "sync-queue", "testdata/sdk/sync-queue.json", vs, nil)
	want := []string{
		"system: session synced: queued upload api_conversation_history.json status=synced retries=0 (17 bytes)",
		"system: session synced: queued upload ui_messages.json status=pending retries=1 (2 bytes)",
		"system: session synced: queued upload ui_messages.json status=failed retries=5 (7 bytes) error=403 Forbidden: bucket policy",
	}
	if got := texts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s", strings.Join(got, "\n"))
	}
	if len(s.States) != 2 || s.States[0].Synced != "yes" || s.States[1].Synced != "no" || s.States[1].Key.SessionID != "1796000500000" || len(s.Problems) != 1 {
		t.Fatalf("states %+v problems %v", s.States, s.Problems)
	}
}

func TestUnwrapUserInput(t *testing.T) {
	for in, want := range map[string]string{
		`<user_input mode="act">a</user_input>`:                                          "a|act||true",
		"<user_input>multi\nline</user_input>":                                           "multi\nline|||true",
		`x <user_input mode="plan">b</user_input> <user_input mode="act">c</user_input>`: "b\nc|plan|x|true",
		"plain": "||plain|false",
	} {
		typed, mode, rest, ok := unwrapUserInput(in)
		got := typed + "|" + mode + "|" + rest + "|"
		if ok {
			got += "true"
		} else {
			got += "false"
		}
		if got != want {
			t.Errorf("unwrapUserInput(%q) = %q, want %q", in, got, want)
		}
	}
}

// A bundle collected before the sdk-messages target existed files a
// messages file under sdk-sessions: it is still read as messages.
func TestSDKMessagesUnderOldTarget(t *testing.T) {
	f := parser.File{Path: sdkSess + "/1796100000000_impt1.messages.json", Agent: Agent, Target: "sdk-sessions", MTime: mtime}
	p := byID(t, "cline/sdk-session")
	if !p.Match(&f) {
		t.Fatal("cline/sdk-session does not take the old target's messages file")
	}
	s := parsertest.Run(t, p, parsertest.Input(t, "testdata/sdk/1796100000000_impt1/1796100000000_impt1.messages.json", f, nil))
	if len(s.Events) != 17 || s.Events[1].Text != "port the tests to vitest" || s.Events[1].TurnType != timeline.User {
		t.Fatalf("%d rows: %v", len(s.Events), texts(s))
	}
}
