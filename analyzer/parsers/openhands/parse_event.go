package openhands

import (
	"context"
	"fmt"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// event is one persisted SDK event (openhands/sdk/event), discriminated
// by kind; only the fields the rows use are named.
type event struct {
	Kind      string `json:"kind"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Source    string `json:"source"`
	// MessageEvent
	LLMMessage *struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		ReasoningContent *string         `json:"reasoning_content"`
	} `json:"llm_message"`
	Sender          *string         `json:"sender"`
	ExtendedContent json.RawMessage `json:"extended_content"`
	ActivatedSkills []string        `json:"activated_skills"`
	// ActionEvent
	Thought          json.RawMessage `json:"thought"`
	ReasoningContent *string         `json:"reasoning_content"`
	Action           json.RawMessage `json:"action"`
	ToolName         string          `json:"tool_name"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolCall         *struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"tool_call"`
	SecurityRisk string `json:"security_risk"`
	Summary      string `json:"summary"`
	// observations
	Observation     json.RawMessage `json:"observation"`
	ActionID        string          `json:"action_id"`
	RejectionReason string          `json:"rejection_reason"`
	RejectionSource string          `json:"rejection_source"`
	Error           string          `json:"error"`
	// SystemPromptEvent
	SystemPrompt json.RawMessage   `json:"system_prompt"`
	Tools        []json.RawMessage `json:"tools"`
	// Condensation
	ForgottenEventIDs []string `json:"forgotten_event_ids"`
	// ConversationStateUpdateEvent
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
	// HookExecutionEvent
	HookEventType string `json:"hook_event_type"`
	HookCommand   string `json:"hook_command"`
	Success       *bool  `json:"success"`
	Blocked       bool   `json:"blocked"`
	ExitCode      *int   `json:"exit_code"`
	Reason        string `json:"reason"`
	// ConversationErrorEvent
	Code   string `json:"code"`
	Detail string `json:"detail"`
	// ACPToolCallEvent
	Title     string          `json:"title"`
	Status    string          `json:"status"`
	RawInput  json.RawMessage `json:"raw_input"`
	RawOutput json.RawMessage `json:"raw_output"`
	IsError   bool            `json:"is_error"`
}

// convInfo is what the rows of one conversation share: the working
// directory and the host offset meta.json's UTC created_at implies for
// the naive event times.
type convInfo struct {
	project string
	parent  string // the parent conversation of a subagent
	offset  time.Duration
	known   bool // offset inferred
}

// maxOffset bounds a host offset; residual bounds how far the first
// event may be from the conversation's creation once the offset is taken
// away.
const (
	maxOffset = 14 * time.Hour
	residual  = 5 * time.Minute
)

// conversation reads the sibling meta.json and the first event file to
// infer the offset: the first event (its system prompt) is written
// seconds after the conversation is created, so the naive time minus the
// UTC created_at, rounded to 15 minutes, is the host's offset.
func conversation(in *parser.Input) convInfo {
	dir := convDir(in.Path)
	var ci convInfo
	b, err := parser.ReadRelated(in, dir+"/meta.json", maxWhole)
	if err != nil {
		return ci
	}
	var m metaFile
	if json.Unmarshal(b, &m) != nil {
		return ci
	}
	ci.project, ci.parent = m.workingDir(), dehyphen(m.ParentConversationID)
	created, naive, ok := naiveTime(m.CreatedAt)
	if !ok || naive {
		return ci
	}
	files := in.List(parser.GlobEscape(dir) + "/events/event-*.json")
	if len(files) == 0 {
		return ci
	}
	first := files[0]
	for _, f := range files[1:] {
		if f.Base() < first.Base() {
			first = f
		}
	}
	fb, err := parser.ReadRelated(in, first.Path, maxWhole)
	if err != nil {
		return ci
	}
	var ev struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(fb, &ev) != nil {
		return ci
	}
	t, naive, ok := naiveTime(ev.Timestamp)
	if !ok || !naive {
		return ci
	}
	d := t.Sub(created)
	off := d.Round(15 * time.Minute)
	if off > maxOffset || off < -maxOffset {
		return ci
	}
	if r := d - off; r > residual || r < -residual {
		return ci
	}
	ci.offset, ci.known = off, true
	return ci
}

// stamp sets an event row's time: an aware time as is; a naive one
// corrected by the inferred offset (a recorded time once corrected), else
// as if UTC with local-as-utc.
func (ci convInfo) stamp(e *timeline.Event, ts string) {
	t, naive, ok := naiveTime(ts)
	switch {
	case !ok:
		e.TimeBasis = timeline.TimeNone
	case !naive:
		e.Time = t
	case ci.known:
		e.Time = t.Add(-ci.offset)
	default:
		e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
	}
}

func parseEvent(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "event not read: "+err.Error())
		return nil
	}
	var ev event
	if err := json.Unmarshal(b, &ev); err != nil {
		out.Problem(1, "not an OpenHands event: "+parser.JSONError(err))
		return nil
	}
	ci := conversation(in)
	sid := baseOf(convDir(in.Path))
	const n = 1 // one event per file
	mk := func(tt timeline.TurnType, text, rec string) timeline.Event {
		e := timeline.Event{SessionID: sid, ProjectPath: ci.project, TurnType: tt, Text: text, SourceLine: n, RecordID: rec, ParentSessionID: ci.parent}
		ci.stamp(&e, ev.Timestamp)
		return e
	}
	emitted := 0
	emit := func(e timeline.Event) { emitted++; out.Event(e) }
	if !strings.HasSuffix(in.Base(), "-"+ev.ID+".json") && ev.ID != "" && strings.HasPrefix(in.Base(), "event-") {
		out.Report(n, parser.KindSkippedRecord, "event id "+ev.ID+" differs from the file name "+in.Base())
	}
	switch ev.Kind {
	case "MessageEvent":
		if ev.LLMMessage == nil {
			out.Report(n, parser.KindSkippedRecord, "MessageEvent without llm_message")
			return nil
		}
		text := textOf(ev.LLMMessage.Content)
		if r := ev.LLMMessage.ReasoningContent; r != nil && strings.TrimSpace(*r) != "" {
			emit(mk(timeline.Thinking, *r, ev.ID+"#reasoning"))
		}
		switch {
		case ev.Sender != nil && *ev.Sender != "":
			emit(mk(timeline.System, "message from "+*ev.Sender+": "+text, ev.ID))
		case ev.Source == "user" && ev.LLMMessage.Role == "user":
			emit(mk(timeline.User, text, ev.ID))
		case ev.LLMMessage.Role == "assistant":
			emit(mk(timeline.Assistant, text, ev.ID))
		default:
			emit(mk(timeline.System, ev.Source+" "+ev.LLMMessage.Role+" message: "+text, ev.ID))
		}
		if ext := textOf(ev.ExtendedContent); ext != "" || len(ev.ActivatedSkills) > 0 {
			t := "context added to the message"
			if len(ev.ActivatedSkills) > 0 {
				t += " (skills " + strings.Join(ev.ActivatedSkills, ", ") + ")"
			}
			if ext != "" {
				t += ": " + ext
			}
			emit(mk(timeline.System, t, ev.ID+"#context"))
		}
	case "ActionEvent":
		if r := ev.ReasoningContent; r != nil && strings.TrimSpace(*r) != "" {
			emit(mk(timeline.Thinking, *r, ev.ID+"#reasoning"))
		}
		if th := textOf(ev.Thought); strings.TrimSpace(th) != "" {
			emit(mk(timeline.Assistant, th, ev.ID+"#thought"))
		}
		e := mk(timeline.ToolUse, "", ev.ID)
		e.ToolName, e.ToolUseID = ev.ToolName, ev.ToolCallID
		if ev.ToolCall != nil {
			e.ToolInput = parser.CompactJSON([]byte(ev.ToolCall.Arguments))
		}
		if e.ToolInput == "" {
			e.ToolInput = parser.CompactJSON(ev.Action)
		}
		e.Text = actionText(ev.Action, ev.Summary)
		emit(e)
		if r := ev.SecurityRisk; r != "" && r != "UNKNOWN" {
			d := mk(timeline.System, "security risk: "+r+" (the action's risk as assessed for the security analyzer and confirmation policy)", ev.ID+"#risk")
			d.ToolUseID, d.ToolName = ev.ToolCallID, ev.ToolName
			emit(d)
		}
	case "ObservationEvent":
		e := mk(timeline.ToolResult, "", ev.ID)
		e.ToolName, e.ToolUseID = ev.ToolName, ev.ToolCallID
		var obs struct {
			Content  json.RawMessage `json:"content"`
			IsError  bool            `json:"is_error"`
			ExitCode *int            `json:"exit_code"`
		}
		_ = json.Unmarshal(ev.Observation, &obs)
		e.Text = textOf(obs.Content)
		isErr := obs.IsError || (obs.ExitCode != nil && *obs.ExitCode != 0)
		if obs.ExitCode != nil {
			e.Text = strings.TrimRight(e.Text, "\n") + fmt.Sprintf("\nexit code: %d", *obs.ExitCode)
		}
		e.IsError = fmt.Sprint(isErr)
		emit(e)
	case "UserRejectObservation":
		e := mk(timeline.ToolResult, ev.RejectionReason, ev.ID)
		e.ToolName, e.ToolUseID, e.IsError = ev.ToolName, ev.ToolCallID, "true"
		emit(e)
		src := ev.RejectionSource
		if src == "" {
			src = "user"
		}
		d := mk(timeline.System, "permission decision: denied source="+src+": "+ev.RejectionReason, ev.ID+"#decision")
		d.ToolName, d.ToolUseID = ev.ToolName, ev.ToolCallID
		emit(d)
	case "AgentErrorEvent":
		e := mk(timeline.ToolResult, ev.Error, ev.ID)
		e.ToolName, e.ToolUseID, e.IsError = ev.ToolName, ev.ToolCallID, "true"
		emit(e)
	case "SystemPromptEvent":
		var sp struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(ev.SystemPrompt, &sp)
		emit(mk(timeline.System, fmt.Sprintf("system prompt (%d tools): %s", len(ev.Tools), sp.Text), ev.ID))
	case "Condensation":
		t := fmt.Sprintf("condensed: %d earlier event(s) forgotten from the model's view (their files stay)", len(ev.ForgottenEventIDs))
		if ev.Summary != "" {
			t += "; summary: " + ev.Summary
		}
		emit(mk(timeline.System, t, ev.ID))
	case "CondensationRequest":
		emit(mk(timeline.System, "condensation requested", ev.ID))
	case "CondensationSummaryEvent":
		emit(mk(timeline.System, "condensation summary: "+ev.Summary, ev.ID))
	case "ConversationStateUpdateEvent":
		switch ev.Key {
		case "confirmation_policy", "security_analyzer":
			emit(mk(timeline.System, "permission setting: "+ev.Key+"="+policyName(ev.Value), ev.ID))
		case "agent":
			var a struct {
				LLM struct {
					Model string `json:"model"`
				} `json:"llm"`
			}
			if json.Unmarshal(ev.Value, &a) == nil && a.LLM.Model != "" {
				emit(mk(timeline.System, "model: "+a.LLM.Model, ev.ID))
			} else {
				out.Skip(n, "state_only")
				return nil
			}
		default:
			out.Skip(n, "state_only")
			return nil
		}
	case "PauseEvent":
		emit(mk(timeline.System, "paused by the user", ev.ID))
	case "InterruptEvent":
		emit(mk(timeline.System, "interrupted by the user", ev.ID))
	case "HookExecutionEvent":
		t := fmt.Sprintf("hook %s: %s", ev.HookEventType, ev.HookCommand)
		if ev.ExitCode != nil {
			t += fmt.Sprintf(" exit=%d", *ev.ExitCode)
		}
		if ev.Reason != "" {
			t += " reason=" + ev.Reason
		}
		e := mk(timeline.System, t, ev.ID)
		e.ToolName = ev.ToolName
		emit(e)
		if ev.Blocked {
			d := mk(timeline.System, "permission decision: denied source=hook ("+ev.HookEventType+"): "+ev.Reason, ev.ID+"#decision")
			d.ToolName = ev.ToolName
			emit(d)
		}
	case "ConversationErrorEvent":
		emit(mk(timeline.System, "error: "+ev.Code+": "+ev.Detail, ev.ID))
	case "ACPToolCallEvent":
		u := mk(timeline.ToolUse, ev.Title, ev.ID)
		u.ToolName, u.ToolUseID, u.ToolInput = ev.Title, ev.ToolCallID, parser.CompactJSON(ev.RawInput)
		emit(u)
		if len(ev.RawOutput) > 0 && string(ev.RawOutput) != "null" {
			r := mk(timeline.ToolResult, textOrJSON(ev.RawOutput), ev.ID+"#output")
			r.ToolName, r.ToolUseID, r.IsError = ev.Title, ev.ToolCallID, fmt.Sprint(ev.IsError)
			emit(r)
		}
	case "LLMCompletionLogEvent", "TokenEvent", "StreamingDeltaEvent":
		out.Skip(n, "no_evidence:"+ev.Kind)
		return nil
	case "":
		out.Report(n, parser.KindSkippedRecord, "event without a kind")
		return nil
	default:
		out.Report(n, parser.KindSkippedRecord, "event kind "+ev.Kind+" not read")
		return nil
	}
	if emitted == 0 {
		out.Skip(n, "no_evidence:empty_"+ev.Kind)
	}
	return nil
}

// actionText is an action's telling field: the command, the path, the
// message, else the summary.
func actionText(raw json.RawMessage, summary string) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"command", "path", "url", "query", "message", "code"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return summary
}

func textOrJSON(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return parser.CompactJSON(raw)
}

// policyName renders a confirmation policy or analyzer value ({kind,
// threshold} or a name).
func policyName(raw json.RawMessage) string {
	var p map[string]any
	if json.Unmarshal(raw, &p) == nil {
		k, _ := p["kind"].(string)
		if th, ok := p["threshold"].(string); ok {
			return k + " (threshold " + th + ")"
		}
		if k != "" {
			return k
		}
	}
	if t := textOrJSON(raw); t != "" {
		return t
	}
	return "none"
}

func baseOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
