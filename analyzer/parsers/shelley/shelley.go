package shelley

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "shelley"

// Parsers returns the Shelley parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "shelley/db", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"db"}, Names: []string{"shelley.db"},
			Doc: "shelley.db conversations and messages: typed prompts (a subagent's task as a system row), thinking, replies, tool calls and results, errors, model changes, git info, token usage and cost; subagent, archived, earlier-generation (compacted) and excluded-from-context rows marked",
		}, parseDB),
	}
}

var store = parser.SQLiteStore{Name: "a Shelley", Tables: parser.SQLiteSchema{
	"conversations": {"conversation_id", "created_at"},
	"messages":      {"message_id", "conversation_id", "sequence_id", "type", "llm_data", "created_at"},
}}

type conv struct {
	rowid                  int64
	id, slug, cwd, parent  string
	model, created, update string
	userInitiated          bool
	archived               bool
	generation             int64
	tags                   string
}

// content is llm.Content; Type is the ContentType iota value (Text is 2:
// the const block starts with MessageRole).
type content struct {
	ID         string          `json:"ID"`
	Type       int             `json:"Type"`
	Text       string          `json:"Text"`
	MediaType  string          `json:"MediaType"`
	Thinking   string          `json:"Thinking"`
	ToolName   string          `json:"ToolName"`
	ToolInput  json.RawMessage `json:"ToolInput"`
	ToolUseID  string          `json:"ToolUseID"`
	ToolError  bool            `json:"ToolError"`
	ToolResult []content       `json:"ToolResult"`
	Title      string          `json:"Title"`
	URL        string          `json:"URL"`
}

const (
	typeText = 2 + iota
	typeThinking
	typeRedactedThinking
	typeToolUse
	typeToolResult
	typeServerToolUse
	typeWebSearchToolResult
	typeWebSearchResult
)

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, present, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	convs := map[string]*conv{}
	return parser.ReadTables(ctx, out, present,
		parser.TableRead{Table: "conversations", Read: func() error {
			return parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
				c := &conv{rowid: r.Rowid, id: r.Get("conversation_id"), slug: r.Get("slug"), cwd: r.Get("cwd"),
					parent: r.Get("parent_conversation_id"), model: r.Get("model"), created: r.Get("created_at"),
					update: r.Get("updated_at"), userInitiated: !r.Has("user_initiated") || r.Get("user_initiated") != "0",
					archived: r.Get("archived") == "1", tags: r.Get("tags")}
				if g, ok := parser.SQLInt(r.Vals["current_generation"]); ok {
					c.generation = g
				}
				convs[c.id] = c
				conversationRow(c, r, out)
				return nil
			})
		}},
		parser.TableRead{Table: "messages", Read: func() error {
			return parser.EachTableRow(ctx, db, "messages", func(r parser.Row) error {
				message(r, convs, out)
				return nil
			})
		}},
	)
}

func sqlTime(v any) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.SQLTime(v); ok {
		return t, timeline.TimeRecorded
	}
	return time.Time{}, timeline.TimeNone
}

