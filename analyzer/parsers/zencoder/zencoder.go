package zencoder

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "zencoder"

// Parsers returns the Zencoder parser.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "zencoder/session", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sessions"},
			Doc:     "sessions/<id>.jsonl: header (session, parent, continuation reason), typed prompts, injected context, reasoning, replies, tool calls and results, permission decisions, turn ends",
		}, parse),
	}
}

type part struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	Tag        string          `json:"tag"`
	Name       string          `json:"name"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	IsError    *bool           `json:"isError"`
}

type record struct {
	Role    *string         `json:"role"`
	ID      string          `json:"id"`
	Created string          `json:"createdAt"`
	Content json.RawMessage `json:"content"`
	Reason  string          `json:"reason"`
	Data    json.RawMessage `json:"data"`
	// header fields
	ChatID  string `json:"chatId"`
	ModelID string `json:"modelId"`
	Parent  string `json:"parentId"`
	Why     string `json:"creationReason"`
	Updated string `json:"updatedAt"`
}

var cwdRe = regexp.MustCompile(`Working directory:[ \t]+([^\r\n]+)`)

// parts decodes a content array; a string is one untagged text part.
func parts(raw json.RawMessage) ([]part, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	if s, ok := parser.JSONString(raw); ok {
		return []part{{Type: "text", Text: s}}, true
	}
	var ps []part
	if json.Unmarshal(raw, &ps) != nil {
		return nil, false
	}
	return ps, true
}

func parse(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sid := strings.TrimSuffix(path.Base(in.Path), ".jsonl")
	var parent, project, model string
	var start, last time.Time
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		base := timeline.Event{SessionID: sid, ParentSessionID: parent, ProjectPath: project, Model: model, SourceLine: n, TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(r.Created); ok {
			base.Time, base.TimeBasis = t, timeline.TimeRecorded
			last = t
		} else if !last.IsZero() {
			base.Time, base.TimeBasis = last, timeline.TimeInherited
		} else if !start.IsZero() {
			base.Time, base.TimeBasis = start, timeline.TimeInherited
		}
		if r.Role == nil {
			if r.ID == "" {
				out.Report(n, parser.KindSkippedRecord, "a record with neither role nor session id")
				return nil
			}
			// The header.
			sid, parent, model = r.ID, r.Parent, r.ModelID
			if t, ok := parser.ParseTime(r.Created); ok {
				start = t
			}
			e := base
			e.SessionID, e.ParentSessionID, e.Model, e.TurnType, e.RecordID = sid, parent, model, timeline.System, sid+"#header"
			txt := []string{"session " + sid}
			for _, kv := range [][2]string{{"chat ", r.ChatID}, {"model ", r.ModelID}, {"created for ", r.Why}, {"parent ", r.Parent}, {"updated ", r.Updated}} {
				if kv[1] != "" {
					txt = append(txt, kv[0]+kv[1])
				}
			}
			e.Text = strings.Join(txt, "; ")
			out.Event(e)
			return nil
		}
		var rows []timeline.Event
		add := func(tt timeline.TurnType, text string) *timeline.Event {
			e := base
			e.TurnType, e.Text = tt, text
			rows = append(rows, e)
			return &rows[len(rows)-1]
		}
		role := *r.Role
		ps, ok := parts(r.Content)
		if !ok {
			out.Problem(n, "a "+role+" message whose content is neither text nor a list of parts")
			return nil
		}
		switch role {
		case "system":
			var all []string
			for _, p := range ps {
				all = append(all, p.Text)
			}
			body := strings.Join(all, "\n")
			if m := cwdRe.FindStringSubmatch(body); m != nil {
				project = strings.TrimSpace(m[1])
			}
			add(timeline.System, body).ProjectPath = project
		case "user":
			var typed []string
			for _, p := range ps {
				switch {
				case p.Type == "text" && (p.Tag == "" || p.Tag == "user-input"):
					typed = append(typed, p.Text)
				case p.Type == "text":
					add(timeline.System, p.Tag+" (injected, not typed): "+p.Text)
				case p.Type == "skill":
					body, _ := parser.JSONString(p.Content)
					add(timeline.System, "skill "+p.Name+" (injected, not typed): "+body)
				default:
					add(timeline.System, "a "+p.Type+" part of the user message: "+parser.CompactJSON(mustJSON(p)))
				}
			}
			if len(typed) > 0 {
				// The typed prompt first, the injected parts after it.
				rows = append([]timeline.Event{base}, rows...)
				rows[0].TurnType, rows[0].Text = timeline.User, strings.Join(typed, "\n")
			}
		case "assistant":
			for _, p := range ps {
				switch p.Type {
				case "text":
					add(timeline.Assistant, p.Text)
				case "reasoning":
					add(timeline.Thinking, p.Text)
				case "tool-call":
					e := add(timeline.ToolUse, headline(p.Input, p.ToolName))
					e.ToolName, e.ToolUseID, e.ToolInput = p.ToolName, p.ToolCallID, parser.CompactJSON(p.Input)
				default:
					add(timeline.System, "a "+p.Type+" part of the assistant message: "+parser.CompactJSON(mustJSON(p)))
				}
			}
		case "tool":
			for _, p := range ps {
				if p.Type != "tool-result" {
					add(timeline.System, "a "+p.Type+" part of the tool message: "+parser.CompactJSON(mustJSON(p)))
					continue
				}
				inner, ok := parts(p.Content)
				var text, injected []string
				for _, c := range inner {
					switch {
					case c.Tag != "":
						injected = append(injected, c.Tag+": "+c.Text)
					case c.Text != "":
						text = append(text, c.Text)
					default:
						text = append(text, parser.CompactJSON(mustJSON(c)))
					}
				}
				if !ok {
					text = []string{parser.CompactJSON(p.Content)}
				}
				e := add(timeline.ToolResult, strings.Join(text, "\n"))
				e.ToolName, e.ToolUseID = p.ToolName, p.ToolCallID
				if p.IsError != nil {
					e.IsError = fmt.Sprint(*p.IsError)
				}
				if len(injected) > 0 {
					add(timeline.System, "injected with the result of "+p.ToolCallID+" (not typed): "+strings.Join(injected, "\n"))
				}
			}
		case "finish":
			reason := r.Reason
			if reason == "" {
				reason = "no reason recorded"
			}
			add(timeline.System, "turn finished: "+reason)
		case "permission":
			var d struct {
				Allowed *bool `json:"allowed"`
			}
			_ = json.Unmarshal(r.Data, &d)
			verdict := "permission decision (no verdict recorded)"
			if d.Allowed != nil && *d.Allowed {
				verdict = "permission allowed"
			} else if d.Allowed != nil {
				verdict = "permission denied"
			}
			add(timeline.System, verdict+": "+parser.CompactJSON(r.Data))
		default:
			out.Report(n, parser.KindSkippedRecord, "a message of role "+role)
			return nil
		}
		if len(rows) == 0 {
			out.Report(n, parser.KindSkippedRecord, "a "+role+" message with no parts")
			return nil
		}
		for i, e := range rows {
			if r.ID != "" {
				e.RecordID = r.ID
				if i > 0 {
					e.RecordID += fmt.Sprintf("#%d", i)
				}
			}
			out.Event(e)
		}
		return nil
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "file_path", "path", "pattern", "url", "query", "prompt", "description")
}
