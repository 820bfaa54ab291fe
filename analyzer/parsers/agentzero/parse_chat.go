package agentzero

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// logSize is persist_chat.py LOG_SIZE: the log keeps its last 1000 items.
const logSize = 1000

// chatFile is a chat.json (helpers/persist_chat.py _serialize_context).
type chatFile struct {
	ID          string                     `json:"id"`
	Name        string                     `json:"name"`
	CreatedAt   string                     `json:"created_at"`
	Type        string                     `json:"type"`
	LastMessage string                     `json:"last_message"`
	Agents      []agentRec                 `json:"agents"`
	Log         *logRec                    `json:"log"`
	Data        map[string]json.RawMessage `json:"data"`
}

type agentRec struct {
	Number  int                        `json:"number"`
	Data    map[string]json.RawMessage `json:"data"`
	History json.RawMessage            `json:"history"`
}

type logRec struct {
	Logs []json.RawMessage `json:"logs"`
}

type logItem struct {
	No        int                        `json:"no"`
	ID        string                     `json:"id"`
	Type      string                     `json:"type"`
	Heading   string                     `json:"heading"`
	Content   string                     `json:"content"`
	KVPs      map[string]json.RawMessage `json:"kvps"`
	Timestamp float64                    `json:"timestamp"`
	AgentNo   *int                       `json:"agentno"`
	AgentNum  *int                       `json:"agent_number"`
}

// histMsg is one history message (helpers/history.py Message.to_dict):
// ai, content (a string, or a dict: a user message's {user_message,
// attachments, system_message}, a tool result's {tool_name, tool_result,
// file}), summary.
type histMsg struct {
	ID      string          `json:"id"`
	AI      bool            `json:"ai"`
	Content json.RawMessage `json:"content"`
	Summary string          `json:"summary"`
	agent   int
}

// record is any history record: Message, Topic {messages}, Bulk
// {records}; History {bulks, topics, current}.
type record struct {
	Cls      string            `json:"_cls"`
	Messages []json.RawMessage `json:"messages"`
	Records  []json.RawMessage `json:"records"`
	Bulks    []json.RawMessage `json:"bulks"`
	Topics   []json.RawMessage `json:"topics"`
	Current  json.RawMessage   `json:"current"`
	histMsg
}

// flatten appends the messages of a history record in order.
func flatten(raw json.RawMessage, agent int, out *[]histMsg, depth int) {
	if depth > 32 || len(raw) == 0 {
		return
	}
	var r record
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	switch r.Cls {
	case "Message":
		m := r.histMsg
		m.agent = agent
		*out = append(*out, m)
	case "History":
		for _, b := range r.Bulks {
			flatten(b, agent, out, depth+1)
		}
		for _, t := range r.Topics {
			flatten(t, agent, out, depth+1)
		}
		flatten(r.Current, agent, out, depth+1)
	default: // Topic, Bulk
		for _, m := range r.Messages {
			flatten(m, agent, out, depth+1)
		}
		for _, m := range r.Records {
			flatten(m, agent, out, depth+1)
		}
	}
}

// history decodes an agent's history: agent.history.serialize() is a JSON
// string holding the History object (an object in hand-made files).
func history(raw json.RawMessage, agent int) []histMsg {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var out []histMsg
	flatten(raw, agent, &out, 0)
	return out
}

func (m *histMsg) dict() map[string]json.RawMessage {
	var d map[string]json.RawMessage
	if json.Unmarshal(m.Content, &d) != nil {
		return nil
	}
	return d
}

func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return parser.CompactJSON(raw)
}

// relayKeys are the context data keys the Telegram, WhatsApp and email
// plugins set on a chat they relay (never telegram_bot_cfg, which holds
// the bot token).
var relayKeys = []struct{ platform, chat, user string }{
	{"telegram", "telegram_chat_id", "telegram_username"},
	{"whatsapp", "wa_chat_id", "wa_sender_number"},
	{"email", "email_thread_id", "email_sender"},
}

