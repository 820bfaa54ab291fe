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
			ID: "piebald/app-db", Agent: Agent, Version: 3, Actions: actions,
			Targets: []string{"app-db"}, Names: []string{"app.db"},
			Doc: "Piebald app.db: each chat (title, project, directory, worktree, branch; deleted chats kept and marked) and its messages: typed prompts, replies, thinking, tool calls with full input and their results or errors, denied and unfinished calls as permission and state rows, sub-agent chats under their parent, disabled (regenerated or edited-away) branches marked, token usage and errors; the typed-parts schema too (message_generations, message_kind: context containers never user rows, tool and context parts); parts, generations and tool rows whose parent row is gone kept as rows marked orphan",
		}, parseDB),
	}
}

// store is app.db (the one SQLite policy, parser.CheckStore), the tables
// and columns kenn-io/agentsview 5386007 reads (internal/parser/
// piebald.go), and the typed-parts schema Piebald-AI/splitrail caa74804
// tests (src/analyzers/piebald_schema_tests.rs): message_generations
// (a message's model and token counts, moved off messages),
// tool_execution_context (one row per tool part), messages.message_kind
// and message_parts.part_subtype, message_part_tool_call dropped.
// projects only names a chat's project: Optional.
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
		"message_generations":    {"message_id"},
		"tool_execution_context": {"message_part_id"},
	},
	Optional: map[string]string{
		"projects":               "stores with no project (a chat's project is then not named)",
		"message_part_tool_call": "the typed-parts schema (splitrail caa74804), which keeps tool parts in tool_execution_context",
		"message_generations":    "the schema before typed parts, which keeps model and tokens on messages",
		"tool_execution_context": "the schema before typed parts, which keeps tool calls in message_part_tool_call",
	},
}

type chat struct {
	row                                  parser.Row
	id, project, dir, parent, title, cwd string
}

type part struct {
	rowid        int64
	id, msg, typ string
	subtype      string
	index        int64
	thinking     bool
	nodes        []node
	call         *parser.Row
	exec         *parser.Row // tool_execution_context (typed parts)
	hasText      bool
	// orphan is a part whose message_parts row is gone, known only from
	// its message_part_text (text) or its tool call row: kept, its rows
	// under no chat
	orphan bool
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
	gen  *parser.Row // message_generations (typed parts)
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
	gens := map[string]parser.Row{} // message id -> message_generations row
	// orphaned are the parts known only from a row that names them (their
	// message_parts row gone), in the order those rows were read
	var orphaned []*part
	orphan := func(id string, rowid int64, typ string) *part {
		p := &part{rowid: rowid, id: id, typ: typ, orphan: true}
		parts[id] = p
		orphaned = append(orphaned, p)
		return p
	}
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
			parts[r.Get("id")] = &part{rowid: r.Rowid, id: r.Get("id"), msg: r.Get("parent_chat_message_id"), typ: r.Get("part_type"), subtype: r.Get("part_subtype"), index: idx}
		}),
		each("message_part_text", func(r parser.Row) {
			p := parts[r.Get("message_part_id")]
			if p == nil {
				out.Report(r.Rowid, parser.KindOrphanRecord, "message_part_text of part "+parser.Shown(r.Get("message_part_id"))+", whose message_parts row is gone: kept (its text a row of its own)")
				p = orphan(r.Get("message_part_id"), r.Rowid, "text")
			}
			p.hasText = true
			p.thinking = r.Get("is_thinking") == "1" || r.Get("is_thinking") == "true"
		}),
		each("message_node_text", func(r parser.Row) { nodeText[r.Get("node_id")] = r.Get("content") }),
		each("message_content_nodes", func(r parser.Row) { nodes = append(nodes, r) }),
		each("message_part_tool_call", func(r parser.Row) {
			p := parts[r.Get("message_part_id")]
			if p == nil {
				out.Report(r.Rowid, parser.KindOrphanRecord, "tool call "+parser.Shown(r.Get("provider_tool_use_id"))+" of part "+parser.Shown(r.Get("message_part_id"))+", whose message_parts row is gone: kept (its rows under no chat)")
				p = orphan(r.Get("message_part_id"), r.Rowid, "tool_call")
			}
			rr := r
			p.call = &rr
		}),
		each("message_generations", func(r parser.Row) {
			if _, dup := gens[r.Get("message_id")]; dup {
				out.Report(r.Rowid, parser.KindDuplicateID, "message_generations row for message "+parser.Shown(r.Get("message_id"))+" a second time: the first is read")
				return
			}
			gens[r.Get("message_id")] = r
		}),
		each("tool_execution_context", func(r parser.Row) {
			p := parts[r.Get("message_part_id")]
			if p == nil {
				out.Report(r.Rowid, parser.KindOrphanRecord, "tool_execution_context of part "+parser.Shown(r.Get("message_part_id"))+", whose message_parts row is gone: kept (its row under no chat)")
				p = orphan(r.Get("message_part_id"), r.Rowid, "tool")
			}
			rr := r
			p.exec = &rr
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
		if !p.orphan {
			sorted = append(sorted, p)
		}
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
		if g, ok := gens[m.id]; ok {
			m.gen = &g
		}
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
		if g, ok := gens[p.msg]; ok {
			m.gen = &g
		}
		messageRows(out, m, chatByID, ps)
	}
	// generations of a message no row names: kept as their usage row
	var lost []parser.Row
	for id, g := range gens {
		if !seen[id] {
			lost = append(lost, g)
		}
	}
	sort.Slice(lost, func(i, j int) bool { return lost[i].Rowid < lost[j].Rowid })
	for _, g := range lost {
		out.Report(g.Rowid, parser.KindOrphanRecord, "message_generations row of message "+parser.Shown(g.Get("message_id"))+", whose messages row is gone: kept")
		gg := g
		m := &message{row: parser.Row{Rowid: g.Rowid, Vals: map[string]any{"role": "(messages row gone)"}}, id: g.Get("message_id"), gen: &gg}
		messageRows(out, m, chatByID, nil)
	}
	// parts whose message_parts row is gone, known from their text or
	// tool rows: each its rows under no chat, marked
	for _, p := range orphaned {
		orphanPart(out, p)
	}
	return nil
}

