package grok

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var mtime = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

const (
	dir = ".grok/sessions/%2Fhome%2Fex%2Fproj%2Fweb/"
	cur = "019f7000-0000-7000-8000-0000000000a1"
	leg = "019f7000-0000-7000-8000-0000000000b2"
	emp = "019f7000-0000-7000-8000-0000000000c3"
	rew = "019f7000-0000-7000-8000-0000000000d4"
)

var byID = parsertest.IDs(Parsers())

// run parses testdata/home/<rel>; the other files of its session folder
// are there to be opened beside it.
func run(t *testing.T, id, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	related := parsertest.Files{}
	local, err := filepath.Glob(filepath.Join("testdata/home", filepath.Dir(rel), "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range local {
		related["/home/ex/"+path.Join(path.Dir(rel), filepath.Base(l))] = l
	}
	in := parsertest.Input(t, "testdata/home/"+rel, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: target, MTime: mtime}, related)
	s := parsertest.Golden(t, byID(t, id), in, "testdata/"+golden+".golden.jsonl")
	if strings.HasSuffix(rel, ".jsonl") {
		parsertest.Accounted(t, in, s)
	}
	return s
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s id=%s in=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.ToolUseID, e.ToolInput, e.TimeString(), e.ToRow().TimeBasis, e.Text)
	}
	return b.String()
}

// TestSession: every row type of the current chat history; an injected
// input (project instructions) is a system row, an interjection the
// person typed a user row; the denied call's result is kept; the prompt
// (by its text) and the call and its failed completion (by call id) take
// updates.jsonl's times, every other row stays undated and is counted.
func TestSession(t *testing.T) {
	s := run(t, "grok/session", dir+cur+"/chat_history.jsonl", "sessions", "session")
	want := strings.ReplaceAll(`3 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T12:00:00.250Z/anchored: "find where the API key is read"
6 tool_use run_terminal_cmd sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id=call_2 in={"command":"cat .env"} t=2025-12-01T12:00:02.000Z/anchored: "run_terminal_cmd: cat .env"
8 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_2 in= t=2025-12-01T12:00:03.000Z/anchored: "Permission denied by user"
1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "system prompt: You are Grok"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "injected input, not typed (project_instructions): project policy: no force pushes"
4 thinking  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "Search the config loader first."
5 tool_use web_search sid=@ parent= proj=/home/ex/proj/web model= id=ws_1 in={"type":"search","query":"grok api key env","sources":[]} t=/none: "server-side web_search (completed): {\"type\":\"search\",\"query\":\"grok api key env\",\"sources\":[]}"
6 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=/none: "Searching the sources."
6 tool_use grep sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id=call_1 in={"pattern":"API_KEY","path":"src/"} t=/none: "grep: src/"
7 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_1 in= t=/none: "src/config.rs:12: env::var(\"API_KEY\")"
9 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "no, don't read .env"
10 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=/none: "Understood; src/config.rs reads it."
`, "@", cur)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if fmt.Sprint(s.Skips) != "[{11 no_evidence:empty_assistant}]" {
		t.Fatalf("skips: %v", s.Skips)
	}
	if len(s.Problems) != 4 || s.Problems[0] != `line 12: skipped_record: unknown chat history row, type "compaction_marker"` || s.Problems[1] != "line 13: skipped_record: tool result without a tool_call_id" || !strings.HasPrefix(s.Problems[2], "line 14: malformed JSON line (cut short or corrupt), skipped: ") ||
		s.Problems[3] != "line 0: undated_rows: 9 of 12 rows undated (assistant 2, system 2, thinking 1, tool_result 1, tool_use 2, user 1): no update of updates.jsonl names them (by call id, or exact prompt, reply or reasoning text in its turn)" {
		t.Fatalf("problems: %q", s.Problems)
	}
}

