package claudecode

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const (
	testSession = "11111111-aaaa-4bbb-8ccc-000000000001"
	testProject = "/home/examiner/.claude/projects/-home-examiner-demo/"
)

// transcriptInput presents a testdata file at an original path.
func transcriptInput(t *testing.T, local, orig string, related parsertest.Files) *parser.Input {
	t.Helper()
	return parsertest.Input(t, local, parser.File{Path: orig, Rel: strings.TrimPrefix(orig, "/home/examiner/"),
		Agent: Agent, Target: "projects"}, related)
}

// golden runs the transcript parser on testdata/<name>.jsonl presented as
// the main session file and compares with testdata/<name>.golden.jsonl.
func golden(t *testing.T, name string) *parsertest.Sink {
	t.Helper()
	in := transcriptInput(t, "testdata/"+name+".jsonl", testProject+testSession+".jsonl", nil)
	return parsertest.Golden(t, Transcript(), in, "testdata/"+name+".golden.jsonl")
}

// find returns the rows of a turn type whose text contains sub.
func find(s *parsertest.Sink, tt timeline.TurnType, sub string) []timeline.Event {
	var out []timeline.Event
	for _, e := range s.Events {
		if e.TurnType == tt && strings.Contains(e.Text, sub) {
			out = append(out, e)
		}
	}
	return out
}

func one(t *testing.T, s *parsertest.Sink, tt timeline.TurnType, sub string) timeline.Event {
	t.Helper()
	got := find(s, tt, sub)
	if len(got) != 1 {
		t.Fatalf("want one %s row containing %q, got %d", tt, sub, len(got))
	}
	return got[0]
}

func TestTranscriptEmpty(t *testing.T) {
	s := golden(t, "empty")
	if len(s.Events) != 0 || len(s.Problems) != 0 {
		t.Fatalf("empty file: %d rows, problems %v", len(s.Events), s.Problems)
	}
}

func TestTranscriptTypical(t *testing.T) {
	s := golden(t, "typical")
	if len(s.Problems) != 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	// Only typed prompts are user rows.
	var users []string
	for _, e := range s.Events {
		if e.TurnType == timeline.User {
			users = append(users, e.Text)
		}
	}
	if strings.Join(users, "|") != "list the files|now use sonnet|[image image/png]" {
		t.Fatalf("user rows: %q", users)
	}
	one(t, s, timeline.System, "Caveat: The messages below")
	one(t, s, timeline.System, "<command-name>/model</command-name>")
	one(t, s, timeline.System, "<system-reminder>")
	call := one(t, s, timeline.ToolUse, "ls -la")
	res := one(t, s, timeline.ToolResult, "a.txt\nb.txt")
	if call.ToolUseID != "toolu_ls" || res.ToolUseID != "toolu_ls" || res.ToolName != "Bash" || res.IsError != "false" {
		t.Fatalf("tool pair: %+v / %+v", call, res)
	}
	if call.ToolInput != `{"command":"ls -la","description":"List files"}` || call.Model != "claude-opus-4-6" {
		t.Fatalf("tool call: %+v", call)
	}
	if m := find(s, timeline.System, "model: "); len(m) != 2 || m[0].Text != "model: claude-opus-4-6" ||
		m[1].Text != "model: claude-opus-4-6 -> claude-sonnet-4-5-20250929" {
		t.Fatalf("model rows %+v", m)
	}
	if m := find(s, timeline.System, "permission mode: "); len(m) != 2 || m[0].Text != "permission mode: default" ||
		m[1].Text != "permission mode: default -> acceptEdits" {
		t.Fatalf("mode rows %+v", m)
	}
	one(t, s, timeline.System, "api_error: error=Overloaded retryAttempt=1/10 retryInMs=1000")
	one(t, s, timeline.System, "api error: API Error: 500 internal")
	one(t, s, timeline.System, "hook PreToolUse:Bash: ~/.claude/hooks/guard.sh")
	one(t, s, timeline.System, "session surface: cli")
	one(t, s, timeline.System, "attachment skill_listing: init, review")
	one(t, s, timeline.System, "custom-title: customTitle=my demo")
	th := one(t, s, timeline.Thinking, "I should run ls.")
	if th.Model != "claude-opus-4-6" {
		t.Fatalf("thinking model %q", th.Model)
	}
	// The leading summary has no time: it takes the first record's.
	sum := one(t, s, timeline.System, "summary: Demo session title")
	if sum.TimeBasis != timeline.TimeInherited || !sum.Time.Equal(parsertest.Time(t, "2026-10-11T10:00:00Z")) || sum.SessionID != testSession {
		t.Fatalf("summary row: %+v", sum)
	}
	// No file-history-snapshot or last-prompt rows.
	if len(find(s, timeline.System, "snapshot")) != 0 || len(find(s, timeline.System, "last-prompt")) != 0 {
		t.Fatal("snapshot or last-prompt emitted")
	}
}

