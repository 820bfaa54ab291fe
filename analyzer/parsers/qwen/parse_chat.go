package qwen

// Copied from the gemini package on purpose: Qwen Code is a fork of Gemini CLI whose formats drift on their own, so each parser follows its agent.

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// chatRecord is one line of a session file (ChatRecord in
// packages/core/src/services/chatRecordingService.ts).
type chatRecord struct {
	UUID             string          `json:"uuid"`
	ParentUUID       *string         `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	Timestamp        string          `json:"timestamp"`
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	Provenance       string          `json:"provenance"`
	Cwd              string          `json:"cwd"`
	Message          *content        `json:"message"`
	Model            string          `json:"model"`
	ExecutionContext *execContext    `json:"executionContext"`
	ToolCallResult   *toolCallResult `json:"toolCallResult"`
	SystemPayload    json.RawMessage `json:"systemPayload"`
	AgentID          string          `json:"agentId"`
	AgentName        string          `json:"agentName"`
	IsSidechain      bool            `json:"isSidechain"`
}

type content struct {
	Role  string            `json:"role"`
	Parts []json.RawMessage `json:"parts"`
}

type execContext struct {
	ModelID      string `json:"modelId"`
	AuthType     string `json:"authType"`
	ApprovalMode string `json:"approvalMode"`
}

type toolCallResult struct {
	CallID          string          `json:"callId"`
	Status          string          `json:"status"`
	ResultDisplay   json.RawMessage `json:"resultDisplay"`
	Error           json.RawMessage `json:"error"`
	ErrorType       string          `json:"errorType"`
	ExecutionStatus string          `json:"executionStatus"`
}

// part is one @google/genai Part.
type part struct {
	Text             *string       `json:"text"`
	Thought          bool          `json:"thought"`
	FunctionCall     *functionCall `json:"functionCall"`
	FunctionResponse *functionResp `json:"functionResponse"`
	InlineData       *struct {
		MimeType string `json:"mimeType"`
	} `json:"inlineData"`
	FileData *struct {
		MimeType string `json:"mimeType"`
		FileURI  string `json:"fileUri"`
	} `json:"fileData"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResp struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

func parseParts(raws []json.RawMessage) []part {
	var ps []part
	for _, r := range raws {
		if isKind(r, '"') {
			var s string
			if json.Unmarshal(r, &s) == nil {
				ps = append(ps, part{Text: &s})
			}
			continue
		}
		var p part
		if json.Unmarshal(r, &p) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// partsText joins the text of the thought parts (thoughts true) or of the
// others, with placeholders for data parts.
func partsText(ps []part, thoughts bool) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Thought != thoughts {
			continue
		}
		switch {
		case p.Text != nil:
			b.WriteString(*p.Text)
		case thoughts:
		case p.InlineData != nil:
			fmt.Fprintf(&b, "[inlineData %s]", p.InlineData.MimeType)
		case p.FileData != nil:
			fmt.Fprintf(&b, "[fileData %s %s]", p.FileData.MimeType, p.FileData.FileURI)
		}
	}
	return b.String()
}

// chatState turns the records of one session file into rows.
type chatState struct {
	in       *parser.Input
	out      parser.Sink
	session  string // from the first record that names one, else the file name
	model    string // the model the file last named
	mode     string // the approval mode the file last named
	last     time.Time
	subagent map[string]bool // sidechain agent ids already announced
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	st := &chatState{in: in, out: out, subagent: map[string]bool{}}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, "truncated or invalid JSON line skipped")
			} else {
				out.Problem(n, "cut record before a glued record: the cut part is lost")
			}
		}
		for _, o := range objs {
			var r chatRecord
			if err := json.Unmarshal(o, &r); err != nil {
				out.Problem(n, "not a chat record: "+err.Error())
				continue
			}
			if r.Type == "" {
				out.Problem(n, "record without a type skipped")
				continue
			}
			st.record(&r, n)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// at returns a record's time: its own, else the previous record's
// (inherited), else none.
func (s *chatState) at(ts string) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.ParseTime(ts); ok {
		s.last = t
		return t, timeline.TimeRecorded
	}
	if !s.last.IsZero() {
		return s.last, timeline.TimeInherited
	}
	return time.Time{}, timeline.TimeNone
}

// rowCtx is what every row of one record shares.
type rowCtx struct {
	t       time.Time
	basis   timeline.TimeBasis
	session string
	project string
	line    int64
}

