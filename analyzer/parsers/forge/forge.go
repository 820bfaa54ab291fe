package forge

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "forge"

// Parsers returns the Forge parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "forge/db", Agent: Agent, Version: 5,
			Actions: actions,
			Targets: []string{"db"}, Names: []string{".forge.db"},
			Doc: ".forge.db conversations: context messages (typed prompts from raw_content, replies, reasoning, tool calls and results, subagent conversations), title, usage and file metrics",
		}, parseDB),
	}
}

type toolCall struct {
	Name      string          `json:"name"`
	CallID    string          `json:"call_id"`
	Arguments json.RawMessage `json:"arguments"`
}

type textMsg struct {
	Role       string                  `json:"role"`
	Content    string                  `json:"content"`
	RawContent json.RawMessage         `json:"raw_content"`
	ToolCalls  []toolCall              `json:"tool_calls"`
	Model      string                  `json:"model"`
	Reasoning  []struct{ Text string } `json:"reasoning_details"`
}

type toolMsg struct {
	Name   string `json:"name"`
	CallID string `json:"call_id"`
	Output struct {
		IsError bool              `json:"is_error"`
		Values  []json.RawMessage `json:"values"`
	} `json:"output"`
}

type msgValue struct {
	Text  *textMsg        `json:"text"`
	Tool  *toolMsg        `json:"tool"`
	Image json.RawMessage `json:"image"`
}

type tokenCount struct {
	Actual *int64 `json:"actual"`
	Approx *int64 `json:"approx"`
}

func (t tokenCount) n() int64 {
	if t.Actual != nil {
		return *t.Actual
	}
	if t.Approx != nil {
		return *t.Approx
	}
	return 0
}

type entry struct {
	Message *msgValue `json:"message"`
	Usage   *struct {
		Prompt     tokenCount `json:"prompt_tokens"`
		Completion tokenCount `json:"completion_tokens"`
		Cached     tokenCount `json:"cached_tokens"`
	} `json:"usage"`
	msgValue
}

type contextRecord struct {
	Initiator string            `json:"initiator"`
	Messages  []json.RawMessage `json:"messages"`
}

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, readable, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "conversations", Read: func() error {
		// two passes over the one table, named once if either fails
		parents, perr := subagentParents(ctx, db)
		err := parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
			conversation(r, parents, out)
			return nil
		})
		if err != nil {
			return err
		}
		return perr
	}})
}

// store is the one table parseDB reads, with the columns without which a
// row is no conversation; the others are read by name when present.
var store = parser.SQLiteStore{Name: "a Forge", Tables: parser.SQLiteSchema{"conversations": {"conversation_id", "context"}}}

// subagentParents reads every conversation's tool results once for the
// "aI" values a subagent returns: child conversation id to the ids of the
// conversations that name it, in table order. The parser does not choose
// among them: each caller's link is a row of the child (conversation),
// and the correlate stage decides the parent, naming a conflict.
func subagentParents(ctx context.Context, db *sql.DB) (map[string][]string, error) {
	parents := map[string][]string{}
	err := parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
		var c contextRecord
		if json.Unmarshal([]byte(r.Get("context")), &c) != nil {
			return nil
		}
		for _, raw := range c.Messages {
			e, ok := decodeEntry(raw)
			if !ok || e.Tool == nil {
				continue
			}
			for _, v := range e.Tool.Output.Values {
				if _, child := toolValue(v); child != "" && child != r.Get("conversation_id") {
					if p := r.Get("conversation_id"); !slices.Contains(parents[child], p) {
						parents[child] = append(parents[child], p)
					}
				}
			}
		}
		return nil
	})
	return parents, err
}

func decodeEntry(raw json.RawMessage) (msgValue, bool) {
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return msgValue{}, false
	}
	if e.Message != nil {
		return *e.Message, true
	}
	return e.msgValue, true
}

// toolValue renders one ToolValueRecord ({"text": s}, {"markdown": s},
// {"aI": {value, conversation_id}}, {"image": {...}}, {"fileDiff": {...}},
// {"pair": [a, b]}, "empty") and the subagent conversation it names.
func toolValue(raw json.RawMessage) (text, child string) {
	var unit string
	if json.Unmarshal(raw, &unit) == nil {
		return "", ""
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return string(raw), ""
	}
	for _, k := range []string{"text", "markdown"} {
		var s string
		if b, ok := v[k]; ok && json.Unmarshal(b, &s) == nil {
			return s, ""
		}
	}
	if b, ok := v["aI"]; ok {
		var ai struct {
			Value          string `json:"value"`
			ConversationID string `json:"conversation_id"`
		}
		if json.Unmarshal(b, &ai) == nil {
			return "subagent conversation " + ai.ConversationID + ": " + ai.Value, ai.ConversationID
		}
	}
	if b, ok := v["fileDiff"]; ok {
		var d struct {
			Path string `json:"path"`
		}
		_ = json.Unmarshal(b, &d)
		return "file diff of " + d.Path, ""
	}
	if b, ok := v["image"]; ok {
		return imageText(b), ""
	}
	if b, ok := v["pair"]; ok {
		var p []json.RawMessage
		if json.Unmarshal(b, &p) == nil && len(p) > 0 {
			return toolValue(p[0])
		}
	}
	return string(raw), ""
}

