package kimiwire

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Kimi Code's session journal: <home>/sessions/<workDirKey>/<session
// id>/agents/<agent id>/wire.jsonl (MoonshotAI/kimi-code, agent-core-v2:
// docs/wire-manifest.d.ts lists the durable record types, protocol 1.5).
// A metadata line {type: "metadata", protocol_version, created_at}, then
// {type, ...payload, time (epoch milliseconds)} records; observable events
// the runtime also journals carry kind "event". The rows each type gives
// are listed in analyzer/parsers/kimicli/doc.go.

// codeRecord holds the fields of every record type the parser reads; a
// record type reads the ones it has.
type codeRecord struct {
	Type      string   `json:"type"`
	Kind      string   `json:"kind"`
	Time      *float64 `json:"time"`
	Timestamp *float64 `json:"timestamp"`
	AgentID   string   `json:"agentId"`

	// metadata
	ProtocolVersion string   `json:"protocol_version"`
	CreatedAt       *float64 `json:"created_at"`

	// turn.prompt, turn.steer, turn.ended, turn.cancel, prompt.completed
	Input    json.RawMessage `json:"input"`
	Origin   json.RawMessage `json:"origin"`
	PromptID string          `json:"promptId"`
	TurnID   json.RawMessage `json:"turnId"`
	Reason   string          `json:"reason"`
	Error    *codeError      `json:"error"`
	Target   string          `json:"target"`

	// context.append_message, context.append_loop_event
	Message *codeMessage `json:"message"`
	Event   *loopEvent   `json:"event"`

	// profile.bind, config.update, llm.request, usage.record
	ModelAlias     string          `json:"modelAlias"`
	Model          json.RawMessage `json:"model"`
	Provider       string          `json:"provider"`
	ProfileName    string          `json:"profileName"`
	ThinkingEffort string          `json:"thinkingEffort"`
	EnvDisclosure  *struct {
		Cwd string `json:"cwd"`
	} `json:"environmentDisclosure"`
	Cwd             string     `json:"cwd"`
	DisallowedTools []string   `json:"disallowedTools"`
	ActiveToolNames []string   `json:"activeToolNames"`
	AgentsMdPaths   []string   `json:"agentsMdPaths"`
	Usage           *codeUsage `json:"usage"`
	UsageScope      string     `json:"usageScope"`

	// permission.set_mode, permission.record_approval_result
	Mode                string          `json:"mode"`
	ToolCallID          string          `json:"toolCallId"`
	ToolName            string          `json:"toolName"`
	Action              string          `json:"action"`
	SessionApprovalRule string          `json:"sessionApprovalRule"`
	Result              json.RawMessage `json:"result"`

	// interaction.request, interaction.resolved
	ID       string          `json:"id"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`

	// subagent.*
	SubagentID     string `json:"subagentId"`
	SubagentName   string `json:"subagentName"`
	ParentToolCall string `json:"parentToolCallId"`
	Description    string `json:"description"`
	ResultSummary  string `json:"resultSummary"`
	RunInBack      bool   `json:"runInBackground"`

	// turn.step.retrying
	FailedAttempt int    `json:"failedAttempt"`
	NextAttempt   int    `json:"nextAttempt"`
	MaxAttempts   int    `json:"maxAttempts"`
	ErrorName     string `json:"errorName"`
	ErrorMessage  string `json:"errorMessage"`
	StatusCode    int    `json:"statusCode"`

	// context.apply_compaction, context.undo, full_compaction.*
	Summary        json.RawMessage `json:"summary"`
	ContextSummary string          `json:"contextSummary"`
	CompactedCount *int            `json:"compactedCount"`
	Count          *int            `json:"count"`
	Instruction    string          `json:"instruction"`
	Source         string          `json:"source"`

	// file_history.*, plan.revision, staleGuard.recorded
	Path    string                     `json:"path"`
	Phase   string                     `json:"phase"`
	Entries map[string]fileHistoryItem `json:"entries"`
	Entry   *fileHistoryItem           `json:"entry"`
	Sha256  string                     `json:"sha256"`
	Version *int                       `json:"version"`
	Bytes   *int64                     `json:"bytes"`

	// goal.*, cron.*, task.*, mcp.tools_discovered, tools.*, plugin.session_start
	GoalID     string          `json:"goalId"`
	Objective  string          `json:"objective"`
	Status     string          `json:"status"`
	Actor      string          `json:"actor"`
	Task       json.RawMessage `json:"task"`
	IDs        []string        `json:"ids"`
	Info       json.RawMessage `json:"info"`
	OutputTail string          `json:"outputTail"`
	ServerName string          `json:"serverName"`
	Enabled    []string        `json:"enabledNames"`
	Name       string          `json:"name"`
	Names      []string        `json:"names"`
	Key        string          `json:"key"`
	Value      json.RawMessage `json:"value"`
	Content    json.RawMessage `json:"content"`
	Trigger    string          `json:"trigger"`
	SessionID  string          `json:"sessionId"`
}

