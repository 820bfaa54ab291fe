package copilotcli

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// envelope is one line of events.jsonl: {type, data, id, timestamp,
// parentId} plus agentId on a sub-agent's events and ephemeral on events
// the runtime normally keeps off disk.
type envelope struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	AgentID   string          `json:"agentId"`
}

// pendingCall is a toolRequests entry of an assistant.message not yet seen
// starting (tool.execution_start).
type pendingCall struct {
	name, args, text, model string
	t                       time.Time
	basis                   timeline.TimeBasis
	line                    int64
	agent                   *agentCtx
	rid                     string
}

// agentCtx is the session one agent's events belong to: the root agent's
// (the file's session) or a sub-agent's (its agentId, parent the root).
type agentCtx struct {
	id, parent string
	model      string
}

type eventsState struct {
	out       parser.Sink
	in        *parser.Input
	root      *agentCtx            // the file's own session
	cur       *agentCtx            // the session of the event being read
	agents    map[string]*agentCtx // agentId -> sub-agent session
	byCall    map[string]string    // the task's toolCallId -> agentId
	rec       string               // the current event's id
	cwd       string
	cwdKnown  bool // cwd came from the record or workspace.yaml (no sidebar lookup)
	sidebar   string
	looked    bool
	copilot   string // the .copilot directory
	last      time.Time
	toolNames map[string]string       // toolCallId -> toolName
	pending   map[string]*pendingCall // requested, not started
	quiet     map[int64]bool          // assistant.message lines with no row of their own
	permTool  map[string]string       // permission requestId -> toolCallId
}

// parseEvents reads session-state/<id>/events.jsonl, or the legacy flat
// session-state/<id>.jsonl of pre-1.0 builds (same event vocabulary, no
// workspace.yaml beside it).
func parseEvents(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	id, sdir := sessionDir(in.Path)
	if legacy, ok := legacySession(in.Path); ok {
		id = legacy
	}
	root := &agentCtx{id: id}
	st := &eventsState{out: out, in: in, root: root, cur: root, agents: map[string]*agentCtx{}, byCall: map[string]string{},
		toolNames: map[string]string{}, pending: map[string]*pendingCall{}, quiet: map[int64]bool{}, permTool: map[string]string{},
		copilot: copilotDir(in.Path)}
	if sdir != "" {
		if b, ok := in.ReadRelated(sdir+"/workspace.yaml", maxSmall); ok {
			ws := parseYAMLTop(b)
			st.cwd = ws.get("cwd")
			st.cwdKnown = st.cwd != ""
			if root.id == "" {
				root.id = ws.get("id")
			}
		}
	}
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
			var ev envelope
			if err := json.Unmarshal(o, &ev); err != nil || ev.Type == "" {
				out.Problem(n, "not an event record (no type)")
				continue
			}
			st.event(n, &ev)
		}
		return nil
	})
	st.flushPending()
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// legacySession returns the session id of a legacy flat transcript
// session-state/<id>.jsonl (the file name), ok false for any other path.
func legacySession(p string) (string, bool) {
	i := strings.LastIndex(p, "/session-state/")
	if i < 0 {
		return "", false
	}
	rest := p[i+len("/session-state/"):]
	if strings.Contains(rest, "/") || !strings.HasSuffix(rest, ".jsonl") || len(rest) == len(".jsonl") {
		return "", false
	}
	return strings.TrimSuffix(rest, ".jsonl"), true
}

// copilotDir is the state directory (.copilot) holding session-state/.
func copilotDir(p string) string {
	if i := strings.LastIndex(p, "/session-state/"); i >= 0 {
		return p[:i]
	}
	return ""
}

// project returns the project path for a row: the record's cwd or
// workspace.yaml's, else (looked up once) the sidebar-sessions-state
// file that lists the session.
func (s *eventsState) project() string {
	if s.cwd != "" || s.cwdKnown {
		return s.cwd
	}
	if !s.looked {
		s.looked = true
		s.sidebar = sidebarProject(s.in, s.copilot, s.root.id, s.out)
	}
	return s.sidebar
}

