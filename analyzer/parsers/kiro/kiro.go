package kiro

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

// Agent is the catalog name of Kiro (formerly Amazon Q Developer CLI).
const Agent = "kiro"

// Parsers returns the Kiro parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "kiro/cli-db", Agent: Agent, Version: 6, Actions: actions,
			Targets: []string{"cli-db"}, Names: []string{"data.sqlite3"},
			Secondary: &parser.Secondary{Window: time.Minute, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "chat_readline_history keeps each prompt as the line editor took it (epoch ms, aws/amazon-q-developer-cli 93a6879); the conversation's UserMessage is stamped when it is built from that line, within seconds"},
			Doc: "Amazon Q / Kiro CLI data.sqlite3: conversations and conversations_v2 (several per directory, with their saved times; prompts, replies, tool calls with full arguments and results, cancellations and deny-list rejections as permission decisions, models, /compact summaries, checkpoints and their history snapshots, tangent-mode main history), the legacy shell history table, and chat_readline_history prompts (secondary)",
		}, parseDB),
		parser.New(parser.Spec{
			ID: "kiro/sessions", Agent: Agent, Version: 3, Actions: actions,
			Targets: []string{"kiro-sessions"}, Names: []string{"*.jsonl", "*.json", "*.lock", "sess_*.history"},
			Doc: "Kiro CLI 2.x .kiro/sessions/cli/<id>.jsonl (prompts, replies, thinking, tool calls with full input and results, /clear), <id>.json (the session's directory, title, model and times, each user turn's metadata), sess_<id>.history (rustyline prompt history of the session) and <id>.lock (counted); the Kiro IDE's .kiro/sessions/<workspace>/<session>/session.json (title, mode, status, model, workspaces, times) and messages.jsonl (prompts and attachments, reasoning, replies, tool calls with arguments and results, permission requests and answers, subagents, usage, errors, tombstones)",
		}, parseSessionFile),
		parser.New(parser.Spec{
			ID: "kiro/ide", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"ide-agent"},
			Doc:     "Kiro IDE globalStorage/kiro.kiroagent: .chat execution chats (prompts, system prompt and rules marked, replies, tool output), workspace-sessions session lists and session histories, and execution logs (the agent's text and its replace, create and readCode actions with full input and output)",
		}, parseIDEFile),
		parser.New(parser.Spec{
			ID: "kiro/prompt-history", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"prompt-history"}, Names: []string{".cli_bash_history"},
			Doc:       ".aws/amazonq/.cli_bash_history: every chat prompt typed (rustyline history; secondary, no time, session or project)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User}, Basis: "rustyline's history file records no time, session or project (kkawakam/rustyline bc06b3e, v15.0.0)"},
		}, parsePromptHistory),
		parser.New(parser.Spec{
			ID: "kiro/agents", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"cli-agents", catalog.ProjectTarget}, Names: []string{"*.json"},
			Doc: ".aws/amazonq/cli-agents/*.json and a project's .amazonq/cli-agents/*.json: allowedTools and toolsSettings (allowed and denied commands, paths, services) as permission setting rows; a project's .amazonq/.subagents/<agent>.json delegated background tasks (task, status, output)",
		}, parseJSONFile),
	}
}

func parseJSONFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	dir := path.Base(path.Dir(p))
	switch {
	case dir == "cli-agents":
		return clinetask.ParseSettingsKeys(ctx, in, out, func(k string) bool { return k == "allowedTools" || k == "toolsSettings" })
	case dir == ".subagents" && path.Base(path.Dir(path.Dir(p))) == ".amazonq":
		return parseDelegate(in, out)
	}
	return nil
}

// parseDelegate reads an AgentExecution (crates/chat-cli/src/cli/chat/
// tools/delegate.rs): {agent, task, status running|completed|failed,
// launched_at and completed_at in epoch seconds, pid, exit_code, output,
// user_notified, summary, cwd}. The delegate is a subagent run as its own
// process: its rows carry session "delegate:<agent>:<launched_at>"; the
// parent conversation is not recorded.
func parseDelegate(in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var x struct {
		Agent       string   `json:"agent"`
		Task        string   `json:"task"`
		Status      string   `json:"status"`
		LaunchedAt  *float64 `json:"launched_at"`
		CompletedAt *float64 `json:"completed_at"`
		PID         *int     `json:"pid"`
		ExitCode    *int     `json:"exit_code"`
		Output      string   `json:"output"`
		Summary     string   `json:"summary"`
		CWD         string   `json:"cwd"`
	}
	dec := json.NewDecoder(rc)
	if err := dec.Decode(&x); err != nil {
		out.Problem(1, "not a delegate execution record: "+parser.JSONError(err))
		return nil
	}
	if msg := parser.DataAfterJSON(dec.Buffered(), rc, dec.InputOffset()); msg != "" {
		out.Problem(0, msg)
	}
	agent := x.Agent
	if agent == "" {
		agent = strings.TrimSuffix(in.Base(), ".json")
	}
	launched, completed := secs(x.LaunchedAt), secs(x.CompletedAt)
	sid := fmt.Sprintf("delegate:%s:%d", agent, launched.Unix())
	if launched.IsZero() {
		sid = "delegate:" + agent
	}
	project := x.CWD
	if project == "unknown" {
		project = ""
	}
	ev := func(t time.Time, tt timeline.TurnType, text, rid string) {
		e := timeline.Event{Time: t, TurnType: tt, Text: text, SessionID: sid, ProjectPath: project, SourceLine: 1, RecordID: sid + "#" + rid}
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	head := fmt.Sprintf("subagent %s launched by the delegate tool: status=%s", agent, x.Status)
	if x.PID != nil {
		head += fmt.Sprintf(" pid=%d", *x.PID)
	}
	ev(launched, timeline.System, head, "launch")
	if x.Task != "" {
		ev(launched, timeline.System, "subagent task: "+x.Task, "task")
	}
	end := completed
	if end.IsZero() {
		end = launched
	}
	if x.Output != "" {
		ev(end, timeline.Assistant, x.Output, "output")
	}
	if x.Summary != "" {
		ev(end, timeline.Assistant, x.Summary, "summary")
	}
	if x.ExitCode != nil || !completed.IsZero() {
		t := "subagent finished"
		if x.ExitCode != nil {
			t += fmt.Sprintf(": exit code %d", *x.ExitCode)
		}
		ev(end, timeline.System, t, "end")
	}
	return nil
}

func secs(f *float64) time.Time {
	if f == nil || *f <= 0 {
		return time.Time{}
	}
	return time.Unix(int64(*f), 0).UTC()
}

func ms(v *float64) time.Time {
	if v == nil || *v <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(*v)).UTC()
}

// parsePromptHistory reads rustyline's file history: a "#V2" header line,
// then one entry a line with backslash escapes (\\ and \n); the version 1
// format has no header and no escapes.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	v2 := false
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		s := string(line)
		if n == 1 && s == "#V2" {
			v2 = true
			out.Skip(n, "state_only:history-version-header")
			return nil
		}
		if v2 {
			s = unescape(s)
		}
		out.Event(timeline.Event{TurnType: timeline.User, Text: s, SourceLine: n, TimeBasis: timeline.TimeNone, Secondary: true})
		return nil
	})
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case '\\':
				b.WriteByte('\\')
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
