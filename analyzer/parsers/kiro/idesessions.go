package kiro

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Kiro IDE's session store since its move out of globalStorage
// (kiro.kiroagent/workspace-sessions, left with .migrated-<id>.json
// markers): ~/.kiro/sessions/<workspace hash>/<session id>/session.json
// (the session's metadata) and messages.jsonl (its event stream, one
// {id, timestamp, payload: {type, ...}} a line), beside snapshots/ (file
// snapshots). Closed source; the shapes are those a third-party reader
// of the store describes, written against Kiro IDE 1.0.242 / kiro-agent
// 1.0.428 (see doc.go).

// storeSession is session.json.
type storeSession struct {
	ID             string   `json:"id"`
	Title          string   `json:"title"`
	Description    string   `json:"description"`
	AgentMode      string   `json:"agentMode"`
	Status         string   `json:"status"`
	ModelID        string   `json:"modelId"`
	Autopilot      *bool    `json:"autopilot"`
	WorkspacePaths []string `json:"workspacePaths"`
	CreatedAt      string   `json:"createdAt"`
	LastModifiedAt string   `json:"lastModifiedAt"`
}

// storeEvent is one messages.jsonl line.
type storeEvent struct {
	ID        string          `json:"id"`
	Timestamp json.RawMessage `json:"timestamp"`
	Payload   *storePayload   `json:"payload"`
}

type storePayload struct {
	Type               string          `json:"type"`
	Content            json.RawMessage `json:"content"`
	Images             []any           `json:"images"`
	Documents          []any           `json:"documents"`
	OperationType      string          `json:"operationType"`
	ReasoningSignature string          `json:"reasoningSignature"`
	ExecutionID        string          `json:"executionId"`
	ToolCallID         string          `json:"toolCallId"`
	ToolName           string          `json:"toolName"`
	ActionType         string          `json:"actionType"`
	Kind               string          `json:"kind"`
	Status             string          `json:"status"`
	Title              string          `json:"title"`
	Args               json.RawMessage `json:"args"`
	Success            *bool           `json:"success"`
	DurationMs         *float64        `json:"durationMs"`
	InteractionType    string          `json:"interactionType"`
	Question           string          `json:"question"`
	Options            json.RawMessage `json:"options"`
	Outcome            string          `json:"outcome"`
	SelectedOption     json.RawMessage `json:"selectedOption"`
	StopReason         string          `json:"stopReason"`
	Key                string          `json:"key"`
	Value              json.RawMessage `json:"value"`
	Category           string          `json:"category"`
	Context            json.RawMessage `json:"context"`
	ElapsedTime        json.RawMessage `json:"elapsedTime"`
	SubAgentName       string          `json:"subAgentName"`
	ErrorMessage       string          `json:"errorMessage"`
}

// ideSessionFile says whether p is session.json or messages.jsonl of an
// IDE session folder, .kiro/sessions/<workspace>/<session>/.
func ideSessionFile(p string) (sid string, ok bool) {
	p = strings.ReplaceAll(p, "\\", "/")
	dir := path.Dir(p)
	if path.Base(path.Dir(path.Dir(dir))) != "sessions" || path.Base(path.Dir(path.Dir(path.Dir(dir)))) != ".kiro" {
		return "", false
	}
	switch path.Base(p) {
	case "session.json", "messages.jsonl":
		return path.Base(dir), true
	}
	return "", false
}

func parseIDESessionMeta(in *parser.Input, out parser.Sink, sid string) error {
	b, err := parser.ReadWhole(in, 4<<20)
	if err != nil {
		out.Problem(0, "Kiro IDE session.json not read: "+err.Error())
		return nil
	}
	var m storeSession
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSONObject("Kiro IDE session.json", err))
		return nil
	}
	if m.ID != "" {
		sid = m.ID
	}
	e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: 1, Model: m.ModelID, TimeBasis: timeline.TimeNone}
	if len(m.WorkspacePaths) > 0 {
		e.ProjectPath = m.WorkspacePaths[0]
	}
	if t, ok := parser.ParseTime(m.CreatedAt); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	}
	parts := []string{"Kiro IDE session " + parser.Shown(sid)}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+v)
		}
	}
	add("title ", m.Title)
	add("description ", m.Description)
	add("mode ", m.AgentMode)
	add("status at its last write ", m.Status)
	add("model ", m.ModelID)
	if m.Autopilot != nil {
		add("autopilot ", strconv.FormatBool(*m.Autopilot))
	}
	if len(m.WorkspacePaths) > 0 {
		add("workspaces ", strings.Join(m.WorkspacePaths, ", "))
	}
	add("created ", m.CreatedAt)
	add("last modified ", m.LastModifiedAt)
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
	return nil
}

// storeRun joins the consecutive assistant fragments of one execution and
// kind (the IDE writes a reply in pieces), as one row at the first's time.
type storeRun struct {
	e    timeline.Event
	exec string
	text strings.Builder
}

