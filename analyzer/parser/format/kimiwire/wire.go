package kimiwire

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxWhole bounds the small JSON files read whole (kimi.json).
const maxWhole = 16 << 20

// Options say where a flavor of the Kimi home keeps its subagents' wires.
type Options struct {
	// SubagentDir is the folder of a session's subagent wires:
	// "subagents" (Kimi CLI, <session>/subagents/<agent>/wire.jsonl) or
	// "agents" (Kimi Work's kimi-code runtime).
	SubagentDir string
}

// record is one wire.jsonl line (src/kimi_cli/wire/file.py): a metadata
// header {type: "metadata", protocol_version}, then {timestamp (epoch
// seconds, float), message: {type, payload}}.
type record struct {
	Type            string    `json:"type"`
	ProtocolVersion string    `json:"protocol_version"`
	Timestamp       *float64  `json:"timestamp"`
	Message         *envelope `json:"message"`
}

type envelope struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

// wire is the state of one wire.jsonl read.
type wire struct {
	in      *parser.Input
	out     parser.Sink
	sid     string
	parent  string // the main session of a subagent's wire
	project string
	sub     bool              // a subagent's own wire: its TurnBegin is the parent's task, not typed
	names   map[string]string // tool call id -> tool name
	asks    map[string]string // approval or question request id -> tool call id
	dir     string            // the session folder
	subDir  string            // the subagent wires' folder name
}

// sessionParts splits .../sessions/<md5>/<session>/wire.jsonl or
// .../sessions/<md5>/<session>/<subDir>/<agent>/wire.jsonl.
func sessionParts(p, subDir string) (share, md5dir, session, agent string) {
	p = strings.ReplaceAll(p, "\\", "/")
	i := strings.LastIndex(p, "/sessions/")
	if i < 0 {
		return "", "", path.Base(path.Dir(p)), ""
	}
	share = p[:i]
	parts := strings.Split(p[i+len("/sessions/"):], "/")
	if len(parts) >= 3 {
		md5dir, session = parts[0], parts[1]
	}
	if len(parts) == 5 && parts[2] == subDir {
		agent = parts[3]
	}
	return share, md5dir, session, agent
}

// workDirs reads <share>/kimi.json beside the file: md5 folder name ->
// work directory path (src/kimi_cli/metadata.py WorkDirMeta.sessions_dir;
// a non-local KAOS prefixes "<kaos>_").
func workDirs(in *parser.Input, share string) map[string]string {
	b, ok := in.ReadRelated(share+"/kimi.json", maxWhole)
	if !ok {
		return nil
	}
	var m metadata
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	out := map[string]string{}
	for _, wd := range m.WorkDirs {
		out[md5Dir(wd)] = wd.Path
	}
	return out
}

func md5Dir(wd workDir) string {
	sum := md5.Sum([]byte(wd.Path))
	h := hex.EncodeToString(sum[:])
	if wd.Kaos != "" && wd.Kaos != "local" {
		return wd.Kaos + "_" + h
	}
	return h
}

func epoch(f float64) time.Time {
	if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6).UTC()
}

// Parse reads one wire.jsonl: every record becomes rows, a counted skip or
// a problem (see analyzer/parsers/kimicli for the rows).
func Parse(ctx context.Context, in *parser.Input, out parser.Sink, o Options) error {
	if o.SubagentDir == "" {
		o.SubagentDir = "subagents"
	}
	share, md5dir, session, agent := sessionParts(in.Path, o.SubagentDir)
	w := &wire{in: in, out: out, sid: session, names: map[string]string{}, asks: map[string]string{}, subDir: o.SubagentDir}
	w.dir = strings.TrimSuffix(strings.ReplaceAll(in.Path, "\\", "/"), "/wire.jsonl")
	if agent != "" {
		w.sid, w.parent, w.sub = session+"/"+agent, session, true
		w.dir = strings.TrimSuffix(w.dir, "/"+o.SubagentDir+"/"+agent)
	}
	if share != "" {
		w.project = workDirs(in, share)[md5dir]
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var cw *codeWire
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if r.Type == "metadata" {
			out.Skip(n, "wire_metadata")
			return nil
		}
		if r.Message == nil && r.Type != "" {
			// A top-level {type, ...} record: the Kimi Code journal, which
			// Kimi Work's kimi-code runtime also writes (ParseCode).
			if cw == nil {
				cw = &codeWire{out: out, sid: w.sid, parent: w.parent, project: w.project, sub: w.sub, names: map[string]string{}, asks: map[string]string{}, kinds: map[string]string{}, tools: map[string]string{}, decided: map[string]bool{}, prompts: map[string]bool{}}
			}
			cw.line(n, line)
			return nil
		}
		if r.Message == nil || r.Message.Type == "" {
			out.Report(n, parser.KindSkippedRecord, "wire record without a message type")
			return nil
		}
		base := timeline.Event{SessionID: w.sid, ParentSessionID: w.parent, ProjectPath: w.project, SourceLine: n}
		if r.Timestamp != nil {
			base.Time = epoch(*r.Timestamp)
		}
		if base.Time.IsZero() {
			base.TimeBasis = timeline.TimeNone
		}
		w.message(n, base, r.Message, w.sub)
		return nil
	})
	if err == nil && cw != nil {
		cw.finish()
	}
	return err
}