func TestTranscriptMalformed(t *testing.T) {
	s := golden(t, "malformed")
	if len(s.Problems) != 2 || !strings.HasPrefix(s.Problems[0], "line 2: malformed JSON line") || !strings.HasPrefix(s.Problems[1], "line 4:") {
		t.Fatalf("problems: %v", s.Problems)
	}
	one(t, s, timeline.User, "first prompt")
	one(t, s, timeline.User, "second prompt")
}

func TestTranscriptSplitMessage(t *testing.T) {
	s := golden(t, "split_message")
	// msg_S spans three lines; line 4 repeats line 3 (same uuid) and line
	// 5 writes the first block again under another uuid. Nothing is
	// dropped here: each repeat is a row carrying the first row's record
	// id, so the engine's identity merge writes each block once.
	texts := find(s, timeline.Assistant, "part one")
	if len(texts) != 2 || texts[0].RecordID != "a1" || texts[1].RecordID != "a1" || texts[1].SourceLine != 5 {
		t.Fatalf("text block rows: %+v", texts)
	}
	calls := find(s, timeline.ToolUse, "/home/examiner/demo/a.txt")
	if len(calls) != 2 || calls[0].RecordID != "a2" || calls[1].RecordID != "a2" || calls[0].SourceLine != 3 || calls[1].SourceLine != 4 ||
		calls[0].ToolUseID != "toolu_1" || calls[0].ToolName != "Read" {
		t.Fatalf("tool_use rows: %+v", calls)
	}
	if n := len(find(s, timeline.System, "model:")); n != 1 {
		t.Fatalf("model rows: %d", n)
	}
}

func TestTranscriptTruncatedLastLine(t *testing.T) {
	s := golden(t, "truncated_last_line")
	if len(s.Problems) != 1 || !strings.HasPrefix(s.Problems[0], "line 3: malformed JSON line") {
		t.Fatalf("problems: %v", s.Problems)
	}
	one(t, s, timeline.Assistant, "reply")
}

func TestTranscriptGluedLine(t *testing.T) {
	s := golden(t, "glued_line")
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "glued") {
		t.Fatalf("problems: %v", s.Problems)
	}
	r := one(t, s, timeline.Assistant, "reply")
	if r.SourceLine != 2 {
		t.Fatalf("glued record line %d", r.SourceLine)
	}
	one(t, s, timeline.User, "second prompt")
}

func TestTranscriptNULRun(t *testing.T) {
	s := golden(t, "nul_run")
	if len(s.Problems) != 1 || s.Problems[0] != "line 2: nul_run: 300 NUL byte(s) dropped from the line (padding a crash or a preallocating writer leaves)" {
		t.Fatalf("problems: %v", s.Problems)
	}
	if r := one(t, s, timeline.Assistant, "reply"); r.SourceLine != 3 {
		t.Fatalf("line after NULs: %d", r.SourceLine)
	}
}

func TestTranscriptLoneSurrogate(t *testing.T) {
	s := golden(t, "lone_surrogate")
	r := one(t, s, timeline.ToolResult, "x ")
	if r.Text != "x \uFFFD\n" || r.ToolUseID != "t" || r.ToolName != "Bash" {
		t.Fatalf("surrogate result %q", r.Text)
	}
}

func TestTranscriptCompaction(t *testing.T) {
	s := golden(t, "compaction")
	// The detached branch (boundary with parentUuid null) loses nothing.
	one(t, s, timeline.User, "work on it")
	one(t, s, timeline.Assistant, "working")
	one(t, s, timeline.System, "compact_boundary: Conversation compacted trigger=auto preTokens=155000")
	one(t, s, timeline.System, "This session is being continued")
	one(t, s, timeline.User, "continue please")
	one(t, s, timeline.Assistant, "continuing")
}

