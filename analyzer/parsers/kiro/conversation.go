package kiro

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseDB reads data.sqlite3 (crates/chat-cli/src/database: migrations
// 000-007). conversations(key = the working directory, value =
// ConversationState JSON) gives the chat rows; the legacy history table
// (shell commands of the Fig-era shell integration) one system row each.
// state and auth_kv (credentials, tokens, profiles) are never read.
func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, readable, ok, err := parser.OpenStore(ctx, in, cliStore, out)
	if err != nil || !ok {
		return err
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "conversations", Read: func() error {
			return parser.EachTableRow(ctx, db, "conversations", func(r parser.Row) error {
				var st convState
				if err := json.Unmarshal([]byte(r.Get("value")), &st); err != nil {
					out.Problem(r.Rowid, "conversation of "+parser.Shown(r.Get("key"))+": not a ConversationState: "+parser.JSONError(err))
					return nil
				}
				(&convWriter{out: out, line: r.Rowid, project: r.Get("key")}).conversation(&st)
				return nil
			})
		}},
		parser.TableRead{Table: "conversations_v2", Read: func() error {
			return parser.EachTableRow(ctx, db, "conversations_v2", func(r parser.Row) error {
				conversationV2(out, r)
				return nil
			})
		}},
		parser.TableRead{Table: "chat_readline_history", Read: func() error {
			return parser.EachTableRow(ctx, db, "chat_readline_history", func(r parser.Row) error {
				readlineHistory(out, r)
				return nil
			})
		}},
		parser.TableRead{Table: "history", Read: func() error {
			return parser.EachTableRow(ctx, db, "history", func(r parser.Row) error {
				shellHistory(out, r)
				return nil
			})
		}},
	)
}

// cliStore is data.sqlite3 (the one SQLite policy, parser.CheckStore):
// history (migration 001, every store) with its command, conversations
// (key, value) from migration 007_conversations_table, so Optional for a
// store of an older CLI. state and auth_kv are never read.
var cliStore = parser.SQLiteStore{
	Name: "a Q / Kiro CLI",
	Tables: parser.SQLiteSchema{
		"conversations":         {"key", "value"},
		"conversations_v2":      {"key", "conversation_id", "value", "created_at", "updated_at"},
		"history":               {"command"},
		"chat_readline_history": {"input", "timestamp"},
	},
	Optional: map[string]string{
		"conversations":         "Q CLI builds before migration 007_conversations_table",
		"conversations_v2":      "Q CLI builds before migration 008_multiple_conversations_per_path",
		"chat_readline_history": "every build but those with migration 008_chat_readline_history_table (aws/amazon-q-developer-cli 93a6879; the release line numbers 008 for conversations_v2)",
	},
}

// readlineHistory writes one chat_readline_history row (migration
// 008_chat_readline_history_table at 93a6879: the chat prompt's line
// editor history kept in the database, with the directory and the epoch
// ms it was entered): the prompt as typed, a secondary user row (the
// conversation's own user row says the same within seconds), no session.
func readlineHistory(out parser.Sink, r parser.Row) {
	e := timeline.Event{TurnType: timeline.User, Text: r.Get("input"), ProjectPath: r.Get("cwd"), SourceLine: r.Rowid, Secondary: true}
	if e.Time = msText(r.Get("timestamp")); e.Time.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
}

