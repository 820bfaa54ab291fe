package copilotcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxHistorySession bounds a legacy session file read whole (one JSON
// object; a larger file is a problem row, never a cut read).
const maxHistorySession = 256 << 20

// historySessionName is the legacy file name: session_<id>_<ms>.json.
var historySessionName = regexp.MustCompile(`^session_(.+)_(\d+)\.json$`)

// HistorySession returns the parser of the legacy single-object sessions
// Copilot CLI wrote to ~/.copilot/history-session-state/ before the
// session-state/<id>/events.jsonl log.
func HistorySession() parser.Parser {
	return parser.New(parser.Spec{
		ID: "copilot-cli/history-session", Agent: Agent, Version: 1,
		Actions: Actions,
		Targets: []string{"history-session-state"}, Names: []string{"*.json"},
		Doc: "legacy history-session-state/session_<id>_<ms>.json sessions: chatMessages (prompts, replies, tool calls and results, undated) and the timestamped timeline entries",
	}, parseHistorySession)
}

// chatMessage is one member of chatMessages (the OpenAI chat shape).
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Name       string          `json:"name"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// timelineEntry is one member of timeline.
type timelineEntry struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Text      json.RawMessage `json:"text"`
	CallID    string          `json:"callId"`
	ToolTitle string          `json:"toolTitle"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Result    struct {
		Type string          `json:"type"`
		Log  json.RawMessage `json:"log"`
	} `json:"result"`
}

func parseHistorySession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxHistorySession)
	if errors.Is(err, parser.ErrTooLarge) {
		out.Report(0, parser.KindSkippedRecord, fmt.Sprintf("legacy session file over %d bytes: not read", maxHistorySession))
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	hs := &historySession{in: in, out: out}
	if m := historySessionName.FindStringSubmatch(path.Base(in.Path)); m != nil {
		hs.id = m[1]
	}
	lines := parser.NewLineIndex(b)
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if dec.PeekKind() != '{' {
		out.Problem(0, parser.NotJSONObject("", nil))
		return nil
	}
	if _, err := dec.ReadToken(); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	var chats, events []positioned
	for dec.PeekKind() == '"' {
		if err := ctx.Err(); err != nil {
			return err
		}
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		key := tok.String()
		switch {
		case (key == "chatMessages" || key == "timeline") && dec.PeekKind() == '[':
			items, err := arrayMembers(dec, lines)
			if key == "chatMessages" {
				chats = items
			} else {
				events = items
			}
			if err != nil {
				out.Problem(lines.At(dec.InputOffset()), key+" cut short or corrupt after this line, the entries before it read: "+err.Error())
				hs.rows(chats, events)
				return nil
			}
		default:
			v, err := dec.ReadValue()
			if err != nil {
				out.Problem(lines.At(dec.InputOffset()), "cut short or corrupt after this line: "+err.Error())
				hs.rows(chats, events)
				return nil
			}
			hs.member(key, v, lines.At(dec.InputOffset()-int64(len(v))))
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		out.Problem(lines.At(dec.InputOffset()), "cut short or corrupt after this line: "+err.Error())
	}
	hs.rows(chats, events)
	return nil
}

// positioned is an array member with the line it starts on.
type positioned struct {
	line int64
	v    []byte
}

// arrayMembers reads the array at the decoder's position, each member
// with its line; on an error the members before it are returned.
func arrayMembers(dec *jsontext.Decoder, lines *parser.LineIndex) ([]positioned, error) {
	if _, err := dec.ReadToken(); err != nil {
		return nil, err
	}
	var items []positioned
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil {
			return items, err
		}
		items = append(items, positioned{lines.At(dec.InputOffset() - int64(len(v))), bytes.Clone(v)})
	}
	_, err := dec.ReadToken()
	return items, err
}

type historySession struct {
	in                 *parser.Input
	out                parser.Sink
	id                 string
	start, end         string
	startLine, endLine int64
}

// member reads a top-level member other than the two arrays: the
// session id and its start and end times; the rest is not evidence.
func (hs *historySession) member(key string, v []byte, line int64) {
	switch key {
	case "sessionId":
		if s := parser.StringValue(v); s != "" {
			hs.id = s
		}
		hs.out.Skip(line, "state_only")
	case "startTime":
		hs.start, hs.startLine = parser.StringValue(v), line
	case "endTime":
		hs.end, hs.endLine = parser.StringValue(v), line
	default:
		hs.out.Skip(line, "no_evidence:"+key)
	}
}

func (hs *historySession) event(tt timeline.TurnType, line int64) timeline.Event {
	return timeline.Event{SessionID: hs.id, TurnType: tt, SourceLine: line, TimeBasis: timeline.TimeNone}
}