var toolHeadingRe = regexp.MustCompile(`(?i)tool '([^']+)'|using tool ([A-Za-z0-9_.:-]+)`)

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxChat)
	if err != nil {
		out.Problem(0, "chat not read: "+err.Error())
		return nil
	}
	var c chatFile
	if err := json.Unmarshal(b, &c); err != nil {
		out.Problem(0, "not an Agent Zero chat: "+parser.JSONError(err))
		return nil
	}
	p := slash(in.Path)
	sid := c.ID
	if sid == "" {
		if base(p) == "chat.json" {
			sid = path.Base(path.Dir(p))
		} else {
			sid = strings.TrimSuffix(base(p), ".json")
		}
	}
	project := ""
	if raw, ok := c.Data["project"]; ok {
		if name := str(raw); name != "" && name != "null" {
			project = "/a0/usr/projects/" + name
		}
	}
	session := func(agent int) (string, string) {
		if agent <= 0 {
			return sid, ""
		}
		parent := sid
		if agent > 1 {
			parent = fmt.Sprintf("%s/agent%d", sid, agent-1)
		}
		return fmt.Sprintf("%s/agent%d", sid, agent), parent
	}
	var msgs []histMsg
	byID := map[string]*histMsg{}
	synced := false
	for _, a := range c.Agents {
		msgs = append(msgs, history(a.History, a.Number)...)
		if rs, ok := a.Data["responses_state"]; ok && string(rs) != "null" && string(rs) != "{}" && len(rs) > 0 {
			synced = true
		}
	}
	for i := range msgs {
		if msgs[i].ID != "" {
			byID[msgs[i].ID] = &msgs[i]
		}
	}

	// the chat itself
	head := timeline.Event{SessionID: sid, ProjectPath: project, TurnType: timeline.System, SourceLine: 0, RecordID: "chat:" + sid}
	if t, basis, ok := pyTime(c.CreatedAt); ok && t.Unix() > 0 {
		head.Time, head.TimeBasis = t, basis
	} else {
		head.TimeBasis = timeline.TimeNone
	}
	head.Text = "chat: " + c.Name
	if c.Type != "" {
		head.Text += " (type " + c.Type + ")"
	}
	out.Event(head)
	st := timeline.SessionState{Key: timeline.SessionKey{Agent: agentName, SessionID: sid}, Relayed: "no", Synced: "no"}
	if synced {
		st.Synced = "yes"
		e := head
		e.RecordID, e.Text = "chat:"+sid+"#synced", "a turn was chained on a provider-stored response (agent data responses_state): the conversation is also held by the provider"
		out.Event(e)
	}
	for _, rk := range relayKeys {
		raw, ok := c.Data[rk.chat]
		if !ok || string(raw) == "null" {
			continue
		}
		st.Relayed = "yes"
		e := head
		e.RecordID = "chat:" + sid + "#relay-" + rk.platform
		e.Text = "relayed through " + rk.platform + " chat " + str(raw)
		if u, ok := c.Data[rk.user]; ok && string(u) != "null" {
			e.Text += " (sender " + str(u) + ")"
		}
		out.Event(e)
	}
	out.Session(st)
	if raw, ok := c.Data["chat_model_override"]; ok && string(raw) != "null" {
		var o map[string]any
		if json.Unmarshal(raw, &o) == nil && len(o) > 0 {
			e := head
			e.RecordID = "chat:" + sid + "#model"
			var parts []string
			for _, k := range []string{"preset_name", "provider", "name", "model"} {
				if v, ok := o[k].(string); ok && v != "" {
					parts = append(parts, k+"="+v)
				}
			}
			e.Text = "model override for this chat: " + strings.Join(parts, " ")
			out.Event(e)
		}
	}

	// the log: the rows with their times
	var logs []json.RawMessage
	if c.Log != nil {
		logs = c.Log.Logs
	}
	seen := map[string]bool{}
	logIDs := map[string]map[timeline.TurnType]string{} // log item id -> turn type -> the record id of its row
	for i, raw := range logs {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var it logItem
		if err := json.Unmarshal(raw, &it); err != nil {
			out.Report(n, parser.KindSkippedRecord, "not a log item: "+parser.JSONError(err))
			continue
		}
		agent := 0
		if it.AgentNo != nil {
			agent = *it.AgentNo
		} else if it.AgentNum != nil {
			agent = *it.AgentNum
		}
		s, parent := session(agent)
		mk := func(tt timeline.TurnType, text, rec string) timeline.Event {
			e := timeline.Event{SessionID: s, ParentSessionID: parent, ProjectPath: project, TurnType: tt, Text: text, SourceLine: n, RecordID: rec}
			if t, ok := epoch(it.Timestamp); ok {
				e.Time = t
			} else {
				e.TimeBasis = timeline.TimeNone
			}
			return e
		}
		hm := byID[it.ID]
		if hm != nil {
			seen[it.ID] = true
		}
		out := &logRows{Sink: out, ids: logIDs, item: it.ID}
		switch it.Type {
		case "user":
			text := userText(it.Content, hm)
			if agent > 0 {
				out.Event(mk(timeline.System, "subagent task: "+text, it.ID))
			} else {
				out.Event(mk(timeline.User, text, it.ID))
			}
		case "response":
			out.Event(mk(timeline.Assistant, it.Content, it.ID))
		case "agent":
			th := thoughts(it.KVPs)
			if th == "" {
				out.Skip(n, "no_evidence:agent_generating")
				continue
			}
			out.Event(mk(timeline.Thinking, th, it.ID))
		case "tool", "code_exe", "browser", "mcp", "subagent":
			name := it.Type
			if m := toolHeadingRe.FindStringSubmatch(it.Heading); m != nil {
				name = m[1] + m[2]
			}
			u := mk(timeline.ToolUse, "", it.ID)
			u.ToolName, u.ToolUseID = name, it.ID
			u.ToolInput = kvpsJSON(it.KVPs)
			u.Text = callText(it.KVPs, it.Heading)
			out.Event(u)
			r := mk(timeline.ToolResult, resultText(in, p, it.Content, hm), it.ID+"#output")
			r.ToolName, r.ToolUseID = name, it.ID
			r.IsError = "false"
			out.Event(r)
		case "warning":
			out.Event(mk(timeline.System, warningText(it.Heading, it.Content), it.ID))
		case "error":
			out.Event(mk(timeline.System, "error: "+joinHC(it.Heading, it.Content), it.ID))
		case "info", "hint", "input":
			out.Event(mk(timeline.System, it.Type+": "+joinHC(it.Heading, it.Content), it.ID))
		case "util", "progress":
			out.Skip(n, "no_evidence:"+it.Type)
		default:
			out.Report(n, parser.KindSkippedRecord, "log item type "+strconv.Quote(it.Type)+" not read")
		}
	}

	// history-only turns: when the log was cut at its 1000 items, the
	// earlier turns are only in the agents' histories, with no time.
	if len(logs) >= logSize {
		n := int64(len(logs))
		for i := range msgs {
			m := &msgs[i]
			n++
			s, parent := session(m.agent)
			rows := histRows(m)
			if len(rows) == 0 {
				out.Skip(n, "no_evidence:history_message")
				continue
			}
			copied := m.ID != "" && seen[m.ID]
			for k, e := range rows {
				e.SessionID, e.ParentSessionID, e.ProjectPath, e.SourceLine, e.TimeBasis = s, parent, project, n, timeline.TimeNone
				if m.ID != "" {
					e.RecordID = m.ID
					if len(rows) > 1 {
						e.RecordID = fmt.Sprintf("%s#%d", m.ID, k)
					}
				}
				if copied {
					// The log item of this id was read above, with its
					// time, and took this message's fields: the history
					// copy is that record in another form. Its row of the
					// turn type the log item's row has is named as the log
					// names it (a tool result is the call's "<id>#output")
					// and its text is made from the history as the log
					// row's was, so the correlate stage merges the two (or
					// keeps both with a duplicate_id problem when they
					// differ); a row the log item has no row of that type
					// for (the reply's thoughts under a response item)
					// keeps the history's name.
					switch e.TurnType {
					case timeline.User:
						e.Text = userText(e.Text, m)
					case timeline.ToolResult:
						e.Text = resultText(in, p, e.Text, m)
					}
				}
				if e.TurnType == timeline.User && m.agent > 0 {
					e.TurnType, e.Text = timeline.System, "subagent task: "+e.Text
				}
				if rec, ok := logIDs[m.ID][e.TurnType]; copied && ok {
					e.RecordID = rec
				}
				out.Event(e)
			}
		}
		e := head
		e.RecordID, e.Text = "chat:"+sid+"#log-trimmed", fmt.Sprintf("the chat's UI log holds its last %d items only: earlier turns come from the agents' histories and have no time", logSize)
		out.Event(e)
	}
	return nil
}

