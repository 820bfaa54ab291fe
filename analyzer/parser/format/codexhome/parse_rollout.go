package codexhome

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// envelope is one rollout line: {timestamp, type, payload} since the
// RolloutLine rewrite; legacy lines are bare (see normalize).
type envelope struct {
	Timestamp    string          `json:"timestamp"`
	Type         string          `json:"type"`
	Payload      json.RawMessage `json:"payload"`
	RecordType   string          `json:"record_type"`
	ID           string          `json:"id"`
	Instructions json.RawMessage `json:"instructions"`
}

// responseItemTypes are the Responses API item types a legacy rollout
// writes bare, without the envelope.
var responseItemTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
	"web_search_call": true, "image_generation_call": true, "tool_search_call": true,
	"tool_search_output": true, "compaction": true, "context_compaction": true,
}

// record is a normalized line.
type record struct {
	kind    string // session_meta, response_item, event_msg, turn_context, compacted, ...
	ts      string
	payload json.RawMessage
}

func normalize(raw []byte) (record, error) {
	rec, _, err := normalizeLenient(raw)
	return rec, err
}

// normalizeLenient is normalize reading an envelope member of an
// unexpected type (a numeric timestamp) as null (parser.DecodeLenient):
// the members it left out are returned, and the record is still read.
func normalizeLenient(raw []byte) (record, []string, error) {
	var env envelope
	dropped, err := parser.DecodeLenient(raw, &env)
	if err != nil {
		return record{}, nil, err
	}
	rec, err := normalizeEnvelope(raw, &env)
	return rec, dropped, err
}

func normalizeEnvelope(raw []byte, env *envelope) (record, error) {
	switch {
	case len(env.Payload) > 0 && env.Type != "":
		return record{kind: env.Type, ts: env.Timestamp, payload: env.Payload}, nil
	case env.RecordType != "":
		return record{kind: "state"}, nil
	case env.Type == "" && env.ID != "" && env.Timestamp != "":
		// Legacy first line {id, timestamp, instructions, git}.
		return record{kind: "session_meta", ts: env.Timestamp, payload: raw}, nil
	case responseItemTypes[env.Type]:
		// Legacy bare Responses item: no time of its own.
		return record{kind: "response_item", payload: raw}, nil
	}
	return record{kind: env.Type, ts: env.Timestamp}, nil
}

type sessionMeta struct {
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	Thread    struct {
		SessionID string `json:"sessionId"`
	} `json:"thread"`
	Timestamp     string          `json:"timestamp"`
	Cwd           string          `json:"cwd"`
	Originator    string          `json:"originator"`
	CLIVersion    string          `json:"cli_version"`
	Source        json.RawMessage `json:"source"`
	ForkedFromID  string          `json:"forked_from_id"`
	AgentNickname string          `json:"agent_nickname"`
	AgentRole     string          `json:"agent_role"`
}

func (m *sessionMeta) id() string {
	switch {
	case m.ID != "":
		return m.ID
	case m.SessionID != "":
		return m.SessionID
	}
	return m.Thread.SessionID
}

type turnContext struct {
	Cwd               string          `json:"cwd"`
	Model             string          `json:"model"`
	ApprovalPolicy    json.RawMessage `json:"approval_policy"`
	SandboxPolicy     json.RawMessage `json:"sandbox_policy"`
	PermissionProfile json.RawMessage `json:"permission_profile"`
}

type contentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
	Refusal  string `json:"refusal"`
	Filename string `json:"filename"`
}

type responseItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   []contentPart   `json:"summary"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	Status    string          `json:"status"`
	Message   string          `json:"message"`
	Encrypted string          `json:"encrypted_content"`
}

type eventMsg struct {
	Type        string          `json:"type"`
	Message     string          `json:"message"`
	Text        string          `json:"text"`
	Reason      string          `json:"reason"`
	Item        json.RawMessage `json:"item"`
	LocalImages []string        `json:"local_images"`
	ThreadName  string          `json:"thread_name"`
	Name        string          `json:"name"`
	CallID      string          `json:"call_id"`
	Command     json.RawMessage `json:"command"`
	NumTurns    json.RawMessage `json:"num_turns"`
	// TurnAttribution (task_started, 0.163+) says what started the turn.
	TurnAttribution struct {
		TurnID              string `json:"turn_id"`
		TurnTrigger         string `json:"turn_trigger"`
		ParentTurnID        string `json:"parent_turn_id"`
		InitiatingAgentPath string `json:"initiating_agent_path"`
	} `json:"turn_attribution"`
}

// turnItem is the 0.148+ item_completed{item} form (TurnItem), in either
// case style ("UserMessage" / "user_message").
type turnItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Text             string          `json:"text"`
	Content          json.RawMessage `json:"content"`
	Summary          json.RawMessage `json:"summary_text"`
	Command          json.RawMessage `json:"command"`
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`
}

