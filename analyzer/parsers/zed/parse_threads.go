package zed

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

// maxThreadBytes bounds one decompressed thread.
const maxThreadBytes = 256 << 20

// thread is crates/agent/src/db.rs DbThread (version "0.3.0") with the
// fields of the legacy SerializedThread (no version, or an older one) it
// upgrades from.
type thread struct {
	Version         string            `json:"version"`
	Title           string            `json:"title"`
	Summary         json.RawMessage   `json:"summary"` // legacy title
	Messages        []json.RawMessage `json:"messages"`
	UpdatedAt       string            `json:"updated_at"`
	DetailedSummary json.RawMessage   `json:"detailed_summary"`
	Model           *struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
	} `json:"model"`
	Profile         string          `json:"profile"`
	DraftPrompt     json.RawMessage `json:"draft_prompt"`
	Imported        bool            `json:"imported"`
	SubagentContext *struct {
		ParentThreadID string `json:"parent_thread_id"`
		ToolUseID      string `json:"tool_use_id"`
	} `json:"subagent_context"`
	SandboxedTerminalTempDir string `json:"sandboxed_terminal_temp_dir"`
}

func (t *thread) title() string {
	if t.Title != "" {
		return t.Title
	}
	var s string
	if json.Unmarshal(t.Summary, &s) == nil {
		return s
	}
	return ""
}

func (t *thread) model() string {
	if t.Model == nil || t.Model.Model == "" {
		return ""
	}
	if t.Model.Provider != "" {
		return t.Model.Provider + "/" + t.Model.Model
	}
	return t.Model.Model
}

// deniedByUser is the error a refused authorization leaves as the tool
// result (thread.rs ToolCallEventStream::authorize).
const deniedByUser = "Permission to run tool denied by user"

// deniedBySettings matches the reasons decide_permission_from_settings
// gives for a call refused by an always_deny rule or a deny default.
var deniedBySettings = regexp.MustCompile(`(?i)(always_deny|tool_permissions|denied by (your )?settings|blocked by|is not allowed|has been denied)`)

func parseThreadsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, threadsStore, out)
	if err != nil {
		out.Problem(0, "not a SQLite database: "+err.Error())
		return nil
	}
	if !readable["threads"] {
		return nil // CheckStore said why (a view of that name is no table)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxThreadBytes), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return err
	}
	defer dec.Close()
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "threads", Read: func() error {
		return eachRow(ctx, db, "threads", func(r row) error {
			threadRow(in, r, dec, out)
			return nil
		})
	}})
}

// threadsStore is threads/threads.db (the one SQLite policy,
// parser.CheckStore): the threads table of crates/agent/src/db.rs, whose
// first schema already has id, data_type and data (summary, updated_at
// and the later ALTERs' columns are read by name when present).
var threadsStore = parser.SQLiteStore{Name: "a Zed threads", Tables: parser.SQLiteSchema{
	"threads": {"id", "data_type", "data"},
}}

// threadWriter emits one thread's rows with the shared fields.
type threadWriter struct {
	out     parser.Sink
	id      string
	parent  string // the parent thread of a subagent's thread
	project string
	line    int64
	time    time.Time
	basis   timeline.TimeBasis
	rows    int
}

// emit writes a row of the thread; rid is its RecordID suffix: the thread
// id is the record's own id and a message is known by its position
// ("<thread>#m<n>#<item>"), the only identity Zed gives an agent message.
func (w *threadWriter) emit(e timeline.Event, rid string) {
	if w.id != "" && rid != "" {
		rid = w.id + "#" + rid
	} else {
		rid = ""
	}
	w.emitID(e, rid)
}

// emitID writes a row whose RecordID is rid as given (a user message's own
// id).
func (w *threadWriter) emitID(e timeline.Event, rid string) {
	e.SessionID, e.ParentSessionID, e.ProjectPath, e.SourceLine = w.id, w.parent, w.project, w.line
	e.RecordID = rid
	if e.Time.IsZero() && e.TimeBasis == timeline.TimeRecorded {
		e.Time, e.TimeBasis = w.time, w.basis
	}
	w.out.Event(e)
	w.rows++
}