func TestTranscriptSubagentInline(t *testing.T) {
	s := golden(t, "subagent_inline")
	h := one(t, s, timeline.System, "subagent s1 of "+testSession)
	if h.SourceLine != 3 {
		t.Fatalf("header line %d", h.SourceLine)
	}
	// The parent agent's prompt to the subagent is not a user row.
	if len(find(s, timeline.User, "Say hi")) != 0 {
		t.Fatal("subagent prompt emitted as user")
	}
	one(t, s, timeline.System, "model: claude-haiku-4-5") // the sidechain's own first model
	if n := len(find(s, timeline.System, "->")); n != 0 {
		t.Fatalf("model change rows across chains: %d", n)
	}
	r := one(t, s, timeline.ToolResult, "hi")
	if r.ToolUseID != "toolu_task" || r.ToolName != "Task" {
		t.Fatalf("task result %+v", r)
	}
}

func TestTranscriptSubagentFiles(t *testing.T) {
	for _, tc := range []struct{ name, orig string }{
		{"beside_session", testProject + "agent-a5e7.jsonl"},
		{"subagents_folder", testProject + testSession + "/subagents/agent-a5e7.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := transcriptInput(t, "testdata/subagent_file.jsonl", tc.orig, nil)
			s := parsertest.Golden(t, Transcript(), in, "testdata/subagent_file_"+tc.name+".golden.jsonl")
			if s.Events[0].Text != "subagent a5e7 of "+testSession || s.Events[0].SourceLine != 1 || s.Events[0].RecordID != "a5e7#subagent" {
				t.Fatalf("first row %+v", s.Events[0])
			}
			// The parent model's prompt is a system row, never user.
			if task := s.Events[1]; task.Text != "subagent task: Say hi" || task.TurnType != timeline.System || task.RecordID != "s1" {
				t.Fatalf("task row %+v", task)
			}
			for _, e := range s.Events {
				if e.SessionID != "a5e7" || e.ParentSessionID != testSession {
					t.Fatalf("row carries session %q parent %q, want the subagent's own and the parent's", e.SessionID, e.ParentSessionID)
				}
				if e.TurnType == timeline.User {
					t.Fatalf("user row in a subagent file: %q", e.Text)
				}
			}
			c := one(t, s, timeline.ToolUse, "TODO")
			if c.ToolName != "Grep" || c.ToolUseID != "toolu_g" {
				t.Fatalf("grep call %+v", c)
			}
		})
	}
}

func TestTranscriptPermission(t *testing.T) {
	s := golden(t, "permission")
	var modes []string
	for _, e := range find(s, timeline.System, "permission mode:") {
		modes = append(modes, e.Text)
	}
	if strings.Join(modes, "|") != "permission mode: plan|permission mode: plan -> default|permission mode: default -> bypassPermissions" {
		t.Fatalf("modes: %q", modes)
	}
	d := one(t, s, timeline.System, "permission decision: accept source=user reason=userPrompt")
	if d.ToolUseID != "toolu_w" || d.SourceLine != 4 {
		t.Fatalf("decision row %+v", d)
	}
	r := one(t, s, timeline.System, "permission decision: reject (interrupted) toolDenialKind=user-rejected")
	if r.ToolUseID != "toolu_rm" {
		t.Fatalf("denial row %+v", r)
	}
	// The decision row follows its tool_result row.
	for i, e := range s.Events {
		if e.Text == d.Text && (i == 0 || s.Events[i-1].TurnType != timeline.ToolResult || s.Events[i-1].ToolUseID != "toolu_w") {
			t.Fatal("decision row not right after its tool_result")
		}
	}
	one(t, s, timeline.System, "[Request interrupted by user for tool use]")
	one(t, s, timeline.System, "prompt trigger: promptSource=queued turnOrigin=remote")
}

