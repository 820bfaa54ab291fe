package deepseekharness

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"
	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "deepseek-harness"

// Parsers returns the DeepSeek Harness parser.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "deepseek-harness/session", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"session.jsonl", "session.jsonl.zstd"},
			Doc: ".dsh/sessions/<project>/<id>/session.jsonl(.zstd) event logs: typed prompts, injected messages, reasoning, replies, tool calls and results, approvals and permission modes, titles, compactions, subagents, conversation edits",
		}, parse),
	}
}

type header struct {
	Type    string      `json:"type"`
	Version json.Number `json:"version"`
	ID      string      `json:"id"`
	Created json.Number `json:"createdAt"`
	Cwd     string      `json:"cwd"`
	Parent  string      `json:"parentSession"`
	Origin  string      `json:"origin"`
	Depth   json.Number `json:"delegationDepth"`
	Preset  string      `json:"agentPreset"`
}

type event struct {
	Type      string          `json:"type"`
	Seq       json.Number     `json:"seq"`
	Time      json.Number     `json:"time"`
	Data      json.RawMessage `json:"data"`
	SurfaceOp json.RawMessage `json:"surfaceOp"`
	Ignorable bool            `json:"ignorable"`
}

type message struct {
	ID     string `json:"id"`
	Role   string `json:"role"`
	Source struct {
		Kind  string `json:"kind"`
		Model string `json:"model"`
	} `json:"source"`
	Content []block `json:"content"`
}

type block struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Arguments  string          `json:"arguments"`
	ToolCallID string          `json:"toolCallId"`
	IsError    *bool           `json:"isError"`
	Content    json.RawMessage `json:"content"`
}

// systemEvents are the event types given as a system row with their data.
var systemEvents = map[string]string{
	"approval/asked": "approval asked", "approval/decided": "approval decided", "approval/policy": "approval policy",
	"permission/preset": "permission preset", "sandbox/mode": "sandbox mode", "plan/mode": "plan mode",
	"goal/change": "goal", "session/title": "session title", "compaction/start": "compaction started",
	"compaction/end": "compaction ended", "compaction/prune": "compaction pruned", "compaction/summary": "compaction summary",
	"subagent/descriptor": "subagent", "command/run": "command run", "command/done": "command done",
	"hook/invoked": "hook invoked", "hook/result": "hook result", "feedback/record": "feedback",
	"schedule/change": "schedule", "agent-preset/selected": "agent preset", "todo/write": "todo list",
	"tool-workflow/agent-start": "tool workflow agent started", "tool-workflow/agent-end": "tool workflow agent ended",
	"tool-workflow/run-start": "tool workflow started", "tool-workflow/run-end": "tool workflow ended",
	"agent/inbox/spliced": "message spliced into the agent's inbox", "session/end-seed": "seed ended",
	"tool/code-dispatch": "code dispatched", "tool/code-dispatch-start": "code dispatch started",
}

// stateEvents carry state the rows already hold.
var stateEvents = map[string]bool{
	"turn/start": true, "step/start": true, "step/end": true, "request/header": true, "request/context": true,
	"llm/retry": true, "llm/retry-started": true, "session/title-llm-request": true, "web/deepseek-search-llm-request": true,
}

func msTime(n json.Number) (time.Time, bool) {
	v, err := n.Int64()
	if err != nil || v <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(v).UTC(), true
}

type zstdCloser struct {
	dec   *zstd.Decoder
	under io.Closer
}

func (z *zstdCloser) Read(p []byte) (int, error) { return z.dec.Read(p) }
func (z *zstdCloser) Close() error               { z.dec.Close(); return z.under.Close() }

