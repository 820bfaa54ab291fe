package devin

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Devin (the local CLI).
const Agent = "devin"

// transcriptWindow pairs a transcript step with the message node of the
// same turn: both are written by the CLI for one message, the node at its
// created_at (epoch seconds), the step at its timestamp.
const transcriptWindow = time.Minute

// Parsers returns the Devin parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "devin/sessions-db", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"sessions-db"}, Names: []string{"sessions.db"},
			Doc: "Devin CLI cli/sessions.db: each session (title, working directory, model, created and last activity; hidden sessions kept and marked) and its message_nodes: typed prompts, replies, thinking, tool calls with full arguments and their results, system messages, with each node's parent",
		}, parseDB),
		parser.New(parser.Spec{
			ID: "devin/transcripts", Agent: Agent, Version: 3, Actions: actions,
			Targets: []string{"transcripts"}, Names: []string{"*.json"},
			Doc: "Devin CLI cli/transcripts/<session>.json (trajectory steps: prompts, replies, thinking, tool calls and results, per-step model and token metrics, final metrics; secondary to sessions.db's message nodes)",
			Secondary: &parser.Secondary{Window: transcriptWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "a transcript repeats the message nodes of sessions.db for one session (kenn-io/agentsview 5386007 reads either); one minute between a node's created_at and its step's timestamp"},
		}, parseTranscript),
	}
}

// store is sessions.db (the one SQLite policy, parser.CheckStore): the
// columns kenn-io/agentsview 5386007 reads (internal/parser/devin.go).
var store = parser.SQLiteStore{
	Name: "a Devin CLI",
	Tables: parser.SQLiteSchema{
		"sessions":      {"id", "created_at"},
		"message_nodes": {"session_id", "node_id", "chat_message", "created_at"},
	},
	Optional: map[string]string{"message_nodes": "stores whose conversations are only in transcripts/"},
}

type session struct{ cwd, model string }

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, present, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	sessions := map[string]session{}
	nodes := &nodeState{prev: map[string]string{}, names: map[string]string{}}
	return parser.ReadTables(ctx, out, present,
		parser.TableRead{Table: "sessions", Read: func() error {
			return parser.EachTableRow(ctx, db, "sessions", func(r parser.Row) error {
				id := r.Get("id")
				s := session{cwd: r.Get("working_directory"), model: r.Get("model")}
				sessions[id] = s
				e := timeline.Event{TurnType: timeline.System, SessionID: id, ProjectPath: s.cwd, Model: s.model, SourceLine: r.Rowid, RecordID: id + "#session"}
				e.Time, e.TimeBasis = parser.SQLEpoch(r.Vals["created_at"])
				parts := []string{"devin session " + id}
				if t := r.Get("title"); t != "" {
					parts = append(parts, "title "+strconv.Quote(t))
				}
				if s.cwd != "" {
					parts = append(parts, "working directory "+s.cwd)
				}
				if s.model != "" {
					parts = append(parts, "model "+s.model)
				}
				if t, b := parser.SQLEpoch(r.Vals["last_activity_at"]); b == timeline.TimeRecorded {
					parts = append(parts, "last activity "+t.Format(time.RFC3339))
				}
				if h := r.Get("hidden"); h == "1" || h == "true" {
					parts = append(parts, "hidden in the app, kept in the store")
				}
				e.Text = strings.Join(parts, "; ")
				out.Event(e)
				return nil
			})
		}},
		parser.TableRead{Table: "message_nodes", Read: func() error {
			return parser.EachTableRow(ctx, db, "message_nodes", func(r parser.Row) error {
				messageNode(out, r, sessions, nodes)
				return nil
			})
		}},
	)
}