// Payload shapes (src/kimi_cli/wire/types.py and kosong's message.py).
type (
	part struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Think    string `json:"think"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	toolCall struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	toolResult struct {
		ToolCallID  string `json:"tool_call_id"`
		ReturnValue struct {
			IsError bool            `json:"is_error"`
			Output  json.RawMessage `json:"output"`
			Message string          `json:"message"`
		} `json:"return_value"`
	}
	approvalRequest struct {
		ID          string `json:"id"`
		ToolCallID  string `json:"tool_call_id"`
		Sender      string `json:"sender"`
		Action      string `json:"action"`
		Description string `json:"description"`
		SourceKind  string `json:"source_kind"`
		AgentID     string `json:"agent_id"`
	}
	approvalResponse struct {
		RequestID string `json:"request_id"`
		Response  string `json:"response"`
		Feedback  string `json:"feedback"`
	}
	question struct {
		ID         string `json:"id"`
		ToolCallID string `json:"tool_call_id"`
		Questions  []struct {
			Question string `json:"question"`
			Options  []struct {
				Label string `json:"label"`
			} `json:"options"`
		} `json:"questions"`
	}
	questionResponse struct {
		RequestID string            `json:"request_id"`
		Answers   map[string]string `json:"answers"`
	}
	hook struct {
		ID     string `json:"id"`
		Event  string `json:"event"`
		Target string `json:"target"`
		Action string `json:"action"`
		Reason string `json:"reason"`
	}
	subagentEvent struct {
		ParentToolCallID string    `json:"parent_tool_call_id"`
		TaskToolCallID   string    `json:"task_tool_call_id"`
		AgentID          string    `json:"agent_id"`
		SubagentType     string    `json:"subagent_type"`
		Event            *envelope `json:"event"`
	}
)

// message turns one wire message into rows. sub is true inside a
// subagent (its own wire, or a SubagentEvent of the parent's), where a
// TurnBegin is the task the parent agent wrote.
func (w *wire) message(n int64, base timeline.Event, env *envelope, sub bool) {
	out := w.out
	ev := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		return e
	}
	bad := func(err error) {
		out.Report(n, parser.KindSkippedRecord, env.Type+" payload not read: "+err.Error())
	}
	p := env.Payload
	switch env.Type {
	case "TurnBegin", "SteerInput":
		var pl struct {
			UserInput json.RawMessage `json:"user_input"`
		}
		if err := json.Unmarshal(p, &pl); err != nil {
			bad(err)
			return
		}
		text := inputText(pl.UserInput)
		switch {
		case sub:
			out.Event(ev(timeline.System, "subagent task (written by the parent agent): "+text))
		case strings.HasPrefix(text, "[Imported context from "):
			out.Event(ev(timeline.System, "context imported (not typed): "+text))
		case strings.TrimSpace(text) == "":
			out.Skip(n, "no_evidence:empty_prompt")
		default:
			out.Event(ev(timeline.User, text))
		}
	case "ContentPart":
		var pt part
		if err := json.Unmarshal(p, &pt); err != nil {
			bad(err)
			return
		}
		switch pt.Type {
		case "text":
			out.Event(ev(timeline.Assistant, pt.Text))
		case "think":
			out.Event(ev(timeline.Thinking, pt.Think))
		default:
			out.Event(ev(timeline.Assistant, partText(pt)))
		}
	case "ToolCall":
		var c toolCall
		if err := json.Unmarshal(p, &c); err != nil {
			bad(err)
			return
		}
		e := ev(timeline.ToolUse, "")
		e.ToolName, e.ToolUseID, e.RecordID = c.Function.Name, c.ID, c.ID
		e.ToolInput = argsJSON(c.Function.Arguments)
		e.Text = callText(c.Function.Name, e.ToolInput)
		if c.ID != "" {
			w.names[c.ID] = c.Function.Name
		}
		out.Event(e)
	case "ToolCallPart":
		out.Skip(n, "tool_call_part:merged_into_tool_call")
	case "ToolResult":
		var r toolResult
		if err := json.Unmarshal(p, &r); err != nil {
			bad(err)
			return
		}
		text := outputText(r.ReturnValue.Output)
		if m := r.ReturnValue.Message; m != "" {
			if text == "" {
				text = m
			} else {
				text = m + "\n" + text
			}
		}
		e := ev(timeline.ToolResult, text)
		e.ToolUseID, e.ToolName, e.IsError = r.ToolCallID, w.names[r.ToolCallID], strconv.FormatBool(r.ReturnValue.IsError)
		if r.ToolCallID != "" {
			e.RecordID = r.ToolCallID + "#result"
		}
		out.Event(e)
	case "ApprovalRequest":
		var a approvalRequest
		if err := json.Unmarshal(p, &a); err != nil {
			bad(err)
			return
		}
		t := fmt.Sprintf("permission requested: %s: %s (by %s", a.Action, a.Description, a.Sender)
		if a.SourceKind == "background_agent" || a.AgentID != "" {
			t += ", background agent " + a.AgentID
		}
		e := ev(timeline.System, t+")")
		e.ToolUseID, e.ToolName, e.RecordID = a.ToolCallID, w.names[a.ToolCallID], a.ID
		if a.ID != "" {
			w.asks[a.ID] = a.ToolCallID
		}
		out.Event(e)
	case "ApprovalResponse", "ApprovalRequestResolved":
		var a approvalResponse
		if err := json.Unmarshal(p, &a); err != nil {
			bad(err)
			return
		}
		t := "permission decision: " + a.Response
		if a.Feedback != "" {
			t += " (feedback: " + a.Feedback + ")"
		}
		e := ev(timeline.System, t)
		if id, ok := w.asks[a.RequestID]; ok {
			e.ToolUseID, e.ToolName = id, w.names[id]
		}
		if a.RequestID != "" {
			e.RecordID = a.RequestID + "#response"
		}
		out.Event(e)
	case "QuestionRequest":
		var q question
		if err := json.Unmarshal(p, &q); err != nil {
			bad(err)
			return
		}
		var qs []string
		for _, it := range q.Questions {
			var opts []string
			for _, o := range it.Options {
				opts = append(opts, o.Label)
			}
			qs = append(qs, it.Question+" ["+strings.Join(opts, " | ")+"]")
		}
		e := ev(timeline.System, "question to the user: "+strings.Join(qs, "\n"))
		e.ToolUseID, e.RecordID = q.ToolCallID, q.ID
		if q.ID != "" {
			w.asks[q.ID] = q.ToolCallID
		}
		out.Event(e)
	case "QuestionResponse":
		var q questionResponse
		if err := json.Unmarshal(p, &q); err != nil {
			bad(err)
			return
		}
		keys := make([]string, 0, len(q.Answers))
		for k := range q.Answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var as []string
		for _, k := range keys {
			as = append(as, k+" -> "+q.Answers[k])
		}
		// The person's choice (or typed "other" text) in answer to the
		// agent's question: a user row.
		e := ev(timeline.User, strings.Join(as, "\n"))
		e.ToolUseID = w.asks[q.RequestID]
		if q.RequestID != "" {
			e.RecordID = q.RequestID + "#response"
		}
		out.Event(e)
	case "BtwBegin":
		var b struct {
			ID       string `json:"id"`
			Question string `json:"question"`
		}
		if err := json.Unmarshal(p, &b); err != nil {
			bad(err)
			return
		}
		if sub {
			out.Event(ev(timeline.System, "side question (subagent): "+b.Question))
			return
		}
		e := ev(timeline.User, b.Question)
		e.RecordID = b.ID
		out.Event(e)
	case "BtwEnd":
		var b struct {
			ID       string  `json:"id"`
			Response *string `json:"response"`
			Error    *string `json:"error"`
		}
		if err := json.Unmarshal(p, &b); err != nil {
			bad(err)
			return
		}
		var e timeline.Event
		switch {
		case b.Response != nil:
			e = ev(timeline.Assistant, *b.Response)
		case b.Error != nil:
			e = ev(timeline.System, "side question failed: "+*b.Error)
		default:
			e = ev(timeline.System, "side question ended with no answer")
		}
		if b.ID != "" {
			e.RecordID = b.ID + "#answer"
		}
		out.Event(e)
	case "StatusUpdate":
		var s struct {
			PlanMode         *bool  `json:"plan_mode"`
			ContextTokens    *int64 `json:"context_tokens"`
			MaxContextTokens *int64 `json:"max_context_tokens"`
			MessageID        string `json:"message_id"`
			TokenUsage       *struct {
				InputOther         int64 `json:"input_other"`
				Output             int64 `json:"output"`
				InputCacheRead     int64 `json:"input_cache_read"`
				InputCacheCreation int64 `json:"input_cache_creation"`
			} `json:"token_usage"`
		}
		if err := json.Unmarshal(p, &s); err != nil {
			bad(err)
			return
		}
		if s.PlanMode != nil {
			out.Event(ev(timeline.System, "plan mode: "+onOff(*s.PlanMode)))
		}
		if s.TokenUsage != nil || s.ContextTokens != nil {
			var u [4]int64
			if t := s.TokenUsage; t != nil {
				u = [4]int64{t.InputOther, t.InputCacheRead, t.InputCacheCreation, t.Output}
			}
			out.Event(usageEvent(ev(timeline.System, ""), s.MessageID, s.TokenUsage != nil,
				u, s.ContextTokens, s.MaxContextTokens))
		}
		if s.PlanMode == nil && s.TokenUsage == nil && s.ContextTokens == nil {
			out.Skip(n, "status_update")
		}
	case "TurnEnd":
		out.Skip(n, "turn_end")
	case "StepBegin":
		out.Skip(n, "step_begin")
	case "MCPLoadingBegin", "MCPLoadingEnd":
		out.Skip(n, "mcp_loading")
	case "StepInterrupted":
		out.Event(ev(timeline.System, "step interrupted"))
	case "StepRetry":
		var s struct {
			N           int    `json:"n"`
			NextAttempt int    `json:"next_attempt"`
			MaxAttempts int    `json:"max_attempts"`
			ErrorType   string `json:"error_type"`
			StatusCode  *int   `json:"status_code"`
		}
		if err := json.Unmarshal(p, &s); err != nil {
			bad(err)
			return
		}
		t := fmt.Sprintf("model call failed (%s", s.ErrorType)
		if s.StatusCode != nil {
			t += fmt.Sprintf(", HTTP %d", *s.StatusCode)
		}
		out.Event(ev(timeline.System, t+fmt.Sprintf("); retry %d of %d", s.NextAttempt, s.MaxAttempts)))
	case "CompactionBegin":
		out.Event(ev(timeline.System, "context compaction began: earlier turns were summarised for the model (the rows above stay)"))
	case "CompactionEnd":
		out.Event(ev(timeline.System, "context compaction ended"))
	case "HookTriggered", "HookResolved", "HookRequest", "HookResponse":
		var h hook
		if err := json.Unmarshal(p, &h); err != nil {
			bad(err)
			return
		}
		t := "hook " + strings.ToLower(strings.TrimPrefix(env.Type, "Hook")) + ": " + h.Event
		if h.Target != "" {
			t += " " + h.Target
		}
		if env.Type == "HookResolved" || env.Type == "HookResponse" {
			t += " -> " + h.Action
			if h.Reason != "" {
				t += " (" + h.Reason + ")"
			}
		}
		out.Event(ev(timeline.System, t))
	case "Notification":
		var no struct {
			Category string `json:"category"`
			Title    string `json:"title"`
			Body     string `json:"body"`
			Severity string `json:"severity"`
		}
		if err := json.Unmarshal(p, &no); err != nil {
			bad(err)
			return
		}
		out.Event(ev(timeline.System, fmt.Sprintf("notification (%s, %s): %s: %s", no.Category, no.Severity, no.Title, no.Body)))
	case "PlanDisplay":
		var pd struct {
			Content  string `json:"content"`
			FilePath string `json:"file_path"`
		}
		if err := json.Unmarshal(p, &pd); err != nil {
			bad(err)
			return
		}
		out.Event(ev(timeline.System, "plan ("+pd.FilePath+"):\n"+pd.Content))
	case "ToolCallRequest":
		// The request to the wire client to run an external tool; the
		// ToolCall record before it holds the call and its arguments.
		out.Skip(n, "tool_call_request:repeats_tool_call")
	case "SubagentEvent":
		w.subagent(n, base, p)
	default:
		out.Report(n, parser.KindSkippedRecord, "unknown wire message type "+strconv.Quote(env.Type))
	}
}

// subagent reads a SubagentEvent of the parent's wire. When the
// subagent's own wire.jsonl (subagents/<agent id>/wire.jsonl) is in the
// input, its rows come from there and the copy here is a counted skip;
// otherwise the event gives the subagent's rows, in its own session.
func (w *wire) subagent(n int64, base timeline.Event, p json.RawMessage) {
	var s subagentEvent
	if err := json.Unmarshal(p, &s); err != nil || s.Event == nil {
		msg := "SubagentEvent without an event"
		if err != nil {
			msg = "SubagentEvent payload not read: " + err.Error()
		}
		w.out.Report(n, parser.KindSkippedRecord, msg)
		return
	}
	if s.AgentID != "" && !w.sub {
		own := w.dir + "/" + w.subDir + "/" + s.AgentID + "/wire.jsonl"
		if len(w.in.List(parser.GlobEscape(own))) > 0 {
			w.out.Skip(n, "subagent_event:in_subagent_wire")
			return
		}
	}
	sb := base
	if s.AgentID != "" {
		root := w.sid
		if w.parent != "" {
			root = w.parent
		}
		sb.SessionID, sb.ParentSessionID = root+"/"+s.AgentID, w.sid
	}
	w.message(n, sb, s.Event, true)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// inputText is a TurnBegin user_input: a string, or content parts (text
// as is, media as "[image_url: <url>]").
func inputText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return parser.JSONText(raw)
	}
	var t []string
	for _, pt := range parts {
		t = append(t, partText(pt))
	}
	return strings.Join(t, "\n")
}

func partText(pt part) string {
	switch {
	case pt.Type == "text":
		return pt.Text
	case pt.Type == "think":
		return pt.Think
	case pt.ImageURL != nil:
		u := pt.ImageURL.URL
		if strings.HasPrefix(u, "data:") {
			u = "data URL, " + strconv.Itoa(len(u)) + " bytes"
		}
		return "[" + pt.Type + ": " + u + "]"
	default:
		return "[" + pt.Type + "]"
	}
}

// outputText is a ToolReturnValue output: a string, or content parts.
func outputText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return inputText(raw)
}

// argsJSON is a call's arguments as compact JSON: kosong keeps them as a
// JSON string holding JSON (null when the model sent none).
func argsJSON(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return parser.CompactJSON([]byte(s))
	}
	return parser.CompactJSON(raw)
}

// callText is the command of a Shell call, the path of a file tool, the
// URL or query of a web tool, else the tool name and its arguments.
func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "path", "file_path", "url", "query", "pattern", "prompt"} {
			if s, ok := m[k].(string); ok && s != "" {
				if k == "prompt" {
					if d, ok := m["description"].(string); ok && d != "" {
						return name + ": " + d
					}
				}
				return s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}

// usageEvent is a StatusUpdate's accounting as a system row: the step's
// token usage (u: input not from cache, cache read, cache creation,
// output) when the update carries it, and the context's size, on the
// step's message id (in the text: the id is not a record of its own). The text
// names every counter the wire recorded and nothing it did not: a
// missing max_context_tokens is left out, never guessed.
func usageEvent(e timeline.Event, messageID string, hasUsage bool, u [4]int64, ctx, max *int64) timeline.Event {
	var b strings.Builder
	b.WriteString("token usage")
	if messageID != "" {
		b.WriteString(" of step " + messageID)
	}
	b.WriteString(":")
	if hasUsage {
		fmt.Fprintf(&b, " input %d (cache read %d, cache creation %d), output %d", u[0], u[1], u[2], u[3])
	}
	if ctx != nil {
		if hasUsage {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " context %d", *ctx)
		if max != nil {
			fmt.Fprintf(&b, " of %d", *max)
		}
		b.WriteString(" tokens")
	}
	e.Text = b.String()
	return e
}