// conversationV2 reads one conversations_v2 row (migration
// 008_multiple_conversations_per_path: several conversations per working
// directory, primary key (key, conversation_id), created_at and updated_at
// in epoch milliseconds). The migration copied every conversations row
// into it and left the old table as it was, and the CLI has written only
// here since: the old table's copy of a conversation goes through under
// the same record ids, and the correlate stage keeps one row where the
// two agree and names a conflict where not (one conversation id under two
// keys likewise). The row's own times are one row of their own, "saved":
// for a row the migration copied, created_at is the migration's time.
func conversationV2(out parser.Sink, r parser.Row) {
	key, cid := r.Get("key"), r.Get("conversation_id")
	var st convState
	if err := json.Unmarshal([]byte(r.Get("value")), &st); err != nil {
		out.Problem(r.Rowid, "conversations_v2 row "+parser.Shown(cid)+" of "+parser.Shown(key)+": not a ConversationState: "+parser.JSONError(err))
		return
	}
	if st.ConversationID == "" {
		st.ConversationID = cid
	} else if cid != "" && st.ConversationID != cid {
		out.Problem(r.Rowid, "conversations_v2 row "+parser.Shown(cid)+" of "+parser.Shown(key)+": its value names conversation "+parser.Shown(st.ConversationID)+"; read under the row's conversation_id")
		st.ConversationID = cid
	}
	w := &convWriter{out: out, line: r.Rowid, project: key}
	w.conversation(&st)
	created, updated := msText(r.Get("created_at")), msText(r.Get("updated_at"))
	e := timeline.Event{TurnType: timeline.System, Time: updated, Text: "conversation " + w.sid + " of " + key + " saved (conversations_v2 created_at " + stamp(created) + ", updated_at " + stamp(updated) + ")", RecordID: w.sid + "#saved:" + key}
	w.emit(e)
}

// msText is an epoch-milliseconds column; zero when absent or not a
// number.
func msText(s string) time.Time {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(n)).UTC()
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "not recorded"
	}
	return t.Format(time.RFC3339Nano)
}

// shellHistory writes one legacy history row: a command run in a shell
// with the integration installed (columns of 001_history_table.sql and
// 003_improved_history_timing.sql; start_time in epoch seconds).
func shellHistory(out parser.Sink, r parser.Row) {
	e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, SessionID: r.Get("session_id"), ProjectPath: r.Get("cwd")}
	ts := r.Get("start_time")
	if !r.Has("start_time") {
		ts = r.Get("time")
	}
	if n, err := strconv.ParseFloat(ts, 64); err == nil && n > 0 {
		if n > 1e12 {
			e.Time = time.UnixMilli(int64(n)).UTC()
		} else {
			e.Time = time.Unix(int64(n), 0).UTC()
		}
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	e.Text = "shell command (legacy shell history): " + r.Get("command")
	var extra []string
	for _, c := range []string{"shell", "hostname", "exit_code", "duration"} {
		if v := r.Get(c); v != "" {
			extra = append(extra, c+"="+v)
		}
	}
	if len(extra) > 0 {
		e.Text += " (" + strings.Join(extra, " ") + ")"
	}
	out.Event(e)
}

// convState is ConversationState (crates/chat-cli/src/cli/chat/
// conversation.rs), serde's default (externally tagged) enums.
type convState struct {
	ConversationID    string            `json:"conversation_id"`
	NextMessage       *userMessage      `json:"next_message"`
	History           []historyEntry    `json:"history"`
	ValidHistoryRange []int             `json:"valid_history_range"`
	LatestSummary     []json.RawMessage `json:"latest_summary"`
	Model             string            `json:"model"`
	ModelInfo         *struct {
		ModelID   string `json:"model_id"`
		ModelName string `json:"model_name"`
	} `json:"model_info"`
	CheckpointManager *struct {
		Checkpoints []struct {
			Tag             string         `json:"tag"`
			Timestamp       string         `json:"timestamp"`
			Description     string         `json:"description"`
			HistorySnapshot []historyEntry `json:"history_snapshot"`
			IsTurn          bool           `json:"is_turn"`
			ToolName        string         `json:"tool_name"`
		} `json:"checkpoints"`
	} `json:"checkpoint_manager"`
	TangentState *struct {
		MainHistory      []historyEntry  `json:"main_history"`
		MainNextMessage  *userMessage    `json:"main_next_message"`
		TangentStartTime json.RawMessage `json:"tangent_start_time"`
	} `json:"tangent_state"`
	MCPEnabled *bool `json:"mcp_enabled"`
}

