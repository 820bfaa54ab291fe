package autogenstudio

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "autogen-studio"

// Parsers returns the AutoGen Studio parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "autogen-studio/database", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"database"}, Names: []string{"*.db"},
			Doc: "autogen04*.db (SQLModel): team labels, session names, run status/task/stop reason/error, message rows (the user's TextMessage, agent replies, thoughts, tool call requests and execution results, handoffs, stops, model usage); host-local times marked local-as-utc",
		}, parseDatabase),
	}
}

// AutoGen Studio writes created_at with datetime.now(): host-local time
// with no zone (datamodel/db.py default_factory).
func setTime(e *timeline.Event, v any) {
	if t, ok := parser.SQLTime(v); ok {
		e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func parseDatabase(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, store, out)
	if err != nil {
		return err
	}
	teams := map[string]string{}
	// sessions holds the session ids read; nil when the session table is
	// not read, so a message is then no orphan.
	var sessions map[string]bool
	if readable["session"] {
		sessions = map[string]bool{}
	}
	each := func(table string, fn func(parser.Row)) parser.TableRead {
		return parser.TableRead{Table: table, Read: func() error {
			return parser.EachTableRow(ctx, db, table, func(r parser.Row) error { fn(r); return nil })
		}}
	}
	return parser.ReadTables(ctx, out, readable,
		each("team", func(r parser.Row) { team(r, teams, out) }),
		each("session", func(r parser.Row) { session(r, teams, sessions, out) }),
		each("run", func(r parser.Row) { runRow(r, out) }),
		each("message", func(r parser.Row) { message(r, sessions, out) }))
}

// store is the tables parseDatabase reads (datamodel/db.py; SQLModel's
// create_all makes them all), with the columns their rows need; the
// others are read by name when present.
var store = parser.SQLiteStore{Name: "an AutoGen Studio", Tables: parser.SQLiteSchema{
	"team":    {"id", "component"},
	"session": {"id"},
	"run":     {"id", "session_id"},
	"message": {"id", "session_id", "config"},
}}

// team reads one team row.
func team(r parser.Row, teams map[string]string, out parser.Sink) {
	var c struct {
		Label    string `json:"label"`
		Provider string `json:"provider"`
	}
	_ = json.Unmarshal([]byte(r.Get("component")), &c)
	teams[r.Get("id")] = c.Label
	e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "team:" + r.Get("id")}
	setTime(&e, r.Vals["created_at"])
	e.Text = fmt.Sprintf("team %s: %s (%s)", r.Get("id"), c.Label, c.Provider)
	out.Event(e)
}

// session reads one session row.
func session(r parser.Row, teams map[string]string, sessions map[string]bool, out parser.Sink) {
	id := r.Get("id")
	sessions[id] = true
	e := timeline.Event{SessionID: id, TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "session:" + id}
	setTime(&e, r.Vals["created_at"])
	team := r.Get("team_id")
	if l := teams[team]; l != "" {
		team += " " + l
	}
	e.Text = "session: " + r.Get("name") + " (team " + team + ")"
	out.Event(e)
}

// runRow reads one run row.
func runRow(r parser.Row, out parser.Sink) {
	e := timeline.Event{SessionID: r.Get("session_id"), TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "run:" + r.Get("id")}
	setTime(&e, r.Vals["created_at"])
	e.Text = "run " + r.Get("id") + ": " + r.Get("status")
	var task msg
	if json.Unmarshal([]byte(r.Get("task")), &task) == nil && contentText(task.Content) != "" {
		e.Text += ", task from " + task.Source + ": " + contentText(task.Content)
	}
	var tr struct {
		TaskResult struct {
			StopReason string `json:"stop_reason"`
		} `json:"task_result"`
		Duration float64 `json:"duration"`
	}
	if json.Unmarshal([]byte(r.Get("team_result")), &tr) == nil && tr.TaskResult.StopReason != "" {
		e.Text += fmt.Sprintf(", stopped: %s after %.1f s", tr.TaskResult.StopReason, tr.Duration)
	}
	if em := r.Get("error_message"); em != "" {
		e.Text += ", error: " + parser.RedactSecrets(em)
	}
	out.Event(e)
}

