package crush

import (
	"context"
	"database/sql"
	"encoding/xml"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/sqlitecarve"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type session struct {
	id, parent, title string
	created           time.Time
	rowid             int64
	revert            string // revert_message_id: the /undo marker
	channel           string // the channel the latest turn came from
	relayed           bool   // a user message arrived through a channel
	recovered         bool   // its row is one the carver recovered
}

type part struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

type textData struct {
	Text string `json:"text"`
}

type reasoningData struct {
	Thinking string `json:"thinking"`
}

type toolCallData struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input string `json:"input"`
}

type toolResultData struct {
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
	Content    string `json:"content"`
	MIMEType   string `json:"mime_type"`
	Metadata   string `json:"metadata"`
	IsError    bool   `json:"is_error"`
}

// hookMeta is the "hook" key of a tool result's metadata
// (internal/hooks/hooks.go HookMetadata, written by agent/hooked_tool.go).
type hookMeta struct {
	HookCount    int    `json:"hook_count"`
	Decision     string `json:"decision"`
	Halt         bool   `json:"halt"`
	Reason       string `json:"reason"`
	InputRewrite bool   `json:"input_rewrite"`
	Hooks        []struct {
		Name         string `json:"name"`
		Matcher      string `json:"matcher"`
		Decision     string `json:"decision"`
		Halt         bool   `json:"halt"`
		Reason       string `json:"reason"`
		InputRewrite bool   `json:"input_rewrite"`
	} `json:"hooks"`
}

type binaryData struct {
	Path     string
	MIMEType string
}

type imageURLData struct {
	URL string `json:"url"`
}

type shellData struct {
	Command  string `json:"command"`
	Output   string `json:"output"`
	ExitCode int    `json:"exit_code"`
}

// deniedText is the tool result Crush stores when the user refuses a
// permission prompt (internal/agent/tools/tools.go NewPermissionDeniedResponse).
const deniedText = "User denied permission"

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	carved := parser.Carve(ctx, in, db, out)
	defer carved.Done(out)
	project := projectOf(in.Path)
	sessions := map[string]*session{}
	var order []*session
	hasChannel := false
	readable, err := parser.CheckStore(ctx, db, dbStore, out)
	if err != nil {
		return err
	}
	readSessions := func() error {
		cols, _ := parser.Columns(ctx, db, "sessions")
		hasChannel = cols["channel"]
		sessRow := func(out parser.Sink, m map[string]any) {
			s := &session{id: parser.SQLText(m["id"]), parent: parser.SQLText(m["parent_session_id"]), title: parser.SQLText(m["title"]), rowid: num(m["rowid_"]),
				revert: parser.SQLText(m["revert_message_id"]), channel: parser.SQLText(m["channel"])}
			s.created, _ = epoch(num(m["created_at"]))
			sessions[s.id] = s
			order = append(order, s)
			base := timeline.Event{SessionID: s.id, ParentSessionID: s.parent, ProjectPath: project, SourceLine: s.rowid, TurnType: timeline.System}
			if s.created.IsZero() {
				base.TimeBasis = timeline.TimeNone
			} else {
				base.Time = s.created
			}
			n := 0
			emit := func(word, text string) {
				e := base
				e.Text, e.RecordID = text, s.id+"#"+word
				out.Event(e)
				n++
			}
			if s.parent != "" {
				emit("subagent", "subagent "+s.id+" of "+s.parent)
				out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: s.id}, ParentSessionID: s.parent})
			}
			if s.title != "" {
				emit("title", "session title: "+s.title)
			}
			if at, ok := epoch(num(m["archived_at"])); ok {
				e := base
				e.Time, e.TimeBasis, e.Text, e.RecordID = at, "", "session archived", s.id+"#archived"
				out.Event(e)
				n++
			}
			if n == 0 {
				out.Skip(s.rowid, "state_only:session")
			}
		}
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM sessions ORDER BY created_at, rowid", func(m map[string]any) { sessRow(out, m) })
		for _, cr := range carvedRows(carved, "sessions") {
			id := parser.SQLText(cr.m["id"])
			switch {
			case id == "":
				out.Report(cr.line(), parser.KindCarve, "recovered sessions record without its id ("+cr.rec.Provenance()+"): not given rows")
				continue
			case sessions[id] != nil:
				out.Skip(cr.line(), "recovered_copy:older version of a live or recovered session")
				continue
			}
			t, _ := epoch(num(cr.m["created_at"]))
			rout := parser.RecoveredSink(out, &cr.rec)
			provenance(rout, cr, id, id, project, t)
			sessRow(rout, cr.m)
			if sessions[id] != nil {
				sessions[id].recovered = true
			}
			out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Recovered: "yes"})
		}
		return err
	}
	if err := parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "sessions", Read: readSessions},
		parser.TableRead{Table: "messages", Read: func() error {
			return readMessages(ctx, db, in, out, project, sessions, carvedRows(carved, "messages"))
		}},
	); err != nil {
		return err
	}
	// relay state: a session a channel drove (sessions.channel, or a user
	// message pushed by an MCP channel server) was relayed; where the store
	// keeps channels, the others were not
	for _, s := range order {
		if hasChannel || s.relayed {
			r := "no"
			if s.relayed || s.channel != "" {
				r = "yes"
			}
			out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: s.id}, Relayed: r})
		}
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "files", Read: func() error {
			return parser.EachRow(ctx, db, "SELECT rowid AS rowid_, id, session_id, path, version, created_at FROM files ORDER BY created_at, rowid", func(m map[string]any) {
				e := timeline.Event{SessionID: parser.SQLText(m["session_id"]), ProjectPath: project, SourceLine: num(m["rowid_"]), TurnType: timeline.System, RecordID: parser.SQLText(m["id"])}
				e.Text = fmt.Sprintf("file snapshot: %s version=%d", parser.SQLText(m["path"]), num(m["version"]))
				if t, ok := epoch(num(m["created_at"])); ok {
					e.Time = t
				} else {
					e.TimeBasis = timeline.TimeNone
				}
				out.Event(e)
			})
		}},
		parser.TableRead{Table: "read_files", Read: func() error {
			return parser.EachRow(ctx, db, "SELECT rowid AS rowid_, session_id, path, read_at FROM read_files ORDER BY read_at, rowid", func(m map[string]any) {
				e := timeline.Event{SessionID: parser.SQLText(m["session_id"]), ProjectPath: project, SourceLine: num(m["rowid_"]), TurnType: timeline.System}
				e.Text = "file read: " + parser.SQLText(m["path"])
				if t, ok := epoch(num(m["read_at"])); ok {
					e.Time = t
				} else {
					e.TimeBasis = timeline.TimeNone
				}
				out.Event(e)
			})
		}},
	)
}

