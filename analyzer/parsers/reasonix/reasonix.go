package reasonix

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "reasonix"

// Parsers returns the Reasonix parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "reasonix/events", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions-v4"}, Names: []string{"events.frames"},
			Doc: "sessions-v4/<id>/events.frames (RX4F frames of zstd JSON batch records): typed prompts, injected host context, replies, reasoning, tool calls and results with errors, model config, turn ends; uncommitted batches named",
		}, parseEvents),
		parser.New(parser.Spec{
			ID: "reasonix/transcript", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl"},
			Doc: "older <id>.jsonl transcripts (sessions/, projects/<p>/sessions/, sessions/subagents/, archive/) with the .jsonl.meta sidecar: prompts, replies, reasoning, tool calls and results",
		}, parseTranscript),
	}
}

const frameMagic = "RX4F"

// maxFrame bounds one frame's compressed and decoded size.
const maxFrame = 64 << 20

type record struct {
	RecordType  string          `json:"recordType"`
	CommitID    string          `json:"commitId"`
	OperationID string          `json:"operationId"`
	FirstSeq    int64           `json:"firstSeq"`
	EventCount  int64           `json:"eventCount"`
	TurnID      string          `json:"turnId"`
	CreatedAt   string          `json:"createdAt"`
	Event       json.RawMessage `json:"event"`
}

type event struct {
	ID      string `json:"id"`
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Payload []byte `json:"payload"` // base64 JSON
}

type message struct {
	Role       string `json:"role"`
	ID         string `json:"id"`
	Origin     string `json:"origin"`
	Content    string `json:"content"`
	RawContent string `json:"raw_content"`
	Reasoning  string `json:"reasoning_content"`
	CreatedAt  int64  `json:"createdAt"`
	ToolCalls  []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
	RunState   string `json:"tool_run_state"`
}

type reader struct {
	out     parser.Sink
	sid     string
	when    time.Time // the open batch's createdAt
	open    *record   // the batch begun and not ended
	openAt  int64
	pending map[string]*timeline.Event // tool results waiting for their tool/result event
	order   []string
}

func (r *reader) base(n int64) timeline.Event {
	e := timeline.Event{SessionID: r.sid, SourceLine: n, TimeBasis: timeline.TimeNone}
	if !r.when.IsZero() {
		e.Time, e.TimeBasis = r.when, timeline.TimeRecorded
	}
	return e
}

func parseEvents(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.OpenRaw()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxFrame))
	if err != nil {
		return err
	}
	defer dec.Close()
	r := &reader{out: out, sid: path.Base(path.Dir(in.Path)), pending: map[string]*timeline.Event{}}
	var n int64
	hdr := make([]byte, 12)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := io.ReadFull(rc, hdr); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			out.Problem(n+1, "frame header cut short (a write the crash or the collection interrupted): the rest of the file is not read")
			break
		}
		n++
		if string(hdr[:4]) != frameMagic {
			out.Problem(n, fmt.Sprintf("frame %d does not start with %s: the rest of the file is not read", n, frameMagic))
			break
		}
		size, full := binary.BigEndian.Uint32(hdr[4:8]), binary.BigEndian.Uint32(hdr[8:12])
		if size > maxFrame || full > maxFrame {
			out.Problem(n, fmt.Sprintf("frame %d declares %d bytes (%d decoded), over the %d byte limit: the rest of the file is not read", n, size, full, maxFrame))
			break
		}
		buf := make([]byte, size)
		if _, err := io.ReadFull(rc, buf); err != nil {
			out.Problem(n, fmt.Sprintf("frame %d cut short: the rest of the file is not read", n))
			break
		}
		plain, err := dec.DecodeAll(buf, make([]byte, 0, full))
		if err != nil {
			out.Problem(n, fmt.Sprintf("frame %d does not decompress (zstd: %v): skipped", n, err))
			continue
		}
		var rec record
		if err := json.Unmarshal(plain, &rec); err != nil {
			out.Problem(n, parser.NotJSONObject(fmt.Sprintf("frame %d", n), err))
			continue
		}
		r.record(n, &rec)
	}
	if r.open != nil {
		out.Problem(r.openAt, fmt.Sprintf("batch %s (%s) was begun and never ended: a write cut short; its events above are kept", r.open.CommitID, r.open.OperationID))
	}
	r.flush()
	return nil
}

