package omnigent

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"
	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of omnigent.
const Agent = "omnigent"

// Parsers returns the omnigent parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "omnigent/chat-db", Agent: Agent, Version: 4, Actions: actions,
			Targets: []string{"chat-db"}, Names: []string{"chat.db"},
			Doc: "~/.omnigent/chat.db: each conversation (title, sub-agent and parent, workspace, branch, archived) and its items in position order: typed prompts, injected context (is_meta), replies, reasoning summaries, tool calls with full arguments and their outputs, provider-native tools, errors, compactions, routing decisions, slash and terminal commands, resource events; each conversation's session_usage (zstd-framed token and cost accounting) and session_state (the policy engine's per-conversation state)",
		}, parseDB),
	}
}

// store is chat.db (the one SQLite policy, parser.CheckStore): the
// conversations and conversation_items tables of every generation, and
// omnigent_conversation_metadata from migration aa1b2c3d4e5f (the split of
// omnigent's state from the conversation row), Optional for a store of an
// earlier build, whose conversations row holds those columns itself.
var store = parser.SQLiteStore{
	Name: "an omnigent",
	Tables: parser.SQLiteSchema{
		"omnigent_conversation_metadata": {"id"},
		"conversations":                  {"id", "created_at"},
		"conversation_items":             {"conversation_id", "id", "created_at", "position", "type", "data"},
	},
	Optional: map[string]string{"omnigent_conversation_metadata": "builds before migration aa1b2c3d4e5f_split_conversations_to_metadata"},
}

// itemTypes are enum_codecs.ITEM_TYPE (stable, append-only codes); an
// earlier generation stores the name itself.
var itemTypes = map[int64]string{
	1: "message", 2: "function_call", 3: "function_call_output", 4: "reasoning",
	5: "error", 6: "compaction", 7: "native_tool", 8: "resource_event",
	9: "routing_decision", 10: "slash_command", 11: "terminal_command",
}

// itemStatus is enum_codecs.ITEM_STATUS; only completed is written today.
var itemStatus = map[int64]string{1: "completed", 2: "in_progress", 3: "incomplete", 4: "failed"}

// conversationKind is enum_codecs.CONVERSATION_KIND.
var conversationKind = map[int64]string{1: "default", 2: "sub_agent"}

// meta is a conversation's omnigent-side state (the metadata row, or the
// conversations row of an earlier build).
type meta struct {
	kind, subAgent, task, workspace, branch, external string
	usage                                             any        // session_usage as stored
	state                                             any        // session_state as stored
	row                                               parser.Row // the row it was read from
}

type conv struct {
	id, parent, workspace string
}

// idText reads an id column: a Uuid16 column is 16 raw bytes, presented
// as bare lowercase hex as omnigent itself does (db_models.Uuid16); an
// earlier generation's text id is kept as it is.
func idText(v any) string {
	if b, ok := v.([]byte); ok && len(b) == 16 {
		return hex.EncodeToString(b)
	}
	return parser.SQLText(v)
}

func enumText(v any, names map[int64]string) string {
	if n, ok := parser.SQLInt(v); ok {
		if s, ok := names[n]; ok {
			return s
		}
		return "code " + strconv.FormatInt(n, 10)
	}
	return parser.SQLText(v)
}

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, present, ok, err := parser.OpenStore(ctx, in, store, out)
	if err != nil || !ok {
		return err
	}
	metas := map[string]meta{}
	convs := map[string]*conv{}
	w := &itemWriter{out: out, convs: convs, names: map[string]string{}}
	return parser.ReadTables(ctx, out, present,
		parser.TableRead{Table: "omnigent_conversation_metadata", Read: func() error {
			return parser.EachTableRow(ctx, db, "omnigent_conversation_metadata", func(r parser.Row) error {
				id := idText(r.Vals["id"])
				if prev, ok := metas[id]; ok {
					out.Report(r.Rowid, parser.KindDuplicateID, "omnigent_conversation_metadata of conversation "+parser.Shown(id)+" again (workspace_id "+parser.Shown(r.Get("workspace_id"))+"; the earlier row at rowid "+strconv.FormatInt(prev.row.Rowid, 10)+"): the later row read")
				}
				metas[id] = metaOf(r)
				return nil
			})
		}},
		parser.TableRead{Table: "conversations", Read: func() error {
			err := parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
				id := idText(r.Vals["id"])
				m, ok := metas[id]
				if !ok {
					m = metaOf(r)
				}
				c := &conv{id: id, parent: idText(r.Vals["parent_conversation_id"]), workspace: m.workspace}
				convs[id] = c
				conversationRow(out, r, c, m)
				usageRow(out, r, c, m)
				stateRow(out, r, c, m)
				return nil
			})
			orphanMetas(out, metas, convs)
			return err
		}},
		parser.TableRead{Table: "conversation_items", Read: func() error {
			return parser.EachTableRow(ctx, db, "conversation_items", func(r parser.Row) error {
				w.item(r)
				return nil
			})
		}},
	)
}

