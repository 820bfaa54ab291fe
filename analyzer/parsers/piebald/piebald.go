package piebald

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Piebald.
const Agent = "piebald"

// Parsers returns the Piebald parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "piebald/app-db", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"app-db"}, Names: []string{"app.db"},
			Doc: "Piebald app.db: each chat (title, project, directory, worktree, branch; deleted chats kept and marked) and its messages: typed prompts, replies, thinking, tool calls with full input and their results or errors, denied and unfinished calls as permission and state rows, sub-agent chats under their parent, disabled (regenerated or edited-away) branches marked, token usage and errors",
		}, parseDB),
	}
}

// store is app.db (the one SQLite policy, parser.CheckStore), the tables
// and columns kenn-io/agentsview 5386007 reads (internal/parser/
// piebald.go). projects only names a chat's project: Optional.
var store = parser.SQLiteStore{
	Name: "a Piebald",
	Tables: parser.SQLiteSchema{
		"projects":               {"id"},
		"chats":                  {"id", "created_at"},
		"messages":               {"id", "parent_chat_id", "role", "created_at"},
		"message_parts":          {"id", "parent_chat_message_id", "part_index", "part_type"},
		"message_part_text":      {"message_part_id"},
		"message_content_nodes":  {"id", "parent_text_part_id", "node_index", "node_type"},
		"message_node_text":      {"node_id", "content"},
		"message_part_tool_call": {"message_part_id", "provider_tool_use_id", "tool_name", "tool_input"},
	},
	Optional: map[string]string{"projects": "stores with no project (a chat's project is then not named)"},
}

type chat struct {
	row                                  parser.Row
	id, project, dir, parent, title, cwd string
}

type part struct {
	rowid        int64
	id, msg, typ string
	index        int64
	thinking     bool
	nodes        []node
	call         *parser.Row
	hasText      bool
}

type node struct {
	index int64
	id    string
	text  string
}