// TestSessionAnchored: a session rewound once. The typed text inside
// <user_query> is the user row, the context Grok put beside it a system
// row; each prompt takes the time of the next live prompt of the same text
// (and prompt_index): the retried "delete b.go" the one after the rewind,
// never the one it cut off, and the second "list the files" the third
// prompt, not the first; a reply its turn's reply of the same text (the
// second "Two files." its own turn's); calls and completions by id; a
// reply and a result no update names stay undated, counted; the
// <user_info> preamble is Grok's, not typed, and a reminder block beside
// typed text is split from it.
func TestSessionAnchored(t *testing.T) {
	s := run(t, "grok/session", dir+rew+"/chat_history.jsonl", "sessions", "session_anchored")
	want := strings.ReplaceAll(`2 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:40:00.000Z/anchored: "list the files"
3 thinking  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:40:01.000Z/anchored: "Use ls."
4 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T14:40:02.000Z/anchored: "Listing them."
4 tool_use run_terminal_cmd sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id=call_a in={"command":"ls"} t=2025-12-01T14:40:03.000Z/anchored: "run_terminal_cmd: ls"
5 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_a in= t=2025-12-01T14:40:04.000Z/anchored: "a.go\nb.go"
6 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T14:40:05.000Z/anchored: "Two files."
7 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:42:10.000Z/anchored: "delete b.go"
8 tool_use run_terminal_cmd sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id=call_c in={"command":"rm b.go"} t=2025-12-01T14:42:12.000Z/anchored: "run_terminal_cmd: rm b.go"
9 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_c in= t=2025-12-01T14:42:13.000Z/anchored: "Permission denied by user"
10 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T14:42:14.000Z/anchored: "It was refused."
11 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:43:20.000Z/anchored: "list the files"
12 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T14:43:21.000Z/anchored: "Two files."
1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "system prompt: You are Grok"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "injected with the prompt, not typed: <system-reminder>attached: README.md</system-reminder>"
13 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=/none: "Not in updates."
14 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_zz in= t=/none: "x"
15 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "injected input, not typed (Grok's context): <user_info>\nOS Version: linux\nShell: /bin/bash\n</user_info>"
16 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "run only the login test"
16 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "injected with the prompt, not typed: <system-reminder>tests are slow</system-reminder>"
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got, want := strings.Join(s.Problems, "|"), "line 0: undated_rows: 7 of 19 rows undated (assistant 1, system 4, tool_result 1, user 1): no update of updates.jsonl names them (by call id, or exact prompt, reply or reasoning text in its turn)"; got != want {
		t.Fatalf("problems %q\nwant %q", got, want)
	}
}

// TestSessionLegacy: the role rows chat-history-downgrade writes, with
// OpenAI function calls and reasoning_content; an unknown role is a
// problem; with no updates.jsonl beside it every row is undated, counted.
func TestSessionLegacy(t *testing.T) {
	s := run(t, "grok/session", dir+leg+"/chat_history.jsonl", "sessions", "session_legacy")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "system prompt: You are Grok"
2 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "review the parser"
3 thinking  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=/none: "Check the old format"
3 assistant  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=/none: "Reading it."
3 tool_use read_file sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id=call_1 in={"target_file":"src/parse.rs"} t=/none: "read_file: src/parse.rs"
4 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_1 in= t=/none: "fn parse() {}"
`, "@", leg)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if len(s.Skips) != 0 || len(s.Problems) != 2 || s.Problems[0] != `line 5: skipped_record: unknown chat history row, role "developer"` ||
		s.Problems[1] != "line 0: undated_rows: 6 of 6 rows undated (assistant 1, system 1, thinking 1, tool_result 1, tool_use 1, user 1): updates.jsonl, which dates them, was not collected beside this file" {
		t.Fatalf("skips %v problems %q", s.Skips, s.Problems)
	}
}

func TestSessionEmpty(t *testing.T) {
	s := run(t, "grok/session", dir+emp+"/chat_history.jsonl", "sessions", "session_empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 || len(s.Skips) != 0 {
		t.Fatalf("empty file: %+v %q %v", s.Events, s.Problems, s.Skips)
	}
}