type historyEntry struct {
	User            userMessage     `json:"user"`
	Assistant       json.RawMessage `json:"assistant"`
	RequestMetadata *struct {
		RequestID               string     `json:"request_id"`
		MessageID               string     `json:"message_id"`
		RequestStartTimestampMs *float64   `json:"request_start_timestamp_ms"`
		StreamEndTimestampMs    *float64   `json:"stream_end_timestamp_ms"`
		ModelID                 string     `json:"model_id"`
		ToolUseIDsAndNames      [][]string `json:"tool_use_ids_and_names"`
	} `json:"request_metadata"`
}

// userMessage is UserMessage: content is one of {"Prompt": {prompt}},
// {"CancelledToolUses": {prompt, tool_use_results}}, {"ToolUseResults":
// {tool_use_results}}.
type userMessage struct {
	AdditionalContext string `json:"additional_context"`
	Content           map[string]struct {
		Prompt         *string         `json:"prompt"`
		ToolUseResults []toolUseResult `json:"tool_use_results"`
	} `json:"content"`
	Timestamp string `json:"timestamp"`
	Images    []any  `json:"images"`
}

type toolUseResult struct {
	ToolUseID string            `json:"tool_use_id"`
	Content   []json.RawMessage `json:"content"`
	Status    string            `json:"status"`
}

// assistant is the body of {"Response": {...}} or {"ToolUse": {...}}.
type assistant struct {
	MessageID *string `json:"message_id"`
	Content   string  `json:"content"`
	ToolUses  []struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		OrigName string          `json:"orig_name"`
		Args     json.RawMessage `json:"args"`
	} `json:"tool_uses"`
}

// rejectedRe is the input the CLI sends itself when a tool call matches
// the agent's denied list (cli/chat/mod.rs): not typed by the user.
var rejectedRe = regexp.MustCompile(`^Tool use with (\S+) was rejected because the arguments supplied were forbidden$`)

const cancelledText = "Tool use was cancelled by the user"

type convWriter struct {
	out     parser.Sink
	line    int64
	project string
	sid     string
	model   string
	// seen are the entry ids written: a later entry of the same id (the
	// entry again in a checkpoint snapshot or the tangent main history)
	// is a copy of that record and goes through under the same record ids
	// for the correlate stage to merge or name as a conflict; only what
	// the copy's position derives (a model change, as written by the
	// entry before it) is not written again. history are the ids of the
	// conversation's own history: a copy of one of those gets no "no
	// longer in the conversation" note. noted counts each entry's notes.
	seen    map[string]bool
	history map[string]bool
	noted   map[string]int
	names   map[string]string
}

func (w *convWriter) emit(e timeline.Event) {
	e.SessionID, e.ProjectPath, e.SourceLine = w.sid, w.project, w.line
	if e.Time.IsZero() && e.TimeBasis == timeline.TimeRecorded {
		e.TimeBasis = timeline.TimeNone
	}
	w.out.Event(e)
}