func TestTranscriptPersistedOutput(t *testing.T) {
	related := parsertest.Files{
		testProject + testSession + "/tool-results/toolu_big.txt": "testdata/tool-results/toolu_big.txt",
	}
	in := transcriptInput(t, "testdata/persisted.jsonl", testProject+testSession+".jsonl", related)
	s := parsertest.Golden(t, Transcript(), in, "testdata/persisted.golden.jsonl")
	big := one(t, s, timeline.ToolResult, "line 3 of the full output")
	if big.ToolUseID != "toolu_big" || !strings.HasSuffix(big.Text, "\n[exit code 0]") {
		t.Fatalf("persisted result %+v", big)
	}
	// Not collected: the stub stays.
	gone := one(t, s, timeline.ToolResult, "only the preview")
	if gone.ToolUseID != "toolu_gone" || !strings.Contains(gone.Text, "<persisted-output>") {
		t.Fatalf("stub result %+v", gone)
	}
}

// TestTranscriptSharedSamples parses the real transcripts copied from public
// repositories (shared/agent-samples/claude-code) and checks known values.
func TestTranscriptSharedSamples(t *testing.T) {
	root := parsertest.SharedSamples(t, "claude-code")
	run := func(rel, orig string) *parsertest.Sink {
		in := transcriptInput(t, root+"/"+rel, orig, nil)
		s := parsertest.Run(t, Transcript(), in)
		if len(s.Problems) != 0 {
			t.Fatalf("%s: problems %v", rel, s.Problems)
		}
		return s
	}

	t.Run("short_split_message", func(t *testing.T) {
		s := run("spotter/short.jsonl", "/home/marco/.claude/projects/-home-marco-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl")
		first := s.Events[0]
		if first.SessionID != "55604662-cf2a-4331-851a-ec234028f8ca" || first.TimeString() != "2026-02-10T21:11:52.438Z" ||
			first.ProjectPath != "/home/marco/projects/spotter" {
			t.Fatalf("first row %+v", first)
		}
		p := one(t, s, timeline.User, "mix phx.server doesnt seem to start")
		if p.TimeString() != "2026-02-10T21:11:56.846Z" {
			t.Fatalf("prompt time %s", p.TimeString())
		}
		call := one(t, s, timeline.ToolUse, "mix phx.server 2>&1 | head -80")
		if call.ToolUseID != "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc" || call.ToolName != "Bash" || call.Model != "claude-opus-4-6" {
			t.Fatalf("call %+v", call)
		}
		var res []timeline.Event
		for _, e := range s.Events {
			if e.TurnType == timeline.ToolResult && e.ToolUseID == "toolu_0116Hyi5v8ut7Ffb7d8qV1Sc" {
				res = append(res, e)
			}
		}
		if len(res) != 1 || res[0].IsError != "true" || !strings.HasPrefix(res[0].Text, "The user doesn't want to proceed") || res[0].ToolName != "Bash" {
			t.Fatalf("result %+v", res)
		}
		// msg_01MKH1ccEGrZGNPvu8pYiiQa spans five lines: one thinking, one
		// text (the "\n\n" block is blank), two tool calls.
		if n := len(s.Events); n == 0 {
			t.Fatal("no rows")
		}
		if len(find(s, timeline.Thinking, "")) != 1 || len(find(s, timeline.ToolUse, "")) != 2 {
			t.Fatal("split message block counts")
		}
		one(t, s, timeline.System, "permission mode: bypassPermissions")
		one(t, s, timeline.System, "local_command: <local-command-stdout>Kept model as")
	})

	t.Run("compact_2_0_13", func(t *testing.T) {
		s := run("agentlogs/compact.jsonl", "/Users/philipp/.claude/projects/-Users-philipp-dev-studio/0e26ec2f-937e-482c-b889-bc126f996913.jsonl")
		one(t, s, timeline.System, "compact_boundary: Conversation compacted trigger=manual preTokens=15808")
		sum := one(t, s, timeline.System, "This session is being continued from a previous conversation")
		if sum.SourceLine != 12 || sum.TimeString() != "2025-10-10T21:57:51.963Z" {
			t.Fatalf("compact summary %+v", sum)
		}
		if got := find(s, timeline.User, ""); len(got) != 1 || got[0].Text != "how are you doing" {
			t.Fatalf("user rows %+v", got)
		}
	})

	t.Run("inline_sidechain_2_0_13", func(t *testing.T) {
		s := run("agentlogs/subagent.jsonl", "/Users/philipp/.claude/projects/-Users-philipp-dev-studio/609efeca-2f51-4118-b077-e91c9fe63f73.jsonl")
		one(t, s, timeline.System, "subagent cd49a45d-dd15-4ec8-8963-410e62666fbc of 609efeca-2f51-4118-b077-e91c9fe63f73")
		sum := one(t, s, timeline.System, "summary: Tailwind Studio: Component Catalog Architecture Design")
		if sum.SessionID != "609efeca-2f51-4118-b077-e91c9fe63f73" || sum.TimeBasis != timeline.TimeInherited {
			t.Fatalf("summary %+v", sum)
		}
		r := one(t, s, timeline.ToolResult, "Hello! I'm doing well")
		if r.ToolUseID != "toolu_01BuNFczVnbvyf3hBd7oYaqy" || r.ToolName != "Task" {
			t.Fatalf("task result %+v", r)
		}
	})

	t.Run("subagents_folder_2_1_39", func(t *testing.T) {
		s := run("spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl",
			"/home/USER/.claude/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl")
		if s.Events[0].Text != "subagent a2898e3 of 4d5611e5-241a-462a-8d15-5122611a9569" {
			t.Fatalf("first row %q", s.Events[0].Text)
		}
		calls, results := map[string]bool{}, map[string]bool{}
		for _, e := range s.Events {
			if e.SessionID != "a2898e3" || e.ParentSessionID != "4d5611e5-241a-462a-8d15-5122611a9569" {
				t.Fatalf("session %q parent %q", e.SessionID, e.ParentSessionID)
			}
			switch e.TurnType {
			case timeline.ToolUse:
				calls[e.ToolUseID] = true
			case timeline.ToolResult:
				results[e.ToolUseID] = true
			case timeline.User:
				t.Fatalf("user row in subagent file: %.80q", e.Text)
			}
		}
		if len(calls) != 33 || len(results) != 33 {
			t.Fatalf("calls %d results %d", len(calls), len(results))
		}
		for id := range calls {
			if !results[id] {
				t.Fatalf("call %s has no result", id)
			}
		}
	})

	t.Run("acompact", func(t *testing.T) {
		s := run("spotter/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl",
			"/home/USER/.claude/projects/-x/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-acompact-e1f845.jsonl")
		if s.Events[0].Text != "subagent acompact-e1f845 of 4d5611e5-241a-462a-8d15-5122611a9569" || s.Events[0].TimeString() != "2026-02-12T20:24:43.254Z" {
			t.Fatalf("first row %+v", s.Events[0])
		}
		one(t, s, timeline.System, "model: claude-opus-4-6")
	})

	t.Run("huge_line", func(t *testing.T) {
		s := run("agentlogs/images.jsonl", "/Users/philipp/.claude/projects/-Users-philipp-dev-vibeinsights/794b4c5f-6354-422a-9e6d-c9f18e89e427.jsonl")
		r := one(t, s, timeline.ToolResult, "Took a screenshot")
		if r.SourceLine != 22 || r.ToolUseID != "toolu_01GTMLoCg3rsc6v2ambGqDqN" || r.ToolName != "mcp__chrome-devtools__take_screenshot" ||
			r.Text != "# take_screenshot response\nTook a screenshot of the current page's viewport.\n[image image/png]" {
			t.Fatalf("huge line result %+v", r)
		}
		n := 0
		for _, e := range find(s, timeline.System, "summary: ") {
			if strings.HasPrefix(e.Text, "summary: ") {
				n++
			}
		}
		if n != 18 {
			t.Fatalf("summaries %d", n)
		}
	})

	t.Run("tool_heavy_queue", func(t *testing.T) {
		s := run("spotter/tool_heavy.jsonl", "/home/marco/.claude/projects/-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl")
		q := one(t, s, timeline.System, "queue-operation enqueue: /mcp")
		if q.TimeString() != "2026-02-10T22:57:58.381Z" {
			t.Fatalf("queue row %+v", q)
		}
		calls, results := 0, 0
		for _, e := range s.Events {
			switch e.TurnType {
			case timeline.ToolUse:
				calls++
			case timeline.ToolResult:
				results++
			}
		}
		if calls != 6 || results != 6 {
			t.Fatalf("calls %d results %d", calls, results)
		}
	})
}

