package qwen

// Parts are read with the gemini package's ParseParts and PartsText (the same
// @google/genai Part); responseText, callText and the injected tags stay
// Qwen's own: its function responses also carry content and non-string
// output, and its tools and harness tags differ from Gemini CLI's.

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/geminichat"
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
	ForkedFrom       *struct {
		SessionID   string `json:"sessionId"`
		MessageUUID string `json:"messageUuid"`
	} `json:"forkedFrom"`
}

type content struct {
	Role  string          `json:"role"`
	Parts json.RawMessage `json:"parts"`
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

// chatState turns the records of one session file into rows.
type chatState struct {
	in       *parser.Input
	out      parser.Sink
	session  string // from the first record that names one, else the file name
	model    string // the model the file last named
	mode     string // the approval mode the file last named
	last     time.Time
	subagent map[string]bool // sidechain agent ids already announced
	tasks    map[string]bool // sidechain agent ids whose task prompt was written
	// rows counts the current record's rows; why is the Skip reason when
	// it gives none.
	rows int
	why  string
	// active is the conversation's live records in file order (uuids),
	// pos their index: a rewind record re-roots the chain at its
	// parentUuid and the records after it leave the conversation (they
	// stay as rows).
	active []string
	pos    map[string]int
	// forkOf is the session a /branch copy came from (forkedFrom).
	forkOf string
	states map[string]*timeline.SessionState
	order  []string
}

// state returns the session state being built for id.
func (s *chatState) state(id string) *timeline.SessionState {
	st, ok := s.states[id]
	if !ok {
		st = &timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}}
		s.states[id] = st
		s.order = append(s.order, id)
	}
	return st
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	st := &chatState{in: in, out: out, subagent: map[string]bool{}, tasks: map[string]bool{},
		pos: map[string]int{}, states: map[string]*timeline.SessionState{}}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(nil))
			} else {
				out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
			}
		}
		for _, o := range objs {
			var r chatRecord
			if err := json.Unmarshal(o, &r); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			if r.Type == "" {
				out.Report(n, parser.KindSkippedRecord, "record without a type skipped")
				continue
			}
			st.rows, st.why = 0, ""
			st.record(&r, n)
			if st.rows == 0 {
				why := st.why
				if why == "" {
					why = "no_evidence:" + r.Type
					if r.Subtype != "" {
						why += ":" + r.Subtype
					}
				}
				out.Skip(n, why)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	for _, id := range st.order {
		out.Session(*st.states[id])
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
	t        time.Time
	basis    timeline.TimeBasis
	session  string
	parent   string // a subagent's parent session, a fork's origin
	project  string
	line     int64
	rid      string // the record's uuid (the original's for a /branch copy)
	replayed bool
	sub      string // the sidechain agent id
}

// id is the RecordID of a row of the record: its uuid with suffix ("" when
// the record has no uuid).
func (c rowCtx) id(suffix string) string {
	if c.rid == "" {
		return ""
	}
	return c.rid + suffix
}

// blockSuffix is "#<i>" for part i of a record of n parts, "" when its one
// part is the record.
func blockSuffix(i, n int) string {
	if n <= 1 {
		return ""
	}
	return "#" + strconv.Itoa(i)
}

func (s *chatState) emit(c rowCtx, ev timeline.Event) {
	ev.Time, ev.TimeBasis = c.t, c.basis
	ev.SessionID, ev.ProjectPath, ev.SourceLine = c.session, c.project, c.line
	ev.ParentSessionID, ev.Replayed = c.parent, c.replayed
	s.rows++
	s.out.Event(ev)
}

// system emits a system row of the record; suffix names a derived row.
func (s *chatState) system(c rowCtx, text, suffix string) {
	s.emit(c, timeline.Event{TurnType: timeline.System, Text: text, RecordID: c.id(suffix)})
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
	c := rowCtx{t: t, basis: basis, session: s.session, project: r.Cwd, line: line, rid: r.UUID}
	if r.SessionID != "" {
		c.session = r.SessionID
	}
	if fk := r.ForkedFrom; fk != nil && fk.SessionID != "" {
		// A /branch copy: the original record of session fk.SessionID,
		// copied verbatim under the fork's sessionId. Its rows are the
		// original's (Replayed), the fork's state names where it came from.
		if s.forkOf == "" && c.session != fk.SessionID {
			s.forkOf = fk.SessionID
			s.state(c.session).ForkedFrom = fk.SessionID
		}
		c.session, c.replayed = fk.SessionID, true
		if fk.MessageUUID != "" {
			c.rid = fk.MessageUUID
		}
	} else if s.forkOf != "" && c.session != s.forkOf {
		c.parent = s.forkOf
	}
	if r.IsSidechain && r.AgentID != "" {
		// A subagent's own transcript (projects/<slug>/subagents/<session>/
		// agent-<id>.jsonl): its records carry the parent's sessionId; its
		// rows carry the subagent's own and the parent's.
		parent := c.session
		c.session, c.parent, c.sub = r.AgentID, parent, r.AgentID
		if !s.subagent[r.AgentID] {
			s.subagent[r.AgentID] = true
			s.state(r.AgentID).ParentSessionID = parent
			s.emit(c, timeline.Event{TurnType: timeline.System, Text: "subagent " + parser.Shown(r.AgentID) + " of " + parser.Shown(parent), RecordID: r.AgentID + "#subagent"})
		}
	}
	if ec := r.ExecutionContext; ec != nil {
		if ec.ModelID != "" {
			s.modelRow(c, ec.ModelID, "", "#model")
		}
		if ec.ApprovalMode != "" && ec.ApprovalMode != s.mode {
			s.mode = ec.ApprovalMode
			s.system(c, "permission mode: "+ec.ApprovalMode, "#mode")
		}
	}
	var parts []geminichat.Part
	if r.Message != nil {
		parts = geminichat.ParseParts(r.Message.Parts)
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
		text := geminichat.PartsText(parts, false)
		s.system(c, strings.TrimSpace(r.Type+": "+text), "")
	}
	if r.UUID != "" && !(r.Type == "system" && r.Subtype == "rewind") {
		s.pos[r.UUID] = len(s.active)
		s.active = append(s.active, r.UUID)
	}
}

// rewind reads a rewind record (/rewind, rewindRecording): it re-roots the
// conversation at its parentUuid, so every live record after that one
// leaves the conversation (all of them when parentUuid is null or not in
// the file). Those records stay as rows; this row says what happened.
func (s *chatState) rewind(c rowCtx, r *chatRecord) {
	n := len(s.active)
	keep := 0
	if r.ParentUUID != nil {
		if i, ok := s.pos[*r.ParentUUID]; ok && i < len(s.active) && s.active[i] == *r.ParentUUID {
			keep = i + 1
			n = len(s.active) - keep
		}
	}
	for _, id := range s.active[keep:] {
		delete(s.pos, id)
	}
	s.active = s.active[:keep]
	when := "an unrecorded time"
	if !c.t.IsZero() {
		when = c.t.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	s.system(c, fmt.Sprintf("rewound by /rewind at %s: %d record(s)", when, n), "")
	if r.UUID != "" {
		s.pos[r.UUID] = len(s.active)
		s.active = append(s.active, r.UUID)
	}
}

// modelRow emits "model: <id>" the first time the file names a model and
// "model: <old> -> <new>" on a change; auth, when given, is appended.
func (s *chatState) modelRow(c rowCtx, model, auth, suffix string) {
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
	s.system(c, text, suffix)
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

func (s *chatState) user(c rowCtx, r *chatRecord, parts []geminichat.Part) {
	first := -1
	for i, p := range parts {
		if fr := p.FunctionResponse; fr != nil {
			text, isErr := responseText(fr.Response)
			s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolName: fr.Name, ToolUseID: fr.ID,
				Text: text, IsError: strconv.FormatBool(isErr), RecordID: c.id(blockSuffix(i, len(parts)))})
		} else if first < 0 && p.Text != nil && !p.Thought {
			first = i
		}
	}
	text := geminichat.PartsText(parts, false)
	var payload struct {
		DisplayText string `json:"displayText"`
	}
	if isKind(r.SystemPayload, '{') && json.Unmarshal(r.SystemPayload, &payload) == nil &&
		strings.TrimSpace(payload.DisplayText) != "" {
		text = payload.DisplayText
	}
	if strings.TrimSpace(text) == "" {
		s.why = "no_evidence:empty_user"
		return
	}
	id := c.id("")
	if first >= 0 {
		id = c.id(blockSuffix(first, len(parts)))
	}
	if c.sub != "" {
		// In a subagent's transcript no user text was typed by a person:
		// the first is the task the parent's model wrote, the rest the
		// harness's.
		tt := timeline.System
		if !s.tasks[c.sub] && !injected(text) {
			s.tasks[c.sub] = true
			text = "subagent task: " + text
		}
		s.emit(c, timeline.Event{TurnType: tt, Text: text, RecordID: id})
		return
	}
	typed := typedSubtypes[r.Subtype] && (r.Provenance == "" || r.Provenance == "real_user") && !injected(text)
	if typed {
		s.emit(c, timeline.Event{TurnType: timeline.User, Text: text, RecordID: id})
		return
	}
	if r.Subtype != "" {
		text = r.Subtype + ": " + text
	}
	s.emit(c, timeline.Event{TurnType: timeline.System, Text: text, RecordID: id})
}

func (s *chatState) assistant(c rowCtx, r *chatRecord, parts []geminichat.Part) {
	if r.Model != "" {
		s.modelRow(c, r.Model, "", "#model")
	}
	model := r.Model
	firstOf := func(thought bool) int {
		for i, p := range parts {
			if p.Text != nil && p.Thought == thought {
				return i
			}
		}
		return 0
	}
	if th := geminichat.PartsText(parts, true); strings.TrimSpace(th) != "" {
		s.emit(c, timeline.Event{TurnType: timeline.Thinking, Model: model, Text: th, RecordID: c.id(blockSuffix(firstOf(true), len(parts)))})
	}
	if text := geminichat.PartsText(parts, false); strings.TrimSpace(text) != "" {
		s.emit(c, timeline.Event{TurnType: timeline.Assistant, Model: model, Text: text, RecordID: c.id(blockSuffix(firstOf(false), len(parts)))})
	}
	for i, p := range parts {
		if fc := p.FunctionCall; fc != nil {
			s.emit(c, timeline.Event{TurnType: timeline.ToolUse, Model: model, ToolName: fc.Name,
				ToolUseID: fc.ID, Text: callText(fc.Args), ToolInput: parser.CompactJSON(fc.Args), RecordID: c.id(blockSuffix(i, len(parts)))})
		}
	}
	if s.rows == 0 {
		s.why = "no_evidence:empty_assistant"
	}
}

func (s *chatState) toolResult(c rowCtx, r *chatRecord, parts []geminichat.Part) {
	tcr := r.ToolCallResult
	status := ""
	if tcr != nil {
		status = tcr.Status
	}
	seen := false
	for i, p := range parts {
		fr := p.FunctionResponse
		if fr == nil {
			continue
		}
		seen = true
		text, isErr := responseText(fr.Response)
		if status == "error" {
			isErr = true
		}
		id := c.id(blockSuffix(i, len(parts)))
		s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolName: fr.Name, ToolUseID: fr.ID,
			Text: text, IsError: strconv.FormatBool(isErr), RecordID: id})
		if status == "cancelled" || status == "awaiting_approval" {
			s.emit(c, timeline.Event{TurnType: timeline.System, ToolName: fr.Name, ToolUseID: fr.ID,
				Text: "permission decision: " + status, RecordID: id + "#decision"})
		}
	}
	if seen {
		return
	}
	// No functionResponse part: the result is known from toolCallResult
	// (or from text parts) only.
	text := geminichat.PartsText(parts, false)
	id := ""
	if tcr != nil {
		id = tcr.CallID
		if text == "" {
			text = parser.JSONText(tcr.ResultDisplay)
		}
	}
	if id == "" && text == "" {
		s.why = "no_evidence:empty_tool_result"
		return
	}
	s.emit(c, timeline.Event{TurnType: timeline.ToolResult, ToolUseID: id, Text: text, IsError: strconv.FormatBool(status == "error"), RecordID: c.id("")})
	if status == "cancelled" || status == "awaiting_approval" {
		s.emit(c, timeline.Event{TurnType: timeline.System, ToolUseID: id, Text: "permission decision: " + status, RecordID: c.id("#decision")})
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
	sys := func(text string) { s.system(c, text, "") }
	switch r.Subtype {
	case "session_model":
		if m := str("modelId"); m != "" {
			s.modelRow(c, m, firstNonEmpty(str("authType"), "unknown"), "")
		}
	case "session_approval_mode":
		mode := str("mode")
		if mode == "" {
			s.why = "no_evidence:session_approval_mode:empty"
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
		sys(text)
	case "ui_telemetry":
		s.uiTelemetry(c, p["uiEvent"])
	case "slash_command":
		if str("phase") == "result" {
			s.why = "no_evidence:slash_command:result" // the invocation is the row
			return
		}
		sys("slash command: " + str("rawCommand"))
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
		sys(strings.TrimSpace(text))
	case "chat_compression":
		sys("chat compression: " + parser.CompactJSON(p["info"]))
	case "custom_title":
		text := "session title: " + str("customTitle")
		if v := str("titleSource"); v != "" {
			text += " (" + v + ")"
		}
		sys(text)
	case "parent_session":
		parent := str("parentSessionId")
		sys("parent session: " + parent)
		if parent != "" && c.sub == "" && !c.replayed {
			s.state(c.session).ParentSessionID = parent
		}
	case "session_source":
		typ := str("sourceType")
		sys(strings.TrimSpace("session source: " + typ + " " + str("sourceId")))
		if typ != "" && c.sub == "" && !c.replayed {
			// The integration that created the session: a messaging
			// channel relays it (the channels' DaemonChannelBridge stamps
			// its sessions), any other source does not.
			relayed := "no"
			if typ == "channel" {
				relayed = "yes"
			}
			s.state(c.session).Relayed = relayed
		}
	case "rewind":
		s.rewind(c, r)
	case "agent_retry":
		sys("agent retry: attempt " + parser.CompactJSON(p["attempt"]))
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
		sys(text)
	case "background_task_completed", "notification", "cron":
		sys(strings.TrimSpace(r.Subtype + ": " + str("displayText")))
	default:
		if quietSubtypes[r.Subtype] {
			s.why = "state_only:" + r.Subtype
			return
		}
		text := "system record: " + firstNonEmpty(r.Subtype, "(no subtype)")
		if r.Message != nil {
			if t := geminichat.PartsText(geminichat.ParseParts(r.Message.Parts), false); t != "" {
				text += ": " + t
			}
		}
		sys(text)
	}
}

// uiTelemetry reads a replayed UI telemetry event: a tool call the user
// answered (decision other than auto_accept) gives a permission decision
// row, an API error a system row; the rest (api_response, api_request,
// auto-accepted calls) only feeds the agent's own stats.
func (s *chatState) uiTelemetry(c rowCtx, raw json.RawMessage) {
	var ev map[string]json.RawMessage
	if !isKind(raw, '{') || json.Unmarshal(raw, &ev) != nil {
		s.why = "no_evidence:ui_telemetry"
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
	name := strings.TrimPrefix(str("event.name"), "qwen-code.")
	switch name {
	case "tool_call":
		d := str("decision")
		if d == "" || d == "auto_accept" {
			s.why = "no_evidence:ui_telemetry:tool_call_" + firstNonEmpty(d, "undecided")
			return
		}
		s.emit(c, timeline.Event{TurnType: timeline.System, ToolName: str("function_name"), ToolUseID: str("call_id"),
			Text: "permission decision: " + d + " (tool_call ui_telemetry)", RecordID: c.id("")})
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
		s.system(c, text, "")
	default:
		s.why = "no_evidence:ui_telemetry:" + firstNonEmpty(name, "unnamed")
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
		return parser.JSONText(v), false
	}
	if v, ok := r["error"]; ok {
		return parser.JSONText(v), true
	}
	if v, ok := r["content"]; ok {
		return parser.JSONText(v), false
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