// TestSummary: the session's start, last update and last activity at
// their recorded times, with the summary's title, model, git state and
// fork parent; a summary of the wrong shape is a problem.
func TestSummary(t *testing.T) {
	s := run(t, "grok/summary", dir+cur+"/summary.json", "session-summary", "summary")
	want := strings.ReplaceAll(`1 system  sid=@ parent=019f6000-0000-7000-8000-000000000009 proj=/home/ex/proj/web model=grok-4.5 id= in= t=2026-11-30T09:00:00.000Z/: "session created (title: Locate API key loading; summary: find where the API key is read; model: grok-4.5; git root: /home/ex/proj/web; branch: main; forked from: 019f6000-0000-7000-8000-000000000009; agent: grok-build; messages: 12)"
1 system  sid=@ parent=019f6000-0000-7000-8000-000000000009 proj=/home/ex/proj/web model=grok-4.5 id= in= t=2026-11-30T09:11:30.000Z/: "session last active"
1 system  sid=@ parent=019f6000-0000-7000-8000-000000000009 proj=/home/ex/proj/web model=grok-4.5 id= in= t=2026-11-30T09:12:00.000Z/: "session last updated"
`, "@", cur)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	b := run(t, "grok/summary", dir+leg+"/summary.json", "session-summary", "summary_bad")
	if len(b.Events) != 0 || len(b.Problems) != 1 || !strings.HasPrefix(b.Problems[0], "line 0: not a Grok session summary: ") {
		t.Fatalf("bad summary: %+v %q", b.Events, b.Problems)
	}
}

// TestUpdates: each usage update is one dated row naming only the
// counters it holds (per model, cost from ticks exactly); a turn emitted
// again is kept and points at the first; the streamed chunks are counted
// by kind, a line with no update and a cut line are problems.
func TestUpdates(t *testing.T) {
	s := run(t, "grok/updates", dir+cur+"/updates.jsonl", "session-files", "updates")
	want := strings.ReplaceAll(`4 system  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T12:00:10.500Z/: "token usage of turn p-1: grok-4.5: input 1100, cache read 1000, output 10, reasoning 4, cost $0.0424128"
5 system  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T12:00:12.000Z/: "token usage of turn p-1: grok-4.5: input 1200, cache read 1000, output 15 (re-emitted: the turn was first reported at line 4; both are kept)"
6 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T12:01:10.000Z/: "token usage of turn p-2: grok-4.5: input 200, cache read 128, output 20; grok-4.5-build: input 50, cache read 0, output 5, cost $1"
8 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T12:01:20.000Z/: "conversation compacted: chat_history.jsonl was replaced by the compacted history here; the turns before it are in updates.jsonl lines 1-7 (counted, not written as rows)"
10 system  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T12:01:30.000Z/: "token usage: grok-4.5: input 1, cost not read (costUsdTicks -5)"
7 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=/none: "token usage: input 8, output 3"
`, "@", cur)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s", got)
	}
	if got, want := fmt.Sprint(s.Skips), "[{1 session_update:user_message_chunk} {2 session_update:tool_call} {3 session_update:tool_call_update}]"; got != want {
		t.Errorf("skips: %s, want %s", got, want)
	}
	if got, want := len(s.Problems), 2; got != want {
		t.Errorf("problems: %d %v, want %d", got, s.Problems, want)
	}
}

