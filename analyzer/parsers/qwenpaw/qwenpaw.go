package qwenpaw

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "qwenpaw"

// Parsers returns the QwenPaw parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "qwenpaw/session", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.json"},
			Doc: "workspaces/<agent>/sessions/[<channel>/]<user>_<session>.json agent memory: typed prompts (cron prompts and agent hints as system rows), thinking, replies, tool calls and results, compressed messages and the compaction summary marked; chats.json names the chat",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "qwenpaw/chats", Agent: Agent, Version: 1, Trace: true,
			Targets: []string{"chats"}, Names: []string{"chats.json"},
			Doc: "workspaces/<agent>/chats.json chat index: one row per chat (name, channel, user, source chat or cron, created and updated), naming those whose session file was not collected",
		}, parseChats),
		parser.New(parser.Spec{
			ID: "qwenpaw/dialog", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"dialog"}, Names: []string{"*.jsonl"},
			Doc: "workspaces/<agent>/dialog/<date>.jsonl: messages compacted out of a session's memory, kept and marked",
		}, parseDialog),
	}
}

// msg is an AgentScope Msg as to_dict writes it.
type msg struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Metadata  json.RawMessage `json:"metadata"`
	Timestamp string          `json:"timestamp"`
}

type block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	RawInput string          `json:"raw_input"`
	Output   json.RawMessage `json:"output"`
	Source   json.RawMessage `json:"source"`
}

// chat is one ChatSpec of chats.json.
type chat struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	SessionID string `json:"session_id"`
	UserID    string `json:"user_id"`
	Channel   string `json:"channel"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Status    string `json:"status"`
	Source    string `json:"source"`
}

// agentPrompt is the prefix chat_with_agent puts on another agent's
// message (ensure_agent_identity_prefix).
var agentPrompt = regexp.MustCompile(`^\s*(\[Agent\s+\S+ requesting\]|\[来自智能体\s+\S+)`)

var unsafeName = regexp.MustCompile(`[\\/:*?"<>|]`)

// sanitize is SafeJSONSession's sanitize_filename.
func sanitize(s string) string { return unsafeName.ReplaceAllString(s, "--") }

// stems are the file stems a chat's session may have
// (_get_save_path: "<user>_<session>.json", or "<session>.json").
func (c chat) stems() []string {
	sid := sanitize(c.SessionID)
	if c.UserID == "" {
		return []string{sid}
	}
	return []string{sanitize(c.UserID) + "_" + sid, sid}
}

// text is the chat's row, the same from chats.json and from the session
// file it names (one record id, one content).
func (c chat) text() string {
	s := fmt.Sprintf("chat %s %q channel %s user %s source %s status %s (from chats.json)", c.ID, c.Name, c.Channel, c.UserID, or(c.Source, "chat"), c.Status)
	if c.UpdatedAt != "" {
		s += "; updated " + c.UpdatedAt
	}
	return s
}

// workspace is the workspaces/<agent> folder of a file under it.
func workspace(p string) string {
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if path.Base(path.Dir(d)) == "workspaces" {
			return d
		}
	}
	return path.Dir(p)
}

func readChats(in *parser.Input, ws string) ([]chat, error) {
	b, err := parser.ReadRelated(in, path.Join(ws, "chats.json"), 64<<20)
	if err != nil {
		return nil, err
	}
	var f struct {
		Chats []chat `json:"chats"`
	}
	err = json.Unmarshal(b, &f)
	return f.Chats, err
}

// localTime reads "YYYY-mm-dd HH:MM:SS.fff", host-local with no zone.
func localTime(s string) (time.Time, bool) {
	for _, l := range []string{"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// emitter turns one Msg into rows.
type emitter struct {
	out      parser.Sink
	sid      string
	cron     bool // a cron job started the session: its user messages are the job's prompt
	recordAt string
}

// message emits the rows of m; extra is the text of a marking row after
// them ("" for none).
func (em *emitter) message(n int64, m *msg, marks []string, extra string) {
	base := timeline.Event{SessionID: em.sid, SourceLine: n, TimeBasis: timeline.TimeNone}
	if t, ok := localTime(m.Timestamp); ok {
		base.Time, base.TimeBasis = t, timeline.TimeLocalAsUTC
	}
	var rows []timeline.Event
	add := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		rows = append(rows, e)
		return &rows[len(rows)-1]
	}
	var blocks []block
	var plain *string
	if s, ok := parser.JSONString(m.Content); ok {
		plain = &s
	} else if len(m.Content) > 0 && string(m.Content) != "null" {
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			em.out.Problem(n, parser.NotJSONArray("message "+m.ID+" content", err))
			return
		}
	}
	hint := slices.Contains(marks, "hint")
	switch m.Role {
	case "user":
		var parts []string
		if plain != nil {
			parts = append(parts, *plain)
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				parts = append(parts, b.Text)
			case "image", "audio", "video", "file":
				parts = append(parts, "["+b.Type+" "+source(b.Source)+"]")
			default:
				em.out.Report(n, parser.KindSkippedRecord, "a user content block "+strconv.Quote(b.Type)+", not known")
			}
		}
		text := strings.Join(parts, "\n")
		switch {
		case agentPrompt.MatchString(text):
			add(timeline.System, "message from another QwenPaw agent in the user role (not typed; chat_with_agent): "+text)
		case hint:
			add(timeline.System, "hint added by the agent in the user role (not typed): "+text)
		case em.cron:
			add(timeline.System, "cron job prompt (not typed; chats.json source cron): "+text)
		default:
			add(timeline.User, text)
		}
	case "assistant", "system":
		if plain != nil {
			tt := timeline.Assistant
			if m.Role == "system" {
				tt = timeline.System
			}
			add(tt, *plain)
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if m.Role == "system" {
					add(timeline.System, b.Text)
				} else {
					add(timeline.Assistant, b.Text)
				}
			case "thinking":
				add(timeline.Thinking, b.Thinking)
			case "tool_use":
				input := b.Input
				if strings.TrimSpace(b.RawInput) != "" && json.Valid([]byte(b.RawInput)) {
					input = json.RawMessage(b.RawInput)
				}
				e := add(timeline.ToolUse, headline(input, b.Name))
				e.ToolName, e.ToolUseID, e.ToolInput = b.Name, b.ID, parser.CompactJSON(input)
			case "tool_result":
				e := add(timeline.ToolResult, output(b.Output))
				e.ToolName, e.ToolUseID = b.Name, b.ID
			case "image", "audio", "video", "file":
				add(timeline.System, "["+b.Type+" "+source(b.Source)+"]")
			default:
				em.out.Report(n, parser.KindSkippedRecord, map[string]string{"assistant": "an assistant", "system": "a system"}[m.Role]+" content block "+strconv.Quote(b.Type)+", not known")
			}
		}
	default:
		em.out.Report(n, parser.KindSkippedRecord, "a message of role "+strconv.Quote(m.Role))
		return
	}
	if slices.Contains(marks, "compressed") {
		add(timeline.System, "message "+m.ID+" above is marked compressed: replaced by the compaction summary in the model's context, kept in the file")
	}
	if extra != "" {
		add(timeline.System, extra)
	}
	for i, e := range rows {
		if m.ID != "" {
			e.RecordID = m.ID + em.recordAt
			if i > 0 {
				e.RecordID += fmt.Sprintf("#%d", i)
			}
		}
		em.out.Event(e)
	}
}