func (s *chatState) emit(c rowCtx, ev timeline.Event) {
	ev.Time, ev.TimeBasis = c.t, c.basis
	ev.SessionID, ev.ProjectPath, ev.SourceLine = c.session, c.project, c.line
	s.out.Event(ev)
}

func (s *chatState) system(c rowCtx, text string) {
	s.emit(c, timeline.Event{TurnType: timeline.System, Text: text})
}

func (s *chatState) record(r *chatRecord, line int64) {
	if s.session == "" {
		s.session = r.SessionID
		if s.session == "" {
			s.session = strings.TrimSuffix(base(s.in.Path), ".jsonl")
			s.out.Problem(line, "no sessionId in the record: session id taken from the file name")
		}
	}
	t, basis := s.at(r.Timestamp)
	c := rowCtx{t: t, basis: basis, session: s.session, project: r.Cwd, line: line}
	if r.SessionID != "" {
		c.session = r.SessionID
	}
	if r.IsSidechain && r.AgentID != "" {
		// A subagent's own transcript (projects/<slug>/subagents/<session>/
		// agent-<id>.jsonl): its records carry the parent's sessionId.
		parent := c.session
		c.session = r.AgentID
		if !s.subagent[r.AgentID] {
			s.subagent[r.AgentID] = true
			s.system(c, "subagent "+r.AgentID+" of "+parent)
		}
	}
	if ec := r.ExecutionContext; ec != nil {
		if ec.ModelID != "" {
			s.modelRow(c, ec.ModelID, "")
		}
		if ec.ApprovalMode != "" && ec.ApprovalMode != s.mode {
			s.mode = ec.ApprovalMode
			s.system(c, "permission mode: "+ec.ApprovalMode)
		}
	}
	var parts []part
	if r.Message != nil {
		parts = parseParts(r.Message.Parts)
	}
	switch r.Type {
	case "user":
		s.user(c, r, parts)
	case "assistant":
		s.assistant(c, r, parts)
	case "tool_result":
		s.toolResult(c, r, parts)
	case "system":
		s.systemRecord(c, r)
	default:
		text := partsText(parts, false)
		s.system(c, strings.TrimSpace(r.Type+": "+text))
	}
}

// modelRow emits "model: <id>" the first time the file names a model and
// "model: <old> -> <new>" on a change; auth, when given, is appended.
func (s *chatState) modelRow(c rowCtx, model, auth string) {
	if model == s.model && auth == "" {
		return
	}
	text := "model: " + model
	if s.model != "" && s.model != model {
		text = "model: " + s.model + " -> " + model
	}
	if auth != "" {
		text += " auth=" + auth
	}
	s.model = model
	s.system(c, text)
}

// injectedTags open user-role text the agent wrote, not the person.
var injectedTags = []string{
	"<system-reminder>", "<session_context>", "<hook_context>", "<state_snapshot>",
	"<extension_context>", "<loaded_context>", "<project_context>", "<global_context>",
	"<background_output>", "<task-notification>", "<command-name>", "<local-command-stdout>",
}

func injected(s string) bool {
	s = strings.TrimSpace(s)
	for _, tag := range injectedTags {
		if strings.HasPrefix(s, tag) {
			return true
		}
	}
	return false
}

// typedSubtypes are user-record subtypes whose text a person typed.
var typedSubtypes = map[string]bool{"": true, "mid_turn_user_message": true, "realtime_message": true, "agent_mention": true}

func (s *chatState) user(c rowCtx, r *chatRecord, parts []part) {
	for _, p := range parts {
		if fr := p.FunctionResponse; fr != nil {
			text, isErr := responseText(fr.Response)
			s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolName: fr.Name, ToolUseID: fr.ID,
				Text: text, IsError: boolStr(isErr)})
		}
	}
	text := partsText(parts, false)
	var payload struct {
		DisplayText string `json:"displayText"`
	}
	if isKind(r.SystemPayload, '{') && json.Unmarshal(r.SystemPayload, &payload) == nil &&
		strings.TrimSpace(payload.DisplayText) != "" {
		text = payload.DisplayText
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	typed := typedSubtypes[r.Subtype] && (r.Provenance == "" || r.Provenance == "real_user") && !injected(text)
	if typed {
		s.emit(c, timeline.Event{TurnType: timeline.User, Text: text})
		return
	}
	if r.Subtype != "" {
		text = r.Subtype + ": " + text
	}
	s.system(c, text)
}