// logRows is the sink of one log item's rows: it notes the record id of
// the item's first row of each turn type (logIDs), so the history copy of
// the item can be named as its log rows are.
type logRows struct {
	parser.Sink
	ids  map[string]map[timeline.TurnType]string
	item string
}

func (l *logRows) Event(e timeline.Event) {
	if l.item != "" {
		m := l.ids[l.item]
		if m == nil {
			m = map[timeline.TurnType]string{}
			l.ids[l.item] = m
		}
		if _, ok := m[e.TurnType]; !ok {
			m[e.TurnType] = e.RecordID
		}
	}
	l.Sink.Event(e)
}

// userText is a user message's text: the history's user_message (with
// its attachments named) when the message hm of the item's id has one,
// else text.
func userText(text string, hm *histMsg) string {
	if hm == nil {
		return text
	}
	if d := hm.dict(); d != nil {
		if um, ok := d["user_message"]; ok {
			text = str(um)
		}
		if att, ok := d["attachments"]; ok && string(att) != "[]" && string(att) != "null" {
			text += "\n[attachments: " + parser.CompactJSON(att) + "]"
		}
	}
	return text
}

// resultText is a tool result's text: the history's tool_result when the
// message hm of the item's id has one, else text; the messages/<n>.txt
// file it names when that is longer (the log keeps 15,000 characters).
func resultText(in *parser.Input, chatPath, text string, hm *histMsg) string {
	if hm == nil {
		return text
	}
	if d := hm.dict(); d != nil {
		if tr, ok := d["tool_result"]; ok {
			text = str(tr)
		}
		if f, ok := d["file"]; ok {
			if full, ok := messageFile(in, chatPath, str(f)); ok && len(full) > len(text) {
				text = full
			}
		}
	}
	return text
}

