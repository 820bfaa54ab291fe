package grok

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "grok"

const maxWhole = 16 << 20

// Parsers returns the Grok Build parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "grok/session", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"chat_history.jsonl"},
			Doc: "sessions/<url-encoded cwd>/<session>/chat_history.jsonl (current typed rows and the legacy role rows): system prompts, typed prompts and interjections, injected inputs, reasoning, replies, tool calls with arguments, server-side tool calls, tool results by call id; undated (the file records no times)",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "grok/summary", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"session-summary"}, Names: []string{"summary.json"},
			Doc: "sessions/<url-encoded cwd>/<session>/summary.json: the session's start, last update and last activity, title, model, working directory, git root and branch, and the session it was forked from",
		}, parseSummary),
		parser.New(parser.Spec{
			ID: "grok/updates", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"updates.jsonl"},
			Doc: "sessions/<url-encoded cwd>/<session>/updates.jsonl (the ACP session update stream): each turn's token usage per model (input, cache read, output, reasoning) and cost, dated; a re-emitted turn kept and marked; the streamed chunks counted by kind (their turns are chat_history.jsonl's)",
		}, parseUpdates),
		parser.New(parser.Spec{
			ID: "grok/signals", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"signals.json"},
			Doc: "sessions/<url-encoded cwd>/<session>/signals.json: the session's counters (turns, errors, tool failures, cancellations, reverts, compactions, context tokens, lines added and removed by agent and person, commits, pull requests, models and tools used), one row at the file mtime; zero and empty members counted",
		}, parseSignals),
		parser.New(parser.Spec{
			ID: "grok/prompt-context", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"prompt_context.json"},
			Doc: "sessions/<url-encoded cwd>/<session>/prompt_context.json: is_non_interactive (a headless run) and its other members, one row at the file mtime",
		}, parsePromptContext),
		parser.New(parser.Spec{
			ID: "grok/rewind-points", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"rewind_points.jsonl"},
			Doc: "sessions/<url-encoded cwd>/<session>/rewind_points.jsonl: per prompt, the files Grok snapshotted before it ran and after (path and size, or that the file did not exist; contents not shown), dated; the points a rewind left",
		}, parseRewindPoints),
		parser.New(parser.Spec{
			ID: "grok/feedback", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"feedback.jsonl"},
			Doc: "sessions/<url-encoded cwd>/<session>/feedback.jsonl: the person's ratings (thumbs, stars, NPS), feedback text and categories, the turn and model rated, solicited or dismissed requests, dated",
		}, parseFeedback),
		parser.New(parser.Spec{
			ID: "grok/plan", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"plan.json"},
			Doc: "sessions/<url-encoded cwd>/<session>/plan.json: the session's to-do list, one row per item with its id, status, priority and text, at the file mtime",
		}, parsePlan),
		parser.New(parser.Spec{
			ID: "grok/btw", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"session-files"}, Names: []string{"btw_history.jsonl"},
			Doc: "sessions/<url-encoded cwd>/<session>/btw_history.jsonl: the /btw side questions the person typed and their answers (model, failures and attempts), each its own btw-<uuid> session under the session it asked about",
		}, parseBtw),
		parser.New(parser.Spec{
			ID: "grok/subagent", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"subagents"}, Names: []string{"meta.json", "output.json"},
			Doc: "sessions/<url-encoded cwd>/<session>/subagents/<id>/meta.json and output.json: each subagent's child session linked to the session that spawned it, its type, status, counters, model, worktree and error, the task the parent's model wrote for it, and the output it returned",
		}, parseSubagent),
	}
}

// where gives the session id (the folder) and the project (the url-encoded
// folder above it) of a file under sessions/<cwd>/<session>/.
func where(p string) (sid, project string) {
	p = strings.ReplaceAll(p, "\\", "/")
	dir := path.Dir(p)
	sid = path.Base(dir)
	enc := path.Base(path.Dir(dir))
	if dec, err := url.PathUnescape(enc); err == nil {
		project = dec
	} else {
		project = enc
	}
	return sid, project
}