type codeError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Name    string `json:"name"`
}

type codeUsage struct {
	InputOther         int64 `json:"inputOther"`
	Output             int64 `json:"output"`
	InputCacheRead     int64 `json:"inputCacheRead"`
	InputCacheCreation int64 `json:"inputCacheCreation"`
}

type codeMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	ID      string          `json:"id"`
	Origin  json.RawMessage `json:"origin"`
	// agent.message.appended wraps the message once more.
	Message *codeMessage `json:"message"`
}

type loopEvent struct {
	Type           string          `json:"type"`
	UUID           string          `json:"uuid"`
	Step           *int            `json:"step"`
	Part           *codePart       `json:"part"`
	ToolCallID     string          `json:"toolCallId"`
	Name           string          `json:"name"`
	Args           json.RawMessage `json:"args"`
	Result         *codeResult     `json:"result"`
	FinishReason   string          `json:"finishReason"`
	Usage          *codeUsage      `json:"usage"`
	MessageID      string          `json:"messageId"`
	ProviderFinish string          `json:"providerFinishReason"`
}

type codePart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Think    string `json:"think"`
	ImageURL *struct {
		URL string `json:"url"`
	} `json:"image_url"`
	AudioURL *struct {
		URL string `json:"url"`
	} `json:"audio_url"`
	VideoURL *struct {
		URL string `json:"url"`
	} `json:"video_url"`
}

type codeResult struct {
	Output  json.RawMessage `json:"output"`
	IsError *bool           `json:"isError"`
	Note    string          `json:"note"`
}

type fileHistoryItem struct {
	Key         *string `json:"key"`
	Version     int     `json:"version"`
	ContentHash string  `json:"contentHash"`
	Size        *int64  `json:"size"`
}

// codeOrigin is a prompt's or a context message's origin: {kind, name,
// variant} (PromptOrigin: user, skill_activation, plugin_command,
// injection, shell_command, compaction_summary, system_trigger, task,
// cron_job, cron_missed, hook_result, retry).
type codeOrigin struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Variant string `json:"variant"`
}

func origin(raw json.RawMessage) codeOrigin {
	var o codeOrigin
	if s, ok := parser.JSONString(raw); ok {
		o.Kind = s
		return o
	}
	_ = json.Unmarshal(raw, &o)
	return o
}

// codeWire is the state of one Kimi Code wire.jsonl read.
type codeWire struct {
	out     parser.Sink
	sid     string
	parent  string
	project string
	sub     bool
	model   string            // the model alias in force (profile.bind, config.update, llm.request)
	names   map[string]string // tool call id -> tool name
	asks    map[string]string // interaction id -> tool call id
	kinds   map[string]string // interaction id -> kind
	tools   map[string]string // interaction id -> the tool it asks about
	decided map[string]bool   // tool call ids whose approval interaction.resolved gave a row
	open    bool              // a turn.prompt with no turn.ended, turn.cancel or prompt.completed after it
	last    timeline.Event    // the last journal record's time and line
	prompts map[string]bool   // prompt ids given a row by turn.prompt/turn.steer
	usage   string            // the last usage.record's counters, to account for step.end's copy
}

// CodeSessionParts splits .../sessions/<workDirKey>/<session>/agents/<agent>/<file>:
// the session folder (its state.json beside agents/), the session id and the
// agent id ("main" for the main agent).
func CodeSessionParts(p string) (sessionDir, session, agent string) {
	p = strings.ReplaceAll(p, "\\", "/")
	i := strings.LastIndex(p, "/agents/")
	if i < 0 {
		return "", "", ""
	}
	sessionDir = p[:i]
	session = sessionDir[strings.LastIndex(sessionDir, "/")+1:]
	rest := strings.Split(p[i+len("/agents/"):], "/")
	if len(rest) >= 2 {
		agent = rest[0]
	}
	return sessionDir, session, agent
}