// orphanMetas keeps each metadata row whose conversations row is gone:
// an orphan_record problem and the conversation's rows from the metadata
// alone, in rowid order.
func orphanMetas(out parser.Sink, metas map[string]meta, convs map[string]*conv) {
	var ids []string
	for id := range metas {
		if convs[id] == nil {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return metas[ids[i]].row.Rowid < metas[ids[j]].row.Rowid })
	for _, id := range ids {
		m := metas[id]
		out.Report(m.row.Rowid, parser.KindOrphanRecord, "omnigent_conversation_metadata of conversation "+parser.Shown(id)+", whose conversations row is gone: kept")
		c := &conv{id: id, workspace: m.workspace}
		convs[id] = c
		conversationRow(out, m.row, c, m)
		usageRow(out, m.row, c, m)
		stateRow(out, m.row, c, m)
	}
}

func metaOf(r parser.Row) meta {
	return meta{kind: enumText(r.Vals["kind"], conversationKind), subAgent: r.Get("sub_agent_name"), task: r.Get("task_summary"),
		workspace: r.Get("workspace"), branch: r.Get("git_branch"), external: r.Get("external_session_id"), usage: r.Vals["session_usage"], state: r.Vals["session_state"], row: r}
}

func conversationRow(out parser.Sink, r parser.Row, c *conv, m meta) {
	e := timeline.Event{TurnType: timeline.System, SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.workspace,
		SourceLine: r.Rowid, RecordID: c.id + "#conversation"}
	e.Time, e.TimeBasis = parser.SQLEpoch(r.Vals["created_at"])
	parts := []string{"omnigent conversation " + c.id}
	if t := r.Get("title"); t != "" {
		parts = append(parts, "title "+strconv.Quote(t))
	}
	if m.kind == "sub_agent" {
		s := "sub-agent"
		if m.subAgent != "" {
			s += " " + m.subAgent
		}
		if m.task != "" {
			s += " (task " + strconv.Quote(m.task) + ")"
		}
		parts = append(parts, s)
	} else if m.kind != "" && m.kind != "default" {
		parts = append(parts, "kind "+m.kind)
	}
	if c.parent != "" {
		parts = append(parts, "parent "+c.parent)
	}
	if root := idText(r.Vals["root_conversation_id"]); root != "" && root != c.id && root != c.parent {
		parts = append(parts, "root "+root)
	}
	if m.workspace != "" {
		parts = append(parts, "workspace "+m.workspace)
	}
	if m.branch != "" {
		parts = append(parts, "branch "+m.branch)
	}
	if m.external != "" {
		parts = append(parts, "native session "+m.external)
	}
	if o := r.Get("session_overrides"); o != "" {
		parts = append(parts, "session overrides "+o)
	}
	if r.Get("archived") == "1" || r.Get("archived") == "true" {
		parts = append(parts, "archived")
	}
	if u, _ := parser.SQLEpoch(r.Vals["updated_at"]); !u.IsZero() {
		parts = append(parts, "updated "+u.Format(time.RFC3339))
	}
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
}