// chatMessage is a message node's chat_message: an OpenAI-style message.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Thinking   string          `json:"thinking"`
	ToolCalls  []toolCall      `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

type toolCall struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Function *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

func (c toolCall) nameInput() (string, string) {
	if c.Function != nil {
		args := c.Function.Arguments
		if s, ok := parser.JSONString(args); ok {
			if json.Valid([]byte(s)) {
				return c.Function.Name, parser.CompactJSON([]byte(s))
			}
			return c.Function.Name, s
		}
		return c.Function.Name, parser.CompactJSON(args)
	}
	return c.Name, parser.CompactJSON(c.Input)
}

// nodeState is what message nodes carry to the next: each session's last
// node id and each tool call's name.
type nodeState struct {
	prev  map[string]string
	names map[string]string
}

func messageNode(out parser.Sink, r parser.Row, sessions map[string]session, st *nodeState) {
	sid, nid := r.Get("session_id"), r.Get("node_id")
	s, ok := sessions[sid]
	if !ok {
		out.Report(r.Rowid, parser.KindOrphanRecord, "message node "+parser.Shown(nid)+" of session "+parser.Shown(sid)+", whose sessions row is gone: kept")
	}
	var m chatMessage
	if err := json.Unmarshal([]byte(r.Get("chat_message")), &m); err != nil {
		out.Problem(r.Rowid, parser.NotJSONObject("message node "+parser.Shown(nid)+" chat_message", err))
		return
	}
	base := timeline.Event{SessionID: sid, ProjectPath: s.cwd, SourceLine: r.Rowid}
	base.Time, base.TimeBasis = parser.SQLEpoch(r.Vals["created_at"])
	w := &writer{out: out, base: base, rid: "node-" + nid, model: s.model, names: st.names}
	w.message(m.Role, m.Content)
	if m.Thinking != "" {
		w.emit(timeline.Thinking, m.Thinking, "thinking", nil)
	}
	for i, c := range m.ToolCalls {
		name, input := c.nameInput()
		w.call(c.ID, name, input, "call-"+strconv.Itoa(i))
	}
	if m.Role == "tool" {
		w.emit(timeline.ToolResult, contentText(m.Content), "result", func(e *timeline.Event) { e.ToolUseID, e.ToolName = m.ToolCallID, st.names[m.ToolCallID] })
	}
	// the node's place in the message tree: a node whose parent is not
	// the session's node before it is a branch (an edit or a retry); the
	// nodes of the other branch stay
	if p := r.Get("parent_node_id"); p != "" && st.prev[sid] != "" && p != st.prev[sid] {
		w.emit(timeline.System, "message node "+nid+" branches from node "+p+", not from the node before it ("+st.prev[sid]+"): an edit or a retry; both branches kept", "branch", nil)
	}
	st.prev[sid] = nid
	if w.n == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_message")
	}
}

// writer emits the rows of one message (a node or a step).
type writer struct {
	out   parser.Sink
	base  timeline.Event
	rid   string
	model string
	n     int
	names map[string]string // tool call id -> name, across the file
}

func (w *writer) emit(tt timeline.TurnType, text, rid string, f func(*timeline.Event)) {
	e := w.base
	e.TurnType, e.Text, e.RecordID = tt, text, w.rid+"#"+rid
	if tt != timeline.User {
		e.Model = w.model
	}
	if f != nil {
		f(&e)
	}
	w.n++
	w.out.Event(e)
}

func (w *writer) call(id, name, input, rid string) {
	if w.names != nil {
		w.names[id] = name
	}
	w.emit(timeline.ToolUse, name, rid, func(e *timeline.Event) { e.ToolName, e.ToolUseID, e.ToolInput = name, id, input })
}

// message writes a message's content: a string, or Claude-style blocks
// (text, thinking, tool_use, tool_result). role user is the typed prompt,
// assistant or agent the reply; system and any other role a system row
// named by its role.
func (w *writer) message(role string, content json.RawMessage) {
	tt := timeline.System
	switch role {
	case "user":
		tt = timeline.User
	case "assistant", "agent":
		tt = timeline.Assistant
	case "tool":
		return
	}
	label := func(s string) string {
		if tt == timeline.System {
			return role + " message: " + s
		}
		return s
	}
	if s, ok := parser.JSONString(content); ok {
		if strings.TrimSpace(s) != "" {
			w.emit(tt, label(s), "text", nil)
		}
		return
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		if c := parser.CompactJSON(content); c != "" {
			w.emit(timeline.System, role+" message content of another shape: "+c, "content", nil)
		}
		return
	}
	for i, b := range blocks {
		rid := "block-" + strconv.Itoa(i)
		switch parser.StringValue(b["type"]) {
		case "text":
			if s := parser.StringValue(b["text"]); strings.TrimSpace(s) != "" {
				w.emit(tt, label(s), rid, nil)
			}
		case "thinking":
			if s := parser.StringValue(b["thinking"]); s != "" {
				w.emit(timeline.Thinking, s, rid, nil)
			}
		case "tool_use":
			w.call(parser.StringValue(b["id"]), parser.StringValue(b["name"]), parser.CompactJSON(b["input"]), rid)
		case "tool_result":
			w.result(b, rid)
		default:
			w.emit(timeline.System, "content block "+parser.StringValue(b["type"])+": "+compactBlock(b), rid, nil)
		}
	}
}

func compactBlock(b map[string]json.RawMessage) string {
	raw, _ := json.Marshal(b)
	return parser.CompactJSON(raw)
}

func (w *writer) result(b map[string]json.RawMessage, rid string) {
	isErr := ""
	if v := string(b["is_error"]); v == "true" {
		isErr = "true"
	} else if v == "false" {
		isErr = "false"
	}
	w.emit(timeline.ToolResult, contentText(b["content"]), rid, func(e *timeline.Event) {
		e.ToolUseID, e.IsError = parser.StringValue(b["tool_use_id"]), isErr
		e.ToolName = w.names[e.ToolUseID]
	})
}

// contentText renders a result's content: a string, text blocks joined,
// anything else as compact JSON.
func contentText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if parser.StringValue(b["type"]) == "text" {
				parts = append(parts, parser.StringValue(b["text"]))
			} else {
				parts = append(parts, compactBlock(b))
			}
		}
		return strings.Join(parts, "\n")
	}
	return parser.CompactJSON(raw)
}

// parseTranscript reads cli/transcripts/<session>.json, a trajectory:
// {agent: {model_name}, created_at, updated_at, final_metrics, steps:
// [{step_id, source user|agent|system, timestamp, message, tool_use,
// tool_result, model_name, extra.generation_model, metrics}]}.
//
// It streams: a first pass (scanTranscript) checks the whole document and
// keeps only the header members and up to holdBudget bytes of steps; when
// the steps were more, a second pass (eachStep) decodes them again one at
// a time. Memory is bounded by the budget and the largest single step,
// not the file. A document that fails part way (cut short, or broken)
// once its steps array is begun keeps the complete steps before the
// failure, each its rows, and one problem naming the byte it was read to;
// one that fails before gives only its problem, as when it was decoded
// whole.
func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	if path.Base(path.Dir(p)) != "transcripts" {
		return nil
	}
	tr, err := scanTranscript(ctx, in, out)
	if err != nil || tr == nil {
		return err
	}
	if !tr.steps {
		out.Problem(1, "Devin transcript without a steps array: not read")
		return nil
	}
	sid := strings.TrimSuffix(in.Base(), ".json")
	cwd := tr.WorkingDirectory
	if cwd == "" {
		cwd = tr.CWD
	}
	model := ""
	if tr.Agent != nil {
		model = tr.Agent.ModelName
	}
	var last time.Time
	names := map[string]string{}
	err = eachStep(ctx, in, tr, func(i int, raw json.RawMessage) {
		var st struct {
			StepID     json.RawMessage              `json:"step_id"`
			Source     string                       `json:"source"`
			Timestamp  string                       `json:"timestamp"`
			Message    json.RawMessage              `json:"message"`
			ToolUse    []toolCall                   `json:"tool_use"`
			ToolResult []map[string]json.RawMessage `json:"tool_result"`
			ModelName  string                       `json:"model_name"`
			Extra      struct {
				GenerationModel string `json:"generation_model"`
			} `json:"extra"`
			Metrics json.RawMessage `json:"metrics"`
		}
		if err := json.Unmarshal(raw, &st); err != nil {
			out.Problem(1, parser.NotJSONObject(fmt.Sprintf("transcript step %d", i+1), err))
			return
		}
		id := parser.JSONText(st.StepID)
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		base := timeline.Event{SessionID: sid, ProjectPath: cwd, SourceLine: 1, Secondary: true}
		if t, ok := parser.ParseTime(st.Timestamp); ok {
			base.Time, last = t, t
		} else if !last.IsZero() {
			base.Time, base.TimeBasis = last, timeline.TimeInherited
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		m := model
		if st.ModelName != "" {
			m = st.ModelName
		}
		if st.Extra.GenerationModel != "" {
			m = st.Extra.GenerationModel
		}
		w := &writer{out: out, base: base, rid: "step-" + id, model: m, names: names}
		if st.Source != "user" && st.Source != "agent" && st.Source != "system" {
			out.Report(1, parser.KindSkippedRecord, fmt.Sprintf("transcript step %s: source %q not known, not read", parser.Shown(id), st.Source))
			return
		}
		if len(st.Message) > 0 {
			w.message(st.Source, st.Message)
		}
		for j, c := range st.ToolUse {
			name, input := c.nameInput()
			w.call(c.ID, name, input, "tool-use-"+strconv.Itoa(j))
		}
		for j, r := range st.ToolResult {
			w.result(r, "tool-result-"+strconv.Itoa(j))
		}
		if c := parser.CompactJSON(st.Metrics); c != "" && c != "{}" {
			w.emit(timeline.System, "step metrics: "+c, "metrics", func(e *timeline.Event) { e.Secondary = false })
		}
		if w.n == 0 {
			out.Skip(1, "no_evidence:empty_message")
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// the first pass read the whole document: the file changed under us
		out.Problem(1, "Devin transcript changed between its two reads (a racing writer): steps after the change not read: "+parser.JSONError(err))
	}
	if c := parser.CompactJSON(tr.FinalMetrics); c != "" && c != "{}" {
		e := timeline.Event{TurnType: timeline.System, SessionID: sid, ProjectPath: cwd, SourceLine: 1, Model: model, Text: "final metrics: " + c, RecordID: sid + "#final-metrics"}
		if t, ok := parser.ParseTime(tr.UpdatedAt); ok {
			e.Time = t
		} else if !last.IsZero() {
			e.Time, e.TimeBasis = last, timeline.TimeInherited
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}
