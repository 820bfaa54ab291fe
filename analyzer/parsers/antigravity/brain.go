package antigravity

import (
	"bytes"
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

// The brain mirror's copies of one conversation, in the order one is read:
// the untruncated log, its chunks, the shortened log, its chunks.
func brainKind(logs, p string) int {
	rel := strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), logs+"/")
	switch {
	case rel == "transcript_full.jsonl":
		return 0
	case strings.HasPrefix(rel, "chunks/transcript_full/"):
		return 1
	case rel == "transcript.jsonl":
		return 2
	case strings.HasPrefix(rel, "chunks/transcript/") || strings.HasPrefix(rel, "chunks/"):
		return 3
	}
	return -1
}

var kindNames = []string{"transcript_full.jsonl", "chunks/transcript_full/", "transcript.jsonl", "chunks/"}

// preferred returns the best kind of copy collected for the conversation
// of logs.
func preferred(in *parser.Input, logs string) int {
	best := 99
	for _, f := range in.List(parser.GlobEscape(logs) + "/**/*.jsonl") {
		if k := brainKind(logs, f.Path); k >= 0 && k < best {
			best = k
		}
	}
	return best
}

// step is one line of a brain transcript: the conversation's steps as the
// agent renders them (real installs seen by public tools: step_index,
// source USER_EXPLICIT|MODEL|SYSTEM, type, status, created_at, content a
// string or an object, thinking, tool_calls [{name, args}], model, usage).
type step struct {
	StepIndex *int64          `json:"step_index"`
	Source    string          `json:"source"`
	Type      string          `json:"type"`
	Status    string          `json:"status"`
	CreatedAt string          `json:"created_at"`
	Content   json.RawMessage `json:"content"`
	Thinking  string          `json:"thinking"`
	Model     string          `json:"model"`
	ToolCalls []struct {
		Name string          `json:"name"`
		ID   string          `json:"id"`
		Args json.RawMessage `json:"args"`
	} `json:"tool_calls"`
}

func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) == nil {
		for _, k := range []string{"text", "response", "message", "content", "notification"} {
			var v string
			if json.Unmarshal(o[k], &v) == nil && v != "" {
				return v
			}
		}
	}
	return parser.CompactJSON(raw)
}

// tagRe finds the tagged blocks of a USER_INPUT step: <USER_REQUEST> is
// what the person typed; <ADDITIONAL_METADATA>, <USER_SETTINGS_CHANGE> and
// others are harness text.
var tagRe = regexp.MustCompile(`(?s)<([A-Z][A-Z_]+)>\n?(.*?)\n?</([A-Z][A-Z_]+)>`)

// modelChangeRe reads the settings change the agent injects when the user
// picks a model.
var modelChangeRe = regexp.MustCompile("setting `Model Selection` from (.+?) to (.+?)\\.( |$)")

type brainState struct {
	out   parser.Sink
	sid   string
	model string
}

func parseBrain(ctx context.Context, in *parser.Input, out parser.Sink) error {
	logs := logsDir(in.Path)
	kind := brainKind(logs, in.Path)
	if kind < 0 {
		return nil // another JSON Lines file of the brain: not a transcript
	}
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	if best := preferred(in, logs); best < kind {
		reason := "copy_of:" + kindNames[best]
		return parser.Lines(ctx, rc, out, func(n int64, _ []byte) error {
			out.Skip(n, reason)
			return nil
		})
	}
	s := &brainState{out: out, sid: brainID(in.Path)}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var st step
		if err := json.Unmarshal(line, &st); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if st.Type == "" {
			out.Report(n, parser.KindSkippedRecord, "step without a type")
			return nil
		}
		s.step(n, &st)
		return nil
	})
}