func (w *convWriter) conversation(st *convState) {
	w.sid, w.seen, w.names = st.ConversationID, map[string]bool{}, map[string]string{}
	w.history, w.noted = map[string]bool{}, map[string]int{}
	for _, h := range st.History {
		if h.RequestMetadata != nil && h.RequestMetadata.MessageID != "" {
			w.history[h.RequestMetadata.MessageID] = true
		}
	}
	if w.sid == "" {
		w.sid = "cwd:" + w.project
	}
	first := time.Time{}
	for _, h := range st.History {
		if t, ok := userTime(&h.User); ok {
			first = t
			break
		}
	}
	head := timeline.Event{TurnType: timeline.System, Time: first, Text: "conversation " + w.sid + " of " + w.project, RecordID: w.sid + "#conversation"}
	if st.ModelInfo != nil && st.ModelInfo.ModelID != "" {
		head.Text += " model=" + parser.Shown(st.ModelInfo.ModelID)
		head.Model = st.ModelInfo.ModelID
	} else if st.Model != "" {
		head.Text += " model=" + st.Model
		head.Model = st.Model
	}
	if st.MCPEnabled != nil && !*st.MCPEnabled {
		head.Text += " mcp=disabled"
	}
	w.emit(head)
	start := 0
	if len(st.ValidHistoryRange) == 2 {
		start = st.ValidHistoryRange[0]
	}
	for i := range st.History {
		w.entry(&st.History[i], "")
		if i < start && i == start-1 {
			w.emit(timeline.Event{TurnType: timeline.System, Time: w.lastTime(&st.History[i]),
				Text: fmt.Sprintf("compacted: %d earlier entr%s no longer sent to the model (valid_history_range starts at %d)", start, plural(start), start), RecordID: w.sid + "#compacted"})
		}
	}
	if len(st.LatestSummary) > 0 {
		var s string
		if json.Unmarshal(st.LatestSummary[0], &s) == nil && s != "" {
			w.emit(timeline.Event{TurnType: timeline.System, Time: w.endOf(st.History), Text: "conversation summary (/compact): " + s, RecordID: w.sid + "#summary"})
		}
	}
	if st.TangentState != nil {
		for i := range st.TangentState.MainHistory {
			w.entry(&st.TangentState.MainHistory[i], "main conversation history kept while in tangent mode")
		}
		if m := st.TangentState.MainNextMessage; m != nil {
			w.pending(m, "main conversation's unsent message (tangent mode)")
		}
	}
	if st.CheckpointManager != nil {
		for _, c := range st.CheckpointManager.Checkpoints {
			t, _ := time.Parse(time.RFC3339Nano, c.Timestamp)
			txt := "checkpoint " + c.Tag + ": " + c.Description
			if c.ToolName != "" {
				txt += " (tool " + c.ToolName + ")"
			}
			w.emit(timeline.Event{TurnType: timeline.System, Time: t.UTC(), Text: txt, RecordID: w.sid + "#checkpoint-" + c.Tag})
			for i := range c.HistorySnapshot {
				w.entry(&c.HistorySnapshot[i], "from checkpoint "+c.Tag+"'s history snapshot, no longer in the conversation")
			}
		}
	}
	if st.NextMessage != nil {
		w.pending(st.NextMessage, "not yet sent")
	}
}

