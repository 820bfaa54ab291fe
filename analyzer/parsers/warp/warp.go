package warp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "warp"

type protoNum = protowire.Number

// Parsers returns the Warp parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "warp/sqlite", Agent: Agent, Version: 4,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "ai_queries.start_ts is the client's time as the query starts (app/src/persistence/block_list.rs); the task's user_query message is stamped when the server receives it, seconds later"},
			Targets: []string{"db", "db-macos", "db-windows"}, Names: []string{"warp.sqlite"},
			Doc: "warp.sqlite: agent_tasks protobuf messages (prompts, replies, reasoning, tool calls and results, subagent tasks), ai_queries typed queries (secondary), agent_conversations, agent-executed commands",
		}, parseDB),
	}
}

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, readable, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	each := func(table string, fn func(parser.Row, parser.Sink)) parser.TableRead {
		return parser.TableRead{Table: table, Read: func() error {
			return parser.EachTableRow(ctx, db, table, func(r parser.Row) error { fn(r, out); return nil })
		}}
	}
	return parser.ReadTables(ctx, out, readable,
		each("agent_conversations", conversation),
		each("agent_tasks", task),
		each("ai_queries", query),
		each("commands", command))
}

// store is the tables parseDB reads (crates/persistence/src/schema.rs),
// with the columns their rows need; the others are read by name when
// present. None is Optional: no release known here lacks one.
var store = parser.SQLiteStore{Name: "a Warp", Tables: parser.SQLiteSchema{
	"agent_conversations": {"conversation_id", "conversation_data"},
	"agent_tasks":         {"conversation_id", "task_id", "task"},
	"ai_queries":          {"exchange_id", "conversation_id", "input"},
	"commands":            {"command"},
}}

func sqlTime(v any) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.SQLTime(v); ok {
		return t, timeline.TimeRecorded
	}
	return time.Time{}, timeline.TimeNone
}

func conversation(r parser.Row, out parser.Sink) {
	id := r.Get("conversation_id")
	t, basis := sqlTime(r.Vals["last_modified_at"])
	var d struct {
		Usage *struct {
			TokenUsage []struct {
				ModelID    string `json:"model_id"`
				WarpTokens int64  `json:"warp_tokens"`
				BYOKTokens int64  `json:"byok_tokens"`
			} `json:"token_usage"`
			ToolUsage map[string]json.RawMessage `json:"tool_usage_metadata"`
		} `json:"conversation_usage_metadata"`
		Reverted       []string `json:"reverted_action_ids"`
		ForkedFrom     string   `json:"forked_from_server_conversation_token"`
		ParentAgent    string   `json:"parent_agent_id"`
		AgentName      string   `json:"agent_name"`
		ParentConvID   string   `json:"parent_conversation_id"`
		ServerConvoTok string   `json:"server_conversation_token"`
	}
	e := timeline.Event{TurnType: timeline.System, SessionID: id, SourceLine: r.Rowid, Time: t, TimeBasis: basis, RecordID: id + "#conversation"}
	parts := []string{"conversation " + id}
	if raw := r.Get("conversation_data"); strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &d); err != nil {
			out.Problem(r.Rowid, "agent_conversations "+parser.Shown(id)+": "+parser.NotJSON("conversation_data", err))
		}
	}
	e.ParentSessionID = d.ParentConvID
	if d.AgentName != "" {
		parts = append(parts, "agent name "+d.AgentName)
	}
	if d.ParentAgent != "" {
		parts = append(parts, "spawned by agent "+d.ParentAgent)
	}
	if d.ForkedFrom != "" {
		parts = append(parts, "forked from another conversation")
	}
	if d.ServerConvoTok != "" {
		parts = append(parts, "server conversation token recorded (not shown)")
	}
	if d.Usage != nil {
		for _, u := range d.Usage.TokenUsage {
			parts = append(parts, fmt.Sprintf("tokens %s: warp %d, own key %d", u.ModelID, u.WarpTokens, u.BYOKTokens))
		}
		var tools []string
		for k, v := range d.Usage.ToolUsage {
			var c struct {
				Count int64 `json:"count"`
			}
			if json.Unmarshal(v, &c) == nil && c.Count > 0 {
				tools = append(tools, fmt.Sprintf("%s %d", strings.TrimSuffix(k, "_stats"), c.Count))
			}
		}
		sort.Strings(tools)
		if len(tools) > 0 {
			parts = append(parts, "tool calls counted: "+strings.Join(tools, ", "))
		}
	}
	if len(d.Reverted) > 0 {
		rv := append([]string(nil), d.Reverted...)
		sort.Strings(rv)
		parts = append(parts, "reverted actions (kept in the tasks): "+strings.Join(rv, ", "))
	}
	if s := r.Get("summary"); s != "" {
		parts = append(parts, "summary: "+s)
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
}

// field is one protobuf field: its number, and its bytes (a
// length-delimited value) or its varint.
type field struct {
	num protoNum
	typ protowire.Type
	b   []byte
	v   uint64
}