func conversationRow(c *conv, r parser.Row, out parser.Sink) {
	e := timeline.Event{TurnType: timeline.System, SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.cwd,
		SourceLine: r.Rowid, Model: c.model, RecordID: c.id + "#conversation"}
	e.Time, e.TimeBasis = sqlTime(r.Vals["created_at"])
	parts := []string{"shelley conversation " + c.id}
	if c.slug != "" {
		parts = append(parts, "slug "+c.slug)
	}
	if !c.userInitiated {
		parts = append(parts, "started by the agent (a subagent or tool conversation, user_initiated false)")
	}
	if c.parent != "" {
		parts = append(parts, "parent "+c.parent)
	}
	if c.model != "" {
		parts = append(parts, "model "+c.model)
	}
	if c.archived {
		parts = append(parts, "archived")
	}
	if t := r.Get("tags"); t != "" && t != "[]" {
		parts = append(parts, "tags "+t)
	}
	if c.generation > 1 {
		parts = append(parts, fmt.Sprintf("context generation %d (compacted %d time(s))", c.generation, c.generation-1))
	}
	if d := r.Get("draft"); d != "" {
		parts = append(parts, "unsent draft "+strconv.Quote(d))
	}
	if q := r.Get("queued_messages"); q != "" && q != "[]" {
		parts = append(parts, "queued messages "+q)
	}
	if c.update != "" {
		parts = append(parts, "updated "+c.update)
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
}

func message(r parser.Row, convs map[string]*conv, out parser.Sink) {
	cid, mid, typ := r.Get("conversation_id"), r.Get("message_id"), r.Get("type")
	c := convs[cid]
	if c == nil {
		out.Report(r.Rowid, parser.KindOrphanRecord, "message "+parser.Shown(mid)+" of conversation "+parser.Shown(cid)+", whose conversations row is gone: kept")
		c = &conv{id: cid, userInitiated: true}
	}
	base := timeline.Event{SessionID: cid, ParentSessionID: c.parent, ProjectPath: c.cwd, SourceLine: r.Rowid, Model: r.Get("model_name")}
	base.Time, base.TimeBasis = sqlTime(r.Vals["created_at"])
	var rows []timeline.Event
	add := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		rows = append(rows, e)
		return &rows[len(rows)-1]
	}
	var msg struct {
		Role    int       `json:"Role"`
		Content []content `json:"Content"`
	}
	if d := r.Get("llm_data"); d != "" {
		if err := json.Unmarshal([]byte(d), &msg); err != nil {
			out.Problem(r.Rowid, parser.NotJSONObject("message "+parser.Shown(mid)+" llm_data", err))
			return
		}
	}
	subagent := !c.userInitiated || c.parent != ""
	var texts []string
	for _, b := range msg.Content {
		if b.Type == typeText || b.Type == typeWebSearchResult {
			t := b.Text
			if b.Type == typeWebSearchResult {
				t = strings.TrimSpace(b.Title + " " + b.URL)
			}
			if b.MediaType != "" && t == "" {
				t = "[image " + b.MediaType + "]"
			}
			texts = append(texts, t)
		}
	}
	text := strings.Join(texts, "\n")
	if text == "" && len(msg.Content) == 0 {
		text = userDataText(r.Get("user_data"))
	}
	switch typ {
	case "user":
		if text != "" || !hasTools(msg.Content) {
			switch {
			case subagent:
				add(timeline.System, "subagent task from the parent conversation (not typed): "+text)
			default:
				add(timeline.User, text)
			}
		}
		if email := r.Get("user_email"); email != "" {
			add(timeline.System, "typed by "+email)
		}
	case "agent":
		for _, b := range msg.Content {
			switch b.Type {
			case typeText:
				add(timeline.Assistant, b.Text)
			case typeThinking:
				add(timeline.Thinking, b.Thinking)
			case typeRedactedThinking:
				add(timeline.Thinking, "[redacted thinking]")
			}
		}
	case "error":
		add(timeline.System, "error: "+text)
	case "gitinfo":
		add(timeline.System, "git info: "+text)
	case "modelchange":
		add(timeline.System, "model change: "+text)
	case "warning":
		add(timeline.System, "warning: "+text)
	case "slug":
		add(timeline.System, "slug: "+text)
	case "system":
		add(timeline.System, text)
	case "tool":
	default:
		add(timeline.System, "message type "+strconv.Quote(typ)+" (not known): "+text)
	}
	// tool blocks in any message: calls (agent) and results (tool, user)
	for _, b := range msg.Content {
		switch b.Type {
		case typeToolUse, typeServerToolUse:
			e := add(timeline.ToolUse, headline(b.ToolInput, b.ToolName))
			e.ToolName, e.ToolUseID, e.ToolInput = b.ToolName, b.ID, parser.CompactJSON(b.ToolInput)
		case typeToolResult, typeWebSearchToolResult:
			e := add(timeline.ToolResult, resultText(b.ToolResult))
			e.ToolUseID, e.IsError = b.ToolUseID, strconv.FormatBool(b.ToolError)
		case typeText, typeThinking, typeRedactedThinking, typeWebSearchResult:
		default:
			out.Report(r.Rowid, parser.KindSkippedRecord, fmt.Sprintf("a content block with Type %d (not a known llm.ContentType) in message %s", b.Type, mid))
		}
	}
	if len(rows) == 0 {
		out.Skip(r.Rowid, "no_evidence:empty "+typ+" message")
		return
	}
	var marks []string
	if g, ok := parser.SQLInt(r.Vals["generation"]); ok && c.generation > 0 && g < c.generation {
		marks = append(marks, fmt.Sprintf("from context generation %d of %d (compacted out of the model's context, kept in the database)", g, c.generation))
	}
	if r.Get("excluded_from_context") == "1" && typ != "modelchange" && typ != "gitinfo" && typ != "warning" && typ != "slug" {
		marks = append(marks, "excluded from the model's context")
	}
	if f := r.Get("forked_from_message_id"); f != "" {
		marks = append(marks, "forked from message "+f)
	}
	if len(marks) > 0 {
		add(timeline.System, "message "+mid+" above: "+strings.Join(marks, "; "))
	}
	if u, err := usageText(r.Get("usage_data")); err != nil {
		out.Problem(r.Rowid, parser.NotJSONObject("message "+parser.Shown(mid)+" usage_data", err))
	} else if u != "" {
		add(timeline.System, u)
	}
	for i, e := range rows {
		e.RecordID = mid
		if i > 0 {
			e.RecordID += "#" + strconv.Itoa(i)
		}
		out.Event(e)
	}
}

