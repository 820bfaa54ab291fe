package opencode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseAPIHistory reads the VS Code extension's (Kilo Code before its
// move to the OpenCode-based CLI; a Roo Code / Cline fork)
// tasks/<taskId>/api_conversation_history.json: a JSON array of Anthropic
// MessageParam {role, content, ts?}. SourceLine is the 1-based element
// index; the session id is the task folder name. User text blocks are
// split: <task>/<feedback>/<user_message> wrappers are unwrapped into user
// rows, <environment_details> (and other injected blocks) are system rows,
// and "[tool for 'x'] Result:" texts are id-less tool results (Cline
// style). tool_use and tool_result blocks pair on their ids.
func parseAPIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sid := path.Base(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")))
	dec := json.NewDecoder(rc)
	if tk, err := dec.Token(); err != nil || tk != json.Delim('[') {
		out.Problem(1, parser.NotJSONArray("", nil))
		return nil
	}
	e := &emitter{out: out, agent: in.Agent, sess: sid}
	names := map[string]string{} // tool_use id -> name
	var n int64
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			TS      num             `json:"ts"`
		}
		if err := dec.Decode(&m); err != nil {
			out.Problem(n, "bad element: "+parser.JSONError(err))
			return nil // the decoder cannot resync inside an array
		}
		t := msTime(int64(m.TS))
		if !t.IsZero() {
			e.start = t // an element without ts inherits the last one
		}
		l := loc{line: n}
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			Thinking  string          `json:"thinking"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		c := trimRaw(m.Content)
		if len(c) > 0 && c[0] == '"' {
			blocks = append(blocks, struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				Thinking  string          `json:"thinking"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				Content   json.RawMessage `json:"content"`
				IsError   bool            `json:"is_error"`
			}{Type: "text", Text: parser.JSONText(c)})
		} else if err := json.Unmarshal(c, &blocks); err != nil {
			out.Problem(n, "content: "+parser.JSONError(err))
			continue
		}
		if e.project == "" {
			for _, b := range blocks {
				if m := workspaceRe.FindStringSubmatch(b.Text); b.Type == "text" && m != nil {
					e.project = m[1]
					break
				}
			}
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if m.Role == "assistant" {
					if strings.TrimSpace(b.Text) != "" {
						ev := e.base(t, l)
						ev.TurnType, ev.Text = timeline.Assistant, b.Text
						out.Event(ev)
					}
					continue
				}
				e.userText(t, l, b.Text)
			case "thinking", "reasoning":
				txt := b.Thinking
				if txt == "" {
					txt = b.Text
				}
				if strings.TrimSpace(txt) != "" {
					ev := e.base(t, l)
					ev.TurnType, ev.Text = timeline.Thinking, txt
					out.Event(ev)
				}
			case "tool_use":
				names[b.ID] = b.Name
				ev := e.base(t, l)
				ev.TurnType, ev.ToolName, ev.ToolUseID = timeline.ToolUse, b.Name, b.ID
				ev.ToolInput = parser.CompactJSON(b.Input)
				ev.Text = toolArg(b.Name, b.Input)
				out.Event(ev)
			case "tool_result":
				ev := e.base(t, l)
				ev.TurnType, ev.ToolName, ev.ToolUseID = timeline.ToolResult, names[b.ToolUseID], b.ToolUseID
				ev.Text = contentText(b.Content)
				ev.IsError = fmt.Sprint(b.IsError)
				out.Event(ev)
			case "image":
				e.system(t, l, "attachment: image")
			}
		}
	}
	return nil
}

var (
	wrapRe      = regexp.MustCompile(`(?s)^\s*<(task|feedback|user_message|answer)>\s*(.*?)\s*</(task|feedback|user_message|answer)>\s*$`)
	injectedRe  = regexp.MustCompile(`(?s)^\s*<(environment_details|slash-command|file_content|explicit_instructions|condense|attempt_completion)`)
	toolLegacy  = regexp.MustCompile(`(?s)^\[([a-z_]+)(?: for [^\]]*)?\] Result:`)
	workspaceRe = regexp.MustCompile(`# Current Workspace Directory \(([^)\n]+)\)`)
)

// userText classifies one user text block of an extension task.
func (e *emitter) userText(t time.Time, l loc, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if m := workspaceRe.FindStringSubmatch(text); m != nil && e.project == "" {
		e.project = m[1]
	}
	if m := wrapRe.FindStringSubmatch(text); m != nil {
		ev := e.base(t, l)
		ev.TurnType, ev.Text = timeline.User, m[2]
		e.out.Event(ev)
		return
	}
	if m := toolLegacy.FindStringSubmatch(text); m != nil {
		ev := e.base(t, l)
		ev.TurnType, ev.ToolName, ev.Text = timeline.ToolResult, m[1], text
		ev.IsError = fmt.Sprint(strings.Contains(text, "Result:\nThe tool execution failed") || strings.Contains(text, "[ERROR]"))
		e.out.Event(ev)
		return
	}
	if injectedRe.MatchString(text) || strings.HasPrefix(strings.TrimSpace(text), "[ERROR]") {
		e.system(t, l, text)
		return
	}
	ev := e.base(t, l)
	ev.TurnType, ev.Text = timeline.User, text
	e.out.Event(ev)
}