func (s *chatState) assistant(c rowCtx, r *chatRecord, parts []part) {
	if r.Model != "" {
		s.modelRow(c, r.Model, "")
	}
	model := r.Model
	if th := partsText(parts, true); strings.TrimSpace(th) != "" {
		s.emit(c, timeline.Event{TurnType: timeline.Thinking, Model: model, Text: th})
	}
	if text := partsText(parts, false); strings.TrimSpace(text) != "" {
		s.emit(c, timeline.Event{TurnType: timeline.Assistant, Model: model, Text: text})
	}
	for _, p := range parts {
		if fc := p.FunctionCall; fc != nil {
			s.emit(c, timeline.Event{TurnType: timeline.ToolUse, Model: model, ToolName: fc.Name,
				ToolUseID: fc.ID, Text: callText(fc.Args), ToolInput: parser.CompactJSON(fc.Args)})
		}
	}
}

func (s *chatState) toolResult(c rowCtx, r *chatRecord, parts []part) {
	tcr := r.ToolCallResult
	status := ""
	if tcr != nil {
		status = tcr.Status
	}
	seen := false
	for _, p := range parts {
		fr := p.FunctionResponse
		if fr == nil {
			continue
		}
		seen = true
		text, isErr := responseText(fr.Response)
		if status == "error" {
			isErr = true
		}
		s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolName: fr.Name, ToolUseID: fr.ID,
			Text: text, IsError: boolStr(isErr)})
		if status == "cancelled" || status == "awaiting_approval" {
			s.emit(c, timeline.Event{TurnType: timeline.System, ToolName: fr.Name, ToolUseID: fr.ID,
				Text: "permission decision: " + status})
		}
	}
	if seen {
		return
	}
	// No functionResponse part: the result is known from toolCallResult
	// (or from text parts) only.
	text := partsText(parts, false)
	id := ""
	if tcr != nil {
		id = tcr.CallID
		if text == "" {
			text = scalarText(tcr.ResultDisplay)
		}
	}
	if id == "" && text == "" {
		return
	}
	s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolUseID: id, Text: text, IsError: boolStr(status == "error")})
	if status == "cancelled" || status == "awaiting_approval" {
		s.emit(c, timeline.Event{TurnType: timeline.System, ToolUseID: id, Text: "permission decision: " + status})
	}
}

// quietSubtypes are system records that only restore UI or replay state
// (attribution, file history, branch and goal bookkeeping): no row.
var quietSubtypes = map[string]bool{
	"attribution_snapshot": true, "file_history_snapshot": true, "branch_checkpoint": true,
	"user_text_elements": true, "session_artifact_event": true, "session_artifact_snapshot": true,
	"session_sources_snapshot": true, "managed_session_header_v1": true, "managed_session_event_v1": true,
	"managed_session_commit_v1": true, "agent_session_ready": true, "agent_bootstrap": true,
	"goal_state": true, "goal_turn_end": true, "session_execution_engine": true, "omni_recall": true,
}