func hasTools(cs []content) bool {
	for _, b := range cs {
		if b.Type == typeToolResult || b.Type == typeToolUse || b.Type == typeWebSearchToolResult || b.Type == typeServerToolUse {
			return true
		}
	}
	return false
}

func resultText(cs []content) string {
	var parts []string
	for _, b := range cs {
		switch {
		case b.Text != "":
			parts = append(parts, b.Text)
		case len(b.ToolResult) > 0:
			parts = append(parts, resultText(b.ToolResult))
		case b.Title != "" || b.URL != "":
			parts = append(parts, strings.TrimSpace(b.Title+" "+b.URL))
		case b.MediaType != "":
			parts = append(parts, "[image "+b.MediaType+"]")
		}
	}
	return strings.Join(parts, "\n")
}

func userDataText(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		for _, k := range []string{"text", "Text", "content", "prompt", "message"} {
			if t, ok := x[k].(string); ok && t != "" {
				return t
			}
		}
	}
	return ""
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "path", "file_path", "pattern", "url", "query", "task", "prompt")
}

// usageText is messages.usage_data (llm.Usage: input_tokens,
// cache_creation_input_tokens, cache_read_input_tokens, output_tokens,
// cost_usd) as "token usage: ...", naming what is there as written; ""
// when it is empty or holds none of them; the decoder's error when it is
// not a JSON object (a problem row, never a silent drop).
func usageText(d string) (string, error) {
	if strings.TrimSpace(d) == "" {
		return "", nil
	}
	var u map[string]json.RawMessage
	if err := json.Unmarshal([]byte(d), &u); err != nil {
		return "", err
	}
	var parts []string
	for _, f := range []struct{ name, key string }{
		{"input", "input_tokens"}, {"cache creation", "cache_creation_input_tokens"},
		{"cache read", "cache_read_input_tokens"}, {"output", "output_tokens"}, {"cost $", "cost_usd"},
	} {
		if v, ok := u[f.key]; ok && string(v) != "null" {
			sep := " "
			if strings.HasSuffix(f.name, "$") {
				sep = ""
			}
			parts = append(parts, f.name+sep+strings.Trim(string(v), `"`))
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return "token usage: " + strings.Join(parts, ", "), nil
}