// dbStore is crush.db (the one SQLite policy, parser.CheckStore): the
// initial migration's sessions, messages and files, and read_files from
// 20260127000000_add_read_files_table.sql (charmbracelet/crush 0c5ca09),
// Optional for an older store; each with the columns its query names. A
// missing table or one lacking a column is one problem row naming it and
// the others are still read; a table failing part way is named and the
// next read; a file with none is "not a Crush database".
var dbStore = parser.SQLiteStore{
	Name: "a Crush",
	Tables: parser.SQLiteSchema{
		"sessions":   {"id", "created_at"},
		"messages":   {"id", "session_id", "role", "parts", "created_at"},
		"files":      {"id", "session_id", "path", "version", "created_at"},
		"read_files": {"session_id", "path", "read_at"},
	},
	Optional: map[string]string{"read_files": "Crush builds before migration 20260127000000_add_read_files_table"},
}

type msgRef struct {
	id      string
	created time.Time
	rowid   int64
}

func readMessages(ctx context.Context, db *sql.DB, in *parser.Input, out parser.Sink, project string, sessions map[string]*session, carved []carvedRec) error {
	lastModel := map[string]string{}
	bySession := map[string][]msgRef{}
	liveIDs := map[string]bool{}
	row := func(out parser.Sink, m map[string]any) {
		rowid := num(m["rowid_"])
		sid := parser.SQLText(m["session_id"])
		mid := parser.SQLText(m["id"])
		role := parser.SQLText(m["role"])
		sess := sessions[sid]
		base := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: rowid}
		if sess != nil {
			base.ParentSessionID = sess.parent
		}
		if t, ok := epoch(num(m["created_at"])); ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		bySession[sid] = append(bySession[sid], msgRef{mid, base.Time, rowid})
		model := parser.SQLText(m["model"])
		if p := parser.SQLText(m["provider"]); p != "" && model != "" {
			model = p + "/" + model
		}
		summary := num(m["is_summary_message"]) != 0
		var parts []part
		if err := json.Unmarshal([]byte(parser.SQLText(m["parts"])), &parts); err != nil {
			out.Problem(rowid, parser.NotJSONArray("parts column", err))
			return
		}
		n := 0
		emit := func(e timeline.Event) { out.Event(e); n++ }
		if role == "assistant" && model != "" && model != lastModel[sid] {
			// its text depends on the messages before: no RecordID
			e := base
			e.TurnType = timeline.System
			if old := lastModel[sid]; old == "" {
				e.Text = "model: " + model
			} else {
				e.Text = "model: " + old + " -> " + model
			}
			lastModel[sid] = model
			emit(e)
		}
		delegated := sess != nil && sess.parent != ""
		for i, p := range parts {
			e := base
			if mid != "" {
				e.RecordID = fmt.Sprintf("%s#%d", mid, i)
			}
			derived := func(word string) timeline.Event {
				d := base
				if e.RecordID != "" {
					d.RecordID = e.RecordID + "#" + word
				}
				return d
			}
			switch p.Type {
			case "text":
				var d textData
				if json.Unmarshal(p.Data, &d) != nil || strings.TrimSpace(d.Text) == "" {
					continue
				}
				e.Text = d.Text
				switch {
				case summary:
					e.TurnType, e.Text = timeline.System, "summary: "+d.Text
				case role == "user" && delegated:
					e.TurnType, e.Text = timeline.System, "subagent task: "+d.Text
				case role == "user":
					e.TurnType = timeline.User
					if ch, ok := parseChannel(d.Text); ok {
						// a message an MCP channel server pushed: what the
						// person wrote there, and where it came from
						e.Text = ch.Body
						emit(e)
						r := derived("channel")
						r.TurnType, r.Text = timeline.System, ch.describe()
						emit(r)
						if sess != nil {
							sess.relayed = true
						} else {
							out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Relayed: "yes"})
						}
						continue
					}
				case role == "assistant":
					e.TurnType, e.Model = timeline.Assistant, model
				default:
					e.TurnType = timeline.System
				}
			case "reasoning":
				var d reasoningData
				if json.Unmarshal(p.Data, &d) != nil || strings.TrimSpace(d.Thinking) == "" {
					continue
				}
				e.TurnType, e.Text, e.Model = timeline.Thinking, d.Thinking, model
			case "tool_call":
				var d toolCallData
				if err := json.Unmarshal(p.Data, &d); err != nil {
					out.Problem(rowid, "tool_call part: "+parser.JSONError(err))
					continue
				}
				e.TurnType, e.Model = timeline.ToolUse, model
				e.ToolName, e.ToolUseID = d.Name, d.ID
				e.ToolInput = parser.CompactJSON([]byte(d.Input))
				e.Text = identifying(d.Input)
			case "tool_result":
				var d toolResultData
				if err := json.Unmarshal(p.Data, &d); err != nil {
					out.Problem(rowid, "tool_result part: "+parser.JSONError(err))
					continue
				}
				e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, d.Name, d.ToolCallID
				e.Text = d.Content
				if e.Text == "" && d.MIMEType != "" {
					e.Text = "[" + d.MIMEType + " data]"
				}
				e.IsError = strconv.FormatBool(d.IsError)
				emit(e)
				if d.IsError && strings.TrimSpace(d.Content) == deniedText {
					pd := derived("decision")
					pd.TurnType, pd.Text, pd.ToolName, pd.ToolUseID = timeline.System, "permission decision: denied source=user", d.Name, d.ToolCallID
					emit(pd)
				}
				for _, h := range hookRows(d) {
					r := derived(h.word)
					r.TurnType, r.Text, r.ToolName, r.ToolUseID = timeline.System, h.text, d.Name, d.ToolCallID
					emit(r)
				}
				continue
			case "binary":
				var d binaryData
				_ = json.Unmarshal(p.Data, &d)
				e.TurnType, e.Text = timeline.System, "attachment: "+d.Path
				if d.MIMEType != "" {
					e.Text += " (" + d.MIMEType + ")"
				}
			case "image_url":
				var d imageURLData
				_ = json.Unmarshal(p.Data, &d)
				u := d.URL
				if strings.HasPrefix(u, "data:") {
					if i := strings.IndexByte(u, ','); i > 0 {
						u = u[:i] + ",..."
					}
				}
				e.TurnType, e.Text = timeline.System, "image: "+u
			case "shell_command":
				var d shellData
				if json.Unmarshal(p.Data, &d) != nil {
					continue
				}
				// A bang-mode command the user typed and Crush ran.
				id := fmt.Sprintf("%s#shell%d", mid, i)
				u := e
				u.TurnType, u.Text = timeline.User, "!"+d.Command
				emit(u)
				c := derived("call")
				c.TurnType, c.ToolName, c.ToolUseID, c.Text = timeline.ToolUse, "shell", id, d.Command
				in, _ := json.Marshal(map[string]string{"command": d.Command})
				c.ToolInput = string(in)
				emit(c)
				r := derived("result")
				r.TurnType, r.ToolName, r.ToolUseID = timeline.ToolResult, "shell", id
				r.Text = strings.TrimRight(d.Output, "\n") + fmt.Sprintf("\nexit code: %d", d.ExitCode)
				r.IsError = strconv.FormatBool(d.ExitCode != 0)
				emit(r)
				continue
			case "finish":
				continue
			default:
				out.Problem(rowid, "unknown part type "+strconv.Quote(p.Type))
				continue
			}
			emit(e)
		}
		if n == 0 {
			out.Skip(rowid, "no_evidence:message without content")
		}
	}
	err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM messages ORDER BY created_at, rowid", func(m map[string]any) {
		liveIDs[parser.SQLText(m["id"])] = true
		row(out, m)
	})
	if err != nil {
		return fmt.Errorf("read messages in %s: %w", in.Path, err)
	}
	// messages the carver recovered, in time order, as live ones; a live
	// id's older version is counted
	sort.SliceStable(carved, func(i, j int) bool { return num(carved[i].m["created_at"]) < num(carved[j].m["created_at"]) })
	for _, cr := range carved {
		id, sid := parser.SQLText(cr.m["id"]), parser.SQLText(cr.m["session_id"])
		switch {
		case id == "" || sid == "":
			out.Report(cr.line(), parser.KindCarve, "recovered messages record without its id or session id ("+cr.rec.Provenance()+"): not given rows")
			continue
		case liveIDs[id]:
			out.Skip(cr.line(), "recovered_copy:older version of a live or recovered message")
			continue
		}
		liveIDs[id] = true
		t, _ := epoch(num(cr.m["created_at"]))
		rout := parser.RecoveredSink(out, &cr.rec)
		provenance(rout, cr, id, sid, project, t)
		row(rout, cr.m)
		state := "yes"
		if s := sessions[sid]; s != nil && !s.recovered {
			state = "partial"
		}
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Recovered: state})
	}
	for sid, s := range sessions {
		if s.revert != "" {
			revertRow(out, s, project, bySession[sid])
		}
	}
	return nil
}