func parse(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	var r io.ReadCloser = rc
	if strings.HasSuffix(in.Path, ".zstd") {
		dec, err := zstd.NewReader(rc, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(64<<20))
		if err != nil {
			rc.Close()
			return fmt.Errorf("zstd: %w", err)
		}
		r = &zstdCloser{dec: dec, under: rc}
	}
	defer r.Close()
	var sid, parent, project string
	first := true
	err = parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		if first {
			first = false
			var h header
			if err := json.Unmarshal(line, &h); err == nil && h.Type == "session" {
				sid, parent, project = h.ID, h.Parent, h.Cwd
				if v := h.Version.String(); v != "0" {
					out.Problem(n, "session header of format version "+v+" (this reader knows 0): the events are read as version 0's")
				}
				e := timeline.Event{SessionID: sid, ParentSessionID: parent, ProjectPath: project, SourceLine: n, TurnType: timeline.System, RecordID: sid + "/header", TimeBasis: timeline.TimeNone}
				if t, ok := msTime(h.Created); ok {
					e.Time, e.TimeBasis = t, timeline.TimeRecorded
				}
				txt := []string{"session " + sid}
				for _, kv := range [][2]string{{"cwd ", h.Cwd}, {"parent ", h.Parent}, {"origin ", h.Origin}, {"delegation depth ", h.Depth.String()}, {"agent preset ", h.Preset}} {
					if kv[1] != "" {
						txt = append(txt, kv[0]+kv[1])
					}
				}
				e.Text = strings.Join(txt, "; ")
				out.Event(e)
				return nil
			}
			out.Problem(n, "no session header on the first line")
		}
		var ev event
		if err := json.Unmarshal(line, &ev); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if sid == "" {
			// Cut before the header: the folder names the session.
			p := strings.ReplaceAll(in.Path, "\\", "/")
			if i := strings.LastIndex(p, "/"); i > 0 {
				d := p[:i]
				sid = d[strings.LastIndex(d, "/")+1:]
			}
		}
		readEvent(n, &ev, sid, parent, project, out)
		return nil
	})
	if err != nil && strings.HasSuffix(in.Path, ".zstd") && ctx.Err() == nil {
		// A torn last frame: what came before it was read.
		out.Problem(0, "zstd stream ends in a damaged frame (the events before it were read): "+err.Error())
		return nil
	}
	return err
}

