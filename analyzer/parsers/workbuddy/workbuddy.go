package workbuddy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "workbuddy"

// Parsers returns the WorkBuddy parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "workbuddy/session", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: "projects/<project>/<session>.jsonl and <session>/subagents/<agent>.jsonl: typed prompts, replies, reasoning, tool calls and results (subagents as their own sessions with the parent)",
		}, parse),
		parser.New(parser.Spec{
			ID: "workbuddy/tool-result", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"tool-results"},
			Doc:     "projects/<project>/<session>/tool-results/<file>: a tool output saved aside (one tool_result row, file mtime, first 64 KiB)",
		}, parseToolResult),
	}
}

type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type record struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Timestamp json.Number     `json:"timestamp"`
	SessionID string          `json:"sessionId"`
	Cwd       string          `json:"cwd"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	Name      string          `json:"name"`
	CallID    string          `json:"callId"`
	Arguments json.RawMessage `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Status    string          `json:"status"`
	Provider  struct {
		Model    string          `json:"model"`
		Usage    json.RawMessage `json:"usage"`
		RawUsage json.RawMessage `json:"rawUsage"`
	} `json:"providerData"`
}

// sessionOf gives the session and parent of a transcript from its path:
// projects/<project>/<sid>.jsonl or projects/<project>/<sid>/subagents/<agent>.jsonl.
func sessionOf(p string) (sid, parent string) {
	stem := strings.TrimSuffix(path.Base(p), ".jsonl")
	dir := path.Dir(p)
	if path.Base(dir) == "subagents" {
		parent = path.Base(path.Dir(dir))
		return parent + "/" + stem, parent
	}
	return stem, ""
}

// parts decodes a content value; a string is one text part.
func parts(raw json.RawMessage) ([]json.RawMessage, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	if s, ok := parser.JSONString(raw); ok {
		b, _ := json.Marshal(part{Type: "text", Text: s})
		return []json.RawMessage{b}, true
	}
	var ps []json.RawMessage
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
	sid, parent := sessionOf(in.Path)
	var project string
	var last time.Time
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if r.SessionID != "" && parent == "" {
			sid = r.SessionID
		}
		if r.Cwd != "" {
			project = r.Cwd
		}
		base := timeline.Event{SessionID: sid, ParentSessionID: parent, ProjectPath: project, Model: r.Provider.Model, SourceLine: n, TimeBasis: timeline.TimeNone}
		if v, err := r.Timestamp.Int64(); err == nil && v > 0 {
			base.Time, base.TimeBasis = time.UnixMilli(v).UTC(), timeline.TimeRecorded
			last = base.Time
		} else if !last.IsZero() {
			base.Time, base.TimeBasis = last, timeline.TimeInherited
		}
		var rows []timeline.Event
		add := func(tt timeline.TurnType, text string) *timeline.Event {
			e := base
			e.TurnType, e.Text = tt, text
			rows = append(rows, e)
			return &rows[len(rows)-1]
		}
		what := r.Type
		switch r.Type {
		case "message":
			what = "message of role " + r.Role
			ps, ok := parts(r.Content)
			if !ok {
				out.Problem(n, "a "+r.Role+" message whose content is neither text nor a list of parts")
				return nil
			}
			var tt timeline.TurnType
			switch r.Role {
			case "user":
				tt = timeline.User
			case "assistant":
				tt = timeline.Assistant
			case "system", "developer":
				tt = timeline.System
			default:
				out.Report(n, parser.KindSkippedRecord, "a message of role "+r.Role)
				return nil
			}
			var text []string
			var other []string
			for _, raw := range ps {
				var p part
				_ = json.Unmarshal(raw, &p)
				switch p.Type {
				case "text", "input_text", "output_text":
					text = append(text, p.Text)
				case "refusal":
					other = append(other, "refusal: "+parser.CompactJSON(raw))
				default:
					other = append(other, "a "+p.Type+" part of the "+r.Role+" message: "+parser.CompactJSON(raw))
				}
			}
			if len(text) > 0 {
				add(tt, strings.Join(text, "\n"))
			}
			for _, o := range other {
				add(timeline.System, o)
			}
		case "reasoning":
			var text []string
			for _, raw := range [][]byte{r.Content, r.Summary} {
				ps, _ := parts(raw)
				for _, pr := range ps {
					var p part
					if json.Unmarshal(pr, &p) == nil && p.Text != "" {
						text = append(text, p.Text)
					}
				}
			}
			if len(text) == 0 {
				out.Skip(n, "no_evidence:reasoning")
				return nil
			}
			add(timeline.Thinking, strings.Join(text, "\n"))
		case "function_call":
			args := r.Arguments
			if s, ok := parser.JSONString(args); ok {
				args = json.RawMessage(s)
			}
			e := add(timeline.ToolUse, headline(args, r.Name))
			e.ToolName, e.ToolUseID, e.ToolInput = r.Name, r.CallID, parser.CompactJSON(args)
		case "function_call_result":
			text := parser.JSONText(r.Output)
			var o struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if json.Unmarshal(r.Output, &o) == nil && o.Type == "text" {
				text = o.Text
			}
			e := add(timeline.ToolResult, text)
			e.ToolName, e.ToolUseID = r.Name, r.CallID
			if r.Status != "" {
				e.IsError = fmt.Sprint(r.Status != "completed")
			}
		default:
			out.Report(n, parser.KindSkippedRecord, "an item \""+r.Type+"\" (not a message, reasoning or function call)")
			return nil
		}
		if len(rows) > 0 {
			if u := usageText(r.Provider.Usage, r.Provider.RawUsage); u != "" {
				add(timeline.System, u)
			}
		}
		if len(rows) == 0 {
			out.Report(n, parser.KindSkippedRecord, "a "+what+" with no text")
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

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "file_path", "path", "pattern", "url", "query", "prompt", "description")
}