// revertRow says what /undo did to a session (sessions.revert_message_id,
// charmbracelet/crush e367360a7): the messages from the marked user message
// on are hidden from the session, and Crush deletes them when the next
// prompt is sent. They are still rows; this row follows them. The undo
// itself is not dated: the row takes the last hidden message's time and
// position.
func revertRow(out parser.Sink, s *session, project string, msgs []msgRef) {
	e := timeline.Event{SessionID: s.id, ParentSessionID: s.parent, ProjectPath: project, SourceLine: s.rowid, TurnType: timeline.System, RecordID: s.id + "#revert"}
	var from *msgRef
	for i := range msgs {
		if msgs[i].id == s.revert {
			from = &msgs[i]
		}
	}
	if from == nil {
		e.TimeBasis = timeline.TimeNone
		e.Text = "undone by /undo: the messages from " + s.revert + " on are hidden and will be deleted at the next prompt (that message is already gone)"
		out.Event(e)
		return
	}
	n, last := 0, *from
	for _, m := range msgs {
		if !m.created.Before(from.created) {
			n++
			if !m.created.Before(last.created) {
				last = m
			}
		}
	}
	// dated and placed at the last hidden message, so it follows them
	e.SourceLine = last.rowid
	if last.created.IsZero() {
		e.TimeBasis = timeline.TimeNone
	} else {
		e.Time, e.TimeBasis = last.created, timeline.TimeInherited
	}
	e.Text = fmt.Sprintf("undone by /undo: %d message(s) from %s on are hidden and will be deleted at the next prompt", n, s.revert)
	out.Event(e)
}

