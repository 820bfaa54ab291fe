package vscode

import (
	"context"
	"fmt"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Copilot Chat's session transcripts,
// User/workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl
// (microsoft/vscode-copilot-chat
// src/extension/chat/vscode-node/sessionTranscriptService.ts at
// 31acd00a86424e2ee6e980e54919cf31fbf88030): one entry per line, {type,
// data, id, timestamp, parentId}, of the types session.start,
// user.message, assistant.turn_start, assistant.message (content,
// toolRequests, reasoningText), tool.execution_start,
// tool.execution_complete (success, result.content) and
// assistant.turn_end. The extension keeps the 20 newest; the chat
// session file is the store of record, so every row is secondary.

type trEntry struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
}

// parseCopilotTranscript is vscode/copilot-transcript.
func parseCopilotTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	sid := strings.TrimSuffix(base(in.Path), ".jsonl")
	project := ""
	if d := storageDir(in.Path); d != "" {
		project = workspaceProject(in, d)
	}
	requested := map[string]bool{} // tool calls an assistant.message asked for
	names := map[string]string{}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var e trEntry
		if err := json.Unmarshal(line, &e); err != nil || e.Type == "" {
			out.Problem(n, "not a transcript entry (no type)")
			return nil
		}
		var d map[string]any
		if v, err := decodeBytes(e.Data); err == nil {
			d = obj(v)
		}
		t, terr := time.Parse(time.RFC3339Nano, e.Timestamp)
		k := 0
		row := func(ev timeline.Event) {
			ev.SessionID, ev.ProjectPath, ev.SourceLine, ev.Secondary = sid, project, n, true
			if terr == nil {
				ev.Time = t.UTC()
			} else {
				ev.TimeBasis = timeline.TimeNone
			}
			if e.ID != "" {
				ev.RecordID = "transcript:" + e.ID + "#" + fmt.Sprint(k)
			}
			k++
			out.Event(ev)
		}
		switch e.Type {
		case "session.start":
			if s := str(d["sessionId"]); s != "" {
				sid = s
			}
			txt := "copilot chat transcript: session start"
			var parts []string
			for _, f := range []string{"producer", "copilotVersion", "vscodeVersion"} {
				if v := str(d[f]); v != "" {
					parts = append(parts, f+"="+v)
				}
			}
			if cwd := str(get(d, "context", "cwd")); cwd != "" {
				parts = append(parts, "cwd="+cwd)
				if project == "" {
					project = cwd
				}
			}
			if len(parts) > 0 {
				txt += " (" + strings.Join(parts, " ") + ")"
			}
			row(timeline.Event{TurnType: timeline.System, Text: txt})
		case "user.message":
			if c := str(d["content"]); strings.TrimSpace(c) != "" {
				row(timeline.Event{TurnType: timeline.User, Text: c})
			}
			for _, a := range arr(d["attachments"]) {
				row(timeline.Event{TurnType: timeline.System, Text: "attachment: " + parser.JSONValue(a)})
			}
		case "assistant.message":
			if r := str(d["reasoningText"]); strings.TrimSpace(r) != "" {
				row(timeline.Event{TurnType: timeline.Thinking, Text: r})
			}
			if c := str(d["content"]); strings.TrimSpace(c) != "" {
				row(timeline.Event{TurnType: timeline.Assistant, Text: c})
			}
			for _, x := range arr(d["toolRequests"]) {
				tr := obj(x)
				id, name := str(tr["toolCallId"]), str(tr["name"])
				args := tr["arguments"]
				input := parser.JSONValue(args)
				if s, ok := args.(string); ok {
					input = compactString(s)
					if v, err := decodeBytes([]byte(s)); err == nil {
						args = v
					}
				}
				requested[id], names[id] = true, name
				row(timeline.Event{TurnType: timeline.ToolUse, ToolName: name, ToolUseID: id, Text: toolText(obj(args)), ToolInput: input})
			}
		case "tool.execution_start":
			id := str(d["toolCallId"])
			if requested[id] {
				break // the call its assistant.message already gave
			}
			name := str(d["toolName"])
			names[id] = name
			row(timeline.Event{TurnType: timeline.ToolUse, ToolName: name, ToolUseID: id, Text: toolText(obj(d["arguments"])), ToolInput: parser.JSONValue(d["arguments"])})
		case "tool.execution_complete":
			id := str(d["toolCallId"])
			isErr := "false"
			if b, ok := d["success"].(bool); ok && !b {
				isErr = "true"
			}
			row(timeline.Event{TurnType: timeline.ToolResult, ToolName: names[id], ToolUseID: id, Text: str(get(d, "result", "content")), IsError: isErr})
		case "assistant.turn_start", "assistant.turn_end":
		default:
			row(timeline.Event{TurnType: timeline.System, Text: "transcript entry: " + e.Type})
		}
		if k == 0 {
			out.Skip(n, "state_only")
		}
		return nil
	})
}
