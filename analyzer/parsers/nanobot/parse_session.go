package nanobot

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"path"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// record is one line of a session file (nanobot/session/manager.py
// SessionManager.save): a metadata line, a provider_state line, then the
// messages, OpenAI-shaped dicts with a host-local isoformat timestamp.
type record struct {
	Type             string          `json:"_type"`
	Key              string          `json:"key"`
	CreatedAt        string          `json:"created_at"`
	UpdatedAt        string          `json:"updated_at"`
	Metadata         map[string]any  `json:"metadata"`
	LastConsolidated *int            `json:"last_consolidated"`
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	Timestamp        string          `json:"timestamp"`
	ToolCalls        []toolCall      `json:"tool_calls"`
	ToolCallID       string          `json:"tool_call_id"`
	Name             string          `json:"name"`
	Reasoning        *string         `json:"reasoning_content"`
	InjectedEvent    string          `json:"injected_event"`
	SubagentTaskID   string          `json:"subagent_task_id"`
	SenderID         string          `json:"sender_id"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// localChannels are session key channels that are not a chat platform:
// a session of any other channel was relayed through that platform.
var localChannels = map[string]bool{"cli": true, "websocket": true, "webui": true, "api": true, "sdk": true, "cron": true, "trigger": true, "heartbeat": true, "system": true, "subagent": true}

// keyFromPath is the session key a file name gives: the base64url storage
// key of current builds, the legacy safe_key ("channel_chat") otherwise;
// a .migration-conflicts copy is "<stem>.<label>.<digest>.<hex>.jsonl".
func keyFromPath(p string) string {
	stem := strings.TrimSuffix(base(p), ".jsonl")
	if strings.Contains(slashPath(p), "/.migration-conflicts/") {
		stem, _, _ = strings.Cut(stem, ".")
	}
	if b, err := base64.RawURLEncoding.DecodeString(stem); err == nil && base64.RawURLEncoding.EncodeToString(b) == stem && strings.Contains(string(b), ":") {
		return string(b)
	}
	return stem
}

// workspaceOf reads the .workspace marker beside a session file (the
// workspace path the session namespace belongs to).
func workspaceOf(in *parser.Input) string {
	dir := path.Dir(slashPath(in.Path))
	if strings.HasSuffix(dir, "/jsonl-backup") {
		dir = path.Dir(dir)
	}
	b, err := parser.ReadRelated(in, dir+"/.workspace", 64<<10)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	p := slashPath(in.Path)
	sid := keyFromPath(p)
	project := workspaceOf(in)
	names := map[string]string{}
	stated := false
	state := func(key string) {
		if stated || key == "" {
			return
		}
		stated = true
		ch, chat, _ := strings.Cut(key, ":")
		st := timeline.SessionState{Key: timeline.SessionKey{Agent: agentName, SessionID: key}, Relayed: "no"}
		if !localChannels[ch] && chat != "" {
			st.Relayed = "yes"
		}
		out.Session(st)
	}
	note := ""
	switch {
	case strings.Contains(p, "/.migration-conflicts/"):
		note = " (an older copy archived as a migration conflict)"
	case strings.Contains(p, "/jsonl-backup/"):
		note = " (a JSONL backup beside sessions.sqlite3, which imported it)"
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if len(objs) == 0 {
			out.Problem(n, parser.BadJSONLine(nil))
			return nil
		}
		if len(objs) > 1 || lost {
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), lost))
		}
		for _, raw := range objs {
			var r record
			if err := json.Unmarshal(raw, &r); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			ev := func(tt timeline.TurnType, text string) timeline.Event {
				e := timeline.Event{SessionID: sid, ProjectPath: project, TurnType: tt, Text: text, SourceLine: n}
				setLocal(&e, r.Timestamp)
				return e
			}
			switch r.Type {
			case "metadata":
				if r.Key != "" {
					sid = r.Key
				}
				state(sid)
				e := ev(timeline.System, "session: "+sid+note)
				setLocal(&e, r.CreatedAt)
				if t, ok := r.Metadata["title"].(string); ok && t != "" {
					e.Text += "; title: " + t
				}
				if r.LastConsolidated != nil && *r.LastConsolidated > 0 {
					e.Text += fmt.Sprintf("; %d earlier message(s) consolidated into memory", *r.LastConsolidated)
				}
				ch, chat, _ := strings.Cut(sid, ":")
				if !localChannels[ch] && chat != "" {
					e.Text += "; relayed through " + ch + " chat " + chat
				}
				out.Event(e)
				if m, ok := r.Metadata["_nanobot_model_preset"].(string); ok && m != "" {
					me := e
					me.Text = "model preset: " + m
					me.RecordID = ""
					out.Event(me)
				}
				continue
			case "provider_state":
				out.Skip(n, "state_only")
				continue
			case "":
			default:
				out.Report(n, parser.KindSkippedRecord, "unknown record type "+r.Type)
				continue
			}
			state(sid)
			emitted := 0
			emit := func(e timeline.Event) { emitted++; out.Event(e) }
			text := contentText(r.Content)
			switch r.Role {
			case "user":
				if r.SenderID == "cron" {
					emit(ev(timeline.System, "automation prompt: "+text))
				} else {
					emit(ev(timeline.User, text))
				}
			case "assistant":
				if r.Reasoning != nil && strings.TrimSpace(*r.Reasoning) != "" {
					emit(ev(timeline.Thinking, *r.Reasoning))
				}
				if r.InjectedEvent != "" {
					if strings.TrimSpace(text) != "" {
						emit(ev(timeline.System, fmt.Sprintf("%s (task %s): %s", strings.ReplaceAll(r.InjectedEvent, "_", " "), r.SubagentTaskID, text)))
					}
				} else if strings.TrimSpace(text) != "" {
					emit(ev(timeline.Assistant, text))
				}
				for _, c := range r.ToolCalls {
					e := ev(timeline.ToolUse, "")
					e.ToolName, e.ToolUseID, e.RecordID = c.Function.Name, c.ID, c.ID
					e.ToolInput = argsJSON(c.Function.Arguments)
					e.Text = callText(e.ToolName, e.ToolInput)
					names[c.ID] = c.Function.Name
					emit(e)
				}
			case "tool":
				e := ev(timeline.ToolResult, text)
				e.ToolUseID, e.ToolName = r.ToolCallID, r.Name
				if e.ToolName == "" {
					e.ToolName = names[r.ToolCallID]
				}
				if r.ToolCallID != "" {
					e.RecordID = r.ToolCallID + "#output"
				}
				e.IsError = fmt.Sprint(strings.HasPrefix(text, "Error"))
				emit(e)
			case "system":
				emit(ev(timeline.System, text))
			default:
				out.Report(n, parser.KindSkippedRecord, "message without a known role: "+r.Role)
				continue
			}
			if emitted == 0 {
				out.Skip(n, "no_evidence:empty_"+r.Role)
			}
		}
		return nil
	})
	return err
}

// argsJSON is a call's arguments as compact JSON (OpenAI sends a JSON
// string holding JSON).
func argsJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
	}
	return parser.CompactJSON(raw)
}

// callText picks a call's telling argument (exec's command, a file
// tool's path, a search query), else the arguments.
func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "path", "file_path", "query", "url", "task"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}
