package cline

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Cline SDK layout (the CLI 3.x, the VS Code extension 4.x, the hub):
// ~/.cline/data/sessions/<id>/<id>.json (the session record),
// <id>.messages.json (the conversation), agent_<id>.messages.json (a
// subagent's), db/sessions.db (the session index, store of record),
// db/session-search.db (a full-text index), db/hub-events-*.db (the hub's
// event log), logs/hooks.jsonl (the hook audit log).

// sdkMessage is one element of messages[]: an Anthropic-style message with
// the SDK's own keys.
type sdkMessage struct {
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	TS        num             `json:"ts"`
	ModelInfo *struct {
		ID       string `json:"id"`
		Provider string `json:"provider"`
	} `json:"modelInfo"`
}

// sdkBlock is one content block.
type sdkBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Reasoning string          `json:"reasoning"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
}

// userInputRe finds what a person typed: the SDK wraps each prompt as
// <user_input mode="act|plan|yolo">...</user_input>.
var userInputRe = regexp.MustCompile(`(?s)<user_input(?: mode="([^"]*)")?>(.*?)</user_input>`)

// unwrapUserInput returns the typed text and mode of a wrapped prompt, and
// the text outside the wrapper (a <mode_notice>, hook context); ok is false
// when s holds no wrapper.
func unwrapUserInput(s string) (typed, mode, rest string, ok bool) {
	locs := userInputRe.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return "", "", s, false
	}
	var parts, restParts []string
	prev := 0
	for _, l := range locs {
		restParts = append(restParts, s[prev:l[0]])
		if l[2] >= 0 && mode == "" {
			mode = s[l[2]:l[3]]
		}
		parts = append(parts, s[l[4]:l[5]])
		prev = l[1]
	}
	restParts = append(restParts, s[prev:])
	return strings.Join(parts, "\n"), mode, strings.TrimSpace(strings.Join(restParts, "")), true
}

// sdkToolText is the Text of a tool_use row: the commands of run_commands
// (one a line), the path of editor, the paths of read_files, the task of
// spawn_agent, else the call's most identifying argument.
func sdkToolText(name string, input json.RawMessage) string {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(input, &m)
	strs := func(k string) []string {
		var ss []string
		if json.Unmarshal(m[k], &ss) == nil {
			return ss
		}
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			return []string{s}
		}
		return nil
	}
	switch name {
	case "run_commands":
		if c := strs("commands"); len(c) > 0 {
			return strings.Join(c, "\n")
		}
	case "read_files":
		var fs []struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(m["files"], &fs) == nil && len(fs) > 0 {
			var ps []string
			for _, f := range fs {
				ps = append(ps, f.Path)
			}
			return strings.Join(ps, "\n")
		}
	case "spawn_agent":
		if t := strs("task"); len(t) > 0 {
			return t[0]
		}
	}
	return clinetask.ToolArg(input)
}

// sdkResultText renders a tool_result's content: a string as it is (the
// "error" of a JSON error object), run_commands' [{query, result,
// success}] as each result, text blocks as their text, anything else as
// compact JSON.
func sdkResultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		// A tool's JSON output kept as a string ({"error": ...}, the
		// editor's {query, result, success}) reads as that JSON.
		if t := strings.TrimSpace(s); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
			if r := sdkResultText(json.RawMessage(t)); r != "" {
				return r
			}
		}
		return s
	}
	var items []map[string]json.RawMessage
	if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
		var parts []string
		for _, it := range items {
			switch {
			case it["result"] != nil:
				parts = append(parts, parser.JSONText(it["result"]))
			case it["error"] != nil:
				parts = append(parts, parser.JSONText(it["error"]))
			case it["text"] != nil:
				parts = append(parts, parser.JSONText(it["text"]))
			default:
				parts = append(parts, parser.CompactJSON(mustMarshal(it)))
			}
		}
		return strings.Join(parts, "\n")
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil {
		for _, k := range []string{"error", "result", "text"} {
			if v, ok := obj[k]; ok {
				if s := parser.JSONText(v); s != "" {
					return s
				}
			}
		}
	}
	return parser.CompactJSON(raw)
}