func threadRow(in *parser.Input, r row, dec *zstd.Decoder, out parser.Sink) {
	data := r.bytes("data")
	if strings.EqualFold(r.Get("data_type"), "zstd") {
		d, err := dec.DecodeAll(data, nil)
		if err != nil {
			out.Problem(r.Rowid, "zstd data does not decompress: "+err.Error())
			return
		}
		data = d
	}
	var t thread
	if err := json.Unmarshal(data, &t); err != nil {
		out.Problem(r.Rowid, parser.NotJSON("thread data", err))
		return
	}
	w := &threadWriter{out: out, id: r.Get("id"), project: firstPath(r.Get("folder_paths")), line: r.Rowid}
	// Messages have no time of their own: the thread's updated_at (the
	// column, else the JSON's) is given to every row.
	if tm, ok := sqlTime(r.Get("updated_at")); ok {
		w.time, w.basis = tm, timeline.TimeInherited
	} else if tm, ok := sqlTime(t.UpdatedAt); ok {
		w.time, w.basis = tm, timeline.TimeInherited
	} else {
		w.basis = timeline.TimeNone
	}
	title := t.title()
	if title == "" {
		title = r.Get("summary")
	}
	parent := r.Get("parent_id")
	if parent == "" && t.SubagentContext != nil {
		parent = t.SubagentContext.ParentThreadID
	}
	if parent == w.id {
		parent = ""
	}
	w.parent = parent
	if title != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "session name: " + title}, "name")
	}
	if parent != "" {
		e := timeline.Event{TurnType: timeline.System, Text: fmt.Sprintf("subagent %s of %s", w.id, parent)}
		if t.SubagentContext != nil {
			e.ToolUseID = t.SubagentContext.ToolUseID
		}
		w.emit(e, "subagent")
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: w.id}, ParentSessionID: parent})
	}
	if t.Imported {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "thread imported from a shared link"}, "imported")
	}
	if t.Profile != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "agent profile: " + t.Profile}, "profile")
	}
	model := t.model()
	if model != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "model: " + model, Model: model}, "model")
	}
	if t.SandboxedTerminalTempDir != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "sandboxed terminal temp dir: " + t.SandboxedTerminalTempDir}, "sandbox")
	}
	for i, m := range t.Messages {
		if isLegacy(m) {
			legacyMessage(w, m, model, i+1)
		} else {
			message(w, m, model, i+1)
		}
	}
	var ds string
	if json.Unmarshal(t.DetailedSummary, &ds) == nil && strings.TrimSpace(ds) != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "thread summary: " + ds}, "summary")
	}
	if txt := draftText(t.DraftPrompt); strings.TrimSpace(txt) != "" && string(bytes.TrimSpace(t.DraftPrompt)) != "null" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "unsent draft: " + txt}, "draft")
	}
	if w.rows == 0 {
		out.Skip(r.Rowid, "no_evidence:empty thread")
	}
}