// orphanPart writes a part known only from the rows that name it (its
// message_parts row gone, so its message, chat and role are unknown):
// its text a system row (never a user row: who wrote it is not known),
// its tool call as a call would be, each marked.
func orphanPart(out parser.Sink, p *part) {
	base := timeline.Event{TimeBasis: timeline.TimeNone, SourceLine: p.rowid}
	pid := "part-" + p.id
	emit := func(tt timeline.TurnType, text, rid string, f func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text, e.RecordID = tt, text, rid
		if f != nil {
			f(&e)
		}
		out.Event(e)
	}
	if p.hasText {
		sort.Slice(p.nodes, func(i, j int) bool { return p.nodes[i].index < p.nodes[j].index })
		var b strings.Builder
		for _, nd := range p.nodes {
			b.WriteString(nd.text)
		}
		what := "text"
		if p.thinking {
			what = "thinking"
		}
		text := b.String()
		if strings.TrimSpace(text) == "" {
			text = "(no text in its content nodes)"
		}
		emit(timeline.System, what+" of part "+parser.Shown(p.id)+" (its message_parts row is gone): "+text, pid, nil)
	}
	if p.call != nil {
		toolCall(p.call, " (its message part "+parser.Shown(p.id)+" is gone)", emit, pid)
	}
	if p.exec != nil && p.call == nil {
		typedTool(p, " (its message part "+parser.Shown(p.id)+" is gone)", emit, pid)
	}
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
	model := r.Get("model")
	if model == "" && m.gen != nil {
		model = m.gen.Get("model")
	}
	base := timeline.Event{SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.projectPath(), SourceLine: r.Rowid, Model: model}
	base.Time, base.TimeBasis = sqlTime(r.Vals["created_at"])
	role := strings.ToLower(r.Get("role"))
	// message_kind (typed parts): a message of any kind but normal (a
	// context_container: the rules and context the app adds) is never
	// what the person typed
	kind := r.Get("message_kind")
	injected := kind != "" && kind != "normal"
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
			case injected:
				emit(timeline.System, role+" message of kind "+kind+" (not typed by the person): "+text, pid, nil)
			case role == "user":
				emit(timeline.User, text, pid, nil)
			case role == "assistant":
				emit(timeline.Assistant, text, pid, nil)
			default:
				emit(timeline.System, role+" message: "+text, pid, nil)
			}
		case "tool_call", "tool":
			switch {
			case p.call != nil: // the legacy table stays authoritative while it holds the call
				toolCall(p.call, "", emit, pid)
			case p.exec != nil || p.typ == "tool":
				typedTool(p, "", emit, pid)
			default:
				out.Report(p.rowid, parser.KindOrphanRecord, "tool_call part "+parser.Shown(p.id)+" with no message_part_tool_call row: not read")
			}
		case "context":
			what := "context part"
			if p.subtype != "" {
				what += " (" + p.subtype + ")"
			}
			sort.Slice(p.nodes, func(i, j int) bool { return p.nodes[i].index < p.nodes[j].index })
			var b strings.Builder
			for _, nd := range p.nodes {
				b.WriteString(nd.text)
			}
			if t := b.String(); strings.TrimSpace(t) != "" {
				what += ": " + t
			} else {
				what += " added by the app to the " + role + " message (its content is in no table read)"
			}
			emit(timeline.System, what, pid, nil)
		default:
			out.Report(p.rowid, parser.KindSkippedRecord, "message part "+parser.Shown(p.id)+": part type "+strconv.Quote(p.typ)+" not known, not read")
		}
	}
	var usage []string
	for _, k := range []string{"input_tokens", "output_tokens", "reasoning_tokens", "cache_read_tokens", "cache_write_tokens"} {
		v := r.Get(k)
		if v == "" && m.gen != nil {
			v = m.gen.Get(k)
		}
		if v != "" {
			usage = append(usage, k+"="+v)
		}
	}
	if m.gen != nil && m.gen.Get("config_id") != "" {
		usage = append(usage, "config_id="+m.gen.Get("config_id"))
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
func toolCall(c *parser.Row, mark string, emit func(timeline.TurnType, string, string, func(*timeline.Event)), pid string) {
	name, id, input := c.Get("tool_name"), c.Get("provider_tool_use_id"), c.Get("tool_input")
	if json.Valid([]byte(input)) {
		input = parser.CompactJSON([]byte(input))
	}
	text := name
	if sub := c.Get("sub_agent_chat_id"); sub != "" {
		text += " (sub-agent chat " + sub + ")"
	}
	text += mark
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

// typedTool writes a tool part of the typed-parts schema: its
// tool_execution_context row, whose columns no source names beyond
// message_part_id (splitrail caa74804 counts these rows, nothing more),
// so every column it has is written as it is: the call (tool_name and
// tool_input or input when it has them, else the part's subtype) and the
// rest as "key=value" in order; a tool part with no such row says so.
func typedTool(p *part, mark string, emit func(timeline.TurnType, string, string, func(*timeline.Event)), pid string) {
	text := "tool part"
	if p.subtype != "" {
		text += " (" + p.subtype + ")"
	}
	var name, id, input string
	var rest []string
	if x := p.exec; x != nil {
		name, id = x.Get("tool_name"), x.Get("provider_tool_use_id")
		for _, k := range []string{"tool_input", "input", "arguments"} {
			if v := x.Get(k); v != "" && input == "" {
				input = v
			}
		}
		if json.Valid([]byte(input)) {
			input = parser.CompactJSON([]byte(input))
		}
		for _, c := range x.Cols {
			switch c {
			case "message_part_id", "tool_name", "provider_tool_use_id", "tool_input", "input", "arguments":
				continue
			}
			if v := x.Get(c); v != "" {
				rest = append(rest, c+"="+parser.Shown(v))
			}
		}
	} else {
		rest = append(rest, "no tool_execution_context row")
	}
	if name != "" {
		text = name + " (" + strings.TrimPrefix(strings.TrimSuffix(text, ")"), "tool part (") + ")"
		if p.subtype == "" {
			text = name
		}
	}
	if len(rest) > 0 {
		text += ": " + strings.Join(rest, " ")
	}
	text += mark
	emit(timeline.ToolUse, text, pid, func(e *timeline.Event) { e.ToolName, e.ToolUseID, e.ToolInput = name, id, input })
}