// usageRow writes a conversation's session_usage (CompressedText,
// db/compression.py: a NUL sentinel, a codec byte, 0 raw or 1 zstd, then
// the payload; an unframed value is the legacy plain text): the harness's
// token and cost accounting, one row at the conversation's updated_at.
func usageRow(out parser.Sink, r parser.Row, c *conv, m meta) {
	compressedRow(out, r, c, m.usage, "session_usage", "session usage (as of the conversation's last update): ", "#usage")
}

// stateRow writes a conversation's session_state (CompressedText, as
// session_usage): the JSON key/value store the policy (guardrails) engine
// keeps across turns (entities/conversation.py; counters, audit trails,
// risk_score, gdrive_read_confidential, gdrive_created_file_ids,
// _policy_cost_ask_approved_usd, ...), as of the last update, one row at
// updated_at (inherited); an empty object ("{}", no state written yet)
// gives none.
func stateRow(out parser.Sink, r parser.Row, c *conv, m meta) {
	compressedRow(out, r, c, m.state, "session_state", "policy session state (as of the conversation's last update): ", "#state")
}

func compressedRow(out parser.Sink, r parser.Row, c *conv, v any, column, label, rid string) {
	var raw []byte
	switch v := v.(type) {
	case []byte:
		raw = v
	case string:
		raw = []byte(v)
	}
	if len(raw) == 0 {
		return
	}
	text, err := decodeCompressed(raw)
	if err != nil {
		out.Problem(r.Rowid, column+" of conversation "+parser.Shown(c.id)+": "+err.Error()+": not read")
		return
	}
	if json.Valid([]byte(text)) {
		text = parser.CompactJSON([]byte(text))
	}
	if column == "session_state" && (text == "{}" || text == "null") {
		return
	}
	e := timeline.Event{TurnType: timeline.System, SessionID: c.id, ParentSessionID: c.parent, ProjectPath: c.workspace,
		SourceLine: r.Rowid, RecordID: c.id + rid}
	e.Time, e.TimeBasis = parser.SQLEpoch(r.Vals["updated_at"])
	if e.TimeBasis == timeline.TimeRecorded {
		e.TimeBasis = timeline.TimeInherited
	}
	e.Text = label + text
	out.Event(e)
}

var zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderMaxMemory(64<<20))

func decodeCompressed(raw []byte) (string, error) {
	if raw[0] != 0 {
		return string(raw), nil
	}
	if len(raw) < 2 {
		return "", errors.New("a framed value with no codec byte")
	}
	switch raw[1] {
	case 0:
		return string(raw[2:]), nil
	case 1:
		b, err := zstdDecoder.DecodeAll(raw[2:], nil)
		if err != nil {
			return "", errors.New("zstd payload does not decode (" + err.Error() + ")")
		}
		return string(b), nil
	}
	return "", fmt.Errorf("unknown codec %d", raw[1])
}