// realSince checks a row time lies in a scenario's window.
func within(t *testing.T, e timeline.Event, from, to string) {
	t.Helper()
	f, _ := time.Parse(time.RFC3339Nano, from)
	u, _ := time.Parse(time.RFC3339Nano, to)
	if e.Time.Before(f.Add(-2*time.Second)) || e.Time.After(u.Add(2*time.Second)) {
		t.Fatalf("row %q at %s outside %s..%s", e.Text, e.TimeString(), from, to)
	}
}

// TestTranscriptPermissionRule: 2.1.332 records the rule code, the rule's
// source and the denial kind beside the decision (shape of the real
// permission-rule-denied run in fixtures/roots/real-agents).
func TestTranscriptPermissionRule(t *testing.T) {
	s := golden(t, "permission_rule")
	d := one(t, s, timeline.System, "permission decision: reject source=config reason=subcommandResults code=rule:cliArg rule=cliArg toolDenialKind=permission-rule")
	if d.ToolUseID != "toolu_rule" {
		t.Fatalf("decision row %+v", d)
	}
}

// A valid record with a member of an unexpected type (a numeric
// timestamp, a string where a flag belongs) was reported as "1 complete
// records on one line ... all kept" and gave no row; a glued record of
// that kind vanished the same way. Each is read with the odd member as
// null and a problem naming it; a line that is no record at all is said,
// and so is a time that cannot be read (it took the one before silently).
func TestTranscriptOddMemberTypes(t *testing.T) {
	in := transcriptInput(t, "testdata/odd_types.jsonl", testProject+testSession+".jsonl", nil)
	s := parsertest.Run(t, Transcript(), in)
	parsertest.Accounted(t, in, s)
	var got []string
	for _, e := range s.Events {
		if e.TurnType == timeline.User {
			got = append(got, fmt.Sprintf("%d %s %s %q", e.SourceLine, e.TimeString(), e.TimeBasis, e.Text))
		}
	}
	want := []string{
		`1 2026-10-11T10:00:00.000Z  "first prompt"`,
		`2 2026-10-11T10:00:00.000Z inherited "prompt with a numeric timestamp"`,
		`3 2026-10-11T10:00:02.000Z  "prompt with an odd flag"`,
		`3 2026-10-11T10:00:03.000Z  "glued prompt"`,
		`5 2026-10-11T10:00:03.000Z inherited "prompt with a zone-less time"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("user rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []string{
		"line 2: member(s) of an unexpected type read as null, the rest of the record read: timestamp",
		"line 3: glued_record: 2 complete records on one line with no newline between them; all kept",
		"line 3: member(s) of an unexpected type read as null, the rest of the record read: isSidechain",
		"line 4: record of an unexpected shape, not read: expected an object, found an array",
		`line 5: timestamp "2026-10-11T12:00:05" is no usable time (RFC 3339 with a zone): the record's rows take the time before them (inherited)`,
	}
	if strings.Join(s.Problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(s.Problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}

// Every record of a glued history.jsonl line gives its row (only the
// first did, under "2 complete records ... all kept"), and a record with
// a member of an unexpected type keeps its row (it gave none).
func TestHistoryGluedAndOddTypes(t *testing.T) {
	in := parsertest.Input(t, "testdata/history_odd.jsonl", parser.File{Path: "/home/examiner/.claude/history.jsonl", Agent: Agent, Target: "history"}, nil)
	s := parsertest.Run(t, History(), in)
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%d %s %s %q %s", e.SourceLine, e.TimeString(), e.TimeBasis, e.Text, e.ProjectPath))
	}
	want := []string{
		`1 2026-10-11T10:00:00.000Z  "one" /home/examiner/demo`,
		`1 2026-10-11T10:00:01.000Z  "two, glued" /home/examiner/demo`,
		`2 2026-10-11T10:00:02.000Z  "three" `,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []string{
		"line 1: glued_record: 2 complete records on one line with no newline between them; all kept",
		"line 2: member(s) of an unexpected type read as null, the rest of the record read: project",
	}
	if strings.Join(s.Problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(s.Problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}
