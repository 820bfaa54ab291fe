package clinetask

import (
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// uiMessage is one ClineMessage of ui_messages.json (Cline
// src/shared/ExtensionMessage.ts; Roo packages/types/src/message.ts).
type uiMessage struct {
	TS         Num      `json:"ts"`
	Type       string   `json:"type"`
	Ask        string   `json:"ask"`
	Say        string   `json:"say"`
	Text       string   `json:"text"`
	Reasoning  string   `json:"reasoning"`
	Images     []string `json:"images"`
	Files      []string `json:"files"`
	Partial    bool     `json:"partial"`
	IsAnswered bool     `json:"isAnswered"`
	Checkpoint string   `json:"lastCheckpointHash"`
	ModelInfo  *struct {
		ModelID    string `json:"modelId"`
		ProviderID string `json:"providerId"`
		Mode       string `json:"mode"`
	} `json:"modelInfo"`
}

// commandReqApp is the suffix Cline appends to a command that needs approval
// (COMMAND_REQ_APP_STRING).
const commandReqApp = "REQ_APP"

// ParseUIMessages reads a task's ui_messages.json for agent (the catalog
// name of the extension that wrote it). It is shared by Cline, Roo Code and
// the Roo forks (fl).
func ParseUIMessages(ctx context.Context, in *parser.Input, out parser.Sink, agent string, fl Flavor) error {
	task := LoadTask(in, fl)
	if task.Project == "" {
		task.Project = uiScanCwd(ctx, in)
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	cs := &countingSink{Sink: out}
	u := &uiState{emitter: emitter{out: cs, agent: agent, task: task}, fl: fl}
	res, err := DecodeArray(ctx, rc, func(idx int64, raw json.RawMessage) error {
		var m uiMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			out.Problem(idx, "not a ClineMessage: "+parser.JSONError(err))
			return nil
		}
		cs.accountFor(idx, "empty_message", func() { u.message(idx, &m) })
		return nil
	})
	ReportArray(out, res)
	if errors.Is(err, errNotArray) {
		out.Problem(1, parser.NotJSONArray("ui_messages.json", nil))
		return nil
	}
	return err
}

// uiScanCwd finds the project in the first api_req_started request's
// <environment_details> (a second, short pass over the file's head).
func uiScanCwd(ctx context.Context, in *parser.Input) string {
	rc, err := in.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	var cwd string
	_, _ = DecodeArray(ctx, rc, func(idx int64, raw json.RawMessage) error {
		var m uiMessage
		if json.Unmarshal(raw, &m) != nil || m.Say != "api_req_started" {
			if idx > 200 {
				return errFound
			}
			return nil
		}
		var req struct {
			Request string `json:"request"`
		}
		_ = json.Unmarshal([]byte(m.Text), &req)
		if c := findCwd(req.Request); c != "" {
			cwd = c
			return errFound
		}
		if idx > 200 {
			return errFound
		}
		return nil
	})
	return cwd
}

type uiState struct {
	emitter
	fl       Flavor
	apiSeen  bool   // an api_req_started was read (Roo: the prompt is the say "text" before it)
	lastCmd  string // id of the last command call
	lastMcp  string
	lastBrow string
	lastDone string // text of the last completion_result say
}

func callID(ts float64) string { return "ui-" + strconv.FormatInt(int64(ts), 10) }

func (u *uiState) message(idx int64, m *uiMessage) {
	t := MsTime(float64(m.TS))
	basis := timeline.TimeRecorded
	if t.IsZero() && !u.last.IsZero() {
		t, basis = u.last, timeline.TimeInherited
	} else if !t.IsZero() {
		u.last = t
	}
	u.open(t, basis, idx)
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		u.setModel(t, basis, idx, m.ModelInfo.ModelID)
	}
	row := func(turn timeline.TurnType, text string) timeline.Event {
		e := u.ev(t, basis, idx, turn, text)
		if turn == timeline.Assistant || turn == timeline.Thinking || turn == timeline.ToolUse {
			e.Model = u.modelRow(t, basis, idx)
		}
		return e
	}
	emit := func(turn timeline.TurnType, text string) {
		if strings.TrimSpace(text) == "" && turn != timeline.System {
			return
		}
		u.out.Event(row(turn, text))
	}
	text := m.Text
	if n := len(m.Images) + len(m.Files); n > 0 && (m.Say == "task" || m.Say == "user_feedback") {
		text = strings.TrimRight(text, "\n") + fmt.Sprintf(" [%d attachment(s)]", n)
	}
	// A reasoning field on any message is a thinking block.
	if m.Reasoning != "" && m.Say != "reasoning" {
		emit(timeline.Thinking, m.Reasoning)
	}
	kind := m.Say
	if m.Type == "ask" {
		kind = "ask:" + m.Ask
	}
	switch kind {
	case "task", "user_feedback":
		emit(timeline.User, text)
	case "text":
		if u.fl == FlavorRoo && !u.apiSeen {
			emit(timeline.User, text)
			return
		}
		emit(timeline.Assistant, text)
	case "reasoning":
		emit(timeline.Thinking, FirstNonEmpty(m.Text, m.Reasoning))
	case "completion_result", "plan_completion_result":
		s := strings.TrimSpace(strings.TrimSuffix(m.Text, "HAS_CHANGES"))
		u.lastDone = s
		emit(timeline.Assistant, s)
	case "ask:completion_result":
		s := strings.TrimSpace(strings.TrimSuffix(m.Text, "HAS_CHANGES"))
		if s != "" && s != u.lastDone {
			emit(timeline.Assistant, s)
		}
	case "ask:followup", "ask:plan_mode_respond", "ask:act_mode_respond":
		emit(timeline.Assistant, askText(m.Text))
	case "tool", "ask:tool", "user_feedback_diff":
		u.tool(idx, m, t, basis, row)
	case "command", "ask:command":
		cmd := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m.Text), commandReqApp))
		e := row(timeline.ToolUse, cmd)
		e.ToolName, e.ToolUseID = "execute_command", callID(float64(m.TS))
		e.ToolInput = `{"command":` + quote(cmd) + `}`
		u.lastCmd = e.ToolUseID
		u.out.Event(e)
	case "command_output", "ask:command_output":
		e := row(timeline.ToolResult, m.Text)
		e.ToolName, e.ToolUseID, e.IsError = "execute_command", u.lastCmd, "false"
		u.out.Event(e)
	case "use_mcp_server", "ask:use_mcp_server":
		var a struct {
			Server string `json:"serverName"`
			Type   string `json:"type"`
			Tool   string `json:"toolName"`
			Args   string `json:"arguments"`
			URI    string `json:"uri"`
		}
		_ = json.Unmarshal([]byte(m.Text), &a)
		e := row(timeline.ToolUse, strings.TrimSuffix(a.Server+"/"+FirstNonEmpty(a.Tool, a.URI), "/"))
		e.ToolName, e.ToolUseID = FirstNonEmpty(a.Type, "use_mcp_server"), callID(float64(m.TS))
		e.ToolInput = parser.CompactJSON(json.RawMessage(m.Text))
		u.lastMcp = e.ToolUseID
		u.out.Event(e)
	case "mcp_server_response":
		e := row(timeline.ToolResult, m.Text)
		e.ToolName, e.ToolUseID, e.IsError = "use_mcp_server", u.lastMcp, "false"
		u.out.Event(e)
	case "browser_action_launch", "ask:browser_action_launch", "browser_action":
		arg := m.Text
		var a struct {
			Action     string `json:"action"`
			Coordinate string `json:"coordinate"`
			Text       string `json:"text"`
		}
		input := `{"url":` + quote(m.Text) + `}`
		if json.Unmarshal([]byte(m.Text), &a) == nil && a.Action != "" {
			arg = strings.TrimSpace(a.Action + " " + a.Coordinate + " " + a.Text)
			input = parser.CompactJSON(json.RawMessage(m.Text))
		}
		e := row(timeline.ToolUse, arg)
		e.ToolName, e.ToolUseID, e.ToolInput = "browser_action", callID(float64(m.TS)), input
		u.lastBrow = e.ToolUseID
		u.out.Event(e)
	case "browser_action_result":
		var r struct {
			Logs string `json:"logs"`
			URL  string `json:"currentUrl"`
		}
		_ = json.Unmarshal([]byte(m.Text), &r)
		s := strings.TrimSpace(strings.TrimSpace(r.URL) + "\n" + r.Logs)
		e := row(timeline.ToolResult, s)
		e.ToolName, e.ToolUseID, e.IsError = "browser_action", u.lastBrow, "false"
		u.out.Event(e)
	case "api_req_started":
		u.apiSeen = true
		u.out.Event(row(timeline.System, apiReqText(m.Text)))
	case "command_permission_denied":
		u.out.Event(row(timeline.System, "permission decision: denied source=CLINE_COMMAND_PERMISSIONS reason="+OneLine(m.Text)))
	case "clineignore_error", "rooignore_error":
		src := ".clineignore"
		if m.Say == "rooignore_error" {
			src = ".rooignore"
		}
		u.out.Event(row(timeline.System, "permission decision: blocked source="+src+" path="+OneLine(m.Text)))
	case "checkpoint_created", "checkpoint_saved":
		s := m.Say
		if h := FirstNonEmpty(m.Checkpoint, m.Text); h != "" {
			s += ": " + h
		}
		u.out.Event(row(timeline.System, s))
	default:
		name := m.Say
		if m.Type == "ask" {
			name = "ask " + m.Ask
		}
		if name == "" || name == "ask " {
			name = m.Type
		}
		s := name
		if strings.TrimSpace(m.Text) != "" {
			s += ": " + m.Text
		}
		u.out.Event(row(timeline.System, s))
	}
}