func imageText(b json.RawMessage) string {
	var im struct {
		URL      string `json:"url"`
		MimeType string `json:"mime_type"`
	}
	_ = json.Unmarshal(b, &im)
	return fmt.Sprintf("image %s, %d bytes of data (not shown)", im.MimeType, len(im.URL))
}

func conversation(r parser.Row, parents map[string][]string, out parser.Sink) {
	id := r.Get("conversation_id")
	created, ok := parser.SQLTime(r.Vals["created_at"])
	basis := timeline.TimeRecorded
	if !ok {
		basis = timeline.TimeNone
	}
	var parent string
	if ps := parents[id]; len(ps) > 0 {
		parent = ps[0]
		// every other conversation that names this one as its subagent
		// is a row of its own, so the correlate stage sees each link
		for _, other := range ps[1:] {
			out.Event(timeline.Event{TurnType: timeline.System, SessionID: id, ParentSessionID: other, SourceLine: r.Rowid,
				Time: created, TimeBasis: basis, RecordID: id + "#subagent-of-" + other,
				Text: "conversation " + id + " is also named as a subagent by conversation " + other})
		}
	}
	head := timeline.Event{TurnType: timeline.System, SessionID: id, ParentSessionID: parent, SourceLine: r.Rowid,
		Time: created, TimeBasis: basis, RecordID: id + "#conversation"}
	parts := []string{"conversation " + id}
	if t := r.Get("title"); t != "" {
		parts = append(parts, "title "+t)
	}
	if u, ok := parser.SQLTime(r.Vals["updated_at"]); ok {
		parts = append(parts, "updated "+u.Format(time.RFC3339))
	}
	var c contextRecord
	raw := strings.TrimSpace(r.Get("context"))
	ctxOK := raw != ""
	if ctxOK {
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			out.Problem(r.Rowid, "conversation "+parser.Shown(id)+": "+parser.NotJSON("context", err))
			ctxOK = false
		}
	} else {
		parts = append(parts, "no context (no messages written)")
	}
	if c.Initiator != "" {
		parts = append(parts, "initiator "+c.Initiator)
	}
	var prompt, completion, cached int64
	var rows []timeline.Event
	mbase := timeline.TimeInherited
	if basis == timeline.TimeNone {
		mbase = timeline.TimeNone
	}
	for i, m := range c.Messages {
		var e entry
		if err := json.Unmarshal(m, &e); err != nil {
			out.Problem(r.Rowid, fmt.Sprintf("conversation %s: message %d is not a context message: %s", id, i+1, parser.JSONError(err)))
			continue
		}
		if e.Usage != nil {
			prompt += e.Usage.Prompt.n()
			completion += e.Usage.Completion.n()
			cached += e.Usage.Cached.n()
		}
		v := e.msgValue
		if e.Message != nil {
			v = *e.Message
		}
		base := timeline.Event{SessionID: id, ParentSessionID: parent, SourceLine: r.Rowid, Time: created, TimeBasis: mbase}
		rec := fmt.Sprintf("%s:%d", id, i+1)
		got := message(v, base, rec)
		if len(got) == 0 {
			out.Report(r.Rowid, parser.KindSkippedRecord, fmt.Sprintf("conversation %s: message %d has no text, tool or image", id, i+1))
		}
		rows = append(rows, got...)
	}
	if prompt+completion+cached > 0 {
		parts = append(parts, fmt.Sprintf("tokens: prompt %d, completion %d, cached %d", prompt, completion, cached))
	}
	parts = append(parts, metrics(r.Get("metrics"))...)
	if ctxOK {
		parts = append(parts, fmt.Sprintf("%d messages", len(c.Messages)))
	}
	head.Text = strings.Join(parts, "; ")
	out.Event(head)
	for _, e := range rows {
		out.Event(e)
	}
}