// histRows gives the rows of a history message known from the history
// alone: a user message, an AI message (the agent's JSON reply: thoughts,
// tool_name, tool_args), a tool result.
func histRows(m *histMsg) []timeline.Event {
	text := m.Summary
	d := m.dict()
	switch {
	case !m.AI && d != nil && d["user_message"] != nil:
		return []timeline.Event{{TurnType: timeline.User, Text: str(d["user_message"])}}
	case !m.AI && d != nil && d["tool_result"] != nil:
		e := timeline.Event{TurnType: timeline.ToolResult, Text: str(d["tool_result"]), ToolName: str(d["tool_name"]), ToolUseID: m.ID, IsError: "false"}
		return []timeline.Event{e}
	case m.AI:
		var reply struct {
			Thoughts json.RawMessage `json:"thoughts"`
			ToolName string          `json:"tool_name"`
			ToolArgs json.RawMessage `json:"tool_args"`
		}
		raw := str(m.Content)
		if json.Unmarshal([]byte(strings.TrimSpace(raw)), &reply) != nil || reply.ToolName == "" {
			return []timeline.Event{{TurnType: timeline.Assistant, Text: raw}}
		}
		var rows []timeline.Event
		if th := thoughtsText(reply.Thoughts); th != "" {
			rows = append(rows, timeline.Event{TurnType: timeline.Thinking, Text: th})
		}
		if reply.ToolName == "response" {
			var a struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(reply.ToolArgs, &a)
			return append(rows, timeline.Event{TurnType: timeline.Assistant, Text: a.Text})
		}
		return append(rows, timeline.Event{TurnType: timeline.ToolUse, ToolName: reply.ToolName, ToolInput: parser.CompactJSON(reply.ToolArgs), Text: reply.ToolName})
	}
	if text == "" {
		text = str(m.Content)
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return []timeline.Event{{TurnType: timeline.System, Text: text}}
}

func thoughts(kv map[string]json.RawMessage) string {
	return thoughtsText(kv["thoughts"])
}

func thoughtsText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "\n")
	}
	return str(raw)
}

// kvpsJSON is a tool log item's kvps (the tool's arguments) as compact
// JSON with sorted keys.
func kvpsJSON(kv map[string]json.RawMessage) string {
	if len(kv) == 0 {
		return ""
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		q, _ := json.Marshal(k)
		b.Write(q)
		b.WriteByte(':')
		b.WriteString(parser.CompactJSON(kv[k]))
	}
	b.WriteByte('}')
	return b.String()
}

func callText(kv map[string]json.RawMessage, heading string) string {
	for _, k := range []string{"code", "command", "query", "url", "path", "message"} {
		if v, ok := kv[k]; ok {
			if s := str(v); s != "" {
				return s
			}
		}
	}
	return heading
}

func joinHC(h, c string) string {
	switch {
	case h == "":
		return c
	case c == "":
		return h
	}
	return h + ": " + c
}

// warningText names the warnings that record a decision on a tool call
// (a tool blocked by a policy, an MCP approval denied, an infection check
// verdict) as permission decisions; other warnings stay warnings.
func warningText(h, c string) string {
	t := joinHC(h, c)
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "infection"):
		return "permission decision: infection check: " + t
	case strings.Contains(l, "blocked") || strings.Contains(l, "denied") || strings.Contains(l, "not allowed"):
		return "permission decision: denied source=policy: " + t
	}
	return "warning: " + t
}

// messageFile reads a long tool result the history names by path
// (…/usr/chats/<ctxid>/messages/<n>.txt, a container path in a Docker
// install): the collected file of the same chat and name.
func messageFile(in *parser.Input, chatPath, ref string) (string, bool) {
	name := base(ref)
	if name == "" || !strings.HasSuffix(name, ".txt") {
		return "", false
	}
	b, err := parser.ReadRelated(in, path.Dir(chatPath)+"/messages/"+name, maxChat)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// parseMessageFile accounts for a messages/<n>.txt file: its text reaches
// the timeline through the chat.json history entry that names it.
func parseMessageFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	out.Skip(0, "read_with_chat_json")
	return nil
}