// TestUpdatesRewind: the turn a rewind cut off (chat_history.jsonl no
// longer holds it) is kept as rows at their own times: the prompt, the
// call with its input, its completion, the reply; the marker is a system
// row naming what it cut; a compaction checkpoint a system row naming
// where the turns before it are and the auto-continue prompt Grok
// injected; every live update stays a Skip counted by kind.
func TestUpdatesRewind(t *testing.T) {
	s := run(t, "grok/updates", dir+rew+"/updates.jsonl", "session-files", "updates_rewind")
	want := strings.ReplaceAll(`9 user  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:41:00.000Z/: "delete b.go"
10 tool_use run_terminal_cmd sid=@ parent= proj=/home/ex/proj/web model= id=call_b in={"command":"rm b.go"} t=2025-12-01T14:41:01.000Z/: "run_terminal_cmd: rm b.go"
11 tool_result  sid=@ parent= proj=/home/ex/proj/web model= id=call_b in= t=2025-12-01T14:41:02.000Z/: "{\"exit_code\":0}"
12 assistant  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:41:03.000Z/: "Deleted b.go."
13 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:42:00.125Z/: "rewound by /rewind at 2025-12-01T14:42:00.125+00:00: 4 record(s), back to before prompt 1 (updates.jsonl lines 9-12, kept as rows; chat_history.jsonl no longer holds them)"
22 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:45:00.000Z/: "conversation compacted (checkpoint 9b1c0000-0000-4000-8000-00000000cafe; at prompt 3; compacted history in compaction_checkpoints/9b1c0000-0000-4000-8000-00000000cafe.json (not collected)): chat_history.jsonl was replaced by the compacted history here; the turns before it are in updates.jsonl lines 1-21 (counted, not written as rows); auto-continue prompt injected, not typed: Continue the conversation from where it left off."
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got, want := fmt.Sprint(s.Skips), "[{1 session_update:user_message_chunk} {2 session_update:agent_thought_chunk} {3 session_update:agent_message_chunk} {4 session_update:agent_message_chunk} {5 session_update:tool_call} {6 session_update:tool_call_update} {7 session_update:tool_call_update} {8 session_update:agent_message_chunk} {14 session_update:user_message_chunk} {15 session_update:user_message_chunk} {16 session_update:user_message_chunk} {17 session_update:tool_call} {18 session_update:tool_call_update} {19 session_update:agent_message_chunk} {20 session_update:user_message_chunk} {21 session_update:agent_message_chunk}]"; got != want {
		t.Errorf("skips: %s\nwant %s", got, want)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems %q", s.Problems)
	}
}

// TestSignals: every member that says something named with its value,
// the zero, false, empty and null ones counted; a file that is not an
// object is a problem, an empty object a Skip.
func TestSignals(t *testing.T) {
	s := run(t, "grok/signals", dir+cur+"/signals.json", "session-files", "signals")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2026-11-30T10:00:00.000Z/file-mtime: "session signals (signals.json): assistantMessageCount 3, contextTokensUsed 12000, contextWindowTokens 200000, contextWindowUsage 0.06, hasReverted true, primaryModelId \"grok-4.5\", toolCallCount 2, toolFailureCount 1, toolsUsed [\"grep\",\"run_terminal_cmd\"], turnCount 2, userMessageCount 2; 8 other members 0, false, empty or null"
`, "@", cur)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range []struct{ file, golden, problem, skip string }{
		{"testdata/odd/signals.json", "signals_bad", "line 0: signals.json is not a JSON object: expected an object, found an array", ""},
		{"testdata/odd/empty_signals.json", "signals_empty", "", "[{1 no_evidence:empty_signals}]"},
	} {
		in := parsertest.Input(t, c.file, parser.File{Path: "/home/ex/" + dir + cur + "/signals.json", Rel: dir + cur + "/signals.json", Agent: agentName, Target: "session-files", MTime: mtime}, nil)
		s := parsertest.Golden(t, byID(t, "grok/signals"), in, "testdata/"+c.golden+".golden.jsonl")
		if got := strings.Join(s.Problems, "|"); got != c.problem {
			t.Errorf("%s: problems %q, want %q", c.file, got, c.problem)
		}
		if got := fmt.Sprint(s.Skips); c.skip != "" && got != c.skip {
			t.Errorf("%s: skips %s, want %s", c.file, got, c.skip)
		}
		if len(s.Events) != 0 {
			t.Errorf("%s: %d rows", c.file, len(s.Events))
		}
	}
}