func source(raw json.RawMessage) string {
	var s struct {
		Type      string `json:"type"`
		URL       string `json:"url"`
		MediaType string `json:"media_type"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	if s.URL != "" {
		return s.URL
	}
	return strings.TrimSpace(s.Type + " " + s.MediaType)
}

// output renders a tool_result output: a string or a list of blocks.
func output(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) == nil {
		var out []string
		for _, b := range blocks {
			if b.Type == "text" {
				out = append(out, b.Text)
			} else {
				out = append(out, "["+b.Type+" "+source(b.Source)+"]")
			}
		}
		return strings.Join(out, "\n")
	}
	return parser.CompactJSON(raw)
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "file_path", "path", "pattern", "query", "url", "code", "task")
}

// descend reads dec forward to the value of the member path (each an
// object key), skipping other members; false when a level lacks it.
func descend(dec *jsontext.Decoder, keys ...string) (bool, error) {
	for _, k := range keys {
		tok, err := dec.ReadToken()
		if err != nil {
			return false, err
		}
		if tok.Kind() != '{' {
			return false, nil
		}
		found := false
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return false, err
			}
			if name.String() == k {
				found = true
				break
			}
			if err := dec.SkipValue(); err != nil {
				return false, err
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, nil
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir := path.Dir(in.Path)
	stem := strings.TrimSuffix(path.Base(in.Path), ".json")
	legacy := path.Base(dir) == ".weixin-legacy"
	ws := workspace(in.Path)
	em := &emitter{out: out, sid: path.Base(ws) + ":" + stem}
	if sub := path.Base(dir); sub != "sessions" && !legacy {
		em.sid = path.Base(ws) + ":" + sub + ":" + stem
	}
	chats, cerr := readChats(in, ws)
	var named *chat
	for i := range chats {
		if slices.Contains(chats[i].stems(), stem) {
			named = &chats[i]
			break
		}
	}
	if named != nil {
		em.cron = named.Source == "cron"
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := jsontext.NewDecoder(rc, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() == 0 {
		if _, err := dec.ReadToken(); errors.Is(err, io.EOF) {
			return nil
		}
	}
	ok, err := descend(dec, "agent", "memory", "content")
	if err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	if !ok {
		// a state without agent memory (an empty {} a corrupt save leaves,
		// _safe_json_loads's fallback)
		out.Report(0, parser.KindSkippedRecord, "a session state without agent.memory.content")
		return nil
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		out.Problem(0, parser.NotJSONArray("agent.memory.content", err))
		return nil
	}
	extra := ""
	if legacy {
		extra = "the message above is in the pre-migration copy QwenPaw archived in sessions/.weixin-legacy/ when it renamed the weixin-- session file to wechat--"
	}
	var n int64
	for dec.PeekKind() != ']' {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := dec.ReadValue()
		n++
		if err != nil {
			out.Problem(n, parser.NotJSONObject("memory entry", err)+" (the rest of the file is not read)")
			break
		}
		m, marks, err := entry(v)
		if err != nil {
			out.Problem(n, parser.NotJSONObject("memory entry", err))
			continue
		}
		em.message(n, m, marks, extra)
	}
	// the rest of memory: the compaction summary
	if _, err := dec.ReadToken(); err == nil {
		for dec.PeekKind() == '"' {
			name, err := dec.ReadToken()
			if err != nil {
				break
			}
			if name.String() != "_compressed_summary" {
				if dec.SkipValue() != nil {
					break
				}
				continue
			}
			v, err := dec.ReadValue()
			if err != nil {
				break
			}
			if s, ok := parser.JSONString(v); ok && s != "" {
				out.Event(timeline.Event{SessionID: em.sid, TurnType: timeline.System, TimeBasis: timeline.TimeNone, SourceLine: n + 1,
					RecordID: em.sid + "#compressed-summary", Text: "compaction summary (replaces the compressed messages in the model's context): " + s})
			}
		}
	}
	if named != nil {
		e := timeline.Event{SessionID: em.sid, TurnType: timeline.System, Text: named.text(), RecordID: em.sid + "#chat", TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(named.CreatedAt); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		out.Event(e)
	} else if cerr != nil && !errors.Is(cerr, parser.ErrNotCollected) {
		out.Problem(0, parser.NotJSONObject("chats.json beside it", cerr))
	}
	return nil
}

func or(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// entry reads one memory item: [msg, marks], or a bare msg (older saves).
func entry(v jsontext.Value) (*msg, []string, error) {
	var m msg
	if v.Kind() == '{' {
		err := json.Unmarshal(v, &m)
		return &m, nil, err
	}
	var pair []json.RawMessage
	if err := json.Unmarshal(v, &pair); err != nil {
		return nil, nil, err
	}
	if len(pair) == 0 {
		return nil, nil, parser.ErrNotObject
	}
	if err := json.Unmarshal(pair[0], &m); err != nil {
		return nil, nil, err
	}
	var marks []string
	if len(pair) > 1 {
		var one string
		if json.Unmarshal(pair[1], &marks) != nil && json.Unmarshal(pair[1], &one) == nil {
			marks = []string{one}
		}
	}
	return &m, marks, nil
}

func parseChats(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 64<<20)
	if err != nil {
		return err
	}
	var f struct {
		Chats []json.RawMessage `json:"chats"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	ws := path.Dir(in.Path)
	files := in.List(parser.GlobEscape(path.Join(ws, "sessions")) + "/**/*.json")
	for i, raw := range f.Chats {
		n := int64(i + 1)
		var c chat
		if err := json.Unmarshal(raw, &c); err != nil || c.SessionID == "" {
			out.Problem(n, parser.NotJSONObject("chat entry", err)+" with a session_id")
			continue
		}
		sid, found := "", false
		for _, f := range files {
			stem := strings.TrimSuffix(path.Base(f.Path), ".json")
			if slices.Contains(c.stems(), stem) && path.Base(path.Dir(f.Path)) != ".weixin-legacy" {
				sid, found = path.Base(ws)+":"+stem, true
				if sub := path.Base(path.Dir(f.Path)); sub != "sessions" {
					sid = path.Base(ws) + ":" + sub + ":" + stem
				}
				break
			}
		}
		if !found {
			sid = path.Base(ws) + ":" + c.stems()[0]
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: n, RecordID: sid + "#chat", TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(c.CreatedAt); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		e.Text = c.text()
		if !found {
			e.Text += "; its session file was not collected (deleted, or never saved)"
		}
		out.Event(e)
	}
	return nil
}

func parseDialog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	ws := workspace(in.Path)
	em := &emitter{out: out, sid: path.Base(ws) + ":dialog", recordAt: "@dialog"}
	extra := "the message above was compacted out of its session's memory into " + path.Base(in.Path) + " (the file does not name the session)"
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var m msg
		if err := json.Unmarshal(line, &m); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		em.message(n, &m, nil, extra)
		return nil
	})
}
