package kiro

import (
	"context"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Kiro IDE's agent storage, globalStorage/kiro.kiroagent (the shapes
// kenn-io/agentsview 5386007 reads, internal/parser/kiro_ide.go; the IDE
// is closed source): <workspace hash>/<hash>.chat (an execution's chat,
// the older format), workspace-sessions/<base64 of the workspace>/
// sessions.json (the session list) and <session>.json (a session's
// history), and <sha256(workspace)[:32]>/414d1636299d2b9e4ce7e17fb11f63e9/
// <file> (an execution log: the actions the agent took).

// ideMaxFile bounds one file read whole.
const ideMaxFile = 64 << 20

// ideSystemPrefixes open the system prompt and rules the IDE sends as a
// "human" message (agentsview 5386007 isKiroIDESystemMessage).
var ideSystemPrefixes = []string{"# System Prompt", "# Identity", "<identity>", "## Included Rules", "You are operating in a workspace"}

func parseIDEFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	parent, grand := path.Base(path.Dir(p)), path.Base(path.Dir(path.Dir(p)))
	var read func(*parser.Input, parser.Sink, []byte) error
	switch {
	case strings.HasSuffix(p, ".chat"):
		read = ideChat
	case grand == "workspace-sessions" && in.Base() == "sessions.json":
		read = func(_ *parser.Input, out parser.Sink, b []byte) error { return ideSessionList(out, b) }
	case grand == "workspace-sessions" && strings.HasSuffix(p, ".json"):
		read = ideSession
	case parent == ideExecSubdir:
		read = func(_ *parser.Input, out parser.Sink, b []byte) error { return ideExecution(out, b) }
	default:
		out.Skip(0, "no_evidence:kiroagent file of no known kind")
		return nil
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, ideMaxFile+1))
	if err != nil {
		return err
	}
	if len(data) > ideMaxFile {
		out.Report(0, parser.KindSkippedRecord, fmt.Sprintf("a kiro.kiroagent file over %d MiB: not read", ideMaxFile>>20))
		return nil
	}
	return read(in, out, data)
}

// ideExecSubdir holds a workspace's execution logs (agentsview 5386007
// kiroIDEExecSubdir).
const ideExecSubdir = "414d1636299d2b9e4ce7e17fb11f63e9"