// msg is an autogen_agentchat message or event as model_dump() stores it
// in message.config: TextMessage, ThoughtEvent, ToolCallRequestEvent,
// ToolCallExecutionEvent, ToolCallSummaryMessage, HandoffMessage,
// StopMessage, MultiModalMessage, UserInputRequestedEvent.
type msg struct {
	Source      string          `json:"source"`
	Type        string          `json:"type"`
	Content     json.RawMessage `json:"content"`
	Target      string          `json:"target"`
	ModelsUsage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"models_usage"`
}

// contentText is a message's content as text: a string as it is, a
// MultiModalMessage's list as its strings with images named.
func contentText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			if s, ok := parser.JSONString(p); ok {
				out = append(out, s)
			} else {
				out = append(out, "[image, not read]")
			}
		}
		return strings.Join(out, "\n")
	}
	return parser.CompactJSON(raw)
}

type call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type result struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error"`
}

func message(r parser.Row, sessions map[string]bool, out parser.Sink) {
	id := r.Get("id")
	sess := r.Get("session_id")
	base := timeline.Event{SessionID: sess, SourceLine: r.Rowid}
	setTime(&base, r.Vals["created_at"])
	if sess != "" && sessions != nil && !sessions[sess] {
		sessions[sess] = true
		out.Report(r.Rowid, parser.KindOrphanRecord, "message of session "+sess+" whose session row is gone (deleted session): its rows are kept")
	}
	var m msg
	if err := json.Unmarshal([]byte(r.Get("config")), &m); err != nil {
		out.Problem(r.Rowid, "config of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
		return
	}
	rid := "message:" + id
	e := base
	e.RecordID = rid
	switch m.Type {
	case "ToolCallRequestEvent":
		var calls []call
		if err := json.Unmarshal(m.Content, &calls); err != nil {
			out.Problem(r.Rowid, "tool calls of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			return
		}
		for k, c := range calls {
			u := base
			args := parser.RedactSecrets(parser.CompactJSON([]byte(c.Arguments)))
			u.TurnType, u.ToolName, u.ToolInput, u.ToolUseID = timeline.ToolUse, c.Name, args, c.ID
			u.RecordID = rid + "#" + strconv.Itoa(k)
			u.Text = strings.TrimSpace(c.Name + " " + args)
			out.Event(u)
		}
		usage(base, rid, m, out)
		return
	case "ToolCallExecutionEvent":
		var res []result
		if err := json.Unmarshal(m.Content, &res); err != nil {
			out.Problem(r.Rowid, "tool results of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			return
		}
		for k, x := range res {
			u := base
			u.TurnType, u.ToolName, u.ToolUseID, u.IsError = timeline.ToolResult, x.Name, x.CallID, strconv.FormatBool(x.IsError)
			u.RecordID, u.Text = rid+"#"+strconv.Itoa(k), parser.RedactSecrets(x.Content)
			out.Event(u)
		}
		return
	case "ThoughtEvent":
		e.TurnType, e.Text = timeline.Thinking, contentText(m.Content)
	case "HandoffMessage":
		e.TurnType, e.Text = timeline.System, "handoff from "+m.Source+" to "+m.Target+": "+contentText(m.Content)
	case "StopMessage":
		e.TurnType, e.Text = timeline.System, "stop from "+m.Source+": "+contentText(m.Content)
	case "UserInputRequestedEvent":
		e.TurnType, e.Text = timeline.System, "input requested from the user by "+m.Source
	case "ToolCallSummaryMessage":
		// repeats the execution results as the agent's reply
		e.TurnType, e.Text = timeline.Assistant, contentText(m.Content)
	default:
		e.Text = contentText(m.Content)
		if m.Source == "user" {
			e.TurnType = timeline.User
		} else {
			e.TurnType = timeline.Assistant
		}
	}
	if strings.TrimSpace(e.Text) == "" {
		out.Skip(r.Rowid, "no_evidence:empty_message")
		return
	}
	if e.TurnType == timeline.Assistant && m.Source != "" {
		e.Text = m.Source + ": " + e.Text
	}
	out.Event(e)
	usage(base, rid, m, out)
}

// usage is a system row with a model call's token counts (models_usage).
func usage(base timeline.Event, rid string, m msg, out parser.Sink) {
	if u := m.ModelsUsage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
		x := base
		x.TurnType, x.RecordID = timeline.System, rid+"#usage"
		x.Text = fmt.Sprintf("model usage of %s: %d prompt, %d completion tokens", m.Source, u.PromptTokens, u.CompletionTokens)
		out.Event(x)
	}
}