func mustMarshal(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// sdkResultFailed reports a result whose items say success false.
func sdkResultFailed(raw json.RawMessage) bool {
	var items []struct {
		Success *bool `json:"success"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return false
	}
	for _, it := range items {
		if it.Success != nil && !*it.Success {
			return true
		}
	}
	return false
}

// denialMarker is the suffix the SDK appends to the reason of a call that
// did not run because it was not approved (@cline/shared, 0.0.86).
const denialMarker = " -- NOT a tool or system failure. Clarify with user before proceeding."

// sdkDenial says whether a result text reports a call that did not run
// because of a permission check, and from which source: "approval" (the
// approval callback refused: no TTY, no interactive session, the user said
// no), "hook" (a runtime hook blocked it), "plan_mode".
func sdkDenial(text string) (source, reason string, ok bool) {
	switch {
	case strings.Contains(text, denialMarker):
		return "approval", strings.TrimSpace(text[:strings.Index(text, denialMarker)]), true
	case strings.Contains(text, "requires approval"), strings.Contains(text, "was denied by user"),
		strings.Contains(text, "Tool approval requires"):
		return "approval", text, true
	case strings.Contains(text, "was blocked by a runtime hook"):
		return "hook", text, true
	case strings.Contains(text, "blocked in plan mode"):
		return "plan_mode", text, true
	}
	return "", "", false
}

// sdkEmitter writes the rows of one SDK conversation.
type sdkEmitter struct {
	out       parser.Sink
	session   string
	parent    string // a subagent's parent session
	project   string
	secondary bool // rows of a copy (the hub's event log)
	// copyOnly leaves out the rows derived from the conversation's order
	// (model and mode switches, the subagent row): a copy that holds part
	// of a conversation would derive them differently.
	copyOnly bool
	model    string
	mode     string
	names    map[string]string // tool_use id -> name
	last     time.Time
	started  bool
	users    int // user texts seen (a subagent's first is its task)
}

func (e *sdkEmitter) ev(t time.Time, basis timeline.TimeBasis, line int64, turn timeline.TurnType, text, id string) timeline.Event {
	if t.IsZero() {
		basis = timeline.TimeNone
	}
	return timeline.Event{Time: t, TimeBasis: basis, Agent: Agent, SessionID: e.session, ParentSessionID: e.parent,
		ProjectPath: e.project, TurnType: turn, Text: text, SourceLine: line, RecordID: id, Secondary: e.secondary}
}

// message writes the rows of one message (n its position).
func (e *sdkEmitter) message(n int64, raw json.RawMessage) {
	var m sdkMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		e.out.Report(n, parser.KindParse, "not an SDK message: "+parser.JSONError(err))
		return
	}
	t, basis := msTime(float64(m.TS)), timeline.TimeRecorded
	switch {
	case !t.IsZero():
		e.last = t
	case !e.last.IsZero():
		t, basis = e.last, timeline.TimeInherited
	}
	id := m.ID
	if id == "" {
		id = e.session + ":" + strconv.FormatInt(n, 10) // position in the file: no id recorded
	}
	blocks := sdkBlocks(m.Content)
	if len(blocks) == 0 {
		e.out.Skip(n, "empty_message")
		return
	}
	if !e.started && !e.copyOnly {
		e.started = true
		if e.parent != "" {
			e.out.Event(e.ev(t, basis, n, timeline.System, "subagent "+e.session+" of "+e.parent, e.session+"#subagent"))
		}
	}
	if m.Role == "assistant" && m.ModelInfo != nil && m.ModelInfo.ID != "" && m.ModelInfo.ID != e.model {
		if !e.copyOnly {
			text := "model: " + m.ModelInfo.ID
			if e.model != "" {
				text = "model: " + e.model + " -> " + m.ModelInfo.ID
			}
			ev := e.ev(t, basis, n, timeline.System, text, id+"#model")
			ev.Model = m.ModelInfo.ID
			e.out.Event(ev)
		}
		e.model = m.ModelInfo.ID
	}
	model := ""
	if m.Role == "assistant" {
		model = e.model
		if m.ModelInfo != nil && m.ModelInfo.ID != "" {
			model = m.ModelInfo.ID
		}
	}
	for i, b := range blocks {
		bid := id + "#" + strconv.Itoa(i)
		row := func(turn timeline.TurnType, text string) timeline.Event {
			ev := e.ev(t, basis, n, turn, text, bid)
			ev.Model = model
			return ev
		}
		switch b.Type {
		case "text":
			if m.Role != "user" {
				e.out.Event(row(timeline.Assistant, b.Text))
				continue
			}
			e.userText(n, t, basis, id, bid, b.Text)
		case "thinking", "reasoning", "redacted_thinking":
			text := firstNonEmpty(b.Thinking, b.Reasoning, b.Text)
			if b.Type == "redacted_thinking" && text == "" {
				text = "[redacted thinking]"
			}
			e.out.Event(row(timeline.Thinking, text))
		case "tool_use", "tool_call":
			ev := row(timeline.ToolUse, sdkToolText(b.Name, b.Input))
			ev.ToolName, ev.ToolUseID, ev.ToolInput = b.Name, b.ID, parser.CompactJSON(b.Input)
			if b.ID != "" {
				e.names[b.ID] = b.Name
			}
			e.out.Event(ev)
		case "tool_result":
			name := firstNonEmpty(b.Name, e.names[b.ToolUseID])
			text := sdkResultText(b.Content)
			failed := (b.IsError != nil && *b.IsError) || sdkResultFailed(b.Content)
			ev := row(timeline.ToolResult, text)
			ev.Model = ""
			ev.ToolName, ev.ToolUseID, ev.IsError = name, b.ToolUseID, strconv.FormatBool(failed)
			e.out.Event(ev)
			if src, reason, ok := sdkDenial(text); ok {
				d := e.ev(t, basis, n, timeline.System, "permission decision: denied tool="+name+" source="+src+" reason="+oneLine(reason), bid+"#decision")
				d.ToolName, d.ToolUseID = name, b.ToolUseID
				e.out.Event(d)
			}
		case "image":
			e.out.Event(row(timeline.System, "[image]"))
		case "file":
			e.out.Event(row(timeline.System, "file: "+firstNonEmpty(clinetask.ToolArg(mustMarshal(b)), b.Name)))
		default:
			e.out.Event(row(timeline.System, b.Type+" block: "+truncate(parser.CompactJSON(mustMarshal(b)), 2000)))
		}
	}
}

// userText writes a user message's text block: the typed prompt (inside
// <user_input>) as a user row, a mode change, and anything else (mode
// notices, injected context, a subagent's task) as system rows.
func (e *sdkEmitter) userText(n int64, t time.Time, basis timeline.TimeBasis, id, bid, text string) {
	typed, mode, rest, ok := unwrapUserInput(text)
	e.users++
	if !ok {
		if slashCmd, content, isCmd := userCommand(text); isCmd {
			e.out.Event(e.ev(t, basis, n, timeline.User, strings.TrimSpace("/"+slashCmd+" "+content), bid))
			return
		}
	}
	if !ok {
		if e.parent != "" && e.users == 1 {
			e.out.Event(e.ev(t, basis, n, timeline.System, "subagent task: "+text, bid))
			return
		}
		e.out.Event(e.ev(t, basis, n, timeline.System, text, bid))
		return
	}
	if mode != "" && mode != e.mode && !e.copyOnly {
		mt := "mode: " + mode
		if e.mode != "" {
			mt = "mode: " + e.mode + " -> " + mode
		}
		e.out.Event(e.ev(t, basis, n, timeline.System, mt, id+"#mode"))
	}
	if mode != "" {
		e.mode = mode
	}
	e.out.Event(e.ev(t, basis, n, timeline.User, typed, bid))
	if rest != "" {
		e.out.Event(e.ev(t, basis, n, timeline.System, rest, bid+"#context"))
	}
}

// userCommandRe is a typed slash command: <user_command slash="x">...</user_command>.
var userCommandRe = regexp.MustCompile(`(?s)^\s*<user_command\b[^>]*\bslash="([^"]+)"[^>]*>(.*?)</user_command>\s*$`)

func userCommand(s string) (slashCmd, content string, ok bool) {
	m := userCommandRe.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(m[2]), true
}

func sdkBlocks(raw json.RawMessage) []sdkBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		return []sdkBlock{{Type: "text", Text: s}}
	}
	var bs []sdkBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// isoTime parses an RFC 3339 time (the SDK's started_at, ended_at).
func isoTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