func (s *brainState) step(n int64, st *step) {
	base := timeline.Event{SessionID: s.sid, SourceLine: n, Secondary: true}
	if t, err := time.Parse(time.RFC3339Nano, st.CreatedAt); err == nil {
		base.Time = t.UTC()
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	id := s.sid + ":line" + strconv.FormatInt(n, 10)
	if st.StepIndex != nil {
		id = s.sid + ":" + strconv.FormatInt(*st.StepIndex, 10)
	}
	k := 0
	emit := func(e timeline.Event) {
		e.SessionID, e.SourceLine, e.Secondary, e.Time, e.TimeBasis = base.SessionID, base.SourceLine, base.Secondary, base.Time, base.TimeBasis
		e.RecordID = id + "#" + strconv.Itoa(k)
		k++
		s.out.Event(e)
	}
	if st.Model != "" && st.Model != s.model {
		s.model = st.Model
		emit(timeline.Event{TurnType: timeline.System, Text: "model: " + st.Model, Model: st.Model})
	}
	text := contentText(st.Content)
	switch strings.ToUpper(st.Type) {
	case "USER_INPUT":
		s.userInput(text, emit)
	case "PLANNER_RESPONSE", "NOTIFY_USER", "GENERATE_RESPONSE":
		if st.Thinking != "" {
			emit(timeline.Event{TurnType: timeline.Thinking, Text: st.Thinking, Model: s.model})
		}
		if text != "" {
			emit(timeline.Event{TurnType: timeline.Assistant, Text: text, Model: s.model})
		}
		for _, c := range st.ToolCalls {
			emit(timeline.Event{TurnType: timeline.ToolUse, ToolName: c.Name, ToolUseID: c.ID, ToolInput: parser.CompactJSON(c.Args), Text: c.Name, Model: s.model})
		}
		if st.Thinking == "" && text == "" && len(st.ToolCalls) == 0 {
			s.out.Skip(n, "no_evidence:empty-"+strings.ToLower(st.Type))
		}
	case "CHECKPOINT":
		emit(timeline.Event{TurnType: timeline.System, Text: strings.TrimSpace("compaction checkpoint: " + text)})
	default:
		if strings.EqualFold(st.Source, "MODEL") {
			// a tool step: what the call produced
			res := timeline.Event{TurnType: timeline.ToolResult, ToolName: strings.ToLower(st.Type), Text: text}
			switch strings.ToUpper(st.Status) {
			case "DONE", "COMPLETED", "SUCCESS":
				res.IsError = "false"
			case "ERROR", "FAILED", "CANCELED", "CANCELLED", "REJECTED", "DENIED":
				res.IsError = "true"
			}
			if st.Status != "" && res.IsError == "true" {
				res.Text = strings.TrimSpace(res.Text + "\n(status " + st.Status + ")")
			}
			emit(res)
			return
		}
		t := "step " + st.Type
		if st.Source != "" {
			t += " (" + strings.ToLower(st.Source) + ")"
		}
		if text != "" {
			t += ": " + text
		}
		emit(timeline.Event{TurnType: timeline.System, Text: t})
	}
}

// userInput splits a USER_INPUT step: the <USER_REQUEST> block (or the
// whole content without tags) is the user row; a model selection change
// is a model row; the other blocks are system rows.
func (s *brainState) userInput(text string, emit func(timeline.Event)) {
	ms := tagRe.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		if strings.TrimSpace(text) != "" {
			emit(timeline.Event{TurnType: timeline.User, Text: strings.TrimSpace(text)})
		}
		return
	}
	for _, m := range ms {
		if m[1] != m[3] {
			continue
		}
		body := strings.TrimSpace(m[2])
		switch m[1] {
		case "USER_REQUEST":
			emit(timeline.Event{TurnType: timeline.User, Text: body})
		case "USER_SETTINGS_CHANGE":
			if mm := modelChangeRe.FindStringSubmatch(body); mm != nil {
				s.model = mm[2]
				emit(timeline.Event{TurnType: timeline.System, Text: "model: " + mm[1] + " -> " + mm[2], Model: mm[2]})
				continue
			}
			emit(timeline.Event{TurnType: timeline.System, Text: "settings change: " + body})
		default:
			emit(timeline.Event{TurnType: timeline.System, Text: strings.ToLower(m[1]) + ": " + body})
		}
	}
}

// parseHistory reads history.jsonl: {display, timestamp (epoch ms),
// workspace, type, conversationId}.
func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var h struct {
			Display        string          `json:"display"`
			Timestamp      json.RawMessage `json:"timestamp"`
			Workspace      string          `json:"workspace"`
			Type           string          `json:"type"`
			ConversationID string          `json:"conversationId"`
		}
		if err := json.Unmarshal(line, &h); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if h.Display == "" {
			out.Skip(n, "no_evidence:empty-history-entry")
			return nil
		}
		e := timeline.Event{TurnType: timeline.User, Text: h.Display, SourceLine: n, Secondary: true, SessionID: h.ConversationID, ProjectPath: fileURIPath(h.Workspace)}
		if t, ok := msOrRFC(h.Timestamp); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		if h.Type != "" {
			e.TurnType, e.Text = timeline.System, "prompt history entry type: "+h.Type
			out.Event(e)
		}
		return nil
	})
}

func msOrRFC(raw json.RawMessage) (time.Time, bool) {
	var f float64
	if json.Unmarshal(raw, &f) == nil && f > 0 {
		return time.UnixMilli(int64(f)).UTC(), true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// fileURIPath turns file:///home/a/x (or file:///C:/x) into a path.
func fileURIPath(s string) string {
	if !strings.HasPrefix(s, "file://") {
		return s
	}
	p := strings.TrimPrefix(s, "file://")
	if len(p) > 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	if u, err := unescapePath(p); err == nil {
		return u
	}
	return p
}
