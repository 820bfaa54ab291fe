package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// rowsFull renders rows as "<time> <basis> <session tail> <turn type>
// <tool_use_id> <text> | <record id> secondary=<bool>".
func rowsFull(s *parsertest.Sink) []string {
	var out []string
	for _, e := range s.Events {
		sid := e.SessionID
		if len(sid) > 4 {
			sid = sid[len(sid)-4:]
		}
		out = append(out, strings.Join([]string{e.TimeString(), string(e.TimeBasis), sid, string(e.TurnType), e.ToolUseID, e.Text, "|", e.RecordID,
			"secondary=" + map[bool]string{true: "true", false: "false"}[e.Secondary]}, " "))
	}
	return out
}

// logs_<N>.sqlite (issue 16): approvals given as permission decisions,
// /feedback reports as session synced (a row of the request's one record
// id per log row of its span: TestEngineFeedbackRequest merges them).
func TestLogsDB(t *testing.T) {
	p := byID(t, "codex-cli/logs-db")
	in := parsertest.Input(t, parsertest.SQLite(t, "testdata/logs_2.sql"), parser.File{Path: "/home/examiner/.codex/logs_2.sqlite", Agent: agentName, Target: "state-db"}, nil)
	s := parsertest.Golden(t, p, in, "testdata/logs_2.golden.jsonl")
	sameRows(t, rowsFull(s), []string{
		"2026-05-28T20:26:41.250Z  00e1 system call_rm_1 permission decision: approved source=user op=ExecApproval | logs_2.sqlite:2 secondary=false",
		"2026-05-28T20:26:42.000Z  00e1 system call_patch_2 permission decision: approved_for_session source=user op=PatchApproval | logs_2.sqlite:3 secondary=false",
		"2026-05-28T20:26:43.500Z  00e1 system call_rm_1 permission decision: denied source=user tool=exec_command | logs_2.sqlite:4 secondary=false",
		"2026-05-28T20:26:50.000Z  00e1 system  session synced: /feedback report sent to Sentry (feedback/upload request Integer(12)) | logs_2.sqlite:feedback/upload/pid:42:p1/Integer(12) secondary=false",
		"2026-05-28T20:26:51.000Z  00e1 system  session synced: /feedback report sent to Sentry (feedback/upload request Integer(12)) | logs_2.sqlite:feedback/upload/pid:42:p1/Integer(12) secondary=false",
	})
	if sk := s.SkipCounts(); len(sk) != 1 || sk["no_evidence:log"] != 1 {
		t.Fatalf("skips: %v", sk)
	}
	if len(s.States) != 2 || s.States[0].Synced != "yes" || s.States[0].Key.SessionID != "019e0000-0000-7000-8000-0000000000e1" || s.States[1] != s.States[0] {
		t.Fatalf("states: %+v", s.States)
	}
	if s.Events[2].ToolName != "exec_command" {
		t.Fatalf("tool decision tool name: %+v", s.Events[2])
	}
}

// The schema policy (issue 25): a logs_<N>.sqlite without its logs table
// is "not a Codex log database"; a logs table without ts, or without
// either body column, names the table and the column; nothing is read.
func TestLogsDBSchema(t *testing.T) {
	p := byID(t, "codex-cli/logs-db")
	for _, c := range []struct{ stmt, want string }{
		{`DROP TABLE logs`, "line 0: not a Codex log database: none of the tables logs"},
		{`ALTER TABLE logs DROP COLUMN ts`, "line 0: unknown schema: table logs lacks column(s) ts: not read; the other tables are read"},
		{`ALTER TABLE logs DROP COLUMN feedback_log_body`, "line 0: unknown schema: table logs lacks column(s) feedback_log_body (or message): not read"},
	} {
		in := parsertest.Input(t, parsertest.SQLiteAltered(t, "testdata/logs_2.sql", c.stmt), parser.File{Path: "/home/examiner/.codex/logs_2.sqlite", Agent: agentName, Target: "state-db"}, nil)
		s := parsertest.Run(t, p, in)
		if got := strings.Join(s.Problems, "\n"); got != c.want || len(s.Events) != 0 {
			t.Errorf("%s: %d rows, problems:\n%s", c.stmt, len(s.Events), got)
		}
	}
}

// The logs_2.sqlite Codex 0.171.0 wrote in the real-agent fixture (codex
// exec runs no approval and sends no feedback): nothing to read.
func TestLogsDBRealAgentFixture(t *testing.T) {
	in := parsertest.Input(t, realDB(t, "logs_2.sqlite"), parser.File{Path: "/home/examiner/.codex/logs_2.sqlite", Agent: agentName, Target: "state-db"}, nil)
	s := parsertest.Run(t, byID(t, "codex-cli/logs-db"), in)
	if len(s.Events) != 0 || len(s.Problems) != 0 || len(s.Skips) != 0 {
		t.Fatalf("rows %d problems %v skips %v", len(s.Events), s.Problems, s.Skips)
	}
}