// tool writes a say/ask "tool" message (ClineSayTool JSON) as a tool_use
// row, and for Roo an approved ask (isAnswered) as a decision row.
func (u *uiState) tool(idx int64, m *uiMessage, t time.Time, basis timeline.TimeBasis, row func(timeline.TurnType, string) timeline.Event) {
	var a struct {
		Tool string `json:"tool"`
	}
	_ = json.Unmarshal([]byte(m.Text), &a)
	name := FirstNonEmpty(a.Tool, "tool")
	if m.Say == "user_feedback_diff" {
		u.out.Event(row(timeline.System, "user_feedback_diff: "+ToolArg(json.RawMessage(m.Text))))
		return
	}
	e := row(timeline.ToolUse, ToolArg(json.RawMessage(m.Text)))
	e.ToolName, e.ToolUseID = name, callID(float64(m.TS))
	e.ToolInput = parser.CompactJSON(json.RawMessage(m.Text))
	if !json.Valid([]byte(m.Text)) {
		e.ToolInput, e.Text = "", m.Text
	}
	u.out.Event(e)
	if u.fl == FlavorRoo && m.Type == "ask" && m.IsAnswered {
		d := u.ev(t, basis, idx, timeline.System, "permission decision: approved source=isAnswered")
		d.ToolName = name
		u.out.Event(d)
	}
}

// askText returns the question or response of a followup/plan ask
// ({question, options} / {response, options}), or the text itself.
func askText(s string) string {
	var q struct {
		Question string `json:"question"`
		Response string `json:"response"`
	}
	if json.Unmarshal([]byte(s), &q) == nil {
		if r := FirstNonEmpty(q.Question, q.Response); r != "" {
			return r
		}
	}
	return s
}

// apiReqText summarises an api_req_started record (the request text, which
// repeats the prompt and the environment, is left out).
func apiReqText(s string) string {
	var r map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &r) != nil {
		return "api_req_started"
	}
	var parts []string
	for _, k := range []string{"tokensIn", "tokensOut", "cacheReads", "cacheWrites", "cost", "apiProtocol", "cancelReason", "streamingFailedMessage"} {
		if v, ok := r[k]; ok && string(v) != "null" {
			parts = append(parts, k+"="+OneLine(parser.JSONText(v)))
		}
	}
	if len(parts) == 0 {
		return "api_req_started"
	}
	return "api_req_started: " + strings.Join(parts, " ")
}

func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func FirstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