type rowText struct{ word, text string }

// hookRows renders the PreToolUse hook metadata Crush stores on a tool
// result: one "hook audit:" row per hook that ran, and the aggregate as a
// permission decision when a hook allowed (pre-approving the permission
// prompt) or denied the call.
func hookRows(d toolResultData) []rowText {
	if strings.TrimSpace(d.Metadata) == "" {
		return nil
	}
	var md struct {
		Hook *hookMeta `json:"hook"`
	}
	if json.Unmarshal([]byte(d.Metadata), &md) != nil || md.Hook == nil || md.Hook.HookCount == 0 && len(md.Hook.Hooks) == 0 {
		return nil
	}
	var rows []rowText
	for i, h := range md.Hook.Hooks {
		t := "hook audit: " + h.Name
		if h.Matcher != "" {
			t += " matcher=" + h.Matcher
		}
		t += " decision=" + h.Decision
		if h.Halt {
			t += " halt"
		}
		if h.InputRewrite {
			t += " input rewritten"
		}
		if h.Reason != "" {
			t += ": " + h.Reason
		}
		rows = append(rows, rowText{fmt.Sprintf("hook-%d", i), t})
	}
	var dec string
	switch md.Hook.Decision {
	case "deny":
		dec = "permission decision: denied source=hook"
		if md.Hook.Halt {
			dec += " (turn halted)"
		}
	case "allow":
		dec = "permission decision: allowed source=hook"
	}
	if dec != "" {
		if md.Hook.Reason != "" {
			dec += ": " + md.Hook.Reason
		}
		rows = append(rows, rowText{"hook", dec})
	}
	return rows
}