type message struct {
	row  parser.Row
	id   string
	chat string
}

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, present, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	projects := map[string][2]string{} // id -> name, directory
	var chats []*chat
	chatByID := map[string]*chat{}
	var msgs []*message
	parts := map[string]*part{}     // part id
	nodeText := map[string]string{} // node id -> content
	var nodes []parser.Row
	each := func(table string, fn func(parser.Row)) parser.TableRead {
		return parser.TableRead{Table: table, Read: func() error {
			return parser.EachTableRow(ctx, db, table, func(r parser.Row) error {
				fn(r)
				return nil
			})
		}}
	}
	err = parser.ReadTables(ctx, out, present,
		each("projects", func(r parser.Row) { projects[r.Get("id")] = [2]string{r.Get("name"), r.Get("directory")} }),
		each("chats", func(r parser.Row) {
			c := &chat{row: r, id: r.Get("id"), title: r.Get("title"), cwd: r.Get("current_directory")}
			if p, ok := projects[r.Get("project_id")]; ok {
				c.project, c.dir = p[0], p[1]
			}
			chats = append(chats, c)
			chatByID[c.id] = c
		}),
		each("messages", func(r parser.Row) {
			msgs = append(msgs, &message{row: r, id: r.Get("id"), chat: r.Get("parent_chat_id")})
		}),
		each("message_parts", func(r parser.Row) {
			idx, _ := parser.SQLInt(r.Vals["part_index"])
			parts[r.Get("id")] = &part{rowid: r.Rowid, id: r.Get("id"), msg: r.Get("parent_chat_message_id"), typ: r.Get("part_type"), index: idx}
		}),
		each("message_part_text", func(r parser.Row) {
			p := parts[r.Get("message_part_id")]
			if p == nil {
				out.Report(r.Rowid, parser.KindOrphanRecord, "message_part_text of part "+parser.Shown(r.Get("message_part_id"))+", whose message_parts row is gone: not read")
				return
			}
			p.hasText = true
			p.thinking = r.Get("is_thinking") == "1" || r.Get("is_thinking") == "true"
		}),
		each("message_node_text", func(r parser.Row) { nodeText[r.Get("node_id")] = r.Get("content") }),
		each("message_content_nodes", func(r parser.Row) { nodes = append(nodes, r) }),
		each("message_part_tool_call", func(r parser.Row) {
			p := parts[r.Get("message_part_id")]
			if p == nil {
				out.Report(r.Rowid, parser.KindOrphanRecord, "tool call "+parser.Shown(r.Get("provider_tool_use_id"))+" of part "+parser.Shown(r.Get("message_part_id"))+", whose message_parts row is gone: not read")
				return
			}
			rr := r
			p.call = &rr
		}),
	)
	if err != nil {
		return err
	}
	for _, r := range nodes {
		p := parts[r.Get("parent_text_part_id")]
		if p == nil {
			out.Report(r.Rowid, parser.KindOrphanRecord, "content node "+parser.Shown(r.Get("id"))+" of text part "+parser.Shown(r.Get("parent_text_part_id"))+", whose message_parts row is gone: kept")
			if t := nodeText[r.Get("id")]; t != "" {
				out.Event(timeline.Event{TurnType: timeline.System, TimeBasis: timeline.TimeNone, SourceLine: r.Rowid, RecordID: "node-" + r.Get("id"),
					Text: "text of content node " + parser.Shown(r.Get("id")) + " (its message part is gone): " + t})
			}
			continue
		}
		if t := r.Get("node_type"); t != "text" {
			out.Report(r.Rowid, parser.KindSkippedRecord, "content node "+parser.Shown(r.Get("id"))+": node type "+strconv.Quote(t)+" not known, not read")
			continue
		}
		idx, _ := parser.SQLInt(r.Vals["node_index"])
		p.nodes = append(p.nodes, node{index: idx, id: r.Get("id"), text: nodeText[r.Get("id")]})
	}
	// sub-agent chats: the chat whose tool call names them is their parent
	sorted := make([]*part, 0, len(parts))
	for _, p := range parts {
		sorted = append(sorted, p)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].rowid < sorted[j].rowid })
	msgChat := map[string]string{}
	for _, m := range msgs {
		msgChat[m.id] = m.chat
	}
	for _, p := range sorted {
		if p.call == nil {
			continue
		}
		if sub := p.call.Get("sub_agent_chat_id"); sub != "" {
			if c := chatByID[sub]; c != nil && c.parent == "" && msgChat[p.msg] != "" {
				c.parent = msgChat[p.msg]
			}
		}
	}
	for _, c := range chats {
		chatRow(out, c)
	}
	byMsg := map[string][]*part{}
	for _, p := range sorted {
		byMsg[p.msg] = append(byMsg[p.msg], p)
	}
	seen := map[string]bool{}
	for _, m := range msgs {
		seen[m.id] = true
		ps := byMsg[m.id]
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].index != ps[j].index {
				return ps[i].index < ps[j].index
			}
			return ps[i].rowid < ps[j].rowid
		})
		messageRows(out, m, chatByID, ps)
	}
	// parts whose messages row is gone (a deleted message): kept, each an
	// orphan_record problem, their rows under no chat
	if chatByID[""] == nil {
		chatByID[""] = &chat{}
	}
	for _, p := range sorted {
		if seen[p.msg] {
			continue
		}
		out.Report(p.rowid, parser.KindOrphanRecord, "message part "+parser.Shown(p.id)+" of message "+parser.Shown(p.msg)+", whose messages row is gone: kept")
	}
	for _, p := range sorted {
		if seen[p.msg] {
			continue
		}
		seen[p.msg] = true
		ps := byMsg[p.msg]
		sort.Slice(ps, func(i, j int) bool {
			if ps[i].index != ps[j].index {
				return ps[i].index < ps[j].index
			}
			return ps[i].rowid < ps[j].rowid
		})
		m := &message{row: parser.Row{Rowid: p.rowid, Vals: map[string]any{"role": "(messages row gone)"}}, id: p.msg}
		messageRows(out, m, chatByID, ps)
	}
	return nil
}

func sqlTime(v any) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.SQLTime(v); ok {
		return t, timeline.TimeRecorded
	}
	return time.Time{}, timeline.TimeNone
}

func (c *chat) projectPath() string {
	if c.cwd != "" {
		return c.cwd
	}
	return c.dir
}