func (fl flavor) parseRollout(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if strings.HasSuffix(strings.ToLower(in.Path), ".json") {
		return parseTSRollout(ctx, in, out)
	}
	fallback := idFromName(in.Path)
	pre := newTracker(fallback)
	err := walkRecords(ctx, in, nil, func(n int64, raw []byte, kept int) {
		if raw == nil {
			return
		}
		rec, err := normalize(raw)
		if err != nil {
			return
		}
		prescanRecord(pre, rec)
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	cs := &countingSink{Sink: out}
	tr := newTracker(fallback)
	tr.owners = pre.owners
	st := &rollout{agent: fl.agent, out: cs, tr: tr}
	err = walkRecords(ctx, in, out, func(n int64, raw []byte, kept int) {
		if raw == nil {
			out.Problem(n, parser.BadJSONLine(nil))
			return
		}
		if kept > 0 {
			out.Report(n, parser.KindGlued, parser.GluedProblem(kept, true))
		}
		rec, dropped, err := normalizeLenient(raw)
		if err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return
		}
		if len(dropped) > 0 {
			out.Problem(n, parser.LenientProblem(dropped))
		}
		before := cs.n
		st.sub, st.why = "", ""
		st.handle(n, rec)
		if cs.n == before {
			why := st.why
			if why == "" {
				why = "no_evidence:" + rec.kind
				if st.sub != "" {
					why += "/" + st.sub
				}
			}
			out.Skip(n, why)
		}
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// prescanRecord is the first pass over one record: it follows the owner
// and notes what the owner's response items carry.
func prescanRecord(t *tracker, rec record) {
	if rec.kind == "session_meta" {
		var m sessionMeta
		if json.Unmarshal(rec.payload, &m) == nil {
			t.meta(&m, rec.ts)
		}
		return
	}
	if t.needsHints() {
		t.observe(rec)
	}
	p := t.cur().pre
	switch rec.kind {
	case "turn_context":
		var tc turnContext
		if json.Unmarshal(rec.payload, &tc) != nil {
			return
		}
		if p.model == "" {
			p.model = tc.Model
		}
		if p.cwd == "" {
			p.cwd = tc.Cwd
		}
	case "response_item":
		var it responseItem
		if json.Unmarshal(rec.payload, &it) != nil {
			return
		}
		switch it.Type {
		case "message":
			if it.Role == "assistant" {
				p.respAssistant = true
			}
		case "reasoning":
			if text, _ := reasoningText(&it); strings.TrimSpace(text) != "" {
				p.respReasoning = true
			}
		case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call", "tool_search_call":
			if id := callID(&it); id != "" {
				p.respCalls[id] = true
			}
		}
	case "event_msg":
		var ev eventMsg
		if json.Unmarshal(rec.payload, &ev) != nil {
			return
		}
		switch ev.Type {
		case "user_message":
			p.evUser[hashText(ev.Message)] = true
		case "item_completed":
			var ti turnItem
			if json.Unmarshal(ev.Item, &ti) == nil && itemKind(ti.Type) == "usermessage" {
				p.evUser[hashText(turnItemText(&ti))] = true
			}
		}
	}
}

// rollout is the second pass's state.
type rollout struct {
	agent string
	out   parser.Sink
	tr    *tracker
	o     *owner // the current record's owner
	// sub and why name, for the accounting of a record that gave no row,
	// its payload type and (when set) the reason.
	sub, why string
}

// countingSink counts what reaches the sink, so a record that gave no row
// and no problem is known.
type countingSink struct {
	parser.Sink
	n int
}

func (c *countingSink) Event(e timeline.Event)         { c.n++; c.Sink.Event(e) }
func (c *countingSink) Problem(line int64, msg string) { c.n++; c.Sink.Problem(line, msg) }
func (c *countingSink) Report(line int64, kind, msg string) {
	c.n++
	c.Sink.Report(line, kind, msg)
}

// event builds a row of the current owner. A replayed row's envelope time
// is the fork's copy time, not the record's: it takes the time of the
// replayed turn (the UUIDv7 time of its turn id), else its session's start,
// as inherited.
func (r *rollout) event(n int64, ts string, turn timeline.TurnType, text string) timeline.Event {
	o := r.o
	e := timeline.Event{SessionID: o.sid, ProjectPath: o.cwd, ParentSessionID: o.parent, Replayed: o.replayed,
		TurnType: turn, Text: text, SourceLine: n}
	t, ok := parser.ParseTime(ts)
	switch {
	case o.replayed && !o.turnTime.IsZero():
		e.Time, e.TimeBasis = o.turnTime, timeline.TimeInherited
	case o.replayed && !o.start.IsZero():
		e.Time, e.TimeBasis = o.start, timeline.TimeInherited
	case o.replayed:
		e.TimeBasis = timeline.TimeNone
	case ok:
		e.Time = t
	case !o.start.IsZero():
		e.Time, e.TimeBasis = o.start, timeline.TimeInherited
	default:
		e.TimeBasis = timeline.TimeNone
	}
	switch turn {
	case timeline.Assistant, timeline.ToolUse, timeline.Thinking:
		e.Model = o.model
	}
	return e
}

func (r *rollout) system(n int64, ts, text, id string) {
	e := r.event(n, ts, timeline.System, text)
	e.RecordID = id
	r.out.Event(e)
}

// prompt emits what the user-role input of a turn is: a user row, or in a
// subagent's session the system row "subagent task: <text>" (the parent
// model or Codex wrote it).
func (r *rollout) prompt(n int64, ts, text, id string) {
	if r.o.subagent {
		r.system(n, ts, "subagent task: "+text, id)
		return
	}
	e := r.event(n, ts, timeline.User, text)
	e.RecordID = id
	r.out.Event(e)
}

func (r *rollout) handle(n int64, rec record) {
	if rec.kind == "session_meta" {
		r.sessionMeta(n, rec)
		return
	}
	if r.tr.needsHints() {
		r.tr.observe(rec)
	}
	r.o = r.tr.cur()
	switch rec.kind {
	case "turn_context":
		r.turnContext(n, rec)
	case "response_item":
		var it responseItem
		if err := json.Unmarshal(rec.payload, &it); err != nil {
			r.out.Problem(n, "response_item payload: "+parser.JSONError(err))
			return
		}
		r.sub = it.Type
		r.responseItem(n, rec.ts, &it)
	case "event_msg":
		var ev eventMsg
		if err := json.Unmarshal(rec.payload, &ev); err != nil {
			r.out.Problem(n, "event_msg payload: "+parser.JSONError(err))
			return
		}
		r.sub = ev.Type
		r.eventMsg(n, rec.ts, &ev)
	case "compacted":
		var c struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(rec.payload, &c)
		r.system(n, rec.ts, strings.TrimSpace("compacted: "+c.Message), r.o.next("compacted", "").String())
	case "state", "world_state", "token_usage_record", "inter_agent_communication":
		// state markers, context snapshots and usage: no row.
	case "":
		r.out.Problem(n, "record without a type")
	}
}

func (r *rollout) sessionMeta(n int64, rec record) {
	var m sessionMeta
	if err := json.Unmarshal(rec.payload, &m); err != nil {
		r.out.Problem(n, "session_meta payload: "+parser.JSONError(err))
		return
	}
	kind, o := r.tr.meta(&m, rec.ts)
	switch kind {
	case "repeat":
		// A resumed rollout repeats its session_meta, and a fork's replay
		// ends where the fork's own is repeated: no new session.
		r.o = r.tr.cur()
		r.why = "state_only:session_meta repeated"
		return
	case "copy":
		// A subagent's rollout repeats its parent's session_meta: that
		// record alone, the parent's.
		o.replayed = true
		r.o = o
		r.metaRows(n, rec, &m)
		r.o = r.tr.cur()
		return
	}
	r.o = o
	r.metaRows(n, rec, &m)
}

// metaRows gives a session_meta's rows: "session origin: local (...)",
// "subagent <id> of <parent>", "session forked from: <id>", and the
// session's state.
func (r *rollout) metaRows(n int64, rec record, m *sessionMeta) {
	o := r.o
	ts := rec.ts
	if ts == "" {
		ts = m.Timestamp
	}
	var kv []string
	if m.Originator != "" {
		kv = append(kv, "originator="+m.Originator)
	}
	if m.CLIVersion != "" {
		kv = append(kv, "cli_version="+m.CLIVersion)
	}
	src, spawnParent := sourceOf(m.Source)
	if src != "" {
		kv = append(kv, "source="+src)
	}
	text := "session origin: local"
	if len(kv) > 0 {
		text += " (" + strings.Join(kv, " ") + ")"
	}
	base := o.rid("session_meta")
	r.system(n, ts, text, base+"#origin")
	if o.sid != "" {
		r.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: r.agent, SessionID: o.sid}, Origin: "local",
			ParentSessionID: o.parent, ForkedFrom: o.forkedFrom})
	}
	if spawnParent != "" {
		r.system(n, ts, "subagent "+o.sid+" of "+spawnParent, base+"#subagent")
	}
	if m.ForkedFromID != "" {
		r.system(n, ts, "session forked from: "+m.ForkedFromID, base+"#forked")
	}
}

// sourceOf renders session_meta.source: a string ("cli", "exec", "vscode")
// or a subagent object; it returns the parent thread for a spawned one.
func sourceOf(raw json.RawMessage) (string, string) {
	if s, ok := parser.JSONString(raw); ok {
		return s, ""
	}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return "", ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return parser.CompactJSON(raw), ""
	}
	sub, ok := obj["subagent"]
	if !ok {
		return parser.CompactJSON(raw), ""
	}
	if s, ok := parser.JSONString(sub); ok {
		return "subagent:" + s, ""
	}
	var kinds map[string]json.RawMessage
	if json.Unmarshal(sub, &kinds) != nil {
		return "subagent", ""
	}
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parent := ""
	for _, k := range keys {
		var v struct {
			Parent  string `json:"parent_thread_id"`
			Parent2 string `json:"parentThreadId"`
		}
		if json.Unmarshal(kinds[k], &v) == nil {
			if v.Parent != "" {
				parent = v.Parent
			} else if v.Parent2 != "" {
				parent = v.Parent2
			}
		}
	}
	if len(keys) > 0 {
		return "subagent:" + keys[0], parent
	}
	return "subagent", parent
}