// TestPromptContext: a headless run's marker, named.
func TestPromptContext(t *testing.T) {
	s := run(t, "grok/prompt-context", dir+cur+"/prompt_context.json", "session-files", "prompt_context")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2026-11-30T10:00:00.000Z/file-mtime: "prompt context (prompt_context.json): is_non_interactive true"
`, "@", cur)
	if got := rows(s); got != want || len(s.Problems) != 0 {
		t.Fatalf("rows:\n%s\nwant:\n%s\nproblems %v", got, want, s.Problems)
	}
}

// TestRewindPoints: each point at its created_at, naming the files it
// snapshotted before and after the prompt (sizes, a file that did not
// exist, a legacy absolute path), never their contents; a point with no
// prompt_index is counted, a cut line a problem.
func TestRewindPoints(t *testing.T) {
	s := run(t, "grok/rewind-points", dir+rew+"/rewind_points.jsonl", "session-files", "rewind_points")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:40:00.010Z/: "rewind point of prompt 0 (rewind_points.jsonl): no file snapshotted before the prompt ran; no file snapshotted after it (contents kept in the file, not shown)"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:42:10.020Z/: "rewind point of prompt 1 (rewind_points.jsonl): 2 file(s) snapshotted: /home/ex/notes.txt (did not exist), b.go (10 bytes) before the prompt ran; 1 file(s) snapshotted: b.go (10 bytes) after it (contents kept in the file, not shown)"
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 2 || s.Problems[0] != "line 3: skipped_record: a rewind point without prompt_index or file_snapshots" || !strings.HasPrefix(s.Problems[1], "line 4: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("problems %q", s.Problems)
	}
	for _, e := range s.Events {
		if strings.Contains(e.Text, "package b") {
			t.Fatalf("a snapshot's content is shown: %q", e.Text)
		}
	}
}

// TestFeedback: a thumbs-down with its text, categories, turn and model;
// a dismissed request Grok asked for; another entry type counted, a cut
// line a problem.
func TestFeedback(t *testing.T) {
	s := run(t, "grok/feedback", dir+rew+"/feedback.jsonl", "session-files", "feedback")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model=grok-4.5 id= in= t=2025-12-01T14:43:30.000Z/: "feedback (feedback.jsonl): rating thumbs -1 (down); text: it tried to delete my file; categories accuracy, safety; type rating_with_text; from tui; model grok-4.5; turn 2"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:44:00.000Z/: "feedback request dismissed (feedback.jsonl): asked for by Grok (request fr_1)"
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 2 || s.Problems[0] != `line 3: skipped_record: a feedback entry tagged "bug_report"` || !strings.HasPrefix(s.Problems[1], "line 4: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("problems %q", s.Problems)
	}
}

// TestPlan: the to-do items in the file's order at the file mtime, the
// priority only where recorded; an item of the wrong shape a problem; an
// empty list a Skip, a file that is not an object a problem.
func TestPlan(t *testing.T) {
	s := run(t, "grok/plan", dir+rew+"/plan.json", "session-files", "plan")
	want := strings.ReplaceAll(`1 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2026-11-30T10:00:00.000Z/file-mtime: "plan item 2 [cancelled]: Delete b.go"
2 system  sid=@ parent= proj=/home/ex/proj/web model= id= in= t=2026-11-30T10:00:00.000Z/file-mtime: "plan item 1 [completed] (priority high): List the files"
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 3: plan item 3 not read: ") {
		t.Fatalf("problems %q", s.Problems)
	}
	for _, c := range []struct{ file, golden, problem, skip string }{
		{"testdata/odd/plan.json", "plan_bad", "line 0: plan.json is not a JSON object: expected an object, found an array", ""},
		{"testdata/odd/empty_plan.json", "plan_empty", "", "[{1 no_evidence:empty_plan}]"},
	} {
		in := parsertest.Input(t, c.file, parser.File{Path: "/home/ex/" + dir + rew + "/plan.json", Rel: dir + rew + "/plan.json", Agent: agentName, Target: "session-files", MTime: mtime}, nil)
		s := parsertest.Golden(t, byID(t, "grok/plan"), in, "testdata/"+c.golden+".golden.jsonl")
		if got := strings.Join(s.Problems, "|"); got != c.problem {
			t.Errorf("%s: problems %q, want %q", c.file, got, c.problem)
		}
		if got := fmt.Sprint(s.Skips); c.skip != "" && got != c.skip {
			t.Errorf("%s: skips %s, want %s", c.file, got, c.skip)
		}
		if len(s.Events) != 0 {
			t.Errorf("%s: %d rows", c.file, len(s.Events))
		}
	}
}