func metrics(raw string) []string {
	var m struct {
		FilesChanged  map[string]json.RawMessage `json:"files_changed"`
		FilesAccessed []string                   `json:"files_accessed"`
		Input         *int64                     `json:"input_tokens"`
		Output        *int64                     `json:"output_tokens"`
		Cached        *int64                     `json:"cached_input_tokens"`
	}
	if strings.TrimSpace(raw) == "" || json.Unmarshal([]byte(raw), &m) != nil {
		return nil
	}
	var out []string
	var tok []string
	for _, c := range []struct {
		name string
		v    *int64
	}{{"input", m.Input}, {"output", m.Output}, {"cached input", m.Cached}} {
		if c.v != nil {
			tok = append(tok, c.name+" "+strconv.FormatInt(*c.v, 10))
		}
	}
	if len(tok) > 0 {
		out = append(out, "metrics tokens: "+strings.Join(tok, ", "))
	}
	if len(m.FilesChanged) > 0 {
		var fs []string
		for f := range m.FilesChanged {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		for i, f := range fs {
			var l struct {
				Added   *int64 `json:"lines_added"`
				Removed *int64 `json:"lines_removed"`
			}
			if json.Unmarshal(m.FilesChanged[f], &l) == nil && (l.Added != nil || l.Removed != nil) {
				var a, r string
				if l.Added != nil {
					a = " +" + strconv.FormatInt(*l.Added, 10)
				}
				if l.Removed != nil {
					r = " -" + strconv.FormatInt(*l.Removed, 10)
				}
				fs[i] = f + " (lines" + a + r + ")"
			}
		}
		out = append(out, "files changed: "+strings.Join(fs, ", "))
	}
	if len(m.FilesAccessed) > 0 {
		fs := append([]string(nil), m.FilesAccessed...)
		sort.Strings(fs)
		out = append(out, "files accessed: "+strings.Join(fs, ", "))
	}
	return out
}

func message(v msgValue, base timeline.Event, rec string) []timeline.Event {
	var out []timeline.Event
	add := func(e timeline.Event) {
		if len(out) > 0 {
			e.RecordID = fmt.Sprintf("%s#%d", rec, len(out))
		} else {
			e.RecordID = rec
		}
		out = append(out, e)
	}
	switch {
	case v.Text != nil:
		t := v.Text
		switch t.Role {
		case "User":
			e := base
			if typed, ok := typedInput(t.RawContent); ok {
				e.TurnType, e.Text = timeline.User, typed
			} else {
				e.TurnType, e.Text = timeline.System, "message in the user role composed by the agent (no typed input): "+t.Content
			}
			add(e)
		case "System":
			e := base
			e.TurnType, e.Text = timeline.System, "system prompt: "+t.Content
			add(e)
		default:
			var th []string
			for _, r := range t.Reasoning {
				if strings.TrimSpace(r.Text) != "" {
					th = append(th, r.Text)
				}
			}
			if len(th) > 0 {
				e := base
				e.TurnType, e.Model, e.Text = timeline.Thinking, t.Model, strings.Join(th, "\n\n")
				add(e)
			}
			if t.Content != "" || len(t.ToolCalls) == 0 {
				e := base
				e.TurnType, e.Model, e.Text = timeline.Assistant, t.Model, t.Content
				add(e)
			}
			for _, c := range t.ToolCalls {
				e := base
				e.TurnType, e.Model, e.ToolName, e.ToolUseID = timeline.ToolUse, t.Model, c.Name, c.CallID
				if len(c.Arguments) > 0 && string(c.Arguments) != "null" {
					e.ToolInput = string(c.Arguments)
				}
				e.Text = callText(c)
				add(e)
			}
		}
	case v.Tool != nil:
		e := base
		e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, v.Tool.Name, v.Tool.CallID
		e.IsError = fmt.Sprint(v.Tool.Output.IsError)
		var texts []string
		for _, val := range v.Tool.Output.Values {
			if s, _ := toolValue(val); s != "" {
				texts = append(texts, s)
			}
		}
		e.Text = strings.Join(texts, "\n")
		add(e)
	case len(v.Image) > 0:
		e := base
		e.TurnType, e.Text = timeline.System, "attached "+imageText(v.Image)
		add(e)
	}
	return out
}

// typedInput reads raw_content, the event the person sent: {"Text":
// prompt} or {"Command": {name, parameters}}.
func typedInput(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var ev struct {
		Text    *string `json:"Text"`
		Command *struct {
			Name       string   `json:"name"`
			Parameters []string `json:"parameters"`
		} `json:"Command"`
	}
	if json.Unmarshal(raw, &ev) != nil {
		return "", false
	}
	if ev.Text != nil {
		return *ev.Text, true
	}
	if ev.Command != nil {
		return strings.TrimSpace("/" + ev.Command.Name + " " + strings.Join(ev.Command.Parameters, " ")), true
	}
	return "", false
}

// callText is a tool call's headline: the command, path, URL or query its
// arguments name.
func callText(c toolCall) string {
	var a map[string]any
	if json.Unmarshal(c.Arguments, &a) != nil {
		return c.Name
	}
	for _, k := range []string{"command", "path", "file_path", "url", "pattern", "query", "agent_id"} {
		if s, ok := a[k].(string); ok && s != "" {
			return s
		}
	}
	return c.Name
}