func (r *reader) record(n int64, rec *record) {
	switch rec.RecordType {
	case "batch/begin":
		if r.open != nil {
			r.out.Problem(r.openAt, fmt.Sprintf("batch %s (%s) was begun and never ended: a write cut short; its events are kept", r.open.CommitID, r.open.OperationID))
		}
		r.open, r.openAt = rec, n
		r.when = time.Time{}
		if t, ok := parser.ParseTime(rec.CreatedAt); ok && t.Year() > 1 {
			r.when = t
		}
		r.out.Skip(n, "state_only:batch/begin")
	case "batch/end":
		r.open = nil
		r.out.Skip(n, "state_only:batch/end")
	case "batch/event":
		var ev event
		if err := json.Unmarshal(rec.Event, &ev); err != nil {
			r.out.Problem(n, parser.NotJSONObject("batch event", err))
			return
		}
		r.event(n, &ev)
	default:
		r.out.Report(n, parser.KindSkippedRecord, "a record "+strconv.Quote(rec.RecordType)+", not known")
	}
}

func (r *reader) emit(rows []timeline.Event, id string) {
	for i, e := range rows {
		if id != "" {
			e.RecordID = id
			if i > 0 {
				e.RecordID += "#" + strconv.Itoa(i)
			}
		}
		r.out.Event(e)
	}
}

func (r *reader) event(n int64, ev *event) {
	base := r.base(n)
	switch ev.Kind {
	case "message/complete":
		var p struct {
			Message message `json:"message"`
		}
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			r.out.Problem(n, parser.NotJSONObject("message/complete payload", err))
			return
		}
		r.message(base, &p.Message)
	case "session/config":
		var p struct {
			ModelRef string `json:"modelRef"`
		}
		_ = json.Unmarshal(ev.Payload, &p)
		e := base
		e.TurnType, e.Text, e.Model = timeline.System, "model: "+p.ModelRef, p.ModelRef
		r.emit([]timeline.Event{e}, ev.ID)
	case "turn/end":
		var p struct {
			Status string `json:"status"`
			Error  string `json:"error"`
		}
		_ = json.Unmarshal(ev.Payload, &p)
		if p.Status == "completed" {
			r.out.Skip(n, "state_only:turn/end completed")
			return
		}
		e := base
		e.TurnType, e.Text = timeline.System, "turn ended: "+p.Status
		if p.Error != "" {
			e.Text += ": " + p.Error
		}
		r.emit([]timeline.Event{e}, ev.ID)
	case "tool/result":
		var p struct {
			ID      string `json:"id"`
			Name    string `json:"name"`
			Error   string `json:"error"`
			Output  string `json:"output"`
			EndedAt int64  `json:"endedAt"`
		}
		_ = json.Unmarshal(ev.Payload, &p)
		if e, ok := r.pending[p.ID]; ok {
			e.IsError = strconv.FormatBool(p.Error != "")
			if t, ok := parser.Epoch(p.EndedAt, 1e11); ok {
				e.Time, e.TimeBasis = t, timeline.TimeRecorded
			}
			r.out.Event(*e)
			delete(r.pending, p.ID)
			r.out.Skip(n, "state_only:tool/result")
			return
		}
		// a result no tool message holds: the event itself is the row
		e := base
		e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, p.Name, p.ID
		e.IsError, e.Text = strconv.FormatBool(p.Error != ""), p.Output
		if p.Error != "" {
			e.Text = "error: " + p.Error
		}
		r.emit([]timeline.Event{e}, ev.ID)
	case "turn/start", "assistant/attempt", "tool/call", "tool/start":
		if ev.Kind == "assistant/attempt" {
			var p struct {
				Action string `json:"action"`
				Reason string `json:"reason"`
			}
			_ = json.Unmarshal(ev.Payload, &p)
			if p.Action != "begin" && p.Action != "commit" {
				e := base
				e.TurnType, e.Text = timeline.System, "assistant attempt "+p.Action
				if p.Reason != "" {
					e.Text += ": " + p.Reason
				}
				r.emit([]timeline.Event{e}, ev.ID)
				return
			}
		}
		// progress snapshots of a call and attempt bookkeeping: the
		// messages give the rows
		r.out.Skip(n, "state_only:"+ev.Kind)
	default:
		e := base
		e.TurnType, e.Text = timeline.System, "reasonix event "+ev.Kind+": "+parser.CompactJSON(ev.Payload)
		r.emit([]timeline.Event{e}, ev.ID)
	}
}