func (r *rollout) turnContext(n int64, rec record) {
	var tc turnContext
	if err := json.Unmarshal(rec.payload, &tc); err != nil {
		r.out.Problem(n, "turn_context payload: "+parser.JSONError(err))
		return
	}
	o := r.o
	base := o.next("turn_context", "").String()
	if tc.Cwd != "" {
		o.cwd = tc.Cwd
	}
	if tc.Model != "" {
		switch {
		case o.modelShown == "":
			r.system(n, rec.ts, "model: "+tc.Model, base+"#model")
		case o.modelShown != tc.Model:
			r.system(n, rec.ts, "model: "+o.modelShown+" -> "+tc.Model, base+"#model")
		}
		o.modelShown, o.model = tc.Model, tc.Model
	}
	approval := policyName(tc.ApprovalPolicy)
	sandbox := policyName(tc.SandboxPolicy)
	if sandbox == "" {
		if p := policyName(tc.PermissionProfile); p != "" {
			sandbox = "profile:" + p
		}
	}
	if approval == "" && sandbox == "" {
		r.why = "state_only:turn_context"
		return
	}
	mode := "approval=" + orDash(approval) + " sandbox=" + orDash(sandbox)
	if mode != o.permShown {
		r.system(n, rec.ts, "permission mode: "+mode, base+"#permission")
		o.permShown = mode
	}
	if r.why == "" {
		r.why = "state_only:turn_context"
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// policyName renders an approval or sandbox policy: a string, or an
// object whose "type" (or "mode") names it.
func policyName(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	for _, k := range []string{"type", "mode"} {
		if s, ok := parser.JSONString(obj[k]); ok {
			return s
		}
	}
	if len(obj) == 1 {
		for k := range obj {
			return k
		}
	}
	return parser.CompactJSON(raw)
}

// messageText joins a message's content parts; parts are the texts one by
// one (for matching a user_message twin).
func messageText(raw json.RawMessage) (string, []string) {
	if s, ok := parser.JSONString(raw); ok {
		return s, []string{s}
	}
	var parts []contentPart
	if json.Unmarshal(raw, &parts) != nil {
		return "", nil
	}
	var all, texts []string
	for _, p := range parts {
		switch p.Type {
		case "input_text", "output_text", "text", "Text":
			all = append(all, p.Text)
			texts = append(texts, p.Text)
		case "refusal":
			all = append(all, "[refusal] "+p.Refusal)
		case "input_image", "image":
			all = append(all, imagePlaceholder(p.ImageURL))
		case "input_file":
			all = append(all, "[file "+p.Filename+"]")
		default:
			if p.Text != "" {
				all = append(all, p.Text)
				texts = append(texts, p.Text)
			}
		}
	}
	return strings.Join(all, "\n"), texts
}

func imagePlaceholder(url string) string {
	switch {
	case url == "":
		return "[image]"
	case strings.HasPrefix(url, "data:"):
		mime := strings.TrimPrefix(url, "data:")
		if i := strings.IndexAny(mime, ";,"); i >= 0 {
			mime = mime[:i]
		}
		return "[image " + mime + ", " + strconv.Itoa(len(url)) + " bytes inline]"
	}
	return "[image " + url + "]"
}

var injectedTagRe = regexp.MustCompile(`^<([A-Za-z_][A-Za-z0-9_-]*)[^>]*>`)

// isInjected reports whether a user-role message is context Codex adds
// (environment_context, user_instructions, AGENTS.md, skills,
// turn_aborted, user_shell_command and the like), not text a person typed:
// every such block is wrapped in one XML-style tag or starts with the
// AGENTS.md heading.
func isInjected(text string) bool {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "# AGENTS.md instructions for") || strings.HasPrefix(t, "<INSTRUCTIONS>") {
		return true
	}
	m := injectedTagRe.FindStringSubmatch(t)
	if m == nil || m[1] == "image" {
		return false
	}
	return strings.HasSuffix(t, "</"+m[1]+">")
}

func reasoningText(it *responseItem) (string, []string) {
	var parts []string
	for _, s := range it.Summary {
		if s.Text != "" {
			parts = append(parts, s.Text)
		}
	}
	if len(parts) == 0 {
		// Raw reasoning content (reasoning_text parts), when recorded.
		var cs []contentPart
		if json.Unmarshal(it.Content, &cs) == nil {
			for _, c := range cs {
				if c.Text != "" {
					parts = append(parts, c.Text)
				}
			}
		}
	}
	return strings.Join(parts, "\n\n"), parts
}

func callID(it *responseItem) string {
	if it.CallID != "" {
		return it.CallID
	}
	return it.ID
}

// itemID is the record id of a response item: its call id for a call
// (with "#output" for the output), else its own id, else its position
// among the owner's items of its type.
func (r *rollout) itemID(it *responseItem) string {
	ord := r.o.next("response_item", it.Type)
	switch it.Type {
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call", "tool_search_call":
		if id := callID(it); id != "" {
			return r.o.rid(id)
		}
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		if it.CallID != "" {
			return r.o.rid(it.CallID) + "#output"
		}
	default:
		if it.ID != "" {
			return r.o.rid(it.ID)
		}
	}
	return ord.String()
}

func (r *rollout) responseItem(n int64, ts string, it *responseItem) {
	id := r.itemID(it)
	switch it.Type {
	case "message":
		text, _ := messageText(it.Content)
		switch it.Role {
		case "user":
			if isInjected(text) {
				r.system(n, ts, text, id)
				return
			}
			// When the owner has user_message events (Codex wrote both
			// from about 0.40 to 0.152), the events are the user rows: an
			// item repeating one is skipped and an item matching none is
			// context the person did not type.
			if len(r.o.pre.evUser) > 0 {
				if !r.matchesEvUser(it.Content) {
					r.system(n, ts, text, id)
				} else {
					r.why = "duplicate:user_message" // the event is the row
				}
				return
			}
			r.prompt(n, ts, text, id)
		case "assistant":
			e := r.event(n, ts, timeline.Assistant, text)
			e.RecordID = id
			r.out.Event(e)
		default: // developer, system
			r.system(n, ts, text, id)
		}
	case "reasoning":
		text, _ := reasoningText(it)
		if strings.TrimSpace(text) == "" {
			r.why = "no_evidence:reasoning_encrypted"
			return // encrypted only
		}
		e := r.event(n, ts, timeline.Thinking, text)
		e.RecordID = id
		r.out.Event(e)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "image_generation_call", "tool_search_call":
		r.toolCall(n, ts, it, id)
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		r.toolOutput(n, ts, it, id)
	case "compaction", "context_compaction":
		text := "compacted"
		if it.Message != "" {
			text += ": " + it.Message
		} else if it.Encrypted != "" {
			text += " (summary encrypted)"
		}
		r.system(n, ts, text, id)
	case "ghost_snapshot", "additional_tools", "other", "":
	default:
		r.out.Problem(n, "unknown response item type "+strconv.Quote(it.Type))
	}
}

func (r *rollout) matchesEvUser(content json.RawMessage) bool {
	text, parts := messageText(content)
	if r.o.pre.evUser[hashText(text)] {
		return true
	}
	for _, p := range parts {
		if r.o.pre.evUser[hashText(p)] {
			return true
		}
	}
	return false
}

func (r *rollout) toolCall(n int64, ts string, it *responseItem, rid string) {
	id := callID(it)
	e := r.event(n, ts, timeline.ToolUse, "")
	e.ToolUseID, e.RecordID = id, rid
	switch it.Type {
	case "function_call", "tool_search_call":
		e.ToolName = it.Name
		args := it.Arguments
		if s, ok := parser.JSONString(args); ok {
			args = json.RawMessage(s)
		}
		e.ToolInput = parser.CompactJSON(args)
		e.Text = callText(it.Name, args)
	case "custom_tool_call":
		e.ToolName = it.Name
		input, ok := parser.JSONString(it.Input)
		if !ok {
			input = string(it.Input)
		}
		b, _ := json.Marshal(map[string]string{"input": input})
		e.ToolInput = string(b)
		if it.Name == "apply_patch" {
			e.Text = patchFiles(input)
		} else {
			e.Text = input
		}
	case "local_shell_call":
		e.ToolName = "local_shell"
		e.ToolInput = parser.CompactJSON(it.Action)
		var a struct {
			Command json.RawMessage `json:"command"`
			Exec    struct {
				Command json.RawMessage `json:"command"`
			} `json:"exec"`
		}
		_ = json.Unmarshal(it.Action, &a)
		cmd := a.Command
		if len(cmd) == 0 {
			cmd = a.Exec.Command
		}
		e.Text = commandText(cmd)
	case "web_search_call":
		e.ToolName = "web_search"
		e.ToolInput = parser.CompactJSON(it.Action)
		var a struct {
			Query string `json:"query"`
			URL   string `json:"url"`
		}
		_ = json.Unmarshal(it.Action, &a)
		e.Text = a.Query
		if e.Text == "" {
			e.Text = a.URL
		}
	case "image_generation_call":
		e.ToolName = "image_generation"
	}
	if id != "" {
		r.o.callNames[id] = e.ToolName
	}
	r.out.Event(e)
}

// callText picks a call's most identifying argument.
func callText(name string, args json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		// Not a JSON object (a redacted or cut argument string): keep it.
		return strings.TrimSpace(string(args))
	}
	if name == "apply_patch" {
		if s, ok := parser.JSONString(m["input"]); ok {
			return patchFiles(s)
		}
	}
	for _, k := range []string{"cmd", "command", "path", "file_path", "filePath", "url", "uri", "pattern", "query", "q", "chars"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		if t := commandText(v); t != "" {
			return t
		}
	}
	return ""
}