var stateMTime = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// .codex-global-state.json (issue 16; it was not read before): the
// desktop app's prompt history, standing permissions, descriptions and
// the thread references that outlive a deleted thread.
func TestGlobalState(t *testing.T) {
	p := byID(t, "codex-cli/global-state")
	in := parsertest.Input(t, "testdata/codex-global-state.json", parser.File{Path: "/home/examiner/.codex/.codex-global-state.json", Agent: agentName, Target: "config", MTime: stateMTime}, nil)
	s := parsertest.Golden(t, p, in, "testdata/global_state.golden.jsonl")
	const m = "2026-03-14T12:00:00.000Z file-mtime"
	sameRows(t, rowsFull(s), []string{
		m + " 00e1 system  permission setting: thread approval=granular sandbox=workspaceWrite writable_roots=[\"/home/examiner/demo\"] (from .codex-global-state.json, file mtime) |  secondary=true",
		m + " 00e9 system  permission setting: thread approval=never reviewer=user sandbox=dangerFullAccess network=true profile=:danger-full-access (from .codex-global-state.json, file mtime) |  secondary=true",
		m + "  system  permission setting: agent mode full on host local (from .codex-global-state.json, file mtime) |  secondary=true",
		m + " 00e9 system  thread description: Staging cleanup |  secondary=true",
		m + " 00e1 system  thread listed in the desktop app: workspace=/home/examiner/demo project=local:project-demo pinned=yes |  secondary=true",
		m + " 00e9 system  thread listed in the desktop app: projectless=yes output_dir=/home/examiner/Documents/Codex/out |  secondary=true",
		m + "  system  queued follow-up (not sent): and the backups too |  secondary=true",
		" none 00e9 user  wipe the staging database |  secondary=true",
		" none 00e9 user  now drop the users table |  secondary=true",
		" none  user  summarise the meeting notes |  secondary=true",
	})
}

// memories/rollout_summaries/*.md (issue 16): one memory summary row per
// thread, at its updated_at.
func TestMemorySummary(t *testing.T) {
	p := byID(t, "codex-cli/memory-summary")
	orig := "/home/examiner/.codex/memories/rollout_summaries/2026-03-14T09-22-15-aB3x-fix_auth_token_refresh.md"
	if p.Match(&parser.File{Path: "/home/examiner/.codex/memories/MEMORY.md", Agent: agentName, Target: "memories"}) ||
		!p.Match(&parser.File{Path: orig, Agent: agentName, Target: "memories"}) {
		t.Fatal("memory-summary must read rollout_summaries/*.md only")
	}
	in := parsertest.Input(t, "testdata/memories/rollout_summaries/2026-03-14T09-22-15-aB3x-fix_auth_token_refresh.md", parser.File{Path: orig, Agent: agentName, Target: "memories"}, nil)
	s := parsertest.Golden(t, p, in, "testdata/memory_summary.golden.jsonl")
	sameRows(t, rowsFull(s), []string{
		"2026-03-14T09:22:15.000Z  00e1 system  memory summary: # Task 1: Fix auth token refresh\ntask_outcome: success\nFixed the refresh logic in auth.go. | 019e0000-0000-7000-8000-0000000000e1#memory_summary secondary=false",
	})
	if s.Events[0].ProjectPath != "/home/examiner/demo" {
		t.Fatalf("project: %+v", s.Events[0])
	}
}

// automations/*/automation.toml (issue 16): each automation of the
// desktop app is a scheduled task row.
func TestAutomation(t *testing.T) {
	p := byID(t, "codex-cli/automation")
	in := parsertest.Input(t, "testdata/automations/nightly-tests/automation.toml", parser.File{Path: "/home/examiner/.codex/automations/nightly-tests/automation.toml", Agent: agentName, Target: "config", MTime: stateMTime}, nil)
	s := parsertest.Golden(t, p, in, "testdata/automation.golden.jsonl")
	sameRows(t, rowsFull(s), []string{
		`2026-03-14T12:00:00.000Z file-mtime 00e1 system  scheduled task: Nightly tests (id=nightly-tests status=ACTIVE rrule=RRULE:FREQ=DAILY;BYHOUR=2 model=gpt-5.5 effort=high cwds=["/home/examiner/demo"] thread=019e0000-0000-7000-8000-0000000000e1) prompt: run the test suite and push a fix | automation:nightly-tests secondary=false`,
	})
	if s.Events[0].TurnType != timeline.System {
		t.Fatal("a scheduled task's prompt is no user row")
	}
}