func (r *reader) message(base timeline.Event, m *message) {
	var rows []timeline.Event
	add := func(tt timeline.TurnType, text string) *timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		rows = append(rows, e)
		return &rows[len(rows)-1]
	}
	if t, ok := parser.Epoch(m.CreatedAt, 1e11); ok {
		base.Time, base.TimeBasis = t, timeline.TimeRecorded
	}
	switch m.Role {
	case "user":
		switch m.Origin {
		case "user", "":
			typed := m.RawContent
			if typed == "" {
				typed = m.Content
			}
			add(timeline.User, typed)
			if m.RawContent != "" && m.Content != m.RawContent {
				add(timeline.System, "the prompt as sent to the model (expanded): "+m.Content)
			}
		default:
			add(timeline.System, "injected in the user role by the "+m.Origin+" (not typed): "+m.Content)
		}
	case "system":
		add(timeline.System, m.Content)
	case "assistant":
		if m.Reasoning != "" {
			add(timeline.Thinking, m.Reasoning)
		}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			add(timeline.Assistant, m.Content)
		}
		for _, c := range m.ToolCalls {
			args := json.RawMessage(c.Arguments)
			e := add(timeline.ToolUse, headline(args, c.Name))
			e.ToolName, e.ToolUseID, e.ToolInput = c.Name, c.ID, parser.CompactJSON(args)
		}
	case "tool":
		e := base
		e.TurnType, e.ToolName, e.ToolUseID, e.Text = timeline.ToolResult, m.Name, m.ToolCallID, m.Content
		e.RecordID = m.ID
		if m.RunState != "" && m.RunState != "completed" {
			e.IsError = "true"
		}
		r.pending[m.ToolCallID] = &e
		r.order = append(r.order, m.ToolCallID)
		return
	default:
		r.out.Report(base.SourceLine, parser.KindSkippedRecord, "a message of role "+strconv.Quote(m.Role))
		return
	}
	r.emit(rows, m.ID)
}

// flush emits the tool results whose tool/result event never came.
func (r *reader) flush() {
	for _, id := range r.order {
		if e, ok := r.pending[id]; ok {
			r.out.Event(*e)
			delete(r.pending, id)
		}
	}
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "path", "file_path", "pattern", "query", "url", "task", "prompt")
}

// meta is the older transcripts' <id>.jsonl.meta sidecar.
type meta struct {
	ID            string `json:"id"`
	CreatedAt     string `json:"created_at"`
	UpdatedAt     string `json:"updated_at"`
	Scope         string `json:"scope"`
	WorkspaceRoot string `json:"workspace_root"`
	TopicTitle    string `json:"topic_title"`
	Model         string `json:"model"`
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid := strings.TrimSuffix(path.Base(in.Path), ".jsonl")
	var m meta
	var start time.Time
	basis := timeline.TimeNone
	if b, ok := in.ReadRelated(in.Path+".meta", 1<<20); ok {
		if err := json.Unmarshal(b, &m); err != nil {
			out.Problem(0, parser.NotJSONObject(path.Base(in.Path)+".meta beside it", err))
		} else {
			if t, ok := parser.ParseTime(m.CreatedAt); ok {
				start, basis = t, timeline.TimeInherited
			}
			e := timeline.Event{SessionID: sid, ProjectPath: m.WorkspaceRoot, TurnType: timeline.System, Model: m.Model, Time: start,
				RecordID: sid + "#meta", TimeBasis: timeline.TimeNone}
			if !start.IsZero() {
				e.TimeBasis = timeline.TimeRecorded
			}
			parts := []string{"reasonix session " + sid}
			for _, kv := range [][2]string{{"title", m.TopicTitle}, {"scope", m.Scope}, {"model", m.Model}, {"updated", m.UpdatedAt}} {
				if kv[1] != "" {
					parts = append(parts, kv[0]+" "+kv[1])
				}
			}
			e.Text = strings.Join(parts, "; ") + " (from .jsonl.meta)"
			out.Event(e)
		}
	}
	sub := path.Base(path.Dir(in.Path)) == "subagents"
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var msg message
		if err := json.Unmarshal(line, &msg); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		base := timeline.Event{SessionID: sid, ProjectPath: m.WorkspaceRoot, SourceLine: n, Time: start, TimeBasis: basis, Model: m.Model}
		var rows []timeline.Event
		add := func(tt timeline.TurnType, text string) *timeline.Event {
			e := base
			e.TurnType, e.Text = tt, text
			rows = append(rows, e)
			return &rows[len(rows)-1]
		}
		switch strings.ToLower(msg.Role) {
		case "user":
			if sub {
				add(timeline.System, "subagent task from the parent session (not typed): "+msg.Content)
			} else {
				add(timeline.User, msg.Content)
			}
		case "system":
			add(timeline.System, msg.Content)
		case "assistant":
			if msg.Reasoning != "" {
				add(timeline.Thinking, msg.Reasoning)
			}
			if msg.Content != "" || len(msg.ToolCalls) == 0 {
				add(timeline.Assistant, msg.Content)
			}
			for _, c := range msg.ToolCalls {
				args := json.RawMessage(c.Arguments)
				e := add(timeline.ToolUse, headline(args, c.Name))
				e.ToolName, e.ToolUseID, e.ToolInput = c.Name, c.ID, parser.CompactJSON(args)
			}
		case "tool":
			e := add(timeline.ToolResult, msg.Content)
			e.ToolName, e.ToolUseID = msg.Name, msg.ToolCallID
		default:
			out.Report(n, parser.KindSkippedRecord, "a message of role "+strconv.Quote(msg.Role))
			return nil
		}
		for _, e := range rows {
			out.Event(e)
		}
		return nil
	})
}