// row is one chat_history.jsonl line: current rows carry type (system,
// user, reasoning, backend_tool_call, assistant, tool_result), legacy
// rows (chat-history-downgrade) an OpenAI-style role.
type row struct {
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	ID               string          `json:"id"`
	Content          json.RawMessage `json:"content"`
	Summary          json.RawMessage `json:"summary"`
	SyntheticReason  string          `json:"synthetic_reason"`
	PromptIndex      *int            `json:"prompt_index"`
	ToolCalls        []toolCall      `json:"tool_calls"`
	ToolCallID       string          `json:"tool_call_id"`
	ModelID          string          `json:"model_id"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        *struct {
		Text string `json:"text"`
	} `json:"reasoning"`
	Kind *struct {
		ToolType string          `json:"tool_type"`
		Action   json.RawMessage `json:"action"`
		ID       string          `json:"id"`
		Status   string          `json:"status"`
	} `json:"kind"`
}

type toolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Function  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	c, err := readClock(ctx, in)
	why := "no update of updates.jsonl names them (by call id, or exact prompt, reply or reasoning text in its turn)"
	switch {
	case errors.Is(err, parser.ErrNotCollected) || errors.Is(err, fs.ErrNotExist):
		why = "updates.jsonl, which dates them, was not collected beside this file"
	case err != nil:
		why = "updates.jsonl, which dates them, could not be read: " + err.Error()
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	u := &undated{}
	err = parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var r row
		if err := json.Unmarshal(b, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		line(out, c, u, n, timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: n, TimeBasis: timeline.TimeNone}, &r)
		return nil
	})
	if err != nil {
		return err
	}
	u.report(out, why)
	return nil
}

func line(out parser.Sink, c *clock, u *undated, n int64, base timeline.Event, r *row) {
	k := 0
	emit := func(tt timeline.TurnType, text string, set func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text = tt, text
		if set != nil {
			set(&e)
		}
		k++
		var pi *int
		if tt == timeline.User {
			pi = r.PromptIndex
		}
		c.date(&e, pi)
		u.add(&e)
		out.Event(e)
	}
	kind := r.Type
	if kind == "" {
		switch r.Role {
		case "system", "user", "assistant":
			kind = r.Role
		case "tool":
			kind = "tool_result"
		}
	}
	switch kind {
	case "system":
		if t := text(r.Content); t != "" {
			emit(timeline.System, "system prompt: "+t, nil)
		}
	case "user":
		t := text(r.Content)
		switch {
		case t == "":
		case r.SyntheticReason == "" || r.SyntheticReason == "interjection":
			// typed by the person (an interjection while a turn ran); the
			// turn pipeline wraps the typed text in <user_query> and puts
			// the context it adds beside it (prompt_parser.rs)
			typed, added := userQuery(t)
			switch {
			case typed == "":
				emit(timeline.System, "injected input, not typed (Grok's context): "+added, nil)
			default:
				emit(timeline.User, typed, nil)
				if added != "" {
					emit(timeline.System, "injected with the prompt, not typed: "+added, nil)
				}
			}
		default:
			emit(timeline.System, "injected input, not typed ("+r.SyntheticReason+"): "+t, nil)
		}
	case "reasoning":
		t := text(r.Summary)
		if c := text(r.Content); c != "" {
			t = join(t, c)
		}
		if t != "" {
			emit(timeline.Thinking, t, nil)
		}
	case "backend_tool_call":
		if r.Kind == nil || r.Kind.ToolType == "" {
			out.Report(n, parser.KindSkippedRecord, "backend tool call without a tool type")
			return
		}
		in := parser.CompactJSON(r.Kind.Action)
		emit(timeline.ToolUse, "server-side "+r.Kind.ToolType+" ("+r.Kind.Status+"): "+in, func(e *timeline.Event) {
			e.ToolName, e.ToolUseID, e.ToolInput = r.Kind.ToolType, r.Kind.ID, in
		})
	case "assistant":
		base.Model = r.ModelID
		th := r.ReasoningContent
		if r.Reasoning != nil && r.Reasoning.Text != "" {
			th = r.Reasoning.Text
		}
		if strings.TrimSpace(th) != "" {
			emit(timeline.Thinking, th, nil)
		}
		if t := text(r.Content); t != "" {
			emit(timeline.Assistant, t, nil)
		}
		for _, c := range r.ToolCalls {
			name, args := c.Name, c.Arguments
			if c.Function != nil {
				if name == "" {
					name = c.Function.Name
				}
				if len(args) == 0 {
					args = c.Function.Arguments
				}
			}
			in := arguments(args)
			emit(timeline.ToolUse, callText(name, in), func(e *timeline.Event) {
				e.ToolName, e.ToolUseID, e.ToolInput = name, c.ID, in
			})
		}
	case "tool_result":
		if r.ToolCallID == "" {
			out.Report(n, parser.KindSkippedRecord, "tool result without a tool_call_id")
			return
		}
		emit(timeline.ToolResult, text(r.Content), func(e *timeline.Event) {
			e.ToolUseID = r.ToolCallID
		})
	default:
		what := "type " + strconv.Quote(r.Type)
		if r.Type == "" {
			what = "role " + strconv.Quote(r.Role)
		}
		out.Report(n, parser.KindSkippedRecord, "unknown chat history row, "+what)
		return
	}
	if k == 0 {
		out.Skip(n, "no_evidence:empty_"+kind)
	}
}

// userQuery splits a user message into what the person typed and what
// Grok put beside it. The turn pipeline wraps the typed text in
// <user_query>...</user_query> (prompt_parser.rs) and adds attached files,
// skill information and reminders around it; the session preamble is a
// user message of a <user_info> block alone (spawn.rs). With
// <user_query>, the text inside it is typed and the rest added; without
// it, whole blocks of Grok's context tags are added and what remains is
// typed (nothing remaining: the whole message is Grok's).
func userQuery(t string) (typed, added string) {
	const open, end = "<user_query>", "</user_query>"
	if i := strings.Index(t, open); i >= 0 {
		if j := strings.Index(t[i+len(open):], end); j >= 0 {
			typed = strings.TrimSpace(t[i+len(open) : i+len(open)+j])
			added = strings.TrimSpace(t[:i] + "\n" + t[i+len(open)+j+len(end):])
			return typed, added
		}
	}
	rest := t
	var blocks []string
	for _, tag := range contextTags {
		for {
			o, c := "<"+tag+">", "</"+tag+">"
			i := strings.Index(rest, o)
			if i < 0 {
				break
			}
			j := strings.Index(rest[i:], c)
			if j < 0 {
				break
			}
			blocks = append(blocks, strings.TrimSpace(rest[i:i+j+len(c)]))
			rest = rest[:i] + rest[i+j+len(c):]
		}
	}
	return strings.TrimSpace(rest), strings.Join(blocks, "\n")
}

// contextTags are the blocks Grok Build puts in user messages itself
// (xai-grok-shell at 19d42e3: user_info, git_status, system-reminder,
// agent_skills, attached_files, skill_information; agentsview 538600744
// strips mcp_servers too).
var contextTags = []string{"user_info", "git_status", "system-reminder", "agent_skills", "attached_files", "skill_information", "mcp_servers"}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

// text gives the text of a string, of an array of {type, text} parts
// (each part's text, in order), or the JSON of anything else.
func text(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, ok := parser.JSONString(raw); ok {
		return strings.TrimSpace(s)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var ts []string
		other := false
		for _, p := range parts {
			if p.Text != "" {
				ts = append(ts, p.Text)
			} else {
				other = true
			}
		}
		if !other {
			return strings.TrimSpace(strings.Join(ts, "\n"))
		}
	}
	return parser.CompactJSON(raw)
}

// arguments gives a call's arguments as JSON: a string holding JSON is
// that JSON, a string holding anything else stays a JSON string.
func arguments(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		if json.Valid([]byte(s)) {
			return parser.CompactJSON([]byte(s))
		}
		return parser.JSONValue(s)
	}
	if len(raw) == 0 {
		return ""
	}
	return parser.CompactJSON(raw)
}

func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "target_file", "file_path", "path", "url", "query", "pattern"} {
			if s, ok := m[k].(string); ok && s != "" {
				return name + ": " + s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}

// summary is summary.json.
type summary struct {
	Info *struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	} `json:"info"`
	SessionSummary  string `json:"session_summary"`
	GeneratedTitle  string `json:"generated_title"`
	FirstPrompt     string `json:"firstPrompt"`
	CreatedAt       string `json:"created_at"`
	UpdatedAt       string `json:"updated_at"`
	LastActiveAt    string `json:"last_active_at"`
	NumMessages     *int   `json:"num_messages"`
	CurrentModelID  string `json:"current_model_id"`
	ParentSessionID string `json:"parent_session_id"`
	GitRootDir      string `json:"git_root_dir"`
	HeadBranch      string `json:"head_branch"`
	SourceWorkspace string `json:"source_workspace_dir"`
	AgentName       string `json:"agent_name"`
}

func parseSummary(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "summary.json not read: "+err.Error())
		return nil
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(0, "not a Grok session summary: "+parser.JSONError(err))
		return nil
	}
	sid, project := where(in.Path)
	if s.Info != nil {
		if s.Info.ID != "" {
			sid = s.Info.ID
		}
		if s.Info.Cwd != "" {
			project = s.Info.Cwd
		}
	}
	emit := func(at, text string) {
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: 1, TurnType: timeline.System, Model: s.CurrentModelID, ParentSessionID: s.ParentSessionID, Text: text}
		if t, ok := parser.ParseTime(at); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
			if at != "" {
				e.Text += " (time not read: " + strconv.Quote(at) + ")"
			}
		}
		out.Event(e)
	}
	var d []string
	add := func(k, v string) {
		if v != "" {
			d = append(d, k+": "+v)
		}
	}
	add("title", s.GeneratedTitle)
	add("summary", s.SessionSummary)
	add("first prompt", s.FirstPrompt)
	add("model", s.CurrentModelID)
	add("git root", s.GitRootDir)
	add("branch", s.HeadBranch)
	add("source workspace", s.SourceWorkspace)
	add("forked from", s.ParentSessionID)
	add("agent", s.AgentName)
	if s.NumMessages != nil {
		add("messages", strconv.Itoa(*s.NumMessages))
	}
	emit(s.CreatedAt, join3("session created", d))
	if s.UpdatedAt != "" {
		emit(s.UpdatedAt, "session last updated")
	}
	if s.LastActiveAt != "" {
		emit(s.LastActiveAt, "session last active")
	}
	return nil
}

func join3(head string, d []string) string {
	if len(d) == 0 {
		return head
	}
	return head + " (" + strings.Join(d, "; ") + ")"
}