// rows writes the session's rows: its start and end as system rows at
// the times recorded, each chat message (no time of its own: undated),
// and each timeline entry at its timestamp.
func (hs *historySession) rows(chats, events []positioned) {
	out := hs.out
	for _, b := range []struct {
		what, at string
		line     int64
	}{{"start", hs.start, hs.startLine}, {"end", hs.end, hs.endLine}} {
		if b.at == "" {
			continue
		}
		e := hs.event(timeline.System, b.line)
		e.Text = "session " + b.what + " (legacy history-session-state)"
		if t, ok := parser.ParseTime(b.at); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		} else {
			e.Text += " at unreadable time " + b.at
		}
		e.RecordID = hs.id + "#" + b.what
		out.Event(e)
	}
	for _, c := range chats {
		hs.chat(c)
	}
	for _, p := range events {
		hs.timelineRow(p)
	}
}

func (hs *historySession) chat(p positioned) {
	out := hs.out
	var m chatMessage
	if dropped, err := parser.DecodeLenient(p.v, &m); err != nil {
		out.Problem(p.line, "chat message of an unexpected shape, not read: "+parser.JSONError(err))
		return
	} else if len(dropped) > 0 {
		out.Problem(p.line, parser.LenientProblem(dropped))
	}
	text := parser.JSONText(m.Content)
	n := 0
	switch m.Role {
	case "user":
		if text != "" {
			e := hs.event(timeline.User, p.line)
			e.Text = text
			out.Event(e)
			n++
		}
	case "system":
		if text != "" {
			e := hs.event(timeline.System, p.line)
			e.Text = "system prompt: " + text
			out.Event(e)
			n++
		}
	case "assistant":
		if strings.TrimSpace(text) != "" {
			e := hs.event(timeline.Assistant, p.line)
			e.Text = text
			out.Event(e)
			n++
		}
		for _, tc := range m.ToolCalls {
			e := hs.event(timeline.ToolUse, p.line)
			e.ToolName, e.ToolUseID, e.RecordID = tc.Function.Name, tc.ID, tc.ID
			// arguments is a string holding the JSON the model wrote
			args := []byte(tc.Function.Arguments)
			if s, ok := parser.JSONString(args); ok {
				args = []byte(s)
			}
			e.ToolInput = parser.CompactJSON(args)
			var am map[string]json.RawMessage
			_ = json.Unmarshal([]byte(e.ToolInput), &am)
			if e.Text = toolText(am); e.Text == "" {
				e.Text = tc.Function.Name
			}
			out.Event(e)
			n++
		}
	case "tool":
		e := hs.event(timeline.ToolResult, p.line)
		e.ToolName, e.ToolUseID, e.Text = m.Name, m.ToolCallID, text
		if m.ToolCallID != "" {
			e.RecordID = m.ToolCallID + "#result"
		}
		out.Event(e)
		n++
	default:
		out.Report(p.line, parser.KindSkippedRecord, fmt.Sprintf("chat message of role %q: not read", m.Role))
		return
	}
	if n == 0 {
		out.Skip(p.line, "no_evidence:empty "+m.Role+" message")
	}
}

func (hs *historySession) timelineRow(p positioned) {
	out := hs.out
	var t timelineEntry
	if dropped, err := parser.DecodeLenient(p.v, &t); err != nil {
		out.Problem(p.line, "timeline entry of an unexpected shape, not read: "+parser.JSONError(err))
		return
	} else if len(dropped) > 0 {
		out.Problem(p.line, parser.LenientProblem(dropped))
	}
	e := hs.event(timeline.System, p.line)
	if ts, ok := parser.ParseTime(t.Timestamp); ok {
		e.Time, e.TimeBasis = ts, timeline.TimeRecorded
	}
	if t.ID != "" {
		e.RecordID = hs.id + "#timeline:" + t.ID
	}
	what := t.Type
	if what == "" {
		what = "entry"
	}
	parts := []string{"timeline " + what}
	tool := t.ToolTitle
	if tool == "" {
		tool = t.Name
	}
	if tool != "" {
		parts = append(parts, tool)
		e.ToolName, e.ToolUseID = tool, t.CallID
	}
	if s := parser.JSONText(t.Text); s != "" {
		parts = append(parts, s)
	}
	if a := parser.CompactJSON(t.Arguments); a != "" {
		parts = append(parts, a)
	}
	if t.Result.Type != "" {
		parts = append(parts, "result "+t.Result.Type)
	}
	e.Text = strings.Join(parts, ": ")
	if e.Time.IsZero() && t.Timestamp != "" {
		e.Text += " (unreadable time " + t.Timestamp + ")"
	}
	out.Event(e)
}
