package copilotcli

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
}

type eventsState struct {
	out       parser.Sink
	session   string
	cwd       string
	model     string
	last      time.Time
	toolNames map[string]string       // toolCallId -> toolName
	pending   map[string]*pendingCall // requested, not started
	permTool  map[string]string       // permission requestId -> toolCallId
}

// parseEvents reads session-state/<id>/events.jsonl.
func parseEvents(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	id, sdir := sessionDir(in.Path)
	st := &eventsState{out: out, session: id, toolNames: map[string]string{}, pending: map[string]*pendingCall{}, permTool: map[string]string{}}
	if sdir != "" {
		if b, ok := readRelated(in, sdir+"/workspace.yaml"); ok {
			ws := parseYAMLTop(b)
			st.cwd = ws.get("cwd")
			if st.session == "" {
				st.session = ws.get("id")
			}
		}
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, "invalid JSON line skipped")
			} else {
				out.Problem(n, "cut record before a glued record; kept the glued record")
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

// base event at a line, timed by the record or inherited.
func (s *eventsState) ev(n int64, ts string, tt timeline.TurnType) timeline.Event {
	e := timeline.Event{SessionID: s.session, ProjectPath: s.cwd, TurnType: tt, SourceLine: n}
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

func (s *eventsState) event(n int64, env *envelope) {
	d := obj(env.Data)
	if d == nil {
		d = map[string]json.RawMessage{}
	}
	ts := env.Timestamp
	switch env.Type {
	case "session.start", "session.resume":
		if env.Type == "session.start" {
			if sid := str(d["sessionId"]); sid != "" {
				s.session = sid
			}
		}
		ctxm := obj(d["context"])
		if cwd := str(ctxm["cwd"]); cwd != "" {
			s.cwd = cwd
		}
		if m := str(d["selectedModel"]); m != "" && s.model == "" {
			s.model = m
		}
		text := env.Type + ": " + joinNonEmpty(
			kv(d, "copilotVersion", "producer", "version", "startTime", "resumeTime", "eventCount", "selectedModel", "reasoningEffort", "remoteSteerable", "alreadyInUse", "sessionWasActive", "detachedFromSpawningParentSessionId"),
			kv(ctxm, "cwd", "gitRoot", "repository", "branch", "headCommit"))
		e := s.system(n, ts, text)
		e.Model = s.model
		s.out.Event(e)
	case "session.context_changed":
		if cwd := str(d["cwd"]); cwd != "" {
			s.cwd = cwd
		}
		s.emitSystem(n, ts, "session.context_changed: "+kv(d, "cwd", "gitRoot", "repository", "branch", "headCommit"))
	case "session.info":
		s.emitSystem(n, ts, "session.info "+str(d["infoType"])+": "+str(d["message"]))
	case "session.warning":
		s.emitSystem(n, ts, "session.warning "+str(d["warningType"])+": "+str(d["message"]))
	case "session.error":
		s.emitSystem(n, ts, strings.TrimSpace("session.error "+str(d["errorType"])+": "+str(d["message"])+" "+kv(d, "errorCode", "statusCode")))
	case "session.model_change":
		nm := str(d["newModel"])
		prev := str(d["previousModel"])
		if prev == "" {
			prev = s.model
		}
		text := "model: " + nm
		if prev != "" && prev != nm {
			text = "model: " + prev + " -> " + nm
		}
		if nm != "" {
			s.model = nm
		}
		e := s.system(n, ts, text)
		e.Model = s.model
		s.out.Event(e)
	case "session.mode_changed":
		s.emitSystem(n, ts, "mode: "+arrow(str(d["previousMode"]), str(d["newMode"])))
	case "session.permissions_changed":
		s.emitSystem(n, ts, "permission mode: "+arrow(str(d["previousMode"]), str(d["mode"])))
	case "session.compaction_complete":
		text := "session.compaction_complete: " + kv(d, "success", "trigger", "messagesRemoved", "tokensRemoved", "preCompactionTokens", "postCompactionTokens", "checkpointNumber", "checkpointPath", "error")
		if sum := str(d["summaryContent"]); sum != "" {
			text += "\n" + sum
		}
		s.emitSystem(n, ts, text)
	case "session.shutdown":
		s.emitSystem(n, ts, "session.shutdown: "+kv(d, "shutdownType", "errorReason", "currentModel", "totalPremiumRequests", "totalApiDurationMs"))
	case "system.message":
		role := str(d["role"])
		if role == "" {
			role = "system"
		}
		s.emitSystem(n, ts, "system.message "+role+": "+str(d["content"]))
	case "system.notification":
		s.emitSystem(n, ts, "system.notification: "+str(d["content"]))
	case "user.message":
		s.userMessage(n, ts, d)
	case "assistant.message":
		s.assistantMessage(n, ts, env, d)
	case "assistant.reasoning":
		e := s.ev(n, ts, timeline.Thinking)
		e.Model = s.model
		e.Text = str(d["content"])
		s.out.Event(e)
	case "assistant.turn_start", "assistant.turn_end":
		if m := str(d["model"]); m != "" {
			s.model = m
		}
		e := s.system(n, ts, env.Type+": "+kv(d, "turnId"))
		e.Model = s.model
		s.out.Event(e)
	case "tool.execution_start":
		s.toolStart(n, ts, d)
	case "tool.execution_complete":
		s.toolComplete(n, ts, d)
	case "tool.user_requested":
		args := obj(d["arguments"])
		e := s.system(n, ts, strings.TrimSpace("tool.user_requested: "+str(d["toolName"])+" "+toolText(args)))
		e.ToolName, e.ToolUseID, e.ToolInput = str(d["toolName"]), str(d["toolCallId"]), compact(d["arguments"])
		s.out.Event(e)
	case "permission.requested":
		s.permissionRequested(n, ts, d)
	case "permission.completed":
		s.permissionCompleted(n, ts, d)
	case "hook.start":
		text := "hook " + str(d["hookType"]) + " start:"
		if in := compact(d["input"]); in != "" {
			text += " " + in
		}
		s.emitSystem(n, ts, text)
	case "hook.end":
		text := "hook " + str(d["hookType"]) + " end: " + kv(d, "success")
		if o := compact(d["output"]); o != "" {
			text += " output=" + o
		}
		if er := compact(d["error"]); er != "" {
			text += " error=" + er
		}
		s.emitSystem(n, ts, text)
	case "subagent.started", "subagent.completed", "subagent.failed":
		verb := strings.TrimPrefix(env.Type, "subagent.")
		text := "subagent " + str(d["toolCallId"]) + " of " + s.session + ": " + verb + " " + str(d["agentName"])
		if x := kv(d, "agentDisplayName", "model", "durationMs", "totalToolCalls", "totalTokens", "cancelled"); x != "" {
			text += " " + x
		}
		if desc := str(d["agentDescription"]); desc != "" {
			text += "\n" + desc
		}
		if er := str(d["error"]); er != "" {
			text += "\nerror: " + er
		}
		e := s.system(n, ts, text)
		e.ToolUseID = str(d["toolCallId"])
		e.Model = str(d["model"])
		s.out.Event(e)
	case "abort":
		s.emitSystem(n, ts, "abort: "+str(d["reason"]))
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
		if c := compact(env.Data); c != "" && c != "{}" {
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
	if str(d["initiator"]) != "" {
		return true
	}
	switch it := str(d["interactionType"]); it {
	case "", "conversation-agent", "conversation-user":
		return false
	default:
		return true
	}
}

// utility writes "utility model <id>: k=v ..." for a runtime model call.
func (s *eventsState) utility(n int64, ts string, d map[string]json.RawMessage) {
	model := str(d["model"])
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
	content := str(d["content"])
	src := str(d["source"])
	auto := str(d["isAutopilotContinuation"]) == "true"
	if auto || !typedSources[src] {
		label := "user.message"
		if src != "" {
			label += " source=" + src
		}
		if auto {
			label += " autopilot continuation"
		}
		s.emitSystem(n, ts, label+": "+content)
	} else {
		e := s.ev(n, ts, timeline.User)
		e.Text = content
		s.out.Event(e)
	}
	var atts []json.RawMessage
	_ = json.Unmarshal(d["attachments"], &atts)
	for _, a := range atts {
		am := obj(a)
		what := joinNonEmpty(str(am["path"]), str(am["url"]), str(am["displayName"]))
		if what == "" {
			what = compact(a)
		}
		s.emitSystem(n, ts, "attachment: "+str(am["type"])+" "+what)
	}
}

func (s *eventsState) assistantMessage(n int64, ts string, env *envelope, d map[string]json.RawMessage) {
	model := str(d["model"])
	if model == "" {
		model = s.model
	}
	if r := str(d["reasoningText"]); strings.TrimSpace(r) != "" {
		e := s.ev(n, ts, timeline.Thinking)
		e.Model, e.Text = model, r
		s.out.Event(e)
	}
	if c := str(d["content"]); strings.TrimSpace(c) != "" {
		e := s.ev(n, ts, timeline.Assistant)
		e.Model, e.Text = model, c
		s.out.Event(e)
	}
	var reqs []map[string]json.RawMessage
	_ = json.Unmarshal(d["toolRequests"], &reqs)
	base := s.ev(n, ts, timeline.ToolUse)
	for _, r := range reqs {
		id := str(r["toolCallId"])
		if id == "" {
			continue
		}
		if _, started := s.toolNames[id]; started {
			continue
		}
		args := r["arguments"]
		s.pending[id] = &pendingCall{name: str(r["name"]), args: compact(args), text: toolText(obj(args)), model: model, t: base.Time, basis: base.TimeBasis, line: n}
	}
}

func (s *eventsState) toolStart(n int64, ts string, d map[string]json.RawMessage) {
	id := str(d["toolCallId"])
	name := str(d["toolName"])
	if name == "" && s.pending[id] != nil {
		name = s.pending[id].name
	}
	args := d["arguments"]
	input := compact(args)
	if input == "" && s.pending[id] != nil {
		input = s.pending[id].args
	}
	delete(s.pending, id)
	s.toolNames[id] = name
	e := s.ev(n, ts, timeline.ToolUse)
	e.Model = str(d["model"])
	if e.Model == "" {
		e.Model = s.model
	}
	e.ToolName, e.ToolUseID, e.ToolInput = name, id, input
	e.Text = toolText(obj(json.RawMessage(input)))
	s.out.Event(e)
}

func (s *eventsState) toolComplete(n int64, ts string, d map[string]json.RawMessage) {
	id := str(d["toolCallId"])
	name := s.toolNames[id]
	if name == "" {
		name = str(d["toolName"])
	}
	e := s.ev(n, ts, timeline.ToolResult)
	e.ToolName, e.ToolUseID = name, id
	e.Model = str(d["model"])
	res := obj(d["result"])
	text := str(res["content"])
	if text == "" {
		text = str(res["detailedContent"])
	}
	if er := obj(d["error"]); er != nil {
		msg := str(er["message"])
		if c := str(er["code"]); c != "" {
			msg = c + ": " + msg
		}
		if text != "" {
			text += "\n"
		}
		text += "error: " + msg
	} else if es := str(d["error"]); es != "" {
		if text != "" {
			text += "\n"
		}
		text += "error: " + es
	}
	e.Text = text
	e.IsError = "false"
	if str(d["success"]) != "true" {
		e.IsError = "true"
	}
	s.out.Event(e)
}

// flushPending writes the tool calls a reply requested that never started
// (denied, aborted or cut off), at the reply's time.
func (s *eventsState) flushPending() {
	ids := make([]string, 0, len(s.pending))
	for id := range s.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := s.pending[id]
		s.out.Event(timeline.Event{Time: p.t, TimeBasis: p.basis, SessionID: s.session, ProjectPath: s.cwd,
			TurnType: timeline.ToolUse, Model: p.model, ToolName: p.name, ToolUseID: id, ToolInput: p.args,
			Text: p.text, SourceLine: p.line})
	}
}

// permissionDetail names what a permission request is for.
func permissionDetail(pr map[string]json.RawMessage) string {
	for _, k := range []string{"fullCommandText", "path", "fileName", "url", "toolName", "serverName", "hookType", "extensionName", "operation"} {
		if v := str(pr[k]); v != "" {
			if k == "serverName" {
				if t := str(pr["toolName"]); t != "" {
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
	tc := str(pr["toolCallId"])
	if tc == "" {
		tc = str(d["toolCallId"])
	}
	if rid := str(d["requestId"]); rid != "" && tc != "" {
		s.permTool[rid] = tc
	}
	text := strings.TrimSpace("permission request: " + str(pr["kind"]) + " " + permissionDetail(pr))
	if in := str(pr["intention"]); in != "" {
		text += " (" + in + ")"
	}
	if str(d["resolvedByHook"]) == "true" {
		text += " resolved by hook"
	}
	e := s.system(n, ts, text)
	e.ToolUseID = tc
	s.out.Event(e)
}

func (s *eventsState) permissionCompleted(n int64, ts string, d map[string]json.RawMessage) {
	res := obj(d["result"])
	tc := str(d["toolCallId"])
	if tc == "" {
		tc = s.permTool[str(d["requestId"])]
	}
	decision := str(res["kind"])
	if decision == "" {
		decision = str(d["result"])
	}
	text := "permission decision: " + decision
	if x := kv(res, "reason", "feedback", "message", "path", "locationKey", "forceReject", "interrupt"); x != "" {
		text += " " + x
	}
	if r := compact(res["rules"]); r != "" {
		text += " rules=" + r
	}
	if a := compact(res["approval"]); a != "" {
		text += " approval=" + a
	}
	e := s.system(n, ts, text)
	e.ToolUseID = tc
	s.out.Event(e)
}