// ev is a row of the current event's session at a line, timed by the
// record or inherited, with the event's id as RecordID.
func (s *eventsState) ev(n int64, ts string, tt timeline.TurnType) timeline.Event {
	e := timeline.Event{SessionID: s.cur.id, ParentSessionID: s.cur.parent, ProjectPath: s.project(), TurnType: tt, SourceLine: n, RecordID: s.rec}
	if t, ok := parseTime(ts); ok {
		e.Time = t
		s.last = t
	} else if !s.last.IsZero() {
		e.Time, e.TimeBasis = s.last, timeline.TimeInherited
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	return e
}

func (s *eventsState) system(n int64, ts, text string) timeline.Event {
	e := s.ev(n, ts, timeline.System)
	e.Text = text
	return e
}

func (s *eventsState) emitSystem(n int64, ts, text string) {
	s.out.Event(s.system(n, ts, text))
}

// derived is the RecordID of a row derived from the current event.
func (s *eventsState) derived(word string) string {
	if s.rec == "" {
		return ""
	}
	return s.rec + "#" + word
}

// agentOf returns the session an event belongs to: a sub-agent's own
// (agentId; else the sub-agent the deprecated data.parentToolCallId names,
// "<session>/<toolCallId>" when no event told its agentId) or the root's.
// A sub-agent's first event is preceded by "subagent <id> of <parent>".
func (s *eventsState) agentOf(n int64, env *envelope, d map[string]json.RawMessage) *agentCtx {
	aid := env.AgentID
	ptc := parser.JSONText(d["parentToolCallId"])
	if aid == "" && ptc != "" {
		aid = s.byCall[ptc]
		if aid == "" {
			aid = s.root.id + "/" + ptc
		}
	}
	if aid == "" {
		return s.root
	}
	if ptc == "" && env.Type == "subagent.started" {
		ptc = parser.JSONText(d["toolCallId"])
	}
	if ptc != "" && s.byCall[ptc] == "" {
		s.byCall[ptc] = aid
	}
	a := s.agents[aid]
	if a != nil {
		return a
	}
	a = &agentCtx{id: aid, parent: s.root.id, model: s.root.model}
	s.agents[aid] = a
	s.cur = a
	e := s.system(n, env.Timestamp, "subagent "+aid+" of "+s.root.id)
	e.RecordID = aid + "#subagent"
	s.out.Event(e)
	s.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: aid}, ParentSessionID: s.root.id})
	return a
}