func ideEvent(out parser.Sink, e timeline.Event) {
	if e.SourceLine == 0 {
		e.SourceLine = 1
	}
	if e.Time.IsZero() && e.TimeBasis == timeline.TimeRecorded {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
}

func ideChat(in *parser.Input, out parser.Sink, data []byte) error {
	var c struct {
		ExecutionID string `json:"executionId"`
		ActionID    string `json:"actionId"`
		Chat        []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"chat"`
		Metadata struct {
			ModelID    string `json:"modelId"`
			Workflow   string `json:"workflow"`
			WorkflowID string `json:"workflowId"`
			StartTime  int64  `json:"startTime"`
			EndTime    int64  `json:"endTime"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		out.Problem(1, parser.NotJSONObject("Kiro IDE chat", err))
		return nil
	}
	p := strings.ReplaceAll(in.Path, "\\", "/")
	sid := path.Base(path.Dir(p)) + ":" + strings.TrimSuffix(in.Base(), ".chat")
	start, end := time.Time{}, time.Time{}
	if c.Metadata.StartTime > 0 {
		start = time.UnixMilli(c.Metadata.StartTime).UTC()
	}
	if c.Metadata.EndTime > 0 {
		end = time.UnixMilli(c.Metadata.EndTime).UTC()
	}
	head := "Kiro IDE chat " + sid
	for _, kv := range [][2]string{{"execution", c.ExecutionID}, {"action", c.ActionID}, {"workflow", c.Metadata.Workflow}, {"workflow id", c.Metadata.WorkflowID}, {"model", c.Metadata.ModelID}} {
		if kv[1] != "" {
			head += "; " + kv[0] + " " + kv[1]
		}
	}
	ideEvent(out, timeline.Event{TurnType: timeline.System, Time: start, Text: head, SessionID: sid, Model: c.Metadata.ModelID, RecordID: sid + "#chat"})
	for i, m := range c.Chat {
		e := timeline.Event{Time: start, TimeBasis: timeline.TimeInherited, SessionID: sid, RecordID: sid + "#" + strconv.Itoa(i), Text: m.Content}
		if start.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		switch m.Role {
		case "human":
			text := strings.TrimSpace(m.Content)
			sys := false
			for _, pre := range ideSystemPrefixes {
				if strings.HasPrefix(text, pre) {
					sys = true
				}
			}
			if sys {
				e.TurnType, e.Text = timeline.System, "system prompt or rules sent as the human turn (not typed): "+m.Content
			} else {
				e.TurnType = timeline.User
				if after, ok := strings.CutPrefix(text, "<kiro-ide-message>"); ok {
					e.Text = strings.TrimSpace(strings.TrimSuffix(after, "</kiro-ide-message>"))
				}
			}
		case "bot":
			e.TurnType, e.Model = timeline.Assistant, c.Metadata.ModelID
		case "tool":
			e.TurnType = timeline.ToolResult
		default:
			e.TurnType, e.Text = timeline.System, m.Role+" message: "+m.Content
		}
		if strings.TrimSpace(e.Text) == "" {
			out.Skip(1, "no_evidence:empty_message")
			continue
		}
		ideEvent(out, e)
	}
	if !end.IsZero() {
		ideEvent(out, timeline.Event{TurnType: timeline.System, Time: end, Text: "Kiro IDE chat " + sid + " ended (metadata endTime)", SessionID: sid, RecordID: sid + "#end"})
	}
	return nil
}

// ideSessionEntry is one entry of workspace-sessions/<ws>/sessions.json.
type ideSessionEntry struct {
	SessionID          string          `json:"sessionId"`
	Title              string          `json:"title"`
	DateCreated        json.RawMessage `json:"dateCreated"`
	WorkspaceDirectory string          `json:"workspaceDirectory"`
}

// ideTime reads dateCreated: RFC 3339, or epoch ms as a number or a
// numeric string.
func ideTime(raw json.RawMessage) time.Time {
	s := parser.JSONText(raw)
	if t, ok := parser.ParseTime(s); ok {
		return t
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if t, ok := parser.Epoch(n, 1e11); ok {
			return t
		}
	}
	return time.Time{}
}

func ideSessionList(out parser.Sink, data []byte) error {
	var list []ideSessionEntry
	if err := json.Unmarshal(data, &list); err != nil {
		out.Problem(1, parser.NotJSONArray("Kiro IDE session list", err))
		return nil
	}
	for _, s := range list {
		t := "Kiro IDE session " + s.SessionID
		if s.Title != "" {
			t += ": " + strconv.Quote(s.Title)
		}
		if s.WorkspaceDirectory != "" {
			t += " of " + s.WorkspaceDirectory
		}
		ideEvent(out, timeline.Event{TurnType: timeline.System, Time: ideTime(s.DateCreated), Text: t + " (sessions.json)", SessionID: s.SessionID, ProjectPath: s.WorkspaceDirectory, RecordID: s.SessionID + "#listed"})
	}
	return nil
}

func ideSession(in *parser.Input, out parser.Sink, data []byte) error {
	var s struct {
		SessionID          string `json:"sessionId"`
		Title              string `json:"title"`
		WorkspaceDirectory string `json:"workspaceDirectory"`
		History            []struct {
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
				ID      string          `json:"id"`
			} `json:"message"`
			PromptLogs []struct {
				Completion string `json:"completion"`
			} `json:"promptLogs"`
			ExecutionID string `json:"executionId"`
		} `json:"history"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		out.Problem(1, parser.NotJSONObject("Kiro IDE session", err))
		return nil
	}
	sid := s.SessionID
	if sid == "" {
		sid = strings.TrimSuffix(in.Base(), ".json")
	}
	// the session list beside it dates the session; its history records
	// no times
	var created time.Time
	if b, ok := in.ReadRelated(path.Join(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")), "sessions.json"), ideMaxFile); ok {
		var list []ideSessionEntry
		if json.Unmarshal(b, &list) == nil {
			for _, e := range list {
				if e.SessionID == sid {
					created = ideTime(e.DateCreated)
				}
			}
		}
	}
	base := timeline.Event{SessionID: sid, ProjectPath: s.WorkspaceDirectory, Time: created, TimeBasis: timeline.TimeInherited}
	if created.IsZero() {
		base.TimeBasis = timeline.TimeNone
	}
	head := base
	head.TurnType, head.RecordID = timeline.System, sid+"#session"
	head.Text = "Kiro IDE session " + parser.Shown(sid)
	if s.Title != "" {
		head.Text += ": " + strconv.Quote(s.Title)
	}
	if s.WorkspaceDirectory != "" {
		head.Text += " of " + s.WorkspaceDirectory
	}
	ideEvent(out, head)
	for i, h := range s.History {
		rid := h.Message.ID
		if rid == "" {
			rid = sid + "#" + strconv.Itoa(i)
		}
		e := base
		e.RecordID = rid
		text := ideContent(h.Message.Content)
		switch h.Message.Role {
		case "user":
			e.TurnType = timeline.User
		case "assistant":
			e.TurnType = timeline.Assistant
			if text == "" {
				var parts []string
				for _, pl := range h.PromptLogs {
					if t := strings.TrimSpace(pl.Completion); t != "" {
						parts = append(parts, t)
					}
				}
				text = strings.Join(parts, "\n\n")
			}
		case "tool":
			e.TurnType = timeline.ToolResult
		default:
			e.TurnType, text = timeline.System, h.Message.Role+" message: "+text
		}
		n := 0
		if strings.TrimSpace(text) != "" {
			e.Text = text
			ideEvent(out, e)
			n++
		}
		if h.ExecutionID != "" {
			x := base
			x.TurnType, x.RecordID = timeline.System, rid+"#execution"
			x.Text = "execution " + parser.Shown(h.ExecutionID) + " (its actions are in the workspace's execution log, session exec:" + parser.Shown(h.ExecutionID) + ")"
			ideEvent(out, x)
			n++
		}
		if n == 0 {
			out.Skip(1, "no_evidence:empty_message")
		}
	}
	return nil
}

// ideContent is a message's content: a string, or blocks whose text
// blocks are joined (others named by type).
func ideContent(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		return parser.CompactJSON(raw)
	}
	var parts []string
	for _, b := range blocks {
		if parser.StringValue(b["type"]) == "text" {
			parts = append(parts, parser.StringValue(b["text"]))
		} else {
			parts = append(parts, "["+parser.StringValue(b["type"])+" block]")
		}
	}
	return strings.Join(parts, "\n")
}

func ideExecution(out parser.Sink, data []byte) error {
	var x struct {
		ExecutionID string `json:"executionId"`
		Actions     []struct {
			ActionID   string          `json:"actionId"`
			ActionType string          `json:"actionType"`
			Input      json.RawMessage `json:"input"`
			Output     json.RawMessage `json:"output"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(data, &x); err != nil {
		out.Problem(1, parser.NotJSONObject("Kiro IDE execution log", err))
		return nil
	}
	sid := "exec:" + x.ExecutionID
	ideEvent(out, timeline.Event{TurnType: timeline.System, TimeBasis: timeline.TimeNone, SessionID: sid, Text: fmt.Sprintf("Kiro IDE execution log %s: %d action(s) (the log records no times)", x.ExecutionID, len(x.Actions)), RecordID: sid + "#log"})
	for i, a := range x.Actions {
		id := a.ActionID
		if id == "" {
			id = sid + "#" + strconv.Itoa(i)
		}
		e := timeline.Event{SessionID: sid, TimeBasis: timeline.TimeNone, RecordID: id}
		var o struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(a.Output, &o)
		if a.ActionType == "say" {
			e.TurnType, e.Text = timeline.Assistant, o.Message
			if o.Message == "" {
				out.Skip(1, "no_evidence:empty_message")
				continue
			}
			ideEvent(out, e)
			continue
		}
		name := a.ActionType
		if name == "" {
			name = "action"
		}
		e.TurnType, e.ToolName, e.ToolUseID, e.Text, e.ToolInput = timeline.ToolUse, name, id, name, parser.CompactJSON(a.Input)
		ideEvent(out, e)
		if r := parser.CompactJSON(a.Output); r != "" {
			res := timeline.Event{SessionID: sid, TimeBasis: timeline.TimeNone, TurnType: timeline.ToolResult, ToolName: name, ToolUseID: id, RecordID: id + "#result", Text: o.Message}
			if res.Text == "" {
				res.Text = r
			}
			ideEvent(out, res)
		}
	}
	return nil
}
