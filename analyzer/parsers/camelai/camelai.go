package camelai

import (
	"context"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "camel-ai"

// Parsers returns the CAMEL-AI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "camel-ai/chat-history", Agent: agentName, Version: 2, Actions: actions,
			Targets: []string{"project"}, Names: []string{"chat_history.json"},
			Doc: "<project>/chat_history.json, JsonStorage's JSON lines of MemoryRecords (ChatHistoryMemory): system messages, input messages (user rows only under a person's role name), replies, function calls with their arguments and results, by record uuid and agent id",
		}, parseHistory),
	}
}

// record is MemoryRecord.to_dict(): {uuid, message: {__class__,
// role_name, role_type, <meta_dict>, content, func_name, args, result,
// tool_call_id, mask_output}, role_at_backend, extra_info, timestamp,
// agent_id}.
type record struct {
	UUID          string   `json:"uuid"`
	Message       *msg     `json:"message"`
	RoleAtBackend string   `json:"role_at_backend"`
	Timestamp     *float64 `json:"timestamp"`
	AgentID       string   `json:"agent_id"`
}

type msg struct {
	Class      string          `json:"__class__"`
	RoleName   string          `json:"role_name"`
	RoleType   string          `json:"role_type"`
	Content    string          `json:"content"`
	FuncName   string          `json:"func_name"`
	Args       json.RawMessage `json:"args"`
	Result     json.RawMessage `json:"result"`
	ToolCallID string          `json:"tool_call_id"`
}

// person reports whether a role name is one CAMEL gives a person's input
// (BaseMessage.make_user_message(role_name="User") in its examples and
// the CLI); a role-playing AI user carries its task role name instead.
func person(roleName string) bool {
	switch strings.ToLower(strings.TrimSpace(roleName)) {
	case "user", "human":
		return true
	}
	return false
}

func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	project := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var r record
		if err := json.Unmarshal(b, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		line(out, n, project, &r)
		return nil
	})
}

func line(out parser.Sink, n int64, project string, r *record) {
	if r.Message == nil {
		out.Report(n, parser.KindSkippedRecord, "memory record without a message")
		return
	}
	m := r.Message
	base := timeline.Event{SessionID: r.AgentID, ProjectPath: project, SourceLine: n, RecordID: r.UUID}
	if r.Timestamp != nil && *r.Timestamp > 0 && !math.IsInf(*r.Timestamp, 0) {
		sec, frac := math.Modf(*r.Timestamp)
		base.Time = time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	k := 0
	emit := func(tt timeline.TurnType, text string, set func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text = tt, text
		if k > 0 && e.RecordID != "" {
			e.RecordID += "#" + strconv.Itoa(k)
		}
		if set != nil {
			set(&e)
		}
		k++
		out.Event(e)
	}
	content := strings.TrimSpace(m.Content)
	switch r.RoleAtBackend {
	case "system", "developer":
		if content != "" {
			emit(timeline.System, r.RoleAtBackend+" message ("+m.RoleName+"): "+content, nil)
		}
	case "user":
		switch {
		case content == "":
		case person(m.RoleName):
			emit(timeline.User, content, nil)
		default:
			emit(timeline.System, "input from "+m.RoleName+" (role "+m.RoleType+"; an agent's message, not known to be typed by a person): "+content, nil)
		}
	case "assistant":
		if content != "" {
			emit(timeline.Assistant, content, nil)
		}
		if m.FuncName != "" {
			in := parser.CompactJSON(m.Args)
			emit(timeline.ToolUse, callText(m.FuncName, in), func(e *timeline.Event) {
				e.ToolName, e.ToolUseID, e.ToolInput = m.FuncName, m.ToolCallID, in
			})
		}
	case "function", "tool":
		if m.FuncName == "" && m.ToolCallID == "" {
			out.Report(n, parser.KindSkippedRecord, "function result without a function name or call id")
			return
		}
		emit(timeline.ToolResult, parser.JSONText(m.Result), func(e *timeline.Event) {
			e.ToolName, e.ToolUseID = m.FuncName, m.ToolCallID
		})
	default:
		out.Report(n, parser.KindSkippedRecord, "unknown role_at_backend "+strconv.Quote(r.RoleAtBackend))
		return
	}
	if k == 0 {
		out.Skip(n, "no_evidence:empty_message")
	}
}

func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "code", "query", "url", "path", "file_path"} {
			if s, ok := m[k].(string); ok && s != "" {
				return name + ": " + s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}