// CodeState is a Kimi Code session's state.json (version 2).
type CodeState struct {
	ID             string   `json:"id"`
	Version        int      `json:"version"`
	Cwd            string   `json:"cwd"`
	CreatedAt      *float64 `json:"createdAt"`
	UpdatedAt      *float64 `json:"updatedAt"`
	Archived       bool     `json:"archived"`
	Title          string   `json:"title"`
	IsCustomTitle  bool     `json:"isCustomTitle"`
	LastPrompt     string   `json:"lastPrompt"`
	LastTurnReason string   `json:"lastTurnReason"`
	ForkedFrom     any      `json:"forkedFrom"`
	Agents         map[string]struct {
		Type   string `json:"type"`
		Parent string `json:"parentAgentId"`
	} `json:"agents"`
}

// Millis reads Kimi Code's epoch milliseconds.
func Millis(f float64) time.Time {
	if f <= 0 || math.IsNaN(f) || f > 1e16 {
		return time.Time{}
	}
	ms := int64(f)
	return time.UnixMilli(ms).UTC()
}

// ParseCode reads one Kimi Code wire.jsonl: every record becomes rows, a
// counted skip or a problem.
func ParseCode(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir, session, agent := CodeSessionParts(in.Path)
	w := &codeWire{out: out, sid: session, names: map[string]string{}, asks: map[string]string{}, kinds: map[string]string{}, tools: map[string]string{}, decided: map[string]bool{}, prompts: map[string]bool{}}
	if agent != "" && agent != "main" {
		w.sid, w.parent, w.sub = session+"/"+agent, session, true
	}
	if dir != "" {
		if b, ok := in.ReadRelated(dir+"/state.json", maxWhole); ok {
			var st CodeState
			if json.Unmarshal(b, &st) == nil {
				w.project = st.Cwd
			}
		}
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		w.line(n, line)
		return nil
	})
	if err == nil {
		w.finish()
	}
	return err
}

// finish: a turn the journal opened (turn.prompt) and never closed
// (turn.ended, turn.cancel, prompt.completed) is a row at the journal's
// last record: the process was killed or stopped mid-turn, or was still
// running when the file was copied.
func (w *codeWire) finish() {
	if !w.open {
		return
	}
	e := w.last
	e.TurnType = timeline.System
	e.Text = fmt.Sprintf("turn not ended: the journal stops at line %d, mid-turn (the process was killed or stopped, or was still running when the file was copied)", e.SourceLine)
	if w.project != "" {
		e.ProjectPath = w.project
	}
	w.out.Event(e)
}

