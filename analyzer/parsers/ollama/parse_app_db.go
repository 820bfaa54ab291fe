package ollama

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type call struct {
	id         int64
	name, args string
	result     string
}

type attachment struct {
	name string
	size int64
}

// chatState is what one chat's earlier messages leave for the next:
// the calls of the last assistant message waiting for their tool
// messages, and the model last seen.
type chatState struct {
	pending []call
	next    int
	model   string
}

// parseAppDB reads the desktop app's store (app/store/database.go): the
// chats, messages, tool_calls and attachments tables, columns by name so
// schema versions 16 to 19 all read.
func parseAppDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, appStore, out)
	if err != nil {
		return err
	}
	titles := map[string]string{}
	calls := map[int64][]call{}
	atts := map[int64][]attachment{}
	chats := map[string]*chatState{}
	err = parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "chats", Read: func() error {
			return parser.EachTableRow(ctx, db, "chats", func(r parser.Row) error {
				chatRow(r, titles, out)
				return nil
			})
		}},
		parser.TableRead{Table: "tool_calls", Read: func() error {
			return parser.EachTableRow(ctx, db, "tool_calls", func(r parser.Row) error {
				mid, _ := strconv.ParseInt(r.Get("message_id"), 10, 64)
				calls[mid] = append(calls[mid], call{id: r.Rowid, name: r.Get("function_name"), args: r.Get("function_arguments"), result: r.Get("function_result")})
				return nil
			})
		}},
		parser.TableRead{Table: "attachments", Read: func() error {
			// never the bytes: the name and length(data) only
			return parser.EachRow(ctx, db, "SELECT message_id, filename, length(data) AS size FROM attachments ORDER BY id", func(m map[string]any) {
				mid, _ := strconv.ParseInt(parser.SQLText(m["message_id"]), 10, 64)
				size, _ := strconv.ParseInt(parser.SQLText(m["size"]), 10, 64)
				atts[mid] = append(atts[mid], attachment{name: parser.SQLText(m["filename"]), size: size})
			})
		}},
		parser.TableRead{Table: "messages", Read: func() error {
			return parser.EachTableRow(ctx, db, "messages", func(r parser.Row) error {
				message(r, titles, calls, atts, chats, out)
				return nil
			})
		}})
	if err != nil {
		return err
	}
	left := make([]int64, 0, len(calls))
	for mid := range calls {
		left = append(left, mid)
	}
	slices.Sort(left)
	for _, mid := range left {
		for _, c := range calls[mid] {
			if !readable["messages"] {
				// not an orphan: its message was not read
				out.Problem(c.id, fmt.Sprintf("tool call %d (%s) of message %d, whose table messages is not read: arguments %s", c.id, c.name, mid, c.args))
				continue
			}
			out.Report(c.id, parser.KindOrphanRecord, fmt.Sprintf("tool call %d (%s) of message %d, which is gone: arguments %s", c.id, c.name, mid, c.args))
		}
	}
	return nil
}

// appStore is the tables parseAppDB reads (app/store/database.go), with
// the columns their rows need; the others are read by name when present.
var appStore = parser.SQLiteStore{Name: "an Ollama app", Tables: parser.SQLiteSchema{
	"chats":       {"id"},
	"messages":    {"chat_id", "role"},
	"tool_calls":  {"message_id"},
	"attachments": {"id", "message_id", "filename", "data"},
}, Optional: map[string]string{
	"attachments": "schema versions 1 and 2 (migrateV2ToV3 creates it)",
}}

// chatRow reads one chats row.
func chatRow(r parser.Row, titles map[string]string, out parser.Sink) {
	id := r.Get("id")
	titles[id] = r.Get("title")
	e := timeline.Event{SessionID: id, TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "chat:" + id}
	e.Text = "chat: " + r.Get("title")
	if t, ok := parser.SQLTime(r.Vals["created_at"]); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	if bs := r.Get("browser_state"); bs != "" && bs != "null" {
		e.Text += fmt.Sprintf(" (browser tool state kept, %d bytes)", len(bs))
	}
	out.Event(e)
}

// message reads one messages row, with the calls and attachments of its
// message id.
func message(r parser.Row, titles map[string]string, calls map[int64][]call, atts map[int64][]attachment, chats map[string]*chatState, out parser.Sink) {
	chat := r.Get("chat_id")
	st := chats[chat]
	if st == nil {
		st = &chatState{}
		chats[chat] = st
	}
	id := strconv.FormatInt(r.Rowid, 10)
	base := timeline.Event{SessionID: chat, SourceLine: r.Rowid, Model: r.Get("model_name")}
	if t, ok := parser.SQLTime(r.Vals["created_at"]); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	if _, ok := titles[chat]; !ok && chat != "" {
		titles[chat] = ""
		out.Report(r.Rowid, parser.KindOrphanRecord, "message of chat "+chat+" whose chats row is gone (deleted chat): its rows are kept")
	}
	emitted := 0
	emit := func(e timeline.Event) {
		emitted++
		out.Event(e)
	}
	if m := base.Model; m != "" && m != st.model {
		e := base
		e.TurnType, e.RecordID = timeline.System, id+"#model"
		if st.model == "" {
			e.Text = "model: " + m
		} else {
			e.Text = "model: " + st.model + " -> " + m
		}
		st.model = m
		emit(e)
	}
	content := r.Get("content")
	switch role := r.Get("role"); role {
	case "user":
		st.pending, st.next = nil, 0
		e := base
		e.TurnType, e.Text, e.RecordID = timeline.User, content, id
		emit(e)
	case "assistant":
		if th := r.Get("thinking"); strings.TrimSpace(th) != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.Thinking, th, id+"#thinking"
			if t, ok := parser.SQLTime(r.Vals["thinking_time_start"]); ok {
				e.Time, e.TimeBasis = t, timeline.TimeRecorded
			}
			emit(e)
		}
		if strings.TrimSpace(content) != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.Assistant, content, id
			emit(e)
		}
		cs := calls[r.Rowid]
		delete(calls, r.Rowid)
		for _, c := range cs {
			e := base
			e.TurnType, e.ToolName, e.ToolInput, e.Text = timeline.ToolUse, c.name, c.args, callText(c.name, c.args)
			e.ToolUseID = chat + ":" + strconv.FormatInt(c.id, 10)
			e.RecordID = e.ToolUseID
			emit(e)
		}
		st.pending, st.next = cs, 0
	case "tool":
		e := base
		e.TurnType, e.Text, e.RecordID = timeline.ToolResult, content, id
		if st.next < len(st.pending) {
			c := st.pending[st.next]
			e.ToolUseID, e.ToolName = chat+":"+strconv.FormatInt(c.id, 10), c.name
			st.next++
		}
		e.IsError = strconv.FormatBool(strings.HasPrefix(content, "Error: "))
		emit(e)
	default:
		e := base
		e.TurnType, e.Text, e.RecordID = timeline.System, role+": "+content, id
		emit(e)
	}
	for k, a := range atts[r.Rowid] {
		e := base
		e.TurnType, e.RecordID = timeline.System, id+"#attachment"+strconv.Itoa(k)
		e.Text = fmt.Sprintf("attachment: %s (%d bytes, not read)", a.name, a.size)
		emit(e)
	}
	delete(atts, r.Rowid)
	if emitted == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_message")
	}
}

// callText is a call's most telling argument, else its arguments.
func callText(name, args string) string {
	var m map[string]any
	if jsonUnmarshal(args, &m) {
		for _, k := range []string{"command", "query", "url", "path"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}
