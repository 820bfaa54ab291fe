package cline

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// hookLine is one line of logs/hooks.jsonl, the SDK's hook audit log.
type hookLine struct {
	TS             string `json:"ts"`
	HookName       string `json:"hookName"`
	TaskID         string `json:"taskId"`
	SessionID      string `json:"sessionId"`
	SessionContext struct {
		RootSessionID string `json:"rootSessionId"`
	} `json:"sessionContext"`
	AgentID       string `json:"agent_id"`
	ParentAgentID string `json:"parent_agent_id"`
	Reason        string `json:"reason"`
	Source        string `json:"source"`
	PID           num    `json:"pid"`
	ToolCall      *struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_call"`
	ToolResult *struct {
		ID     string          `json:"id"`
		Name   string          `json:"name"`
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
		Error  string          `json:"error"`
	} `json:"tool_result"`
	Turn *struct {
		OutputText string `json:"outputText"`
		Status     string `json:"status"`
	} `json:"turn"`
	UserPromptSubmit *struct {
		Prompt string `json:"prompt"`
	} `json:"userPromptSubmit"`
	Error *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error"`
}

// parseHooks reads logs/hooks.jsonl. Run starts, resumes, aborts, errors,
// compactions and stale-session shutdowns are "hook audit: <hook> ..."
// rows; the prompts, tool calls, results and final replies the hooks
// repeat are secondary rows that pair with the transcript's (same session,
// same text, within the declared window). A subagent's lines (agent_id
// with a parent_agent_id) belong to its own session, "<root>__<agent_id>".
func parseHooks(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var h hookLine
		if err := json.Unmarshal(line, &h); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		root := firstNonEmpty(h.SessionContext.RootSessionID, h.SessionID)
		sid, parent := root, ""
		if h.ParentAgentID != "" && h.AgentID != "" && root != "" {
			sid, parent = root+"__"+h.AgentID, root
		}
		t := isoTime(h.TS)
		ev := timeline.Event{Time: t, Agent: Agent, SessionID: sid, ParentSessionID: parent, SourceLine: n}
		if t.IsZero() {
			ev.TimeBasis = timeline.TimeNone
		}
		audit := func(detail string) {
			a := ev
			a.TurnType, a.Text = timeline.System, strings.TrimSpace("hook audit: "+h.HookName+" "+detail)
			out.Event(a)
		}
		switch h.HookName {
		case "tool_call":
			if h.ToolCall == nil {
				out.Report(n, parser.KindSkippedRecord, "tool_call hook without tool_call")
				return nil
			}
			c := ev
			c.Secondary, c.TurnType = true, timeline.ToolUse
			c.ToolName, c.ToolUseID, c.ToolInput = h.ToolCall.Name, h.ToolCall.ID, parser.CompactJSON(h.ToolCall.Input)
			c.Text = sdkToolText(h.ToolCall.Name, h.ToolCall.Input)
			out.Event(c)
		case "tool_result":
			if h.ToolResult == nil {
				out.Report(n, parser.KindSkippedRecord, "tool_result hook without tool_result")
				return nil
			}
			r := ev
			r.Secondary, r.TurnType = true, timeline.ToolResult
			r.ToolName, r.ToolUseID = h.ToolResult.Name, h.ToolResult.ID
			r.Text = firstNonEmpty(h.ToolResult.Error, sdkResultText(h.ToolResult.Output))
			r.IsError = strconv.FormatBool(h.ToolResult.Error != "" || sdkResultFailed(h.ToolResult.Output))
			out.Event(r)
		case "agent_end":
			if h.Turn == nil || h.Turn.OutputText == "" {
				out.Skip(n, "no_evidence:agent_end")
				return nil
			}
			a := ev
			a.Secondary, a.TurnType, a.Text = true, timeline.Assistant, h.Turn.OutputText
			out.Event(a)
		case "prompt_submit":
			if h.UserPromptSubmit == nil || strings.TrimSpace(h.UserPromptSubmit.Prompt) == "" {
				out.Skip(n, "no_evidence:prompt_submit")
				return nil
			}
			p := ev
			p.Secondary = true
			text := h.UserPromptSubmit.Prompt
			if typed, _, _, ok := unwrapUserInput(text); ok {
				p.TurnType, p.Text = timeline.User, typed
			} else if parent != "" {
				p.TurnType, p.Text = timeline.System, "subagent task: "+text
			} else {
				p.TurnType, p.Text = timeline.System, text
			}
			out.Event(p)
		case "session_shutdown":
			d := "reason=" + h.Reason
			if h.PID != 0 {
				d += fmt.Sprintf(" pid=%d", int64(h.PID))
			}
			if h.Source != "" {
				d += " source=" + h.Source
			}
			audit(d)
		case "agent_error":
			msg := ""
			if h.Error != nil {
				msg = strings.TrimSpace(h.Error.Name + ": " + h.Error.Message)
			}
			audit(strings.TrimSpace("agent=" + h.AgentID + " " + msg))
		case "agent_abort":
			audit(strings.TrimSpace("agent=" + h.AgentID + " reason=" + h.Reason))
		case "":
			out.Report(n, parser.KindSkippedRecord, "hook line without hookName")
		default: // agent_start, agent_resume, pre_compact and later hooks
			d := "agent=" + h.AgentID
			if h.ParentAgentID != "" {
				d += " parent_agent=" + h.ParentAgentID
			}
			if h.TaskID != "" {
				d += " task=" + h.TaskID
			}
			audit(d)
		}
		return nil
	})
}