// resultLimit bounds the text one saved tool output gives.
const resultLimit = 64 << 10

// parseToolResult reads a tool output WorkBuddy saved aside: one
// tool_result row of the session named by the folder, at the file's mtime.
// The call it answers is not recorded in the file or its name, so the row
// carries no tool_use_id.
func parseToolResult(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, resultLimit+1))
	if err != nil {
		return err
	}
	text := string(b)
	if len(b) > resultLimit {
		cut := resultLimit
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		text = string(b[:cut]) + fmt.Sprintf("\n[cut at %d of %d bytes]", cut, in.Size)
	}
	// projects/<project>/<sid>/tool-results/<file>
	dir := path.Dir(path.Dir(in.Path))
	e := timeline.Event{
		SessionID: path.Base(dir), TurnType: timeline.ToolResult, SourceLine: 1,
		Text: "tool output saved aside as " + in.Base() + ":\n" + text,
		Time: in.MTime, TimeBasis: timeline.TimeFileMTime,
		RecordID: "tool-results/" + in.Base(),
	}
	if in.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
	return nil
}

// usageText is providerData.usage (else rawUsage, the provider's own
// object) as "token usage: <counter> N, ...": every number in it under
// its own name (nested objects as a.b), in name order, so whichever
// vocabulary the provider used (inputTokens, prompt_tokens,
// prompt_tokens_details.cached_tokens, ...) is named as written; "" when
// neither holds a number.
func usageText(usage, raw json.RawMessage) string {
	var parts []string
	for _, u := range []json.RawMessage{usage, raw} {
		var m map[string]json.RawMessage
		if len(u) == 0 || json.Unmarshal(u, &m) != nil {
			continue
		}
		flatten("", m, &parts)
		if len(parts) > 0 {
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return "token usage: " + strings.Join(parts, ", ")
}

func flatten(prefix string, m map[string]json.RawMessage, parts *[]string) {
	for k, v := range m {
		var num json.Number
		var sub map[string]json.RawMessage
		switch {
		case json.Unmarshal(v, &num) == nil:
			*parts = append(*parts, prefix+k+" "+num.String())
		case json.Unmarshal(v, &sub) == nil:
			flatten(prefix+k+".", sub, parts)
		}
	}
}