func chatRow(out parser.Sink, c *chat) {
	r := c.row
	e := timeline.Event{TurnType: timeline.System, SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.projectPath(),
		SourceLine: r.Rowid, RecordID: "chat-" + c.id}
	e.Time, e.TimeBasis = sqlTime(r.Vals["created_at"])
	parts := []string{"piebald chat " + c.id}
	if c.title != "" {
		parts = append(parts, "title "+strconv.Quote(c.title))
	}
	if c.parent != "" {
		parts = append(parts, "sub-agent chat of chat "+c.parent)
	}
	if c.project != "" || c.dir != "" {
		parts = append(parts, strings.TrimSpace("project "+c.project+" "+c.dir))
	}
	for _, kv := range [][2]string{{"directory", c.cwd}, {"worktree", r.Get("worktree_path")}, {"branch", r.Get("branch_name")}, {"messages", r.Get("message_count")}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	if t, ok := parser.SQLTime(r.Vals["updated_at"]); ok {
		parts = append(parts, "updated "+t.Format(time.RFC3339))
	}
	if d := r.Get("is_deleted"); d == "1" || d == "true" {
		parts = append(parts, "deleted in the app (is_deleted), kept in the store")
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
}

func messageRows(out parser.Sink, m *message, chats map[string]*chat, ps []*part) {
	r := m.row
	c := chats[m.chat]
	if c == nil {
		out.Report(r.Rowid, parser.KindOrphanRecord, "message "+parser.Shown(m.id)+" of chat "+parser.Shown(m.chat)+", whose chats row is gone: kept")
		c = &chat{id: m.chat}
		chats[m.chat] = c
	}
	base := timeline.Event{SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.projectPath(), SourceLine: r.Rowid, Model: r.Get("model")}
	base.Time, base.TimeBasis = sqlTime(r.Vals["created_at"])
	role := strings.ToLower(r.Get("role"))
	n := 0
	emit := func(tt timeline.TurnType, text, rid string, f func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text, e.RecordID = tt, text, "msg-"+m.id+"#"+rid
		if f != nil {
			f(&e)
		}
		n++
		out.Event(e)
	}
	if role == "user" {
		base.Model = ""
	}
	for _, p := range ps {
		pid := "part-" + p.id
		switch p.typ {
		case "text":
			sort.Slice(p.nodes, func(i, j int) bool { return p.nodes[i].index < p.nodes[j].index })
			var b strings.Builder
			for _, nd := range p.nodes {
				b.WriteString(nd.text)
			}
			text := b.String()
			if strings.TrimSpace(text) == "" {
				continue
			}
			switch {
			case p.thinking:
				emit(timeline.Thinking, text, pid, nil)
			case role == "user":
				emit(timeline.User, text, pid, nil)
			case role == "assistant":
				emit(timeline.Assistant, text, pid, nil)
			default:
				emit(timeline.System, role+" message: "+text, pid, nil)
			}
		case "tool_call":
			if p.call == nil {
				out.Report(p.rowid, parser.KindOrphanRecord, "tool_call part "+parser.Shown(p.id)+" with no message_part_tool_call row: not read")
				continue
			}
			toolCall(p.call, emit, pid)
		default:
			out.Report(p.rowid, parser.KindSkippedRecord, "message part "+parser.Shown(p.id)+": part type "+strconv.Quote(p.typ)+" not known, not read")
		}
	}
	var usage []string
	for _, k := range []string{"input_tokens", "output_tokens", "reasoning_tokens", "cache_read_tokens", "cache_write_tokens"} {
		if v := r.Get(k); v != "" {
			usage = append(usage, k+"="+v)
		}
	}
	if len(usage) > 0 {
		emit(timeline.System, "usage: "+strings.Join(usage, " "), "usage", nil)
	}
	if e := r.Get("error"); e != "" {
		emit(timeline.System, "message error: "+e, "error", func(ev *timeline.Event) { ev.IsError = "true" })
	}
	if st := r.Get("status"); st != "" && st != "completed" {
		emit(timeline.System, "the message above has status "+st, "status", nil)
	}
	if en := r.Get("enabled"); en == "0" || en == "false" {
		t := "the message above is on a branch not shown (enabled=0: regenerated or edited away), kept"
		if pm := r.Get("parent_message_id"); pm != "" {
			t += "; it follows message " + pm
		}
		emit(timeline.System, t, "disabled", nil)
	}
	if n == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_message")
	}
}

// toolCall writes a message_part_tool_call: the call with its full input;
// its result, or its error (is_error); a denied call a permission
// decision; a call never finished (pending, executing) a state row; a
// sub-agent chat named.
func toolCall(c *parser.Row, emit func(timeline.TurnType, string, string, func(*timeline.Event)), pid string) {
	name, id, input := c.Get("tool_name"), c.Get("provider_tool_use_id"), c.Get("tool_input")
	if json.Valid([]byte(input)) {
		input = parser.CompactJSON([]byte(input))
	}
	text := name
	if sub := c.Get("sub_agent_chat_id"); sub != "" {
		text += " (sub-agent chat " + sub + ")"
	}
	set := func(e *timeline.Event) { e.ToolName, e.ToolUseID = name, id }
	emit(timeline.ToolUse, text, pid, func(e *timeline.Event) { set(e); e.ToolInput = input })
	if c.Has("tool_result") && c.Vals["tool_result"] != nil {
		emit(timeline.ToolResult, c.Get("tool_result"), pid+"#result", func(e *timeline.Event) { set(e); e.IsError = "false" })
	}
	if c.Vals["tool_error"] != nil && c.Get("tool_error") != "" {
		emit(timeline.ToolResult, c.Get("tool_error"), pid+"#error", func(e *timeline.Event) { set(e); e.IsError = "true" })
	}
	switch st := c.Get("tool_state"); st {
	case "", "completed":
	case "denied":
		emit(timeline.System, "permission decision: denied tool="+name+" (tool_state denied)", pid+"#decision", set)
	default:
		emit(timeline.System, "the tool call above was left "+st+" (tool_state)", pid+"#state", set)
	}
}