// message reads one DbThread message: {"User": {...}}, {"Agent": {...}} or
// "Resume".
func message(w *threadWriter, raw json.RawMessage, model string, n int) {
	mid := fmt.Sprintf("m%d", n)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "Resume" {
			w.emit(timeline.Event{TurnType: timeline.System, Text: "resume: Continue where you left off"}, mid)
		} else {
			w.out.Report(w.line, parser.KindSkippedRecord, fmt.Sprintf("thread %s message %d: %q not read", w.id, n, s))
		}
		return
	}
	var m struct {
		User *struct {
			ID      string            `json:"id"`
			Content []json.RawMessage `json:"content"`
		} `json:"User"`
		Agent *struct {
			Content     []json.RawMessage `json:"content"`
			ToolResults json.RawMessage   `json:"tool_results"`
		} `json:"Agent"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		w.out.Problem(w.line, fmt.Sprintf("message %d is not a thread message: %s", n, parser.JSONError(err)))
		return
	}
	switch {
	case m.User != nil:
		// a user message keeps its own id (UserMessageId)
		uid := w.id + "#" + mid
		if m.User.ID != "" {
			uid = m.User.ID
		}
		var typed []string
		for i, c := range m.User.Content {
			var v map[string]json.RawMessage
			if json.Unmarshal(c, &v) != nil {
				w.out.Report(w.line, parser.KindSkippedRecord, fmt.Sprintf("thread %s message %d item %d is not an object", w.id, n, i))
				continue
			}
			if t, ok := v["Text"]; ok {
				var s string
				_ = json.Unmarshal(t, &s)
				typed = append(typed, s)
			} else if _, ok := v["Image"]; ok {
				typed = append(typed, "[image]")
			} else if mv, ok := v["Mention"]; ok {
				var mention struct {
					URI     json.RawMessage `json:"uri"`
					Content string          `json:"content"`
				}
				_ = json.Unmarshal(mv, &mention)
				text := "mention: " + mentionName(mention.URI)
				if mention.Content != "" {
					text += "\n" + mention.Content
				}
				w.emitID(timeline.Event{TurnType: timeline.System, Text: text}, fmt.Sprintf("%s#%d", uid, i))
			} else {
				w.out.Report(w.line, parser.KindSkippedRecord, fmt.Sprintf("thread %s message %d item %d: unknown user content %s", w.id, n, i, keys(v)))
			}
		}
		if txt := strings.Join(typed, "\n"); strings.TrimSpace(txt) != "" {
			e := timeline.Event{TurnType: timeline.User, Text: txt}
			if w.parent != "" {
				// the task the parent thread's model wrote for this subagent
				e.TurnType, e.Text = timeline.System, "subagent task: "+txt
			}
			w.emitID(e, uid)
		}
	case m.Agent != nil:
		names := map[string]string{}
		var order []string
		for i, c := range m.Agent.Content {
			rid := fmt.Sprintf("%s#%d", mid, i)
			var v map[string]json.RawMessage
			if json.Unmarshal(c, &v) != nil {
				w.out.Report(w.line, parser.KindSkippedRecord, fmt.Sprintf("thread %s message %d item %d is not an object", w.id, n, i))
				continue
			}
			switch {
			case v["Text"] != nil:
				var s string
				_ = json.Unmarshal(v["Text"], &s)
				if strings.TrimSpace(s) != "" {
					w.emit(timeline.Event{TurnType: timeline.Assistant, Text: s, Model: model}, rid)
				}
			case v["Thinking"] != nil:
				var th struct {
					Text string `json:"text"`
				}
				_ = json.Unmarshal(v["Thinking"], &th)
				if strings.TrimSpace(th.Text) != "" {
					w.emit(timeline.Event{TurnType: timeline.Thinking, Text: th.Text, Model: model}, rid)
				}
			case v["RedactedThinking"] != nil:
				w.emit(timeline.Event{TurnType: timeline.Thinking, Text: "[redacted thinking]", Model: model}, rid)
			case v["ToolUse"] != nil:
				var tu struct {
					ID       string          `json:"id"`
					Name     string          `json:"name"`
					Input    json.RawMessage `json:"input"`
					RawInput string          `json:"raw_input"`
				}
				_ = json.Unmarshal(v["ToolUse"], &tu)
				input := parser.CompactJSON(tu.Input)
				if input == "" && tu.RawInput != "" {
					input = parser.CompactJSON([]byte(tu.RawInput))
				}
				names[tu.ID] = tu.Name
				order = append(order, tu.ID)
				w.emit(timeline.Event{TurnType: timeline.ToolUse, Model: model, ToolName: tu.Name, ToolUseID: tu.ID,
					ToolInput: input, Text: identifying(json.RawMessage(input))}, rid)
			default:
				w.out.Report(w.line, parser.KindSkippedRecord, fmt.Sprintf("thread %s message %d item %d: unknown agent content %s", w.id, n, i, keys(v)))
			}
		}
		results := orderedObject(m.Agent.ToolResults)
		done := map[string]bool{}
		emitOne := func(id string, raw json.RawMessage) {
			var tr struct {
				ToolUseID string          `json:"tool_use_id"`
				ToolName  string          `json:"tool_name"`
				IsError   bool            `json:"is_error"`
				Content   json.RawMessage `json:"content"`
			}
			_ = json.Unmarshal(raw, &tr)
			if tr.ToolUseID == "" {
				tr.ToolUseID = id
			}
			if tr.ToolName == "" {
				tr.ToolName = names[tr.ToolUseID]
			}
			toolResult(w, tr.ToolUseID, tr.ToolName, resultText(tr.Content), tr.IsError, mid+"#result:"+tr.ToolUseID)
		}
		// Results follow their calls' order; any result without a call
		// comes after, in stored order.
		byID := map[string]json.RawMessage{}
		for _, kv := range results {
			byID[kv.key] = kv.val
		}
		for _, id := range order {
			if raw, ok := byID[id]; ok && !done[id] {
				done[id] = true
				emitOne(id, raw)
			}
		}
		for _, kv := range results {
			if !done[kv.key] {
				done[kv.key] = true
				emitOne(kv.key, kv.val)
			}
		}
	default:
		w.out.Problem(w.line, fmt.Sprintf("message %d has no User or Agent variant", n))
	}
}

func toolResult(w *threadWriter, id, name, text string, isErr bool, rid string) {
	ie := "false"
	if isErr {
		ie = "true"
	}
	w.emit(timeline.Event{TurnType: timeline.ToolResult, ToolName: name, ToolUseID: id, Text: text, IsError: ie}, rid)
	if !isErr {
		return
	}
	switch {
	case strings.Contains(text, deniedByUser):
		w.emit(timeline.Event{TurnType: timeline.System, ToolName: name, ToolUseID: id, Text: "permission decision: denied source=user"}, rid+"#decision")
	case deniedBySettings.MatchString(text):
		w.emit(timeline.Event{TurnType: timeline.System, ToolName: name, ToolUseID: id, Text: "permission decision: denied source=settings"}, rid+"#decision")
	}
}

// keys names an object's members, for a problem about an unknown variant.
func keys(v map[string]json.RawMessage) string {
	var ks []string
	for k := range v {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// resultText renders LanguageModelToolResultContent: a string,
// {"Text": s}, {"type":"text","text": s} or an image.
func resultText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) == nil {
		for _, k := range []string{"Text", "text"} {
			if t, ok := v[k]; ok && json.Unmarshal(t, &s) == nil {
				return s
			}
		}
		if _, ok := v["Image"]; ok {
			return "[image]"
		}
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		var parts []string
		for _, a := range arr {
			parts = append(parts, resultText(a))
		}
		return strings.Join(parts, "\n")
	}
	return parser.CompactJSON(raw)
}

// mentionName renders a MentionUri ({"File": {"abs_path": ..}}, {"Fetch":
// {"url": ..}}, ...) as "<Kind> <path or url>".
func mentionName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v map[string]map[string]any
	if json.Unmarshal(raw, &v) == nil {
		for kind, f := range v {
			for _, k := range []string{"abs_path", "url", "path", "name", "id"} {
				if p, ok := f[k].(string); ok && p != "" {
					return kind + " " + p
				}
			}
			return kind
		}
	}
	return parser.CompactJSON(raw)
}

type keyVal struct {
	key string
	val json.RawMessage
}

// orderedObject returns a JSON object's members in stored order (an
// IndexMap keeps insertion order; a Go map would not).
func orderedObject(raw json.RawMessage) []keyVal {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil
	}
	var out []keyVal
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return out
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		ks, _ := k.(string)
		out = append(out, keyVal{ks, v})
	}
	return out
}

// legacyMessage reads a pre-0.3 SerializedMessage {id, role, segments[],
// tool_uses[], tool_results[], context}.
func legacyMessage(w *threadWriter, raw json.RawMessage, model string, n int) {
	var m struct {
		Role     string `json:"role"`
		Segments []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"segments"`
		ToolUses []struct {
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"tool_uses"`
		ToolResults []struct {
			ToolUseID string          `json:"tool_use_id"`
			IsError   bool            `json:"is_error"`
			Content   json.RawMessage `json:"content"`
		} `json:"tool_results"`
		Context string `json:"context"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		w.out.Problem(w.line, fmt.Sprintf("legacy message %d: %s", n, parser.JSONError(err)))
		return
	}
	role := strings.ToLower(m.Role)
	mid := fmt.Sprintf("m%d", n)
	if m.Context != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "context: " + m.Context}, mid+"#context")
	}
	for i, s := range m.Segments {
		rid := fmt.Sprintf("%s#%d", mid, i)
		switch {
		case role == "user" && strings.TrimSpace(s.Text) != "":
			e := timeline.Event{TurnType: timeline.User, Text: s.Text}
			if w.parent != "" {
				e.TurnType, e.Text = timeline.System, "subagent task: "+s.Text
			}
			w.emit(e, rid)
		case role == "system":
			w.emit(timeline.Event{TurnType: timeline.System, Text: s.Text}, rid)
		case s.Type == "thinking":
			w.emit(timeline.Event{TurnType: timeline.Thinking, Text: s.Text, Model: model}, rid)
		case s.Type == "redacted_thinking":
			w.emit(timeline.Event{TurnType: timeline.Thinking, Text: "[redacted thinking]", Model: model}, rid)
		case strings.TrimSpace(s.Text) != "":
			w.emit(timeline.Event{TurnType: timeline.Assistant, Text: s.Text, Model: model}, rid)
		}
	}
	names := map[string]string{}
	for _, tu := range m.ToolUses {
		names[tu.ID] = tu.Name
		in := parser.CompactJSON(tu.Input)
		w.emit(timeline.Event{TurnType: timeline.ToolUse, Model: model, ToolName: tu.Name, ToolUseID: tu.ID, ToolInput: in, Text: identifying(tu.Input)}, mid+"#use:"+tu.ID)
	}
	for _, tr := range m.ToolResults {
		toolResult(w, tr.ToolUseID, names[tr.ToolUseID], resultText(tr.Content), tr.IsError, mid+"#result:"+tr.ToolUseID)
	}
}

// isLegacy tells a pre-0.3 SerializedMessage (an object with "role") from a
// DbThread message ({"User": ..}, {"Agent": ..}, "Resume"), whatever the
// thread's version field says.
func isLegacy(raw json.RawMessage) bool {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	_, ok := v["role"]
	return ok
}
