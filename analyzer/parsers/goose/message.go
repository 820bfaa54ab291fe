package goose

import (
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// message is one goose Message (crates/goose/src/conversation/message.rs):
// a JSONL line, or a messages row's role, created_timestamp, content_json
// and metadata_json.
type message struct {
	ID       string            `json:"id"`
	Role     string            `json:"role"`
	Created  int64             `json:"created"`
	Content  []json.RawMessage `json:"content"`
	Metadata *metadata         `json:"metadata"`
}

type metadata struct {
	UserVisible  *bool `json:"userVisible"`
	AgentVisible *bool `json:"agentVisible"`
}

func (m *metadata) visible() (user, agent bool) {
	user, agent = true, true
	if m == nil {
		return
	}
	if m.UserVisible != nil {
		user = *m.UserVisible
	}
	if m.AgentVisible != nil {
		agent = *m.AgentVisible
	}
	return
}

type item struct {
	Type      string          `json:"type"`
	Meta      json.RawMessage `json:"_meta"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	ToolCall  *toolResult     `json:"toolCall"`
	Result    *toolResult     `json:"toolResult"`
	ToolName  string          `json:"toolName"`
	Arguments json.RawMessage `json:"arguments"`
	Prompt    *string         `json:"prompt"`
	Thinking  string          `json:"thinking"`
	MimeType  string          `json:"mimeType"`
	Msg       string          `json:"msg"`
	Data      json.RawMessage `json:"data"`
}

// toolResult is goose's serialised Result: {"status":"success","value":..}
// or {"status":"error","error":".."}.
type toolResult struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value"`
	Error  string          `json:"error"`
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	MimeType string `json:"mimeType"`
	Resource *struct {
		URI  string `json:"uri"`
		Text string `json:"text"`
	} `json:"resource"`
}

type actionData struct {
	ActionType string          `json:"actionType"`
	Permission string          `json:"permission"`
	ID         string          `json:"id"`
	ToolName   string          `json:"toolName"`
	Arguments  json.RawMessage `json:"arguments"`
	Prompt     *string         `json:"prompt"`
	Message    string          `json:"message"`
	UserData   json.RawMessage `json:"user_data"`
}

// declinedPrefix starts the tool response goose stores when the user
// refuses a tool confirmation (agents/tool_execution.rs DECLINED_RESPONSE).
const declinedPrefix = "The user has declined to run this tool."

// emitMessage emits the rows of one message and returns how many. base
// carries the session (and parent session), project, time and source line,
// and as RecordID the message id (content item i's rows carry "<id>#<i>",
// a row derived from it "<id>#<i>#<word>"); model is the session's model,
// if known; delegated marks a sub-agent session, whose user text the parent
// agent wrote ("subagent task: ...", never a user row).
func emitMessage(out parser.Sink, base timeline.Event, m *message, model string, line int64, delegated bool) int {
	userVis, agentVis := m.Metadata.visible()
	msgID := base.RecordID
	n := 0
	emit := func(e timeline.Event) { out.Event(e); n++ }
	for i, raw := range m.Content {
		var it item
		if err := json.Unmarshal(raw, &it); err != nil {
			out.Problem(line, "content item: "+parser.JSONError(err))
			continue
		}
		e := base
		if msgID != "" {
			e.RecordID = msgID + "#" + strconv.Itoa(i)
		}
		derived := func(word string) timeline.Event {
			d := base
			if msgID != "" {
				d.RecordID = e.RecordID + "#" + word
			}
			return d
		}
		switch it.Type {
		case "text":
			if strings.TrimSpace(it.Text) == "" {
				continue
			}
			e.Text = it.Text
			switch {
			case m.Role == "user" && delegated:
				e.TurnType, e.Text = timeline.System, "subagent task: "+it.Text
			case m.Role == "user" && userVis && agentVis:
				e.TurnType = timeline.User
			case m.Role == "assistant" && userVis:
				e.TurnType, e.Model = timeline.Assistant, model
			case !userVis:
				// Context goose gives the model only (a compaction
				// summary, a continuation note).
				e.TurnType, e.Text = timeline.System, "agent-only message: "+it.Text
			default:
				e.TurnType = timeline.System
			}
		case "thinking", "reasoning":
			t := it.Thinking
			if it.Type == "reasoning" {
				t = it.Text
			}
			if strings.TrimSpace(t) == "" {
				continue
			}
			e.TurnType, e.Text, e.Model = timeline.Thinking, t, model
		case "redactedThinking":
			e.TurnType, e.Text, e.Model = timeline.Thinking, "[redacted thinking]", model
		case "toolRequest", "frontendToolRequest":
			e.TurnType, e.ToolUseID, e.Model = timeline.ToolUse, it.ID, model
			if it.ToolCall != nil && it.ToolCall.Status == "error" {
				e.Text = "invalid tool call: " + it.ToolCall.Error
			} else if it.ToolCall != nil {
				var p callParams
				_ = json.Unmarshal(it.ToolCall.Value, &p)
				e.ToolName = p.Name
				e.ToolInput = parser.CompactJSON(p.Arguments)
				e.Text = identifying(p.Name, p.Arguments)
			}
			emit(e)
			// the state machine's approval marks the request
			// (ops_tool_approval.rs TOOL_EXECUTABLE_KEY)
			var meta map[string]json.RawMessage
			if json.Unmarshal(it.Meta, &meta) == nil {
				var ok bool
				if json.Unmarshal(meta["goose.executable"], &ok) == nil && meta["goose.executable"] != nil {
					d := derived("executable")
					d.TurnType, d.ToolUseID, d.ToolName = timeline.System, it.ID, e.ToolName
					if ok {
						d.Text = "permission decision: allowed (goose.executable=true)"
					} else {
						d.Text = "permission decision: not allowed to run (goose.executable=false)"
					}
					emit(d)
				}
			}
			continue
		case "toolResponse":
			e.TurnType, e.ToolUseID = timeline.ToolResult, it.ID
			text, isErr := resultText(it.Result)
			e.Text, e.IsError = text, strconv.FormatBool(isErr)
			emit(e)
			if strings.HasPrefix(strings.TrimSpace(text), declinedPrefix) {
				d := derived("decision")
				d.TurnType, d.ToolUseID, d.Text = timeline.System, it.ID, "permission decision: denied source=user"
				emit(d)
			}
			continue
		case "toolConfirmationRequest":
			e.TurnType, e.ToolUseID, e.ToolName = timeline.System, it.ID, it.ToolName
			e.ToolInput = parser.CompactJSON(it.Arguments)
			e.Text = confirmText(it.ToolName, it.Prompt)
		case "actionRequired":
			var d actionData
			_ = json.Unmarshal(it.Data, &d)
			e.TurnType = timeline.System
			switch d.ActionType {
			case "toolConfirmation":
				e.ToolUseID, e.ToolName, e.ToolInput = d.ID, d.ToolName, parser.CompactJSON(d.Arguments)
				e.Text = confirmText(d.ToolName, d.Prompt)
			case "toolConfirmationResponse":
				e.ToolUseID = d.ID
				e.Text = "permission decision: " + permissionWord(d.Permission) + " source=user"
			case "elicitation":
				e.Text = "elicitation: " + d.Message
			case "elicitationResponse":
				e.Text = "elicitation response: " + parser.CompactJSON(d.UserData)
			default:
				e.Text = "action required: " + d.ActionType
			}
		case "image":
			e.TurnType, e.Text = timeline.System, "image: "+it.MimeType
		case "systemNotification":
			e.TurnType, e.Text = timeline.System, "notification: "+it.Msg
		case "contextLengthExceeded":
			e.TurnType, e.Text = timeline.System, "context length exceeded: "+it.Msg
		case "summarizationRequested":
			e.TurnType, e.Text = timeline.System, "summarization requested: "+it.Msg
		case "conversationCompacted":
			e.TurnType, e.Text = timeline.System, "conversation compacted: "+it.Msg
		default:
			out.Problem(line, "unknown content type "+strconv.Quote(it.Type))
			continue
		}
		emit(e)
	}
	return n
}

// permissionWord renders a goose Permission (AllowOnce, AlwaysAllow,
// DenyOnce, AlwaysDeny, Cancel, in either case style) as the decision.
func permissionWord(p string) string {
	switch strings.ToLower(strings.ReplaceAll(p, "_", "")) {
	case "allowonce":
		return "allowed once"
	case "alwaysallow":
		return "allowed always"
	case "denyonce":
		return "denied once"
	case "alwaysdeny":
		return "denied always"
	case "cancel":
		return "cancelled"
	case "":
		return "unknown"
	}
	return p
}

func confirmText(tool string, prompt *string) string {
	s := "permission request: " + tool
	if prompt != nil && *prompt != "" {
		s += " (" + *prompt + ")"
	}
	return s
}

// resultText joins the text of a tool response: value is a list of MCP
// content items (older builds) or a CallToolResult {content, isError}.
func resultText(r *toolResult) (string, bool) {
	if r == nil {
		return "", false
	}
	if r.Status == "error" {
		return r.Error, true
	}
	var items []content
	isErr := false
	v := []byte(r.Value)
	if len(v) > 0 && v[0] == '{' {
		var res struct {
			Content []content `json:"content"`
			IsError bool      `json:"isError"`
		}
		_ = json.Unmarshal(v, &res)
		items, isErr = res.Content, res.IsError
	} else {
		_ = json.Unmarshal(v, &items)
	}
	var parts []string
	for _, c := range items {
		switch {
		case c.Type == "text":
			parts = append(parts, c.Text)
		case c.Type == "image":
			parts = append(parts, "[image "+c.MimeType+"]")
		case c.Resource != nil && c.Resource.Text != "":
			parts = append(parts, c.Resource.Text)
		case c.Resource != nil:
			parts = append(parts, "[resource "+c.Resource.URI+"]")
		}
	}
	return strings.Join(parts, "\n"), isErr
}