// fields splits a message into its fields; ok is false when b is not a
// well-formed message.
func fields(b []byte) (fs []field, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fs, false
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.BytesType:
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return fs, false
			}
			f.b, n = v, m
		case protowire.VarintType:
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return fs, false
			}
			f.v, n = v, m
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return fs, false
			}
		}
		b = b[n:]
		fs = append(fs, f)
	}
	return fs, true
}

// str returns the first length-delimited field num of b as text.
func str(b []byte, num protoNum) string {
	fs, _ := fields(b)
	for _, f := range fs {
		if f.num == num && f.typ == protowire.BytesType {
			return string(f.b)
		}
	}
	return ""
}

// strs returns every length-delimited field num of b as text.
func strs(b []byte, num protoNum) []string {
	fs, _ := fields(b)
	var out []string
	for _, f := range fs {
		if f.num == num && f.typ == protowire.BytesType {
			out = append(out, string(f.b))
		}
	}
	return out
}

// sub returns the first length-delimited field num of b.
func sub(b []byte, num protoNum) ([]byte, bool) {
	fs, _ := fields(b)
	for _, f := range fs {
		if f.num == num && f.typ == protowire.BytesType {
			return f.b, true
		}
	}
	return nil, false
}

// wireText renders the text fields of a message the schema does not name
// here (parser.WireStrings), one "path: text" per line.
func wireText(b []byte) string {
	ws, _ := parser.WireStrings(b)
	var lines []string
	for _, w := range ws {
		lines = append(lines, w.Path+": "+w.Text)
	}
	return strings.Join(lines, "\n")
}

func task(r parser.Row, out parser.Sink) {
	conv := r.Get("conversation_id")
	blob, _ := r.Vals["task"].([]byte)
	if s, ok := r.Vals["task"].(string); ok {
		blob = []byte(s)
	}
	fs, ok := fields(blob)
	if !ok || len(blob) == 0 {
		out.Problem(r.Rowid, "agent_tasks "+parser.Shown(r.Get("task_id"))+": the task is not a readable protobuf message")
		return
	}
	taskID, desc, parent := r.Get("task_id"), "", ""
	var msgs [][]byte
	for _, f := range fs {
		if f.typ != protowire.BytesType {
			continue
		}
		switch f.num {
		case 1:
			taskID = string(f.b)
		case 2:
			desc = string(f.b)
		case 3:
			parent = str(f.b, 1)
		case 5:
			msgs = append(msgs, f.b)
		}
	}
	sid, psid := conv, ""
	if parent != "" {
		sid, psid = conv+"/"+taskID, conv
	}
	head := "task " + taskID
	if desc != "" {
		head += " (" + desc + ")"
	}
	if parent != "" {
		head += ", a subagent of task " + parent
	}
	t, basis := sqlTime(r.Vals["last_modified_at"])
	out.Event(timeline.Event{TurnType: timeline.System, SessionID: sid, ParentSessionID: psid, SourceLine: r.Rowid,
		Time: t, TimeBasis: basis, RecordID: taskID + "#task", Text: head + fmt.Sprintf(": %d messages", len(msgs))})
	for i, m := range msgs {
		message(r.Rowid, i, m, sid, psid, out)
	}
}

func message(rowid int64, idx int, m []byte, sid, psid string, out parser.Sink) {
	fs, ok := fields(m)
	if !ok {
		out.Problem(rowid, fmt.Sprintf("message %d of the task is not a readable protobuf message", idx+1))
		return
	}
	var id string
	var t time.Time
	basis := timeline.TimeNone
	var kind protoNum
	var body []byte
	for _, f := range fs {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			id = string(f.b)
		case f.num == 14 && f.typ == protowire.BytesType:
			var sec, nanos uint64
			tf, _ := fields(f.b)
			for _, x := range tf {
				switch x.num {
				case 1:
					sec = x.v
				case 2:
					nanos = x.v
				}
			}
			if sec > 0 {
				t, basis = time.Unix(int64(sec), int64(nanos)).UTC(), timeline.TimeRecorded
			}
		case f.typ == protowire.BytesType && kind == 0 && (f.num >= 2 && f.num <= 6 || f.num >= 9 && f.num <= 10 || f.num >= 15 && f.num <= 26):
			kind, body = f.num, f.b
		}
	}
	if id == "" {
		id = fmt.Sprintf("row%d.%d", rowid, idx+1)
	}
	e := timeline.Event{SessionID: sid, ParentSessionID: psid, SourceLine: rowid, Time: t, TimeBasis: basis, RecordID: id}
	switch kind {
	case 2:
		e.TurnType, e.Text = timeline.User, str(body, 1)
	case 3:
		e.TurnType, e.Text = timeline.Assistant, str(body, 1)
	case 15:
		e.TurnType, e.Text = timeline.Thinking, str(body, 1)
	case 4:
		toolCall(&e, body)
	case 5:
		toolResult(&e, body)
	case 19, 20:
		e.TurnType, e.ToolName = timeline.ToolUse, map[protoNum]string{19: "web_search", 20: "web_fetch"}[kind]
		e.Text = wireText(body)
	case 6:
		out.Skip(rowid, "server event: an opaque payload the client only round-trips")
		return
	case 0:
		out.Report(rowid, parser.KindSkippedRecord, "message "+parser.Shown(id)+" has no content of a kind task.proto names")
		return
	default:
		e.TurnType = timeline.System
		e.Text = otherKinds[kind]
		if kind == 16 {
			if cs, ok := sub(body, 1); ok {
				e.Text += ": " + str(cs, 1)
			}
		} else if s := wireText(body); s != "" {
			e.Text += ":\n" + s
		}
	}
	out.Event(e)
}