func (s *eventsState) event(n int64, env *envelope) {
	d := obj(env.Data)
	if d == nil {
		d = map[string]json.RawMessage{}
	}
	ts := env.Timestamp
	s.rec = env.ID
	if env.Type == "session.start" && env.AgentID == "" {
		if sid := parser.JSONText(d["sessionId"]); sid != "" {
			s.root.id = sid
		}
	}
	s.cur = s.agentOf(n, env, d)
	switch env.Type {
	case "session.start", "session.resume":
		ctxm := obj(d["context"])
		if cwd := parser.JSONText(ctxm["cwd"]); cwd != "" {
			s.cwd, s.cwdKnown = cwd, true
		}
		if m := parser.JSONText(d["selectedModel"]); m != "" && s.cur.model == "" {
			s.cur.model = m
		}
		text := env.Type + ": " + joinNonEmpty(
			kv(d, "copilotVersion", "producer", "version", "startTime", "resumeTime", "eventCount", "selectedModel", "reasoningEffort", "remoteSteerable", "alreadyInUse", "sessionWasActive", "detachedFromSpawningParentSessionId"),
			kv(ctxm, "cwd", "gitRoot", "repository", "branch", "headCommit"))
		e := s.system(n, ts, text)
		e.Model = s.cur.model
		s.out.Event(e)
	case "session.context_changed":
		if cwd := parser.JSONText(d["cwd"]); cwd != "" {
			s.cwd, s.cwdKnown = cwd, true
		}
		s.emitSystem(n, ts, "session.context_changed: "+kv(d, "cwd", "gitRoot", "repository", "branch", "headCommit"))
	case "session.info":
		s.emitSystem(n, ts, "session.info "+parser.JSONText(d["infoType"])+": "+parser.JSONText(d["message"]))
	case "session.warning":
		s.emitSystem(n, ts, "session.warning "+parser.JSONText(d["warningType"])+": "+parser.JSONText(d["message"]))
	case "session.error":
		s.emitSystem(n, ts, strings.TrimSpace("session.error "+parser.JSONText(d["errorType"])+": "+parser.JSONText(d["message"])+" "+kv(d, "errorCode", "statusCode")))
	case "session.model_change":
		nm := parser.JSONText(d["newModel"])
		prev := parser.JSONText(d["previousModel"])
		if prev == "" {
			prev = s.cur.model
		}
		text := "model: " + nm
		if prev != "" && prev != nm {
			text = "model: " + prev + " -> " + nm
		}
		if nm != "" {
			s.cur.model = nm
		}
		e := s.system(n, ts, text)
		e.Model = s.cur.model
		s.out.Event(e)
	case "session.mode_changed":
		s.emitSystem(n, ts, "mode: "+arrow(parser.JSONText(d["previousMode"]), parser.JSONText(d["newMode"])))
	case "session.permissions_changed":
		s.emitSystem(n, ts, "permission mode: "+arrow(parser.JSONText(d["previousMode"]), parser.JSONText(d["mode"])))
	case "session.compaction_complete":
		text := "session.compaction_complete: " + kv(d, "success", "trigger", "messagesRemoved", "tokensRemoved", "preCompactionTokens", "postCompactionTokens", "checkpointNumber", "checkpointPath", "error")
		if sum := parser.JSONText(d["summaryContent"]); sum != "" {
			text += "\n" + sum
		}
		s.emitSystem(n, ts, text)
	case "session.snapshot_rewind":
		// The runtime marks it ephemeral; written anyway, it says the
		// events from upToEventId on were removed from this log.
		s.emitSystem(n, ts, strings.TrimSpace("rewound by /rewind at "+tsOrDash(ts)+": "+parser.JSONText(d["eventsRemoved"])+" event(s) removed from event "+parser.JSONText(d["upToEventId"])))
	case "session.context_cleared":
		s.emitSystem(n, ts, strings.TrimSpace("context cleared by /clear at "+tsOrDash(ts)+" "+scalarsKV(d)))
	case "session.shutdown":
		s.emitSystem(n, ts, "session.shutdown: "+kv(d, "shutdownType", "errorReason", "currentModel", "totalPremiumRequests", "totalApiDurationMs"))
	case "system.message":
		role := parser.JSONText(d["role"])
		if role == "" {
			role = "system"
		}
		s.emitSystem(n, ts, "system.message "+role+": "+parser.JSONText(d["content"]))
	case "system.notification":
		s.emitSystem(n, ts, "system.notification: "+parser.JSONText(d["content"]))
	case "user.message":
		s.userMessage(n, ts, d)
	case "assistant.message":
		s.assistantMessage(n, ts, d)
	case "assistant.reasoning":
		e := s.ev(n, ts, timeline.Thinking)
		e.Model = s.cur.model
		e.Text = parser.JSONText(d["content"])
		s.out.Event(e)
	case "assistant.turn_start", "assistant.turn_end":
		if m := parser.JSONText(d["model"]); m != "" {
			s.cur.model = m
		}
		e := s.system(n, ts, env.Type+": "+kv(d, "turnId"))
		e.Model = s.cur.model
		s.out.Event(e)
	case "tool.execution_start":
		s.toolStart(n, ts, d)
	case "tool.execution_complete":
		s.toolComplete(n, ts, d)
	case "tool.user_requested":
		args := obj(d["arguments"])
		e := s.system(n, ts, strings.TrimSpace("tool.user_requested: "+parser.JSONText(d["toolName"])+" "+toolText(args)))
		e.ToolName, e.ToolUseID, e.ToolInput = parser.JSONText(d["toolName"]), parser.JSONText(d["toolCallId"]), parser.CompactJSON(d["arguments"])
		s.out.Event(e)
	case "permission.requested":
		s.permissionRequested(n, ts, d)
	case "permission.completed":
		s.permissionCompleted(n, ts, d)
	case "hook.start":
		text := "hook " + parser.JSONText(d["hookType"]) + " start:"
		if in := parser.CompactJSON(d["input"]); in != "" {
			text += " " + in
		}
		s.emitSystem(n, ts, text)
	case "hook.end":
		text := "hook " + parser.JSONText(d["hookType"]) + " end: " + kv(d, "success")
		if o := parser.CompactJSON(d["output"]); o != "" {
			text += " output=" + o
		}
		if er := parser.CompactJSON(d["error"]); er != "" {
			text += " error=" + er
		}
		s.emitSystem(n, ts, text)
	case "subagent.started", "subagent.completed", "subagent.failed":
		verb := strings.TrimPrefix(env.Type, "subagent.")
		text := "subagent " + parser.Shown(parser.JSONText(d["toolCallId"])) + " of " + parser.Shown(s.root.id) + ": " + verb + " " + parser.JSONText(d["agentName"])
		if x := kv(d, "agentDisplayName", "model", "durationMs", "totalToolCalls", "totalTokens", "cancelled"); x != "" {
			text += " " + x
		}
		if desc := parser.JSONText(d["agentDescription"]); desc != "" {
			text += "\n" + desc
		}
		if er := parser.JSONText(d["error"]); er != "" {
			text += "\nerror: " + er
		}
		e := s.system(n, ts, text)
		e.ToolUseID = parser.JSONText(d["toolCallId"])
		e.Model = parser.JSONText(d["model"])
		s.out.Event(e)
	case "abort":
		s.emitSystem(n, ts, "abort: "+parser.JSONText(d["reason"]))
	case "assistant.usage":
		if isUtility(d) {
			s.utility(n, ts, d)
			return
		}
		s.emitSystem(n, ts, "assistant.usage: "+kv(d, "model", "inputTokens", "outputTokens", "cacheReadTokens", "duration", "finishReason"))
	default:
		if strings.Contains(env.Type, "utility") {
			s.utility(n, ts, d)
			return
		}
		text := env.Type
		if c := parser.CompactJSON(env.Data); c != "" && c != "{}" {
			text += ": " + c
		}
		s.emitSystem(n, ts, text)
	}
}