// channelMsg is a message an MCP channel server pushed into a session:
// <channel source=".." sender=".." sender_name=".." time="..">body</channel>
// (charmbracelet/crush 146139d70, internal/ui/chat/user.go).
type channelMsg struct {
	XMLName    xml.Name `xml:"channel"`
	Source     string   `xml:"source,attr"`
	Sender     string   `xml:"sender,attr"`
	SenderName string   `xml:"sender_name,attr"`
	Time       string   `xml:"time,attr"`
	Body       string   `xml:",chardata"`
}

func parseChannel(text string) (channelMsg, bool) {
	var ch channelMsg
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<channel") {
		return ch, false
	}
	if xml.Unmarshal([]byte(t), &ch) != nil {
		return ch, false
	}
	ch.Body = strings.TrimSpace(ch.Body)
	return ch, true
}

func (c channelMsg) describe() string {
	t := "relayed: message via channel " + c.Source
	from := c.SenderName
	if c.Sender != "" {
		if from != "" {
			from += " (" + c.Sender + ")"
		} else {
			from = c.Sender
		}
	}
	if from != "" {
		t += " from " + from
	}
	if c.Time != "" {
		t += " at " + c.Time
	}
	return t
}

// num is parser.SQLInt, 0 when the value is no integer.
func num(v any) int64 { n, _ := parser.SQLInt(v); return n }

// carvedRec is one record the SQLite carver recovered, by column name,
// with "rowid_" when its rowid survived.
type carvedRec struct {
	m   map[string]any
	rec sqlitecarve.Record
}

func (c carvedRec) line() int64 {
	if c.rec.RowidKnown {
		return c.rec.Rowid
	}
	return 0
}

func carvedRows(c *parser.Carved, table string) []carvedRec {
	var out []carvedRec
	for _, r := range c.Records(table) {
		m := r.Row()
		m["rowid_"] = int64(0)
		if r.RowidKnown {
			m["rowid_"] = r.Rowid
		}
		out = append(out, carvedRec{m: m, rec: r})
	}
	return out
}

// provenance emits the row that says where a recovered record was found;
// the record's own rows follow under its own ids.
func provenance(out parser.Sink, cr carvedRec, id, sid, project string, t time.Time) {
	what := "recovered record"
	if cr.rec.Partial {
		what = "partially recovered record"
	}
	e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: cr.line(), TurnType: timeline.System, RecordID: id + "#recovered", Time: t}
	if t.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	e.Text = fmt.Sprintf("%s: %s (%s)", what, id, cr.rec.Provenance())
	out.Event(e)
}