// TestBtw: a /btw side question is its own session under the session it
// asked about: the typed question a user row at askedAt, the answer an
// assistant row with its model (the time inherited), a failed one a
// system row with attempts and error; an empty entry counted, a cut line
// a problem.
func TestBtw(t *testing.T) {
	s := run(t, "grok/btw", dir+rew+"/btw_history.jsonl", "session-files", "btw")
	want := strings.ReplaceAll(`1 user  sid=btw-5d2e0000-0000-4000-8000-000000000001 parent=@ proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:41:30.250Z/: "which test runner is this?"
1 assistant  sid=btw-5d2e0000-0000-4000-8000-000000000001 parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:41:30.250Z/inherited: "Go's: go test."
2 user  sid=btw-5d2e0000-0000-4000-8000-000000000002 parent=@ proj=/home/ex/proj/web model= id= in= t=2025-12-01T14:44:10.000Z/: "is b.go tracked?"
2 system  sid=btw-5d2e0000-0000-4000-8000-000000000002 parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:44:10.000Z/inherited: "side question (/btw) failed after 3 attempt(s): rate limited"
`, "@", rew)
	if got := rows(s); got != want {
		t.Fatalf("rows:\n%s\nwant:\n%s", got, want)
	}
	if len(s.Problems) != 2 || s.Problems[0] != "line 3: skipped_record: a /btw entry with no question or answer" || !strings.HasPrefix(s.Problems[1], "line 4: malformed JSON line (cut short or corrupt), skipped: ") {
		t.Fatalf("problems %q", s.Problems)
	}
}

// TestSubagent: a subagent's meta.json puts rows in the child session,
// linked to the session that spawned it: its start with type, status,
// counters and model, the task the parent's model wrote (never a user
// row), its end; output.json the output it returned at the end's time
// (inherited). A meta.json that is not an object and an output.json
// without output are problems.
func TestSubagent(t *testing.T) {
	const child = "019f7000-0000-7000-8000-0000000000e5"
	rel := dir + rew + "/subagents/sa-7f/"
	m := run(t, "grok/subagent", rel+"meta.json", "subagents", "subagent_meta")
	want := strings.ReplaceAll(strings.ReplaceAll(`1 system  sid=C parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:41:10.000Z/: "subagent explore sa-7f started (status completed): find who imports b.go; parent @; context new; cwd /home/ex/proj/web; model grok-4.5-fast; turns 2; tool calls 4; duration ms 30500"
1 system  sid=C parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:41:10.000Z/: "subagent task (written by the parent's model, not typed): Search the repository for imports of package b and report the files."
1 system  sid=C parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:41:40.500Z/: "subagent sa-7f ended (status completed)"
`, "@", rew), "C", child)
	if got := rows(m); got != want || len(m.Problems) != 0 {
		t.Fatalf("meta rows:\n%s\nwant:\n%s\nproblems %q", got, want, m.Problems)
	}
	o := run(t, "grok/subagent", rel+"output.json", "subagents", "subagent_output")
	want = strings.ReplaceAll(strings.ReplaceAll(`1 system  sid=C parent=@ proj=/home/ex/proj/web model=grok-4.5-fast id= in= t=2025-12-01T14:41:40.500Z/inherited: "subagent output returned to the parent (output.json): No file imports package b."
`, "@", rew), "C", child)
	if got := rows(o); got != want || len(o.Problems) != 0 {
		t.Fatalf("output rows:\n%s\nwant:\n%s\nproblems %q", got, want, o.Problems)
	}
	bm := run(t, "grok/subagent", dir+rew+"/subagents/sa-bad/meta.json", "subagents", "subagent_meta_bad")
	if len(bm.Events) != 0 || strings.Join(bm.Problems, "|") != "line 0: subagent meta.json is not a JSON object: expected an object, found an array" {
		t.Fatalf("bad meta: %d rows %q", len(bm.Events), bm.Problems)
	}
	bo := run(t, "grok/subagent", dir+rew+"/subagents/sa-bad/output.json", "subagents", "subagent_output_bad")
	if len(bo.Events) != 0 || strings.Join(bo.Problems, "|") != "line 0: skipped_record: subagent output.json without output" {
		t.Fatalf("bad output: %d rows %q", len(bo.Events), bo.Problems)
	}
}