func arrow(prev, next string) string {
	if prev == "" || prev == next {
		return next
	}
	return prev + " -> " + next
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, " ")
}

// isUtility reports whether an assistant.usage record is a model call made
// outside the conversation: one with an initiator, or an interaction type
// other than the agent's own turns.
func isUtility(d map[string]json.RawMessage) bool {
	if parser.JSONText(d["initiator"]) != "" {
		return true
	}
	switch it := parser.JSONText(d["interactionType"]); it {
	case "", "conversation-agent", "conversation-user":
		return false
	default:
		return true
	}
}

// utility writes "utility model <id>: k=v ..." for a runtime model call.
func (s *eventsState) utility(n int64, ts string, d map[string]json.RawMessage) {
	model := parser.JSONText(d["model"])
	rest := map[string]json.RawMessage{}
	for k, v := range d {
		if k == "model" || k == "quotaSnapshots" || k == "copilotUsage" {
			continue
		}
		rest[k] = v
	}
	e := s.system(n, ts, strings.TrimSpace("utility model "+model+": "+scalarsKV(rest)))
	e.Model = model
	s.out.Event(e)
}

// typedSources are user.message sources that mean the person typed it.
var typedSources = map[string]bool{"": true, "user": true, "cli": true, "human": true}

func (s *eventsState) userMessage(n int64, ts string, d map[string]json.RawMessage) {
	content := parser.JSONText(d["content"])
	src := parser.JSONText(d["source"])
	auto := parser.JSONText(d["isAutopilotContinuation"]) == "true"
	switch {
	case s.cur.parent != "" && !auto && (src == "" || strings.HasPrefix(src, "agent-")):
		// A sub-agent's prompt: the parent's model wrote it (source
		// "agent-<agent id>" for an inter-agent prompt).
		s.emitSystem(n, ts, "subagent task: "+content)
	case auto || !typedSources[src]:
		label := "user.message"
		if src != "" {
			label += " source=" + src
		}
		if auto {
			label += " autopilot continuation"
		}
		s.emitSystem(n, ts, label+": "+content)
	default:
		e := s.ev(n, ts, timeline.User)
		e.Text = content
		s.out.Event(e)
	}
	var atts []json.RawMessage
	_ = json.Unmarshal(d["attachments"], &atts)
	for i, a := range atts {
		am := obj(a)
		what := joinNonEmpty(parser.JSONText(am["path"]), parser.JSONText(am["url"]), parser.JSONText(am["displayName"]))
		if what == "" {
			what = parser.CompactJSON(a)
		}
		e := s.system(n, ts, "attachment: "+parser.JSONText(am["type"])+" "+what)
		e.RecordID = s.derived("attachment" + strconv.Itoa(i))
		s.out.Event(e)
	}
}