// line reads one journal line: its time is "time" (epoch ms; the metadata
// line's "created_at"), or "timestamp" (epoch seconds, the shape Kimi
// Work's runtime was seen writing by kenn-io/agentsview's tests).
func (w *codeWire) line(n int64, line []byte) {
	var h struct {
		Type string `json:"type"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(line, &h); err != nil {
		w.out.Problem(n, parser.BadJSONLine(err))
		return
	}
	if h.Kind == "event" {
		// The runtime's observable events (agent.message.appended,
		// agent.turn.started/ended): each repeats the journal records
		// around it (the message's loop events, turn.prompt, turn.ended).
		w.out.Skip(n, "observable_event:"+h.Type)
		return
	}
	var r codeRecord
	if err := json.Unmarshal(line, &r); err != nil {
		// JSON, but a field of another type than the release writes.
		w.out.Report(n, parser.KindSkippedRecord, "Kimi Code "+strconv.Quote(h.Type)+" record not read: "+parser.JSONError(err))
		return
	}
	base := timeline.Event{SessionID: w.sid, ParentSessionID: w.parent, SourceLine: n}
	defer func() {
		w.last = base
		switch r.Type {
		case "turn.prompt":
			w.open = true
		case "turn.ended", "turn.cancel", "prompt.completed":
			w.open = false
		}
	}()
	t := r.Time
	if r.Type == "metadata" {
		t = r.CreatedAt
	}
	switch {
	case t != nil:
		base.Time = Millis(*t)
	case r.Timestamp != nil:
		base.Time = epoch(*r.Timestamp)
	}
	if base.Time.IsZero() {
		base.TimeBasis = timeline.TimeNone
	}
	w.record(n, base, &r)
}

// codeSkips are the record types that carry no evidence of their own: the
// reason each is counted under.
var codeSkips = map[string]string{
	"metadata":                      "wire_metadata",
	"runtime.set_binding":           "runtime_binding",
	"llm.tools_snapshot":            "llm_tools_snapshot",
	"token_counting.measured":       "token_counting",
	"token_counting.rebased":        "token_counting",
	"token_counting.truncated":      "token_counting",
	"token_counting.turn_recorded":  "token_counting",
	"prompt.accepted":               "prompt_accepted",
	"staleGuard.cleared":            "stale_guard",
	"staleGuard.recorded":           "stale_guard",
	"interruptionReminder.recorded": "interruption_reminder",
	"subagent.started":              "subagent_started",
	"task.waitDelivered":            "task_wait_delivered",
	"cron.cursor":                   "cron_cursor",
	"tools.reset_active_tools":      "active_tools",
	"tools.set_active_tools":        "active_tools",
}

func (w *codeWire) record(n int64, base timeline.Event, r *codeRecord) {
	out := w.out
	ev := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		if w.project != "" {
			e.ProjectPath = w.project
		}
		return e
	}
	sys := func(text string) { out.Event(ev(timeline.System, text)) }
	if reason, ok := codeSkips[r.Type]; ok {
		out.Skip(n, reason)
		return
	}
	switch r.Type {
	case "":
		out.Report(n, parser.KindSkippedRecord, "wire record without a type")
	case "profile.bind", "config.update":
		if r.EnvDisclosure != nil && r.EnvDisclosure.Cwd != "" && w.project == "" {
			w.project = r.EnvDisclosure.Cwd
		}
		if r.Cwd != "" && w.project == "" {
			w.project = r.Cwd
		}
		prev := w.model
		var parts []string
		if r.ModelAlias != "" {
			w.model = r.ModelAlias
			parts = append(parts, "model "+r.ModelAlias)
		}
		if r.Type == "config.update" && prev != "" && r.ModelAlias != "" && r.ModelAlias != prev {
			// A model switch (a resume with -m, /model): the timeline's
			// "model: <old> -> <new>" row.
			t := "model: " + prev + " -> " + r.ModelAlias
			if r.ThinkingEffort != "" {
				t += " (thinking " + r.ThinkingEffort + ")"
			}
			e := ev(timeline.System, t)
			e.Model = w.model
			out.Event(e)
			return
		}
		if r.ProfileName != "" {
			parts = append(parts, "agent profile "+r.ProfileName)
		}
		if r.ThinkingEffort != "" {
			parts = append(parts, "thinking "+r.ThinkingEffort)
		}
		if r.EnvDisclosure != nil && r.EnvDisclosure.Cwd != "" {
			parts = append(parts, "working directory "+r.EnvDisclosure.Cwd)
		}
		if len(r.AgentsMdPaths) > 0 {
			parts = append(parts, "AGENTS.md read: "+strings.Join(r.AgentsMdPaths, ", "))
		}
		if len(r.DisallowedTools) > 0 {
			parts = append(parts, "tools disallowed: "+strings.Join(r.DisallowedTools, ", "))
		}
		if len(r.ActiveToolNames) > 0 {
			parts = append(parts, fmt.Sprintf("%d tools offered", len(r.ActiveToolNames)))
		}
		what := "agent bound"
		if r.Type == "config.update" {
			what = "agent configuration changed"
		}
		e := ev(timeline.System, what+": "+strings.Join(parts, ", "))
		e.Model = w.model
		out.Event(e)
	case "permission.set_mode":
		sys("permission mode: " + r.Mode + " (" + permissionModes[r.Mode] + ")")
	case "turn.prompt", "turn.steer":
		text := codeInputText(r.Input)
		o := origin(r.Origin)
		e := ev(timeline.User, text)
		e.RecordID = r.PromptID
		if r.Type == "turn.steer" && e.RecordID != "" {
			e.RecordID += "#steer"
		}
		switch {
		case w.sub && o.Kind == "system_trigger":
			e.TurnType, e.Text = timeline.System, "subagent task (written by the parent agent): "+text
		case o.Kind != "user" && o.Kind != "":
			e.TurnType, e.Text = timeline.System, "prompt not typed by the user (origin "+originName(o)+"): "+text
		case strings.TrimSpace(text) == "":
			out.Skip(n, "no_evidence:empty_prompt")
			return
		}
		if r.PromptID != "" {
			w.prompts[r.PromptID] = true
		}
		out.Event(e)
	case "context.append_message":
		w.contextMessage(n, ev, r)
	case "context.append_loop_event":
		w.loopEvent(n, ev, r)
	case "llm.request":
		if r.ModelAlias != "" {
			w.model = r.ModelAlias
		}
		out.Skip(n, "llm_request")
	case "usage.record":
		if r.Usage == nil {
			out.Report(n, parser.KindSkippedRecord, "usage.record without usage")
			return
		}
		model := w.model
		if s, ok := parser.JSONString(r.Model); ok && s != "" {
			model = s
		}
		u := usageText(r.Usage)
		w.usage = u
		scope := ""
		if r.UsageScope != "" && r.UsageScope != "turn" {
			scope = " (" + r.UsageScope + ")"
		}
		e := ev(timeline.System, "token usage of a model call"+scope+": "+u)
		e.Model = model
		out.Event(e)
	case "turn.ended":
		if r.Reason == "completed" && r.Error == nil {
			out.Skip(n, "turn_end")
			return
		}
		t := "turn ended: " + r.Reason
		if r.Error != nil {
			t += " (" + strings.Trim(r.Error.Code+": "+r.Error.Message, ": ") + ")"
		}
		sys(t)
	case "turn.cancel":
		t := "turn cancelled"
		if r.Reason != "" {
			t += " (" + r.Reason + ")"
		}
		sys(t)
	case "prompt.completed":
		if r.Reason == "completed" {
			out.Skip(n, "prompt_completed")
			return
		}
		sys("prompt ended: " + r.Reason)
	case "turn.step.retrying":
		t := "model call failed (" + r.ErrorName
		if r.StatusCode != 0 {
			t += ", HTTP " + strconv.Itoa(r.StatusCode)
		}
		if r.ErrorMessage != "" {
			t += ": " + r.ErrorMessage
		}
		sys(fmt.Sprintf("%s); retry %d of %d", t, r.NextAttempt, r.MaxAttempts))
	case "permission.record_approval_result":
		// The permission rules' record of a decision: after the
		// interaction.resolved row of the same call it adds only the
		// standing rule an approval for the session leaves.
		var t string
		switch {
		case !w.decided[r.ToolCallID]:
			t = "permission decision: " + approvalText(r.Result)
			if r.Action != "" {
				t += " for " + r.Action
			}
			if r.SessionApprovalRule != "" {
				t += " (approved for the session: " + r.SessionApprovalRule + ")"
			}
		case r.SessionApprovalRule != "":
			t = "permission setting: approved for the rest of the session: " + r.SessionApprovalRule
		default:
			out.Skip(n, "approval_result:repeats_interaction_resolved")
			return
		}
		e := ev(timeline.System, t)
		e.ToolUseID, e.ToolName = r.ToolCallID, r.ToolName
		if e.ToolName == "" {
			e.ToolName = w.names[r.ToolCallID]
		}
		out.Event(e)
	case "interaction.request":
		w.interactionRequest(ev, r)
	case "interaction.resolved":
		w.interactionResolved(ev, r)
	case "subagent.spawned":
		t := "subagent " + r.SubagentID
		if r.SubagentName != "" {
			t += " (" + r.SubagentName + ")"
		}
		t += " started by the parent agent"
		if r.Description != "" {
			t += ": " + r.Description
		}
		if r.RunInBack {
			t += " (in the background)"
		}
		e := ev(timeline.System, t)
		e.ToolUseID, e.ToolName = r.ParentToolCall, w.names[r.ParentToolCall]
		if s, ok := parser.JSONString(r.Model); ok {
			e.Model = s
		}
		out.Event(e)
	case "subagent.completed", "subagent.failed", "subagent.cancelled":
		t := "subagent " + r.SubagentID + " " + strings.TrimPrefix(r.Type, "subagent.")
		if r.ResultSummary != "" {
			t += ": " + r.ResultSummary
		}
		if r.Usage != nil {
			t += " (token usage: " + usageText(r.Usage) + ")"
		}
		sys(t)
	case "context.apply_compaction":
		t := "context compaction: earlier messages summarised for the model (the rows above stay)"
		if r.CompactedCount != nil {
			t += fmt.Sprintf("; %d messages compacted", *r.CompactedCount)
		}
		s := r.ContextSummary
		if v, ok := parser.JSONString(r.Summary); ok && v != "" {
			s = v
		} else if len(r.Summary) > 0 && s == "" {
			var m codeMessage
			if json.Unmarshal(r.Summary, &m) == nil {
				s = codeInputText(m.Content)
			}
		}
		if s != "" {
			t += "; summary: " + s
		}
		sys(t)
	case "full_compaction.begin":
		t := "context compaction began (" + r.Source + ")"
		if r.Instruction != "" {
			t += ": " + r.Instruction
		}
		sys(t)
	case "full_compaction.complete":
		sys("context compaction ended")
	case "full_compaction.cancel":
		sys("context compaction cancelled")
	case "context.clear":
		sys("context cleared: the model no longer sees the earlier messages (the rows above stay)")
	case "context.undo":
		c := 0
		if r.Count != nil {
			c = *r.Count
		}
		sys(fmt.Sprintf("context undo: the last %d messages taken out of the model's context (the rows above stay)", c))
	case "forked":
		sys("session forked")
	case "file_history.tracked":
		t := "file tracked before the agent changed it: " + r.Path
		if r.Entry != nil {
			t += " (" + fileHistoryText(*r.Entry) + ")"
		}
		sys(t)
	case "file_history.checkpoint":
		keys := make([]string, 0, len(r.Entries))
		for k := range r.Entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var fs []string
		for _, k := range keys {
			fs = append(fs, k+" ("+fileHistoryText(r.Entries[k])+")")
		}
		t := "file history checkpoint"
		if r.Phase != "" {
			t += " (" + r.Phase + " of turn " + parser.JSONText(r.TurnID) + ")"
		}
		sys(t + ": " + strings.Join(fs, "; "))
	case "plan_mode.enter":
		sys("plan mode: on")
	case "plan_mode.exit":
		sys("plan mode: off")
	case "plan_mode.cancel":
		sys("plan mode: cancelled")
	case "plan.revision":
		v := 0
		if r.Version != nil {
			v = *r.Version
		}
		sys(fmt.Sprintf("plan revision %d written: %s (sha256 %s)", v, r.Path, r.Sha256))
	case "goal.create":
		t := "goal set"
		if r.Actor != "" {
			t += " by the " + r.Actor
		}
		sys(t + ": " + r.Objective)
	case "goal.update":
		t := "goal " + r.Status
		if r.Reason != "" {
			t += ": " + r.Reason
		}
		sys(t)
	case "goal.clear":
		sys("goal cleared")
	case "cron.add":
		var task struct {
			ID        string `json:"id"`
			Cron      string `json:"cron"`
			Prompt    string `json:"prompt"`
			Recurring bool   `json:"recurring"`
		}
		_ = json.Unmarshal(r.Task, &task)
		sys(fmt.Sprintf("scheduled task %s added (cron %q, recurring %t): %s", task.ID, task.Cron, task.Recurring, task.Prompt))
	case "cron.delete":
		sys("scheduled tasks deleted: " + strings.Join(r.IDs, ", "))
	case "task.started", "task.terminated":
		t := "background task " + strings.TrimPrefix(r.Type, "task.") + ": " + parser.CompactJSON(r.Info)
		if r.OutputTail != "" {
			t += "\n" + r.OutputTail
		}
		sys(t)
	case "mcp.tools_discovered":
		sys("MCP server " + r.ServerName + ": tools enabled: " + strings.Join(r.Enabled, ", "))
	case "tools.register_user_tool":
		sys("tool registered by the client: " + r.Name + ": " + r.Description)
	case "tools.unregister_user_tool":
		sys("tool unregistered: " + r.Name)
	case "tools.update_store":
		sys("tool store " + r.Key + ": " + parser.CompactJSON(r.Value))
	case "plugin.session_start":
		s, _ := parser.JSONString(r.Content)
		if strings.TrimSpace(s) == "" {
			out.Skip(n, "plugin_session_start:empty")
			return
		}
		sys("plugin context at session start (not typed): " + s)
	case "swarm_mode.enter":
		sys("swarm mode: on (" + r.Trigger + ")")
	case "swarm_mode.exit":
		sys("swarm mode: off")
	case "tower_mode.enter":
		sys("tower mode: on")
	case "tower_mode.exit":
		sys("tower mode: off")
	default:
		out.Report(n, parser.KindSkippedRecord, "unknown Kimi Code record type "+strconv.Quote(r.Type))
	}
}

var permissionModes = map[string]string{
	"manual": "ask before each action",
	"yolo":   "routine actions approved, risky ones asked",
	"auto":   "every action approved, nothing asked",
}

func originName(o codeOrigin) string {
	s := o.Kind
	if o.Name != "" {
		s += " " + o.Name
	}
	if o.Variant != "" {
		s += " " + o.Variant
	}
	return s
}

// contextMessage: a message appended to the model's context. The person's
// prompt repeats turn.prompt (same id); what the harness injects (date and
// permission-mode reminders, hook output, skill text) is a system row, never
// a user row; the model's and tools' messages repeat the loop events.
func (w *codeWire) contextMessage(n int64, ev func(timeline.TurnType, string) timeline.Event, r *codeRecord) {
	m := r.Message
	if m == nil {
		w.out.Report(n, parser.KindSkippedRecord, "context.append_message without a message")
		return
	}
	o := origin(m.Origin)
	switch {
	case m.Role == "user" && (o.Kind == "user" || o.Kind == "system_trigger") && w.prompts[m.ID]:
		w.out.Skip(n, "context_message:repeats_turn_prompt")
	case m.Role == "assistant" || m.Role == "tool":
		w.out.Skip(n, "context_message:repeats_loop_event")
	case m.Role == "user" && o.Kind == "user":
		// Marked the user's, but no turn.prompt of this file has its id
		// (a prompt journalled elsewhere): kept, never taken for typed.
		w.out.Event(ev(timeline.System, "context message marked as the user's, with no turn.prompt of its id in this journal: "+codeInputText(m.Content)))
	default:
		kind := originName(o)
		if kind == "" {
			kind = m.Role
		}
		w.out.Event(ev(timeline.System, "context added for the model (not typed, "+kind+"): "+codeInputText(m.Content)))
	}
}

func (w *codeWire) loopEvent(n int64, ev func(timeline.TurnType, string) timeline.Event, r *codeRecord) {
	le := r.Event
	if le == nil {
		w.out.Report(n, parser.KindSkippedRecord, "context.append_loop_event without an event")
		return
	}
	out := w.out
	switch le.Type {
	case "step.begin":
		out.Skip(n, "step_begin")
	case "step.end":
		if le.Usage != nil && usageText(le.Usage) != w.usage {
			name := "of a step"
			if s := stepName(le); s != "" {
				name = "of step " + s
			}
			e := ev(timeline.System, "token usage "+name+": "+usageText(le.Usage))
			e.Model = w.model
			out.Event(e)
			return
		}
		out.Skip(n, "step_end")
	case "content.part":
		if le.Part == nil {
			out.Report(n, parser.KindSkippedRecord, "content.part without a part")
			return
		}
		tt := timeline.Assistant
		if le.Part.Type == "think" {
			tt = timeline.Thinking
		}
		e := ev(tt, codePartText(*le.Part))
		e.RecordID, e.Model = le.UUID, w.model
		out.Event(e)
	case "tool.call":
		e := ev(timeline.ToolUse, "")
		e.ToolName, e.ToolUseID, e.RecordID, e.Model = le.Name, le.ToolCallID, le.ToolCallID, w.model
		e.ToolInput = parser.CompactJSON(le.Args)
		e.Text = callText(le.Name, e.ToolInput)
		if le.ToolCallID != "" {
			w.names[le.ToolCallID] = le.Name
		}
		out.Event(e)
	case "tool.result":
		if le.Result == nil {
			out.Report(n, parser.KindSkippedRecord, "tool.result without a result")
			return
		}
		text := codeInputText(le.Result.Output)
		if le.Result.Note != "" {
			text = strings.TrimSpace(text + "\n" + le.Result.Note)
		}
		e := ev(timeline.ToolResult, text)
		e.ToolUseID, e.ToolName = le.ToolCallID, w.names[le.ToolCallID]
		e.IsError = strconv.FormatBool(le.Result.IsError != nil && *le.Result.IsError)
		if le.ToolCallID != "" {
			e.RecordID = le.ToolCallID + "#result"
		}
		out.Event(e)
	default:
		out.Report(n, parser.KindSkippedRecord, "unknown Kimi Code loop event type "+strconv.Quote(le.Type))
	}
}

func stepName(le *loopEvent) string {
	s := ""
	if le.Step != nil {
		s = strconv.Itoa(*le.Step)
	}
	if le.MessageID != "" {
		s = strings.TrimSpace(s + " (" + le.MessageID + ")")
	}
	return s
}

func (w *codeWire) interactionRequest(ev func(timeline.TurnType, string) timeline.Event, r *codeRecord) {
	var req struct {
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
		Action     string `json:"action"`
		Questions  []struct {
			Question string `json:"question"`
			Options  []struct {
				Label string `json:"label"`
			} `json:"options"`
		} `json:"questions"`
	}
	_ = json.Unmarshal(r.Request, &req)
	call := r.ToolCallID
	if call == "" {
		call = req.ToolCallID
	}
	var e timeline.Event
	switch r.Kind {
	case "question":
		var qs []string
		for _, q := range req.Questions {
			var opts []string
			for _, o := range q.Options {
				opts = append(opts, o.Label)
			}
			qs = append(qs, q.Question+" ["+strings.Join(opts, " | ")+"]")
		}
		e = ev(timeline.System, "question to the user: "+strings.Join(qs, "\n"))
	default:
		t := "permission requested"
		if r.Kind != "approval" && r.Kind != "" {
			t = r.Kind + " requested"
		}
		if req.Action != "" {
			t += ": " + req.Action
		}
		if req.ToolName != "" {
			t += " (by " + req.ToolName + ")"
		}
		e = ev(timeline.System, t)
	}
	e.ToolUseID, e.RecordID = call, r.ID
	e.ToolName = req.ToolName
	if e.ToolName == "" {
		e.ToolName = w.names[call]
	}
	if r.ID != "" {
		// The journal writes the approval before its tool.call: the
		// request names the tool.
		w.asks[r.ID], w.kinds[r.ID], w.tools[r.ID] = call, r.Kind, e.ToolName
	}
	w.out.Event(e)
}

func (w *codeWire) interactionResolved(ev func(timeline.TurnType, string) timeline.Event, r *codeRecord) {
	call := w.asks[r.ID]
	var e timeline.Event
	if w.kinds[r.ID] == "question" {
		var resp struct {
			Answers map[string]any `json:"answers"`
		}
		answers := map[string]any{}
		if json.Unmarshal(r.Response, &resp) == nil && resp.Answers != nil {
			answers = resp.Answers
		} else {
			_ = json.Unmarshal(r.Response, &answers)
		}
		keys := make([]string, 0, len(answers))
		for k := range answers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var as []string
		for _, k := range keys {
			as = append(as, fmt.Sprintf("%s -> %v", k, answers[k]))
		}
		if len(as) == 0 {
			e = ev(timeline.System, "question dismissed")
		} else {
			// The person's choice in answer to the agent's question.
			e = ev(timeline.User, strings.Join(as, "\n"))
		}
	} else {
		e = ev(timeline.System, "permission decision: "+approvalText(r.Response))
		if call != "" {
			w.decided[call] = true
		}
	}
	e.ToolUseID, e.ToolName = call, w.tools[r.ID]
	if e.ToolName == "" {
		e.ToolName = w.names[call]
	}
	if r.ID != "" {
		e.RecordID = r.ID + "#response"
	}
	w.out.Event(e)
}

// approvalText is an ApprovalResponse: decision, scope, feedback.
func approvalText(raw json.RawMessage) string {
	var a struct {
		Decision string `json:"decision"`
		Scope    string `json:"scope"`
		Feedback string `json:"feedback"`
		Label    string `json:"selectedLabel"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Decision == "" {
		return parser.CompactJSON(raw)
	}
	t := a.Decision
	if a.Scope != "" {
		t += " for the " + a.Scope
	}
	if a.Label != "" {
		t += " (" + a.Label + ")"
	}
	if a.Feedback != "" {
		t += " (feedback: " + a.Feedback + ")"
	}
	return t
}

func usageText(u *codeUsage) string {
	return fmt.Sprintf("input %d (cache read %d, cache creation %d), output %d", u.InputOther, u.InputCacheRead, u.InputCacheCreation, u.Output)
}

func fileHistoryText(f fileHistoryItem) string {
	t := "version " + strconv.Itoa(f.Version)
	if f.Key != nil && *f.Key != "" {
		t += ", copy " + *f.Key
	} else {
		t += ", no copy (the file did not exist)"
	}
	if f.ContentHash != "" {
		t += ", sha256 " + f.ContentHash
	}
	if f.Size != nil {
		t += fmt.Sprintf(", %d bytes", *f.Size)
	}
	return t
}

// codeInputText is a prompt's or a message's content: a string, or content
// parts (text as is, media as "[image_url: <url>]", a data URL by its size).
func codeInputText(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var parts []codePart
	if json.Unmarshal(raw, &parts) != nil {
		return parser.JSONText(raw)
	}
	var t []string
	for _, pt := range parts {
		t = append(t, codePartText(pt))
	}
	return strings.Join(t, "\n")
}

func codePartText(pt codePart) string {
	media := func(kind, u string) string {
		if strings.HasPrefix(u, "data:") {
			u = "data URL, " + strconv.Itoa(len(u)) + " bytes"
		}
		return "[" + kind + ": " + u + "]"
	}
	switch {
	case pt.Type == "text":
		return pt.Text
	case pt.Type == "think":
		if pt.Think != "" {
			return pt.Think
		}
		return pt.Text
	case pt.ImageURL != nil:
		return media(pt.Type, pt.ImageURL.URL)
	case pt.AudioURL != nil:
		return media(pt.Type, pt.AudioURL.URL)
	case pt.VideoURL != nil:
		return media(pt.Type, pt.VideoURL.URL)
	default:
		return "[" + pt.Type + "]"
	}
}