func parseIDEMessages(ctx context.Context, in *parser.Input, out parser.Sink, sid string) error {
	project, model := "", ""
	if b, ok := in.ReadRelated(path.Join(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")), "session.json"), 4<<20); ok {
		var m storeSession
		if json.Unmarshal(b, &m) == nil {
			if m.ID != "" {
				sid = m.ID
			}
			if len(m.WorkspacePaths) > 0 {
				project = m.WorkspacePaths[0]
			}
			model = m.ModelID
		}
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var run *storeRun
	flush := func() {
		if run != nil {
			run.e.Text = run.text.String()
			out.Event(run.e)
			run = nil
		}
	}
	err = parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var ev storeEvent
		if err := json.Unmarshal(b, &ev); err != nil {
			flush()
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		p := ev.Payload
		if p == nil || p.Type == "" {
			flush()
			out.Report(n, parser.KindSkippedRecord, "a Kiro IDE session event with no payload type")
			return nil
		}
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: n, TimeBasis: timeline.TimeNone}
		if t, ok := storeTime(ev.Timestamp); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		if ev.ID != "" {
			e.RecordID = "kiro-ide:" + ev.ID
		}
		if p.Type == "assistant" {
			text := parser.StringValue(p.Content)
			if text == "" {
				flush()
				out.Skip(n, "no_evidence:empty_assistant")
				return nil
			}
			tt := timeline.Assistant
			// operationType is the reader's rule for reasoning; a
			// reasoningSignature only when operationType is absent
			if p.OperationType == "Reasoning" || (p.OperationType == "" && p.ReasoningSignature != "") {
				tt = timeline.Thinking
			}
			if run != nil && run.e.TurnType == tt && run.exec == p.ExecutionID && p.ExecutionID != "" {
				run.text.WriteString(text)
				out.Skip(n, "joined:assistant_fragment")
				return nil
			}
			flush()
			e.TurnType, e.Model = tt, model
			run = &storeRun{e: e, exec: p.ExecutionID}
			run.text.WriteString(text)
			return nil
		}
		flush()
		storeEventRow(out, n, e, p, model)
		return nil
	})
	flush()
	return err
}

// storeEventRow writes every payload type but assistant.
func storeEventRow(out parser.Sink, n int64, e timeline.Event, p *storePayload, model string) {
	sys := func(text string) {
		e.TurnType, e.Text = timeline.System, text
		out.Event(e)
	}
	switch p.Type {
	case "user":
		e.TurnType, e.Text = timeline.User, parser.JSONText(p.Content)
		if e.Text != "" {
			out.Event(e)
		}
		if len(p.Images) > 0 || len(p.Documents) > 0 {
			a := e
			a.TurnType, a.Text = timeline.System, fmt.Sprintf("attached to the prompt: %d image(s), %d document(s)", len(p.Images), len(p.Documents))
			if a.RecordID != "" {
				a.RecordID += "#attachments"
			}
			out.Event(a)
		} else if e.Text == "" {
			out.Skip(n, "no_evidence:empty_user")
		}
	case "tool_call":
		in := parser.CompactJSON(p.Args)
		e.TurnType, e.ToolName, e.ToolUseID, e.ToolInput, e.Model = timeline.ToolUse, p.ToolName, p.ToolCallID, in, model
		e.Text = parser.ArgHeadline(p.Args, p.ToolName, "command", "path", "filePath", "file_path", "target_file", "query", "url", "pattern")
		if p.Title != "" {
			e.Text += " (" + p.Title + ")"
		}
		out.Event(e)
	case "tool_result":
		e.TurnType, e.ToolUseID = timeline.ToolResult, p.ToolCallID
		e.Text = parser.JSONText(p.Content)
		if p.Success != nil {
			e.IsError = strconv.FormatBool(!*p.Success)
		}
		out.Event(e)
	case "pending_interaction":
		t := "permission asked"
		if p.InteractionType != "" {
			t += " (" + p.InteractionType + ")"
		}
		if p.ToolCallID != "" {
			t += " for call " + p.ToolCallID
		}
		if p.Question != "" {
			t += ": " + p.Question
		}
		if o := parser.CompactJSON(p.Options); o != "" && o != "null" && o != "[]" {
			t += "; options " + o
		}
		e.ToolUseID = p.ToolCallID
		sys(t)
	case "interaction_resolved":
		t := "permission answered"
		if p.ToolCallID != "" {
			t += " for call " + p.ToolCallID
		}
		t += ": " + p.Outcome
		if s := parser.CompactJSON(p.SelectedOption); s != "" && s != "null" {
			t += " (selected " + s + ")"
		}
		e.ToolUseID = p.ToolCallID
		sys(t)
	case "turn_start":
		out.Skip(n, "state_only:turn_start")
	case "turn_end":
		if p.StopReason == "" || p.StopReason == "end_turn" {
			out.Skip(n, "state_only:turn_end")
			return
		}
		sys("turn ended: " + p.StopReason)
	case "session_metadata":
		sys("session metadata " + p.Key + ": " + parser.CompactJSON(p.Value))
	case "session_event":
		t := "session event " + p.Category
		if c := parser.CompactJSON(p.Context); c != "" && c != "null" {
			t += ": " + c
		}
		sys(t)
	case "usage_summary":
		t := "usage summary"
		if p.Status != "" {
			t += ": status " + p.Status
		}
		if v := parser.CompactJSON(p.ElapsedTime); v != "" && v != "null" {
			t += ", elapsed " + v
		}
		sys(t)
	case "sub_agent_start":
		sys("subagent started: " + p.SubAgentName)
	case "sub_agent_complete":
		t := "subagent finished: " + p.Status
		if p.ErrorMessage != "" {
			t += ": " + p.ErrorMessage
		}
		sys(t)
	case "tombstone":
		t := "tombstone: the session was cleared or compacted here"
		if p.Kind != "" {
			t = "tombstone (" + p.Kind + "): the session was cleared or compacted here"
		}
		sys(t + "; the rows before it are kept")
	default:
		out.Report(n, parser.KindSkippedRecord, "a Kiro IDE session event typed "+parser.Shown(p.Type))
	}
}

// storeTime reads an event's timestamp: RFC 3339 text, or an epoch number
// (seconds below 1e11, milliseconds above).
func storeTime(raw json.RawMessage) (time.Time, bool) {
	if s, ok := parser.JSONString(raw); ok {
		return parser.ParseTime(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil && f > 0 {
		return parser.Epoch(int64(f), 1e11)
	}
	return time.Time{}, false
}