func toolCall(e *timeline.Event, b []byte) {
	e.TurnType = timeline.ToolUse
	fs, _ := fields(b)
	for _, f := range fs {
		if f.num == 1 && f.typ == protowire.BytesType {
			e.ToolUseID = string(f.b)
			continue
		}
		name, ok := toolNames[f.num]
		if !ok || f.typ != protowire.BytesType || e.ToolName != "" {
			continue
		}
		e.ToolName = name
		args := map[string]any{}
		switch name {
		case "run_shell_command":
			args["command"] = str(f.b, 1)
			e.Text = str(f.b, 1)
		case "read_files":
			var names []string
			for _, fb := range strs(f.b, 1) {
				names = append(names, str([]byte(fb), 1))
			}
			args["files"] = names
			e.Text = strings.Join(names, "\n")
		case "grep":
			args["queries"], args["path"] = strs(f.b, 1), str(f.b, 2)
			e.Text = strings.Join(strs(f.b, 1), "\n")
		case "call_mcp_tool":
			args["name"], args["server_id"] = str(f.b, 1), str(f.b, 3)
			if a, ok := sub(f.b, 2); ok {
				args["args"] = wireText(a)
			}
			e.Text = str(f.b, 1)
		case "subagent":
			args["task_id"], args["payload"] = str(f.b, 1), str(f.b, 2)
			e.Text = "subagent task " + str(f.b, 1)
		default:
			args["fields"] = wireText(f.b)
			e.Text = wireText(f.b)
		}
		if j, err := json.Marshal(args); err == nil {
			e.ToolInput = string(j)
		}
	}
	if e.ToolName == "" {
		e.ToolName = "unknown"
		e.Text = wireText(b)
	}
}

func toolResult(e *timeline.Event, b []byte) {
	e.TurnType = timeline.ToolResult
	e.IsError = "false"
	fs, _ := fields(b)
	for _, f := range fs {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			e.ToolUseID = string(f.b)
		case f.num == 14:
			e.ToolName, e.IsError, e.Text = "cancel", "true", "cancelled: the call was not run"
		case f.num != 11 && f.typ == protowire.BytesType && e.ToolName == "":
			if n, ok := resultNames[f.num]; ok {
				e.ToolName, e.Text = n, wireText(f.b)
			}
		}
	}
}

func query(r parser.Row, out parser.Sink) {
	raw := strings.TrimSpace(r.Get("input"))
	var items []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		out.Problem(r.Rowid, "ai_queries "+parser.Shown(r.Get("exchange_id"))+": "+parser.NotJSONArray("input", err))
		return
	}
	var text []string
	for _, it := range items {
		var q struct {
			Text string `json:"text"`
		}
		if b, ok := it["Query"]; ok && json.Unmarshal(b, &q) == nil && strings.TrimSpace(q.Text) != "" {
			text = append(text, q.Text)
		}
	}
	if len(text) == 0 {
		out.Skip(r.Rowid, "exchange with no typed query (a tool step or an action result)")
		return
	}
	t, basis := sqlTime(r.Vals["start_ts"])
	for i, s := range text {
		rec := r.Get("exchange_id")
		if i > 0 {
			rec += fmt.Sprintf("#%d", i)
		}
		out.Event(timeline.Event{TurnType: timeline.User, SessionID: r.Get("conversation_id"), SourceLine: r.Rowid, Time: t, TimeBasis: basis,
			ProjectPath: r.Get("working_directory"), Model: r.Get("model_id"), Text: s, Secondary: true, RecordID: rec})
	}
}

func command(r parser.Row, out parser.Sink) {
	if v, _ := parser.SQLInt(r.Vals["is_agent_executed"]); v == 0 {
		out.Skip(r.Rowid, "a terminal command the person ran, not the agent")
		return
	}
	t, basis := sqlTime(r.Vals["start_ts"])
	text := "command run by the agent in the terminal: " + r.Get("command")
	if ec := r.Get("exit_code"); ec != "" {
		text += " (exit " + ec + ")"
	}
	if p := r.Get("pwd"); p != "" {
		text += " in " + p
	}
	out.Event(timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, Time: t, TimeBasis: basis, ProjectPath: r.Get("pwd"),
		Text: text, RecordID: "command:" + fmt.Sprint(r.Rowid)})
}