func (s *eventsState) assistantMessage(n int64, ts string, d map[string]json.RawMessage) {
	model := parser.JSONText(d["model"])
	if model == "" {
		model = s.cur.model
	}
	rows := 0
	if r := parser.JSONText(d["reasoningText"]); strings.TrimSpace(r) != "" {
		e := s.ev(n, ts, timeline.Thinking)
		e.Model, e.Text, e.RecordID = model, r, s.derived("reasoning")
		s.out.Event(e)
		rows++
	}
	if c := parser.JSONText(d["content"]); strings.TrimSpace(c) != "" {
		e := s.ev(n, ts, timeline.Assistant)
		e.Model, e.Text = model, c
		s.out.Event(e)
		rows++
	}
	var reqs []map[string]json.RawMessage
	_ = json.Unmarshal(d["toolRequests"], &reqs)
	base := s.ev(n, ts, timeline.ToolUse)
	for i, r := range reqs {
		id := parser.JSONText(r["toolCallId"])
		if id == "" {
			continue
		}
		if _, started := s.toolNames[id]; started {
			continue
		}
		args := r["arguments"]
		s.pending[id] = &pendingCall{name: parser.JSONText(r["name"]), args: parser.CompactJSON(args), text: toolText(obj(args)), model: model,
			t: base.Time, basis: base.TimeBasis, line: n, agent: s.cur, rid: s.derived("tool" + strconv.Itoa(i))}
	}
	if rows == 0 {
		// Its calls are the tool.execution_start rows (or, for a call that
		// never started, rows at the end): nothing of its own to show.
		s.quiet[n] = true
	}
}

func (s *eventsState) toolStart(n int64, ts string, d map[string]json.RawMessage) {
	id := parser.JSONText(d["toolCallId"])
	name := parser.JSONText(d["toolName"])
	if name == "" && s.pending[id] != nil {
		name = s.pending[id].name
	}
	args := d["arguments"]
	input := parser.CompactJSON(args)
	if input == "" && s.pending[id] != nil {
		input = s.pending[id].args
	}
	delete(s.pending, id)
	s.toolNames[id] = name
	e := s.ev(n, ts, timeline.ToolUse)
	e.Model = parser.JSONText(d["model"])
	if e.Model == "" {
		e.Model = s.cur.model
	}
	e.ToolName, e.ToolUseID, e.ToolInput = name, id, input
	e.Text = toolText(obj(json.RawMessage(input)))
	s.out.Event(e)
}