// commandText renders a command given as a string or an argv array
// (joined with spaces).
func commandText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		return strings.Join(argv, " ")
	}
	return ""
}

var patchFileRe = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)

// patchFiles lists the files an apply_patch input touches.
func patchFiles(patch string) string {
	var files []string
	for _, m := range patchFileRe.FindAllStringSubmatch(patch, -1) {
		files = append(files, strings.TrimSpace(m[1]))
	}
	if len(files) == 0 {
		return patch
	}
	return strings.Join(files, ", ")
}

var exitRe = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:) (-?\d+)\s*$`)

func (r *rollout) toolOutput(n int64, ts string, it *responseItem, rid string) {
	id := it.CallID
	e := r.event(n, ts, timeline.ToolResult, "")
	e.ToolUseID, e.RecordID = id, rid
	e.ToolName = r.o.callNames[id]
	text, success, code := decodeOutput(it.Output)
	if code == nil {
		if m := exitRe.FindStringSubmatch(text); m != nil {
			if c, err := strconv.Atoi(m[1]); err == nil {
				code = &c
			}
		}
	} else if !exitRe.MatchString(text) {
		text = strings.TrimRight(text, "\n") + "\nexit code: " + strconv.Itoa(*code)
	}
	rejected := isRejection(text)
	isErr := rejected || (success != nil && !*success) || (code != nil && *code != 0)
	e.IsError = strconv.FormatBool(isErr)
	e.Text = text
	r.out.Event(e)
	if rejected {
		d := r.event(n, ts, timeline.System, "permission decision: denied source=user")
		d.ToolUseID, d.ToolName = id, e.ToolName
		d.RecordID = strings.TrimSuffix(rid, "#output") + "#decision"
		r.out.Event(d)
	}
}

// isRejection matches the outputs Codex writes when the person declines an
// approval prompt ("exec command rejected by user", "patch rejected by
// user", "unified exec command rejected by user").
func isRejection(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasSuffix(t, "rejected by user") && len(t) < 80
}

// decodeOutput reads a call output: a string (which may itself be the
// JSON {"output", "metadata": {"exit_code"}} of the shell and apply_patch
// tools), an object {content, success}, or a list of content items.
func decodeOutput(raw json.RawMessage) (text string, success *bool, code *int) {
	if s, ok := parser.JSONString(raw); ok {
		t := strings.TrimSpace(s)
		if strings.HasPrefix(t, "{") && strings.Contains(t, `"output"`) {
			var o struct {
				Output   *string `json:"output"`
				Metadata struct {
					ExitCode *int `json:"exit_code"`
				} `json:"metadata"`
			}
			if json.Unmarshal([]byte(t), &o) == nil && o.Output != nil {
				return *o.Output, nil, o.Metadata.ExitCode
			}
		}
		return s, nil, nil
	}
	var obj struct {
		Content json.RawMessage `json:"content"`
		Success *bool           `json:"success"`
	}
	if json.Unmarshal(raw, &obj) == nil && (len(obj.Content) > 0 || obj.Success != nil) {
		t, _ := messageText(obj.Content)
		return t, obj.Success, nil
	}
	t, _ := messageText(raw)
	return t, nil, nil
}

func itemKind(t string) string {
	return strings.ToLower(strings.ReplaceAll(t, "_", ""))
}

// turnItemText reads a TurnItem's text: "text", or content[].text.
func turnItemText(ti *turnItem) string {
	if ti.Text != "" {
		return ti.Text
	}
	t, _ := messageText(ti.Content)
	if t == "" {
		var ss []string
		if json.Unmarshal(ti.Summary, &ss) == nil {
			t = strings.Join(ss, "\n\n")
		}
	}
	return t
}

func (r *rollout) eventMsg(n int64, ts string, ev *eventMsg) {
	ord := r.o.next("event_msg", ev.Type)
	switch ev.Type {
	case "user_message":
		r.evUserMessage(n, ts, ev.Message, ev.LocalImages, ord.String())
	case "agent_message":
		if !r.o.pre.respAssistant {
			e := r.event(n, ts, timeline.Assistant, ev.Message)
			e.RecordID = ord.String()
			r.out.Event(e)
		} else {
			r.why = "duplicate:response_item" // the reply's response item is the row
		}
	case "agent_reasoning", "agent_reasoning_raw_content":
		if strings.TrimSpace(ev.Text) != "" && !r.o.pre.respReasoning {
			e := r.event(n, ts, timeline.Thinking, ev.Text)
			e.RecordID = ord.String()
			r.out.Event(e)
		} else if r.o.pre.respReasoning {
			r.why = "duplicate:response_item"
		}
	case "item_completed":
		r.itemCompleted(n, ts, ev.Item, ord)
	case "task_started":
		r.turnTrigger(n, ts, ev, ord)
	case "turn_aborted":
		r.system(n, ts, strings.TrimSpace("turn aborted: "+ev.Reason), ord.String())
	case "thread_rolled_back":
		r.system(n, ts, strings.TrimSpace("thread rolled back: num_turns="+string(ev.NumTurns)), ord.String())
	case "thread_name_updated":
		name := ev.ThreadName
		if name == "" {
			name = ev.Name
		}
		r.system(n, ts, "thread name: "+name, ord.String())
	case "entered_review_mode":
		r.system(n, ts, "review mode: entered", ord.String())
	case "exited_review_mode":
		r.system(n, ts, "review mode: exited", ord.String())
	case "error":
		r.system(n, ts, "error: "+ev.Message, ord.String())
	case "exec_approval_request", "apply_patch_approval_request", "request_permissions":
		e := r.event(n, ts, timeline.System, "permission decision: ask source="+ev.Type)
		e.ToolUseID, e.RecordID = ev.CallID, ord.String()
		if c := commandText(ev.Command); c != "" {
			e.Text += " command=" + c
		}
		r.out.Event(e)
	case "thread_settings_applied":
		r.why = "state_only:thread_settings_applied" // shown by the turn_context rows
	}
	// token_count, task_complete, exec_command_end, patch_apply_end,
	// mcp_tool_call_end, web_search_end and the like repeat what the
	// response items say or are usage: no row.
}

// turnTrigger gives "turn trigger: <trigger>" for a task_started event
// that records what started the turn (0.163+: turn_attribution
// {turn_id, turn_trigger, parent_turn_id, initiating_agent_path}): the
// composer, exec, a paired phone, a scheduled task, the guardian reviewer.
func (r *rollout) turnTrigger(n int64, ts string, ev *eventMsg, ord ordinal) {
	a := ev.TurnAttribution
	if a.TurnTrigger == "" {
		r.why = "state_only:task_started"
		return
	}
	text := "turn trigger: " + a.TurnTrigger
	if a.ParentTurnID != "" {
		text += " (parent turn " + a.ParentTurnID + ")"
	}
	if a.InitiatingAgentPath != "" {
		text += " (initiating agent " + a.InitiatingAgentPath + ")"
	}
	id := r.o.rid(a.TurnID)
	if a.TurnID == "" {
		id = ord.String()
	}
	r.system(n, ts, text, id+"#trigger")
}

func (r *rollout) evUserMessage(n int64, ts, text string, images []string, id string) {
	if len(images) > 0 {
		text = strings.TrimRight(text, "\n") + "\n[local images: " + strings.Join(images, ", ") + "]"
	}
	r.prompt(n, ts, text, id)
}

func (r *rollout) itemCompleted(n int64, ts string, raw json.RawMessage, ord ordinal) {
	var ti turnItem
	if err := json.Unmarshal(raw, &ti); err != nil {
		r.out.Problem(n, "item_completed item: "+parser.JSONError(err))
		return
	}
	id := r.o.rid(ti.ID)
	if ti.ID == "" {
		id = ord.String()
	}
	r.sub = "item_completed/" + itemKind(ti.Type)
	switch itemKind(ti.Type) {
	case "usermessage":
		r.evUserMessage(n, ts, turnItemText(&ti), nil, id)
	case "agentmessage":
		if t := turnItemText(&ti); !r.o.pre.respAssistant {
			e := r.event(n, ts, timeline.Assistant, t)
			e.RecordID = id
			r.out.Event(e)
		} else {
			r.why = "duplicate:response_item"
		}
	case "reasoning":
		if t := turnItemText(&ti); strings.TrimSpace(t) != "" && !r.o.pre.respReasoning {
			e := r.event(n, ts, timeline.Thinking, t)
			e.RecordID = id
			r.out.Event(e)
		} else if r.o.pre.respReasoning {
			r.why = "duplicate:response_item"
		}
	case "plan":
		r.system(n, ts, "plan: "+turnItemText(&ti), id)
	case "commandexecution":
		if r.o.pre.respCalls[ti.ID] {
			r.why = "duplicate:response_item" // the call's response item is the row
			return
		}
		u := r.event(n, ts, timeline.ToolUse, commandText(ti.Command))
		u.ToolName, u.ToolUseID, u.RecordID = "command_execution", ti.ID, id
		u.ToolInput = parser.CompactJSON(raw)
		r.out.Event(u)
		res := r.event(n, ts, timeline.ToolResult, ti.AggregatedOutput)
		res.ToolName, res.ToolUseID, res.RecordID = u.ToolName, ti.ID, id+"#output"
		isErr := ti.Status == "failed" || ti.Status == "declined" || (ti.ExitCode != nil && *ti.ExitCode != 0)
		if ti.ExitCode != nil {
			res.Text = strings.TrimRight(res.Text, "\n") + "\nexit code: " + strconv.Itoa(*ti.ExitCode)
		}
		res.IsError = strconv.FormatBool(isErr)
		r.out.Event(res)
		if ti.Status == "declined" {
			d := r.event(n, ts, timeline.System, "permission decision: denied source=user")
			d.ToolUseID, d.ToolName, d.RecordID = ti.ID, u.ToolName, id+"#decision"
			r.out.Event(d)
		}
	}
}