func (s *chatState) systemRecord(c rowCtx, r *chatRecord) {
	var p map[string]json.RawMessage
	if isKind(r.SystemPayload, '{') {
		_ = json.Unmarshal(r.SystemPayload, &p)
	}
	str := func(k string) string {
		var v string
		_ = json.Unmarshal(p[k], &v)
		return v
	}
	switch r.Subtype {
	case "session_model":
		if m := str("modelId"); m != "" {
			s.modelRow(c, m, firstNonEmpty(str("authType"), "unknown"))
		}
	case "session_approval_mode":
		mode := str("mode")
		if mode == "" {
			return
		}
		text := "permission mode: " + mode
		if v := str("prePlanMode"); v != "" {
			text += " prePlanMode=" + v
		}
		if v := str("planExecutionMode"); v != "" {
			text += " planExecutionMode=" + v
		}
		s.mode = mode
		s.system(c, text)
	case "ui_telemetry":
		s.uiTelemetry(c, p["uiEvent"])
	case "slash_command":
		if str("phase") != "result" {
			s.system(c, "slash command: "+str("rawCommand"))
		}
	case "at_command":
		var files []string
		_ = json.Unmarshal(p["filesRead"], &files)
		text := "at command: " + str("userText")
		if len(files) > 0 {
			text += " files=" + strings.Join(files, ",")
		}
		if v := str("status"); v != "" {
			text += " status=" + v
		}
		s.system(c, strings.TrimSpace(text))
	case "chat_compression":
		s.system(c, "chat compression: "+parser.CompactJSON(p["info"]))
	case "custom_title":
		text := "session title: " + str("customTitle")
		if v := str("titleSource"); v != "" {
			text += " (" + v + ")"
		}
		s.system(c, text)
	case "parent_session":
		s.system(c, "parent session: "+str("parentSessionId"))
	case "session_source":
		s.system(c, strings.TrimSpace("session source: "+str("sourceType")+" "+str("sourceId")))
	case "rewind":
		s.system(c, "rewind: "+parser.CompactJSON(p["truncatedCount"])+" history items truncated")
	case "agent_retry":
		s.system(c, "agent retry: attempt "+parser.CompactJSON(p["attempt"]))
	case "turn_result":
		text := "turn result: " + str("state")
		if v := str("stopReason"); v != "" {
			text += " (" + v + ")"
		}
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(p["error"], &e) == nil && e.Message != "" {
			text += ": " + e.Message
		}
		s.system(c, text)
	case "background_task_completed", "notification", "cron":
		s.system(c, strings.TrimSpace(r.Subtype+": "+str("displayText")))
	default:
		if quietSubtypes[r.Subtype] {
			return
		}
		text := "system record: " + firstNonEmpty(r.Subtype, "(no subtype)")
		if r.Message != nil {
			if t := partsText(parseParts(r.Message.Parts), false); t != "" {
				text += ": " + t
			}
		}
		s.system(c, text)
	}
}

// uiTelemetry reads a replayed UI telemetry event: a tool call the user
// answered (decision other than auto_accept) gives a permission decision
// row, an API error a system row; the rest (api_response, api_request,
// auto-accepted calls) only feeds the agent's own stats.
func (s *chatState) uiTelemetry(c rowCtx, raw json.RawMessage) {
	var ev map[string]json.RawMessage
	if !isKind(raw, '{') || json.Unmarshal(raw, &ev) != nil {
		return
	}
	str := func(k string) string {
		var v string
		_ = json.Unmarshal(ev[k], &v)
		return v
	}
	if t, ok := parser.ParseTime(str("event.timestamp")); ok {
		c.t, c.basis = t, timeline.TimeRecorded
	}
	switch strings.TrimPrefix(str("event.name"), "qwen-code.") {
	case "tool_call":
		d := str("decision")
		if d == "" || d == "auto_accept" {
			return
		}
		s.emit(c, timeline.Event{TurnType: timeline.System, ToolName: str("function_name"), ToolUseID: str("call_id"),
			Text: "permission decision: " + d + " (tool_call ui_telemetry)"})
	case "api_error":
		text := "api error: " + firstNonEmpty(str("error"), str("error_type"), "unknown")
		var extra []string
		if m := str("model"); m != "" {
			extra = append(extra, "model="+m)
		}
		if code := parser.CompactJSON(ev["status_code"]); code != "" {
			extra = append(extra, "status="+strings.Trim(code, `"`))
		}
		if len(extra) > 0 {
			text += " (" + strings.Join(extra, " ") + ")"
		}
		s.system(c, text)
	}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// responseText renders a functionResponse's response: output, else error
// (an error), else the response as JSON.
func responseText(raw json.RawMessage) (string, bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil {
		return parser.CompactJSON(raw), false
	}
	if v, ok := r["output"]; ok {
		return scalarText(v), false
	}
	if v, ok := r["error"]; ok {
		return scalarText(v), true
	}
	if v, ok := r["content"]; ok {
		return scalarText(v), false
	}
	return parser.CompactJSON(raw), false
}

// callKeys are the arguments that identify a call, most telling first.
var callKeys = []string{"command", "file_path", "absolute_path", "path", "paths", "pattern", "url", "urls", "query", "prompt", "skill", "fact", "description"}

// callText is a call's most identifying argument: the shell command, the
// file path, the pattern, the URL, the query, a subagent's prompt.
func callText(args json.RawMessage) string {
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	for _, k := range callKeys {
		v, ok := a[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && s != "" {
			return s
		}
		var ss []string
		if json.Unmarshal(v, &ss) == nil && len(ss) > 0 {
			return strings.Join(ss, " ")
		}
	}
	// Otherwise the first string argument, by key order.
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var s string
		if json.Unmarshal(a[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}