func readEvent(n int64, ev *event, sid, parent, project string, out parser.Sink) {
	seq := ev.Seq.String()
	base := timeline.Event{SessionID: sid, ParentSessionID: parent, ProjectPath: project, SourceLine: n, TimeBasis: timeline.TimeNone}
	if t, ok := msTime(ev.Time); ok {
		base.Time, base.TimeBasis = t, timeline.TimeRecorded
	}
	k := 0
	emit := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		e.RecordID = sid + "/" + seq
		if k > 0 {
			e.RecordID += fmt.Sprintf("#%d", k)
		}
		k++
		return &e
	}
	switch {
	case strings.HasSuffix(ev.Type, "-chunks") || ev.Type == "assistant/chunk":
		out.Skip(n, "stream_chunk")
		return
	case stateEvents[ev.Type]:
		out.Skip(n, "state_only")
		return
	}
	switch ev.Type {
	case "user/message", "assistant/message", "tool/result":
		raw := ev.Data
		var wrap struct {
			Message json.RawMessage `json:"message"`
			Usage   *struct {
				Input      *int64 `json:"inputTokens"`
				Output     *int64 `json:"outputTokens"`
				CacheRead  *int64 `json:"cacheReadTokens"`
				CacheWrite *int64 `json:"cacheWriteTokens"`
				Reasoning  *int64 `json:"reasoningTokens"`
			} `json:"usage"`
		}
		if ev.Type != "user/message" {
			if json.Unmarshal(ev.Data, &wrap) != nil || len(wrap.Message) == 0 {
				out.Problem(n, ev.Type+" event without a message")
				return
			}
			raw = wrap.Message
		}
		var m message
		if err := json.Unmarshal(raw, &m); err != nil {
			out.Problem(n, parser.NotJSONObject(ev.Type+" message", err))
			return
		}
		base.Model = m.Source.Model
		switch ev.Type {
		case "user/message":
			text := blocksText(m.Content)
			if m.Source.Kind == "user" {
				out.Event(*emit(timeline.User, text))
			} else {
				out.Event(*emit(timeline.System, m.Source.Kind+" message (not typed): "+text))
			}
		case "assistant/message":
			for _, b := range m.Content {
				switch b.Type {
				case "reasoning":
					out.Event(*emit(timeline.Thinking, b.Text))
				case "text":
					out.Event(*emit(timeline.Assistant, b.Text))
				case "image":
					out.Event(*emit(timeline.Assistant, "[image]"))
				case "tool-call":
					e := emit(timeline.ToolUse, headline(b.Arguments, b.Name))
					e.ToolName, e.ToolUseID, e.ToolInput = b.Name, b.ID, parser.CompactJSON([]byte(b.Arguments))
					callID(e, sid, b.ID)
					out.Event(*e)
				default:
					out.Event(*emit(timeline.System, "a "+b.Type+" block of the reply"))
				}
			}
			if u := wrap.Usage; u != nil {
				var c []string
				for _, f := range []struct {
					name string
					v    *int64
				}{{"input", u.Input}, {"output", u.Output}, {"cache read", u.CacheRead}, {"cache write", u.CacheWrite}, {"reasoning", u.Reasoning}} {
					if f.v != nil {
						c = append(c, f.name+" "+strconv.FormatInt(*f.v, 10))
					}
				}
				if len(c) > 0 {
					out.Event(*emit(timeline.System, "token usage: "+strings.Join(c, ", ")))
				}
			}
		case "tool/result":
			for _, b := range m.Content {
				if b.Type != "tool-result" {
					out.Event(*emit(timeline.System, "a "+b.Type+" block of the tool result: "+b.Text))
					continue
				}
				var inner []block
				_ = json.Unmarshal(b.Content, &inner)
				e := emit(timeline.ToolResult, blocksText(inner))
				e.ToolUseID = b.ToolCallID
				if b.IsError != nil {
					e.IsError = strconv.FormatBool(*b.IsError)
				}
				out.Event(*e)
			}
		}
		if k == 0 {
			out.Skip(n, "no_evidence:"+ev.Type)
		}
	case "tool/call":
		var c struct {
			CallID    string `json:"callId"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		}
		_ = json.Unmarshal(ev.Data, &c)
		// The message's tool-call block and this echo are one call: both
		// rows carry the call's identity and the correlate stage keeps one
		// (two arguments under one call id are both kept, a duplicate_id
		// problem).
		e := emit(timeline.ToolUse, headline(c.Arguments, c.Name))
		e.ToolName, e.ToolUseID, e.ToolInput = c.Name, c.CallID, parser.CompactJSON([]byte(c.Arguments))
		callID(e, sid, c.CallID)
		out.Event(*e)
	case "turn/end":
		var d struct {
			Turn   json.Number `json:"turn"`
			Reason struct {
				Kind string `json:"kind"`
			} `json:"reason"`
			Kind string `json:"kind"`
		}
		_ = json.Unmarshal(ev.Data, &d)
		kind := d.Kind
		if kind == "" {
			kind = d.Reason.Kind
		}
		if kind == "completed" {
			out.Skip(n, "state_only")
			return
		}
		out.Event(*emit(timeline.System, "turn "+d.Turn.String()+" ended: "+parser.CompactJSON(ev.Data)))
	default:
		label, ok := systemEvents[ev.Type]
		switch {
		case ok:
			out.Event(*emit(timeline.System, label+": "+parser.CompactJSON(ev.Data)))
		case ev.Ignorable:
			out.Skip(n, "ignorable:"+ev.Type)
			return
		default:
			out.Report(n, parser.KindSkippedRecord, "an event "+strconv.Quote(ev.Type))
			return
		}
	}
	if op := strings.TrimSpace(string(ev.SurfaceOp)); op != "" && op != `"append"` {
		out.Event(*emit(timeline.System, "conversation edited: "+parser.CompactJSON(ev.SurfaceOp)+" (the rows it replaced or removed are kept)"))
	}
}

func blocksText(bs []block) string {
	var parts []string
	for _, b := range bs {
		switch b.Type {
		case "text", "reasoning":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		default:
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

func headline(args, name string) string {
	return parser.ArgHeadline([]byte(args), name, "command", "path", "file_path", "pattern", "query", "url", "prompt")
}

// callID names a tool_use row by its call: "<session>/call/<call id>",
// the one identity of a call the message's tool-call block and the
// tool/call event both record (a call without an id keeps its event's).
func callID(e *timeline.Event, sid, id string) {
	if id != "" {
		e.RecordID = sid + "/call/" + id
	}
}