func (s *eventsState) toolComplete(n int64, ts string, d map[string]json.RawMessage) {
	id := parser.JSONText(d["toolCallId"])
	name := s.toolNames[id]
	if name == "" {
		name = parser.JSONText(d["toolName"])
	}
	e := s.ev(n, ts, timeline.ToolResult)
	e.ToolName, e.ToolUseID = name, id
	e.Model = parser.JSONText(d["model"])
	res := obj(d["result"])
	text := parser.JSONText(res["content"])
	if text == "" {
		text = parser.JSONText(res["detailedContent"])
	}
	if er := obj(d["error"]); er != nil {
		msg := parser.JSONText(er["message"])
		if c := parser.JSONText(er["code"]); c != "" {
			msg = c + ": " + msg
		}
		if text != "" {
			text += "\n"
		}
		text += "error: " + msg
	} else if es := parser.JSONText(d["error"]); es != "" {
		if text != "" {
			text += "\n"
		}
		text += "error: " + es
	}
	e.Text = text
	e.IsError = "false"
	if parser.JSONText(d["success"]) != "true" {
		e.IsError = "true"
	}
	s.out.Event(e)
}

// flushPending writes the tool calls a reply requested that never started
// (denied, aborted or cut off), at the reply's time, and accounts for the
// replies that gave no row at all.
func (s *eventsState) flushPending() {
	ids := make([]string, 0, len(s.pending))
	for id := range s.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := s.pending[id]
		delete(s.quiet, p.line)
		s.out.Event(timeline.Event{Time: p.t, TimeBasis: p.basis, SessionID: p.agent.id, ParentSessionID: p.agent.parent, ProjectPath: s.project(),
			TurnType: timeline.ToolUse, Model: p.model, ToolName: p.name, ToolUseID: id, ToolInput: p.args,
			Text: p.text, SourceLine: p.line, RecordID: p.rid})
	}
	lines := make([]int64, 0, len(s.quiet))
	for n := range s.quiet {
		lines = append(lines, n)
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i] < lines[j] })
	for _, n := range lines {
		s.out.Skip(n, "no_evidence:assistant.message_without_text")
	}
}

func tsOrDash(ts string) string {
	if t, ok := parseTime(ts); ok {
		return t.Format("2006-01-02T15:04:05.000Z")
	}
	return "-"
}

// permissionDetail names what a permission request is for.
func permissionDetail(pr map[string]json.RawMessage) string {
	for _, k := range []string{"fullCommandText", "path", "fileName", "url", "toolName", "serverName", "hookType", "extensionName", "operation"} {
		if v := parser.JSONText(pr[k]); v != "" {
			if k == "serverName" {
				if t := parser.JSONText(pr["toolName"]); t != "" {
					v += " " + t
				}
			}
			return v
		}
	}
	return ""
}

func (s *eventsState) permissionRequested(n int64, ts string, d map[string]json.RawMessage) {
	pr := obj(d["permissionRequest"])
	tc := parser.JSONText(pr["toolCallId"])
	if tc == "" {
		tc = parser.JSONText(d["toolCallId"])
	}
	if rid := parser.JSONText(d["requestId"]); rid != "" && tc != "" {
		s.permTool[rid] = tc
	}
	text := strings.TrimSpace("permission request: " + parser.JSONText(pr["kind"]) + " " + permissionDetail(pr))
	if in := parser.JSONText(pr["intention"]); in != "" {
		text += " (" + in + ")"
	}
	if parser.JSONText(d["resolvedByHook"]) == "true" {
		text += " resolved by hook"
	}
	e := s.system(n, ts, text)
	e.ToolUseID = tc
	s.out.Event(e)
}

func (s *eventsState) permissionCompleted(n int64, ts string, d map[string]json.RawMessage) {
	res := obj(d["result"])
	tc := parser.JSONText(d["toolCallId"])
	if tc == "" {
		tc = s.permTool[parser.JSONText(d["requestId"])]
	}
	decision := parser.JSONText(res["kind"])
	if decision == "" {
		decision = parser.JSONText(d["result"])
	}
	text := "permission decision: " + decision
	if x := kv(res, "reason", "feedback", "message", "path", "locationKey", "forceReject", "interrupt"); x != "" {
		text += " " + x
	}
	if r := parser.CompactJSON(res["rules"]); r != "" {
		text += " rules=" + r
	}
	if a := parser.CompactJSON(res["approval"]); a != "" {
		text += " approval=" + a
	}
	e := s.system(n, ts, text)
	e.ToolUseID = tc
	s.out.Event(e)
}
