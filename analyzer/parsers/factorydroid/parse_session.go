package factorydroid

import (
	"bytes"
	"context"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// record is one line of a droid session file.
type record struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ParentID  string          `json:"parentId"`
	Timestamp string          `json:"timestamp"`
	Title     string          `json:"title"`
	Owner     string          `json:"owner"`
	Cwd       string          `json:"cwd"`
	Version   json.Number     `json:"version"`
	Message   *message        `json:"message"`
	TurnID    string          `json:"turnId"`
	Reason    string          `json:"reason"`
	Result    string          `json:"resultKind"`
	Raw       json.RawMessage `json:"-"`
}

type message struct {
	Role            string          `json:"role"`
	Content         json.RawMessage `json:"content"`
	ModelID         string          `json:"modelId"`
	ReasoningEffort string          `json:"reasoningEffort"`
	InteractionMode string          `json:"interactionMode"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   *bool           `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// deniedPrefix starts the tool result droid exec writes when the autonomy
// level or the command deny list refuses a call.
const deniedPrefix = "Exec ended early: insufficient permission"

type sessionState struct {
	out     parser.Sink
	sid     string
	cwd     string
	model   string
	last    time.Time // time of the last dated record
	pending *timeline.Event
}

func (st *sessionState) emit(e timeline.Event) {
	e.SessionID, e.ProjectPath = st.sid, st.cwd
	st.out.Event(e)
}

// flush writes the session_start row once a dated record gives it a time.
func (st *sessionState) flush(t time.Time) {
	if st.pending == nil {
		return
	}
	e := *st.pending
	st.pending = nil
	if !t.IsZero() {
		e.Time, e.TimeBasis = t, timeline.TimeInherited
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	st.emit(e)
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// sessionIDFromPath is the file's base name without .jsonl.
func sessionIDFromPath(p string) string {
	return strings.TrimSuffix(path.Base(strings.ReplaceAll(p, "\\", "/")), ".jsonl")
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	st := &sessionState{out: out, sid: sessionIDFromPath(in.Path)}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		st.record(n, &r, line)
		return nil
	})
	st.flush(st.last)
	return err
}

func (st *sessionState) record(n int64, r *record, line []byte) {
	switch r.Type {
	case "session_start":
		if r.ID != "" {
			st.sid = r.ID
		}
		if r.Cwd != "" {
			st.cwd = r.Cwd
		}
		var b strings.Builder
		b.WriteString("session start: " + st.sid)
		for _, kv := range [][2]string{{"cwd", r.Cwd}, {"owner", r.Owner}, {"title", r.Title}, {"version", r.Version.String()}} {
			if kv[1] != "" {
				b.WriteString(" " + kv[0] + "=" + kv[1])
			}
		}
		st.pending = &timeline.Event{TurnType: timeline.System, Text: b.String(), SourceLine: n, RecordID: st.sid + "#session"}
	case "message":
		if r.Message == nil {
			st.out.Report(n, parser.KindSkippedRecord, "message record without a message")
			return
		}
		t := parseTime(r.Timestamp)
		if !t.IsZero() {
			st.flush(t)
			st.last = t
		}
		st.message(n, r, t)
	case "agent_turn_outcome":
		e := timeline.Event{TurnType: timeline.System, SourceLine: n, RecordID: r.TurnID + "#outcome",
			Text: "turn outcome: " + r.Reason}
		if r.Result != "" {
			e.Text += " (" + r.Result + ")"
		}
		e.Time, e.TimeBasis = st.last, timeline.TimeInherited
		if st.last.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		st.emit(e)
	default:
		// A kind this release did not write (compaction, todo state, ...):
		// kept as a system row with its JSON so nothing is lost.
		t := parseTime(r.Timestamp)
		e := timeline.Event{TurnType: timeline.System, SourceLine: n, RecordID: r.ID,
			Text: "record " + r.Type + ": " + parser.CompactJSON(line)}
		if t.IsZero() {
			e.Time, e.TimeBasis = st.last, timeline.TimeInherited
			if st.last.IsZero() {
				e.TimeBasis = timeline.TimeNone
			}
		} else {
			e.Time = t
		}
		st.emit(e)
	}
}

// blocks decodes a message's content: an array of blocks or a string.
func blocks(raw json.RawMessage) ([]block, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == 'n' {
		return nil, true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		return []block{{Type: "text", Text: s}}, true
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return nil, false
	}
	return bs, true
}

// resultText flattens a tool_result's content (a string or text blocks).
func resultText(raw json.RawMessage) string {
	bs, ok := blocks(raw)
	if !ok {
		return string(raw)
	}
	var parts []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		default:
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// injected reports whether a user text block is harness context, not typed:
// droid writes its tool list and reminders as a user message whose id starts
// "context-", each block a <system-reminder>.
func injected(recID, text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(recID, "context-") || strings.HasPrefix(t, "<system-reminder>")
}

func (st *sessionState) message(n int64, r *record, t time.Time) {
	m := r.Message
	bs, ok := blocks(m.Content)
	if !ok {
		st.out.Problem(n, "message content is neither text nor blocks")
		return
	}
	if len(bs) == 0 {
		st.out.Skip(n, "empty_message")
		return
	}
	base := timeline.Event{Time: t, SourceLine: n}
	if t.IsZero() {
		base.TimeBasis = timeline.TimeNone
	}
	rid := func(i int) string {
		if r.ID == "" {
			return ""
		}
		if len(bs) == 1 {
			return r.ID
		}
		return r.ID + "#" + itoa(i)
	}
	if m.Role == "assistant" && m.ModelID != "" && m.ModelID != st.model {
		e := base
		e.TurnType, e.Model = timeline.System, m.ModelID
		if st.model == "" {
			e.Text = "model: " + parser.Shown(m.ModelID)
		} else {
			e.Text = "model: " + st.model + " -> " + parser.Shown(m.ModelID)
		}
		if m.ReasoningEffort != "" {
			e.Text += " reasoning=" + m.ReasoningEffort
		}
		if r.ID != "" {
			e.RecordID = r.ID + "#model"
		}
		st.model = m.ModelID
		st.emit(e)
	}
	for i, b := range bs {
		e := base
		e.RecordID = rid(i)
		switch m.Role {
		case "user":
			switch b.Type {
			case "text":
				if injected(r.ID, b.Text) {
					e.TurnType, e.Text = timeline.System, b.Text
				} else {
					e.TurnType, e.Text = timeline.User, b.Text
				}
			case "tool_result":
				text := resultText(b.Content)
				isErr := b.IsError != nil && *b.IsError
				e.TurnType, e.ToolUseID, e.Text = timeline.ToolResult, b.ToolUseID, text
				e.IsError = boolStr(isErr || strings.HasPrefix(strings.TrimPrefix(text, "Error: "), deniedPrefix))
				st.emit(e)
				if strings.Contains(text, deniedPrefix) {
					d := base
					d.TurnType, d.ToolUseID = timeline.System, b.ToolUseID
					d.Text = "permission decision: reject (" + strings.TrimPrefix(text, "Error: ") + ")"
					if r.ID != "" {
						d.RecordID = r.ID + "#decision"
						if len(bs) > 1 {
							d.RecordID = r.ID + "#" + itoa(i) + "#decision"
						}
					}
					st.emit(d)
				}
				continue
			case "image":
				e.TurnType, e.Text = timeline.User, "[image]"
			default:
				e.TurnType, e.Text = timeline.System, "user block "+b.Type
			}
		case "assistant":
			e.Model = m.ModelID
			switch b.Type {
			case "text":
				if m.ModelID == "" {
					// droid exec writes its own closing message (a denial's
					// "Exec ended early ...") as an assistant message with no
					// model: harness text, not the model's.
					e.TurnType, e.Text = timeline.System, "droid: "+b.Text
				} else {
					e.TurnType, e.Text = timeline.Assistant, b.Text
				}
			case "thinking", "redacted_thinking":
				e.TurnType, e.Text = timeline.Thinking, b.Thinking
				if e.Text == "" {
					e.Text = b.Text
				}
			case "tool_use":
				e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolUse, b.Name, b.ID
				e.ToolInput = parser.CompactJSON(b.Input)
				e.Text = callText(b.Name, b.Input)
			default:
				e.TurnType, e.Text = timeline.System, "assistant block "+b.Type
			}
		default:
			e.TurnType, e.Text = timeline.System, m.Role+" message: "+resultText(m.Content)
			st.emit(e)
			return
		}
		st.emit(e)
	}
}

// callText is a tool call's row text: the command, path or query it names,
// else the tool name.
func callText(name string, raw json.RawMessage) string {
	var in map[string]any
	if json.Unmarshal(raw, &in) == nil {
		for _, k := range []string{"command", "file_path", "path", "pattern", "query", "url", "prompt"} {
			if s, ok := in[k].(string); ok && s != "" {
				return name + ": " + s
			}
		}
	}
	return name
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}
