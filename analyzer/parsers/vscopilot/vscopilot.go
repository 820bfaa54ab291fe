package vscopilot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "visualstudio-copilot"

// Parsers returns the Visual Studio Copilot trace parser.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "visualstudio-copilot/traces", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"traces"}, Names: []string{"*_VSGitHubCopilot_traces.jsonl"},
			Doc: "VSGitHubCopilotLogs/traces/*_VSGitHubCopilot_traces.jsonl OpenTelemetry spans: prompts (one per request), replies, tool calls with arguments and results, token usage per chat span, agent mode",
		}, parse),
	}
}

type attrValue struct {
	String *string          `json:"stringValue"`
	Int    *json.RawMessage `json:"intValue"`
	Bool   *bool            `json:"boolValue"`
	Double *float64         `json:"doubleValue"`
}

type span struct {
	TraceID string `json:"traceId"`
	SpanID  string `json:"spanId"`
	Name    string `json:"name"`
	Start   string `json:"startTimeUnixNano"`
	Attrs   []struct {
		Key   string    `json:"key"`
		Value attrValue `json:"value"`
	} `json:"attributes"`
}

type line struct {
	ResourceSpans []struct {
		ScopeSpans []struct {
			Spans []span `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type chatMessage struct {
	Role  string `json:"role"`
	Parts []struct {
		Type      string          `json:"type"`
		Content   string          `json:"content"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"parts"`
}

func (s *span) attrs() map[string]string {
	m := map[string]string{}
	for _, a := range s.Attrs {
		v := a.Value
		switch {
		case v.String != nil:
			m[a.Key] = *v.String
		case v.Int != nil:
			m[a.Key] = strings.Trim(string(*v.Int), `"`)
		case v.Bool != nil:
			m[a.Key] = strconv.FormatBool(*v.Bool)
		case v.Double != nil:
			m[a.Key] = strconv.FormatFloat(*v.Double, 'g', -1, 64)
		}
	}
	return m
}

func conversationID(id string) string {
	if len(id) == 36 && strings.Count(id, "-") == 4 {
		return strings.ToLower(id)
	}
	return id
}

func parse(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		any := false
		for _, rs := range l.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for i := range ss.Spans {
					any = true
					readSpan(&ss.Spans[i], n, out)
				}
			}
		}
		if !any {
			out.Report(n, parser.KindSkippedRecord, "a trace line with no spans")
		}
		return nil
	})
}

func readSpan(s *span, n int64, out parser.Sink) {
	a := s.attrs()
	sid := conversationID(a["gen_ai.conversation.id"])
	if sid == "" {
		out.Report(n, parser.KindSkippedRecord, "span "+strconv.Quote(s.Name)+" ("+s.SpanID+") names no conversation")
		return
	}
	base := timeline.Event{SessionID: sid, SourceLine: n, TimeBasis: timeline.TimeNone}
	if ns, err := strconv.ParseInt(s.Start, 10, 64); err == nil && ns > 0 {
		base.Time, base.TimeBasis = time.Unix(0, ns).UTC(), timeline.TimeRecorded
	}
	base.Model = a["gen_ai.response.model"]
	if base.Model == "" {
		base.Model = a["gen_ai.request.model"]
	}
	emit := func(tt timeline.TurnType, text, rec string) *timeline.Event {
		e := base
		e.TurnType, e.Text, e.RecordID = tt, text, rec
		return &e
	}
	switch {
	case a["gen_ai.tool.name"] != "":
		name, id := a["gen_ai.tool.name"], a["gen_ai.tool.call.id"]
		if id == "" {
			id = "span-" + s.SpanID
		}
		// the call as this span ran it: a chat span that named the call
		// gave a row of the same id, and the correlate stage keeps one
		// (other arguments under one id: both kept, a duplicate_id problem)
		e := emit(timeline.ToolUse, headline(a["gen_ai.tool.call.arguments"], name), id)
		e.ToolName, e.ToolUseID, e.ToolInput = name, id, parser.CompactJSON([]byte(a["gen_ai.tool.call.arguments"]))
		out.Event(*e)
		r := emit(timeline.ToolResult, a["gen_ai.tool.call.result"], id+"#result")
		r.ToolName, r.ToolUseID = name, id
		out.Event(*r)
	case a["gen_ai.operation.name"] == "chat" || strings.HasPrefix(s.Name, "chat "):
		rows := 0
		root := a["copilot_chat.root_request_id"]
		if root == "" {
			root = s.TraceID
		}
		if p := lastUser(a["gen_ai.input.messages"]); p != "" {
			// every step of a turn repeats its prompt under the request's
			// id: the correlate stage keeps one row per id and content
			out.Event(*emit(timeline.User, p, root+"#prompt"))
			rows++
		}
		var msgs []chatMessage
		_ = json.Unmarshal([]byte(a["gen_ai.output.messages"]), &msgs)
		k := 0
		for _, m := range msgs {
			if m.Role != "assistant" {
				continue
			}
			for _, p := range m.Parts {
				switch p.Type {
				case "text":
					if strings.TrimSpace(p.Content) == "" {
						continue
					}
					out.Event(*emit(timeline.Assistant, p.Content, fmt.Sprintf("%s#%d", s.SpanID, k)))
					k++
				case "tool_call":
					id := p.ID
					if id == "" {
						continue
					}
					args := p.Arguments
					if str, ok := parser.JSONString(args); ok {
						args = json.RawMessage(str)
					}
					e := emit(timeline.ToolUse, headline(string(args), p.Name), id)
					e.ToolName, e.ToolUseID, e.ToolInput = p.Name, id, parser.CompactJSON(args)
					out.Event(*e)
					k++
				}
			}
		}
		// the call's accounting: OpenTelemetry's gen_ai.usage counters, as
		// recorded (a counter the span lacks is left out)
		var use []string
		for _, c := range []struct{ name, key string }{{"input", "gen_ai.usage.input_tokens"}, {"output", "gen_ai.usage.output_tokens"}} {
			if v := a[c.key]; v != "" {
				use = append(use, c.name+" "+v)
			}
		}
		if len(use) > 0 {
			out.Event(*emit(timeline.System, "token usage: "+strings.Join(use, ", "), s.SpanID+"#usage"))
			k++
		}
		if rows+k == 0 {
			out.Skip(n, "no_evidence:chat_span")
		}
	case strings.HasPrefix(s.Name, "invoke_agent"):
		text := "agent invoked: " + s.Name
		if m := a["copilot_chat.mode"]; m != "" {
			text += " mode=" + m
		}
		out.Event(*emit(timeline.System, text, s.SpanID))
	default:
		out.Skip(n, "no_evidence:span")
	}
}

// lastUser is the text of the last user message of gen_ai.input.messages.
func lastUser(raw string) string {
	var msgs []chatMessage
	if json.Unmarshal([]byte(raw), &msgs) != nil {
		return ""
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		var parts []string
		for _, p := range msgs[i].Parts {
			if c := strings.TrimSpace(p.Content); c != "" {
				parts = append(parts, c)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

func headline(args, name string) string {
	return parser.ArgHeadline([]byte(args), name, "command", "filePath", "file_path", "path", "query", "url", "pattern")
}