type itemWriter struct {
	out   parser.Sink
	convs map[string]*conv
	names map[string]string // call_id -> tool name
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func (w *itemWriter) item(r parser.Row) {
	cid, iid := idText(r.Vals["conversation_id"]), idText(r.Vals["id"])
	typ := enumText(r.Vals["type"], itemTypes)
	c := w.convs[cid]
	if c == nil {
		w.out.Report(r.Rowid, parser.KindOrphanRecord, "item "+parser.Shown(iid)+" of conversation "+parser.Shown(cid)+", whose conversations row is gone: kept")
		c = &conv{id: cid}
		w.convs[cid] = c
	}
	base := timeline.Event{SessionID: cid, ParentSessionID: c.parent, ProjectPath: c.workspace, SourceLine: r.Rowid}
	base.Time, base.TimeBasis = parser.SQLEpoch(r.Vals["created_at"])
	n := 0
	emit := func(tt timeline.TurnType, text, rid string, f func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text = tt, text
		e.RecordID = iid
		if rid != "" {
			e.RecordID = iid + "#" + rid
		}
		if f != nil {
			f(&e)
		}
		n++
		w.out.Event(e)
	}
	data := []byte(r.Get("data"))
	bad := func(err error) {
		w.out.Problem(r.Rowid, parser.NotJSONObject(parser.Shown(typ)+" item "+parser.Shown(iid)+" data", err))
	}
	switch typ {
	case "message":
		var m struct {
			Role        string            `json:"role"`
			Content     []json.RawMessage `json:"content"`
			Agent       string            `json:"model"`
			IsMeta      bool              `json:"is_meta"`
			Interrupted bool              `json:"interrupted"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			bad(err)
			return
		}
		texts, other := blocks(m.Content)
		text := strings.Join(texts, "\n")
		switch {
		case m.Role == "user" && m.IsMeta:
			emit(timeline.System, "injected context (is_meta: replayed to the agent, not typed): "+text, "", nil)
		case m.Role == "user":
			if text != "" {
				emit(timeline.User, text, "", nil)
			}
		default:
			if text != "" {
				emit(timeline.Assistant, text, "", func(e *timeline.Event) { e.Model = m.Agent })
			}
		}
		if len(other) > 0 {
			emit(timeline.System, "message attachments: "+strings.Join(other, ", "), "attachments", nil)
		}
		if m.Interrupted {
			emit(timeline.System, "the reply above was interrupted (a partial response of an interrupted native turn)", "interrupted", nil)
		}
	case "function_call":
		var f struct {
			Agent     string `json:"model"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
			CallID    string `json:"call_id"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		w.names[f.CallID] = f.Name
		emit(timeline.ToolUse, f.Name, "", func(e *timeline.Event) {
			e.ToolName, e.ToolUseID, e.ToolInput, e.Model = f.Name, f.CallID, compactArgs(f.Arguments), f.Agent
		})
	case "function_call_output":
		var f struct {
			CallID string `json:"call_id"`
			Output string `json:"output"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		emit(timeline.ToolResult, f.Output, "", func(e *timeline.Event) { e.ToolUseID, e.ToolName = f.CallID, w.names[f.CallID] })
	case "reasoning":
		var f struct {
			Agent     string      `json:"model"`
			Summary   []textBlock `json:"summary"`
			Content   []textBlock `json:"content"`
			Encrypted string      `json:"encrypted_content"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		var parts []string
		for _, b := range append(f.Summary, f.Content...) {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		if len(parts) > 0 {
			emit(timeline.Thinking, strings.Join(parts, "\n"), "", func(e *timeline.Event) { e.Model = f.Agent })
		}
		if f.Encrypted != "" {
			emit(timeline.System, fmt.Sprintf("encrypted reasoning (%d bytes, the provider's; not readable)", len(f.Encrypted)), "encrypted", func(e *timeline.Event) { e.Model = f.Agent })
		}
	case "error":
		var f struct {
			Source  string `json:"source"`
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		emit(timeline.System, "error ("+f.Source+") "+f.Code+": "+f.Message, "", func(e *timeline.Event) { e.IsError = "true" })
	case "compaction":
		var f struct {
			Summary    string            `json:"summary"`
			LastItemID string            `json:"last_item_id"`
			Model      string            `json:"model"`
			TokenCount *int64            `json:"token_count"`
			Compacted  []json.RawMessage `json:"compacted_messages"`
			WindowID   *int64            `json:"window_id"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		t := "compaction: the items up to " + f.LastItemID + " are summarized for the model (kept here)"
		if f.TokenCount != nil {
			t += fmt.Sprintf("; %d tokens", *f.TokenCount)
		}
		if len(f.Compacted) > 0 {
			t += fmt.Sprintf("; %d compacted message(s) kept in the item", len(f.Compacted))
		}
		if f.WindowID != nil {
			t += fmt.Sprintf("; window %d", *f.WindowID)
		}
		emit(timeline.System, t+": "+f.Summary, "", func(e *timeline.Event) { e.Model = f.Model })
	case "native_tool":
		var f struct {
			Item map[string]json.RawMessage `json:"item"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		name, id := parser.StringValue(f.Item["type"]), parser.StringValue(f.Item["id"])
		if name == "" {
			name = "native_tool"
		}
		raw, _ := json.Marshal(f.Item)
		emit(timeline.ToolUse, name, "", func(e *timeline.Event) {
			e.ToolName, e.ToolUseID, e.ToolInput = name, id, parser.CompactJSON(raw)
		})
	case "resource_event":
		var f struct {
			EventType    string          `json:"event_type"`
			ResourceID   string          `json:"resource_id"`
			ResourceType string          `json:"resource_type"`
			Resource     json.RawMessage `json:"resource"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		t := "resource " + f.EventType + ": " + f.ResourceType + " " + f.ResourceID
		if len(f.Resource) > 0 && string(f.Resource) != "null" {
			t += " " + parser.CompactJSON(f.Resource)
		}
		emit(timeline.System, t, "", nil)
	case "routing_decision":
		var f struct {
			Model     string `json:"model"`
			Applied   bool   `json:"applied"`
			Rationale string `json:"rationale"`
			Agent     string `json:"agent"`
			Harness   string `json:"harness"`
			Scope     string `json:"scope"`
			RawModel  string `json:"raw_model"`
			Attempted string `json:"attempted_override"`
			Source    string `json:"router_source"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		t := fmt.Sprintf("routing decision: model=%s applied=%t", f.Model, f.Applied)
		for _, kv := range [][2]string{{"scope", f.Scope}, {"agent", f.Agent}, {"harness", f.Harness}, {"raw_model", f.RawModel}, {"attempted_override", f.Attempted}, {"router", f.Source}} {
			if kv[1] != "" {
				t += " " + kv[0] + "=" + kv[1]
			}
		}
		emit(timeline.System, t+": "+f.Rationale, "", func(e *timeline.Event) { e.Model = f.Model })
	case "slash_command":
		var f struct {
			Agent     string  `json:"model"`
			Kind      string  `json:"kind"`
			Name      string  `json:"name"`
			Arguments string  `json:"arguments"`
			Output    *string `json:"output"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		t := strings.TrimSpace("slash command (" + f.Kind + ") /" + f.Name + " " + f.Arguments)
		emit(timeline.System, t, "", func(e *timeline.Event) { e.Model = f.Agent })
		if f.Output != nil && *f.Output != "" {
			emit(timeline.System, "slash command /"+f.Name+" output: "+*f.Output, "output", nil)
		}
	case "terminal_command":
		var f struct {
			Kind   string  `json:"kind"`
			Input  *string `json:"input"`
			Stdout *string `json:"stdout"`
			Stderr *string `json:"stderr"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			bad(err)
			return
		}
		if f.Input != nil {
			emit(timeline.System, "terminal command (input): "+*f.Input, "input", nil)
		}
		if f.Stdout != nil {
			emit(timeline.System, "terminal command (stdout): "+*f.Stdout, "stdout", nil)
		}
		if f.Stderr != nil && *f.Stderr != "" {
			emit(timeline.System, "terminal command (stderr): "+*f.Stderr, "stderr", nil)
		}
	default:
		w.out.Report(r.Rowid, parser.KindSkippedRecord, "item "+parser.Shown(iid)+": item type "+parser.Shown(typ)+" not known, not read")
		return
	}
	if st := enumText(r.Vals["status"], itemStatus); st != "" && st != "completed" {
		emit(timeline.System, "the item above has status "+st, "status", nil)
	}
	if n == 0 {
		w.out.Skip(r.Rowid, "no_evidence:empty_message")
	}
}

// blocks returns a message's text blocks (input_text, output_text, text)
// and a description of each other block (an image by its type, never its
// bytes).
func blocks(content []json.RawMessage) ([]string, []string) {
	var texts, other []string
	for _, raw := range content {
		var b struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &b) != nil {
			other = append(other, "a block that is not an object")
			continue
		}
		switch b.Type {
		case "input_text", "output_text", "text":
			if b.Text != "" {
				texts = append(texts, b.Text)
			}
		default:
			other = append(other, b.Type+" block")
		}
	}
	return texts, other
}

// compactArgs is a call's arguments, a JSON string: compacted when it is
// JSON, kept as written when not.
func compactArgs(s string) string {
	if json.Valid([]byte(s)) {
		return parser.CompactJSON([]byte(s))
	}
	return s
}