func plural(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

func userTime(u *userMessage) (time.Time, bool) {
	if u.Timestamp == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, u.Timestamp)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

func (w *convWriter) lastTime(h *historyEntry) time.Time {
	if h.RequestMetadata != nil {
		if t := ms(h.RequestMetadata.StreamEndTimestampMs); !t.IsZero() {
			return t
		}
	}
	t, _ := userTime(&h.User)
	return t
}

func (w *convWriter) endOf(hs []historyEntry) time.Time {
	if len(hs) == 0 {
		return time.Time{}
	}
	return w.lastTime(&hs[len(hs)-1])
}

func (w *convWriter) pending(m *userMessage, note string) {
	for _, c := range m.Content {
		if c.Prompt != nil && *c.Prompt != "" {
			t, _ := userTime(m)
			w.emit(timeline.Event{TurnType: timeline.User, Time: t, Text: *c.Prompt})
			w.emit(timeline.Event{TurnType: timeline.System, Time: t, Text: "the prompt above: " + note})
		}
	}
}

// entry writes one HistoryEntry. Its id is the request's message_id (the
// utterance id), and its rows' record ids are made from it: an entry
// already written (the same entry in a checkpoint snapshot or the tangent
// main history) is written again as the copy it is, and the correlate
// stage keeps one row where the copies agree and names the conflict where
// they differ. note, when set, follows the entry's rows, unless the entry
// is one of the conversation's own history (then it is no note's subject).
func (w *convWriter) entry(h *historyEntry, note string) {
	id := ""
	if h.RequestMetadata != nil {
		id = h.RequestMetadata.MessageID
	}
	copied := false
	if id != "" {
		copied = w.seen[id]
		w.seen[id] = true
	}
	rid := func(s string) string {
		if id == "" {
			return ""
		}
		return id + "#" + s
	}
	ut, ok := userTime(&h.User)
	var reqT, endT time.Time
	model := ""
	if h.RequestMetadata != nil {
		reqT, endT, model = ms(h.RequestMetadata.RequestStartTimestampMs), ms(h.RequestMetadata.StreamEndTimestampMs), h.RequestMetadata.ModelID
	}
	if !ok {
		ut = reqT
	}
	if endT.IsZero() {
		endT = reqT
	}
	if model != "" && model != w.model && !copied {
		txt := "model: " + model
		if w.model != "" {
			txt = "model: " + w.model + " -> " + model
		}
		w.emit(timeline.Event{TurnType: timeline.System, Time: ut, Text: txt, Model: model, RecordID: rid("model")})
		w.model = model
	}
	for kind, c := range h.User.Content {
		if c.Prompt != nil && *c.Prompt != "" {
			if m := rejectedRe.FindStringSubmatch(*c.Prompt); m != nil {
				w.emit(timeline.Event{TurnType: timeline.System, Time: ut, ToolName: m[1], Text: "permission decision: denied source=deniedlist tool=" + m[1] + " (the CLI told the model: " + *c.Prompt + ")", RecordID: rid("decision")})
			} else {
				w.emit(timeline.Event{TurnType: timeline.User, Time: ut, Text: *c.Prompt, RecordID: rid("user")})
			}
		}
		for i, r := range c.ToolUseResults {
			text := resultText(r.Content)
			isErr := "false"
			if r.Status == "Error" {
				isErr = "true"
			}
			w.emit(timeline.Event{TurnType: timeline.ToolResult, Time: ut, ToolUseID: r.ToolUseID, ToolName: w.names[r.ToolUseID], Text: text, IsError: isErr, RecordID: rid("result-" + strconv.Itoa(i))})
			if kind == "CancelledToolUses" && text == cancelledText {
				w.emit(timeline.Event{TurnType: timeline.System, Time: ut, ToolUseID: r.ToolUseID, ToolName: w.names[r.ToolUseID], Text: "permission decision: denied source=user (tool use cancelled)", RecordID: rid("decision-" + strconv.Itoa(i))})
			}
		}
	}
	if len(h.User.Images) > 0 {
		w.emit(timeline.Event{TurnType: timeline.System, Time: ut, Text: fmt.Sprintf("images attached: %d", len(h.User.Images)), RecordID: rid("images")})
	}
	var am map[string]assistant
	if len(h.Assistant) > 0 && string(h.Assistant) != "null" {
		if err := json.Unmarshal(h.Assistant, &am); err != nil {
			w.out.Problem(w.line, "history entry: assistant message: "+parser.JSONError(err))
		}
	}
	for _, a := range am {
		if a.Content != "" {
			w.emit(timeline.Event{TurnType: timeline.Assistant, Time: endT, Text: a.Content, Model: model, RecordID: rid("assistant")})
		}
		for _, u := range a.ToolUses {
			w.names[u.ID] = u.Name
			name := u.Name
			w.emit(timeline.Event{TurnType: timeline.ToolUse, Time: endT, ToolName: name, ToolUseID: u.ID, ToolInput: parser.CompactJSON(u.Args), Text: name, Model: model, RecordID: u.ID})
		}
	}
	if note != "" && (id == "" || !w.history[id]) {
		// one note per place the entry is kept: the first "#note", then
		// "#note-2", ... (one entry in two snapshots is two notes)
		nid := rid("note")
		if id != "" {
			if w.noted[id]++; w.noted[id] > 1 {
				nid = rid("note-" + strconv.Itoa(w.noted[id]))
			}
		}
		w.emit(timeline.Event{TurnType: timeline.System, Time: endT, Text: "the entry above: " + note, RecordID: nid})
	}
}

// resultText renders ToolUseResultBlock values: {"Text": s} or {"Json":
// v}.
func resultText(blocks []json.RawMessage) string {
	var parts []string
	for _, b := range blocks {
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if t, ok := m["Text"]; ok {
			var s string
			if json.Unmarshal(t, &s) == nil {
				parts = append(parts, s)
			}
		}
		if j, ok := m["Json"]; ok {
			parts = append(parts, parser.CompactJSON(j))
		}
	}
	return strings.Join(parts, "\n")
}
