package clinetask

import (
	"context"
	"errors"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// APIMode says what ParseAPIHistory writes.
type APIMode int

const (
	// APIFull writes every row: the task's transcript when ui_messages.json
	// is absent.
	APIFull APIMode = iota
	// APIDecisions writes only the permission decision rows (Roo Code reads
	// its API history for them even beside ui_messages.json).
	APIDecisions
)

// apiMessage is one element of api_conversation_history.json: an Anthropic
// MessageParam plus the agent's own keys.
type apiMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	TS        Num             `json:"ts"`
	Type      string          `json:"type"` // Roo: "reasoning" items
	Text      string          `json:"text"`
	Summary   json.RawMessage `json:"summary"`
	Reasoning string          `json:"reasoning_content"`
	IsSummary bool            `json:"isSummary"`
	ModelInfo *struct {
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
}

// apiBlock is one content block.
type apiBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
}

var (
	// resultRe matches an id-less tool result text: "[read_file for 'x'] Result:".
	resultRe = regexp.MustCompile(`(?s)^\[([A-Za-z0-9_.:-]+)(?: for (.*?))?\] Result:`)
	// notRunRe matches a parallel call the agent refused.
	notRunRe = regexp.MustCompile(`^Tool \[([A-Za-z0-9_.:-]+)\] was not executed because a tool has already been used in this message`)
	// wrapRe finds the blocks that wrap what a person typed.
	wrapRe = regexp.MustCompile(`(?s)<(task|feedback|answer|user_message)>\n?(.*?)\n?</(?:task|feedback|answer|user_message)>`)
)

type pendingCall struct {
	id, name string
	used     bool
}

type apiState struct {
	emitter
	fl      Flavor
	mode    APIMode
	names   map[string]string // tool_use id -> name
	pending []*pendingCall    // calls of the last assistant message, in order
	xmlN    int
	// lastResult is the tool name of the last result (for a denial
	// written as its own text block).
	lastResult string
}

// ParseAPIHistory reads a task's api_conversation_history.json for agent.
// Elements without ts inherit the last ts seen, else the task start
// (TimeInherited). Tool results written as text ("[name for 'x']
// Result:", no tool_use_id) are paired with the last assistant message's
// calls by order and tool name; tool_result blocks pair on their id.
func ParseAPIHistory(ctx context.Context, in *parser.Input, out parser.Sink, agent string, fl Flavor, mode APIMode) error {
	task := LoadTask(in, fl)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	cs := &countingSink{Sink: out}
	a := &apiState{emitter: emitter{out: cs, agent: agent, task: task}, fl: fl, mode: mode, names: map[string]string{}}
	reason := "empty_message"
	if mode == APIDecisions {
		reason = "covered_by_ui_messages" // read only for its permission decisions
	}
	var last time.Time
	res, err := DecodeArray(ctx, rc, func(idx int64, raw json.RawMessage) error {
		var m apiMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			out.Problem(idx, "not a MessageParam: "+parser.JSONError(err))
			return nil
		}
		t, basis := MsTime(float64(m.TS)), timeline.TimeRecorded
		switch {
		case !t.IsZero():
			last = t
		case !last.IsZero():
			t, basis = last, timeline.TimeInherited
		case !task.Start.IsZero():
			t, basis = task.Start, timeline.TimeInherited
		default:
			basis = timeline.TimeNone
		}
		cs.accountFor(idx, reason, func() { a.message(idx, &m, t, basis) })
		return nil
	})
	ReportArray(out, res)
	if errors.Is(err, errNotArray) {
		out.Problem(1, parser.NotJSONArray("api_conversation_history.json", nil))
		return nil
	}
	return err
}

func (a *apiState) blocks(raw json.RawMessage) []apiBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []apiBlock{{Type: "text", Text: s}}
	}
	var bs []apiBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func (a *apiState) message(idx int64, m *apiMessage, t time.Time, basis timeline.TimeBasis) {
	full := a.mode == APIFull
	bs := a.blocks(m.Content)
	if full && a.task.Project == "" {
		for _, b := range bs {
			if c := findCwd(b.Text); c != "" {
				a.task.Project = c
				break
			}
		}
	}
	if full {
		a.open(t, basis, idx)
		if m.ModelInfo != nil {
			a.setModel(t, basis, idx, m.ModelInfo.ModelID)
		}
	}
	emit := func(turn timeline.TurnType, text string) timeline.Event {
		e := a.ev(t, basis, idx, turn, text)
		if turn == timeline.Assistant || turn == timeline.Thinking || turn == timeline.ToolUse {
			e.Model = a.modelRow(t, basis, idx)
		}
		return e
	}
	put := func(e timeline.Event) {
		if full {
			a.out.Event(e)
		}
	}
	if m.Type == "reasoning" { // Roo: a reasoning item of the Responses API
		var sum []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Summary, &sum)
		var parts []string
		for _, s := range sum {
			parts = append(parts, s.Text)
		}
		if s := FirstNonEmpty(strings.Join(parts, "\n"), m.Text); s != "" {
			put(emit(timeline.Thinking, s))
		}
		return
	}
	if m.Reasoning != "" {
		put(emit(timeline.Thinking, m.Reasoning))
	}
	switch m.Role {
	case "assistant":
		a.pending = a.pending[:0]
		for _, b := range bs {
			switch b.Type {
			case "text":
				rest, thinking, calls := splitXMLCalls(b.Text)
				for _, th := range thinking {
					if th != "" {
						put(emit(timeline.Thinking, th))
					}
				}
				if strings.TrimSpace(rest) != "" {
					put(emit(timeline.Assistant, strings.TrimSpace(rest)))
				}
				for _, c := range calls {
					a.xmlN++
					id := "xml-" + itoa(idx) + "-" + itoa(int64(a.xmlN))
					a.call(id, c.name, c.input, emit, put)
				}
			case "thinking":
				put(emit(timeline.Thinking, b.Thinking))
			case "redacted_thinking":
				put(emit(timeline.Thinking, "[redacted thinking]"))
			case "tool_use":
				a.call(b.ID, b.Name, b.Input, emit, put)
			}
		}
	default: // user
		for _, b := range bs {
			switch b.Type {
			case "text":
				a.userText(b.Text, emit, put)
			case "tool_result":
				text := resultText(b.Content)
				name := a.names[b.ToolUseID]
				a.markUsed(b.ToolUseID)
				isErr := b.IsError != nil && *b.IsError
				a.result(b.ToolUseID, name, text, isErr, emit, put)
			case "image":
				put(emit(timeline.System, "image attached"))
			}
		}
	}
}

func (a *apiState) call(id, name string, input json.RawMessage, emit func(timeline.TurnType, string) timeline.Event, put func(timeline.Event)) {
	a.names[id] = name
	a.pending = append(a.pending, &pendingCall{id: id, name: name})
	e := emit(timeline.ToolUse, ToolArg(input))
	e.ToolName, e.ToolUseID, e.ToolInput = name, id, parser.CompactJSON(input)
	put(e)
}

func (a *apiState) markUsed(id string) {
	for _, p := range a.pending {
		if p.id == id {
			p.used = true
		}
	}
}

// take returns the first unanswered call of the last assistant message
// named name.
func (a *apiState) take(name string) string {
	for _, p := range a.pending {
		if !p.used && p.name == name {
			p.used = true
			return p.id
		}
	}
	return ""
}

// userText classifies one user text block: an id-less tool result, a
// refused parallel call, what a person typed (<task>, <feedback>,
// <answer>, <user_message>), or injected context.
func (a *apiState) userText(s string, emit func(timeline.TurnType, string) timeline.Event, put func(timeline.Event)) {
	if m := resultRe.FindStringSubmatch(s); m != nil {
		id := a.take(m[1])
		a.result(id, m[1], s, strings.HasPrefix(strings.TrimSpace(s[len(m[0]):]), "The tool execution failed"), emit, put)
		return
	}
	if m := notRunRe.FindStringSubmatch(s); m != nil {
		a.take(m[1])
		e := emit(timeline.System, s)
		e.ToolName = m[1]
		put(e)
		return
	}
	trim := strings.TrimSpace(s)
	if dec, _, _ := decision(trim); dec != "" {
		// Older Cline wrote the denial as its own block after "[x] Result:".
		d := emit(timeline.System, "permission decision: "+dec)
		d.ToolName = a.lastResult
		a.out.Event(d)
		return
	}
	if strings.HasPrefix(trim, "<environment_details>") {
		put(emit(timeline.System, s))
		return
	}
	typed := wrapRe.FindAllStringSubmatchIndex(s, -1)
	if len(typed) == 0 {
		put(emit(timeline.System, s))
		return
	}
	var rest strings.Builder
	prev := 0
	for _, ix := range typed {
		rest.WriteString(s[prev:ix[0]])
		prev = ix[1]
	}
	rest.WriteString(s[prev:])
	if r := strings.TrimSpace(rest.String()); r != "" {
		put(emit(timeline.System, r))
	}
	for _, ix := range typed {
		put(emit(timeline.User, strings.TrimSpace(s[ix[4]:ix[5]])))
	}
}

// result writes a tool_result row, the user's answer or feedback inside it
// (a user row), and a permission decision row when the result records one.
func (a *apiState) result(id, name, text string, isErr bool, emit func(timeline.TurnType, string) timeline.Event, put func(timeline.Event)) {
	a.lastResult = name
	dec, feedback, errFlag := decision(text)
	e := emit(timeline.ToolResult, text)
	e.ToolName, e.ToolUseID, e.IsError = name, id, "false"
	if isErr || errFlag {
		e.IsError = "true"
	}
	put(e)
	for _, ix := range wrapRe.FindAllStringSubmatchIndex(text, -1) {
		if tag := text[ix[2]:ix[3]]; tag == "answer" || tag == "feedback" || tag == "user_message" {
			put(emit(timeline.User, strings.TrimSpace(text[ix[4]:ix[5]])))
		}
	}
	if feedback != "" {
		put(emit(timeline.User, feedback))
	}
	if dec != "" {
		d := emit(timeline.System, "permission decision: "+dec)
		d.ToolName = name
		a.out.Event(d) // decisions are written in every mode
	}
}

// decision reads a tool result for a recorded decision: Cline's "The user
// denied this operation.", CLINE_COMMAND_PERMISSIONS and .clineignore
// blocks; Roo's JSON {"status":"denied"|"approved", feedback} and
// .rooignore access_denied. It returns the decision text, the feedback a
// person typed with it (Roo JSON only), and whether the result is an error.
func decision(text string) (dec, feedback string, isErr bool) {
	body := text
	if m := resultRe.FindStringIndex(text); m != nil {
		body = text[m[1]:]
	}
	body = strings.TrimSpace(body)
	if strings.HasPrefix(body, "{") {
		dj := json.NewDecoder(strings.NewReader(body))
		var j struct {
			Status   string `json:"status"`
			Feedback string `json:"feedback"`
			Type     string `json:"type"`
			Path     string `json:"path"`
			Message  string `json:"message"`
		}
		if dj.Decode(&j) == nil {
			switch {
			case j.Status == "denied":
				return "denied source=user", j.Feedback, false
			case j.Status == "approved":
				return "approved source=user", j.Feedback, false
			case j.Status == "error" && j.Type == "access_denied":
				return "blocked source=.rooignore path=" + j.Path, "", true
			case j.Status == "error":
				return "", "", true
			}
		}
	}
	switch {
	case strings.HasPrefix(body, "The user denied this operation"):
		return "denied source=user", "", false
	case strings.HasPrefix(body, "Command execution blocked by CLINE_COMMAND_PERMISSIONS:"):
		return "denied source=CLINE_COMMAND_PERMISSIONS reason=" + OneLine(strings.TrimPrefix(body, "Command execution blocked by CLINE_COMMAND_PERMISSIONS:")), "", true
	case strings.HasPrefix(body, "Access to ") && strings.Contains(body, "is blocked by the .clineignore file settings"):
		p := strings.TrimPrefix(body, "Access to ")
		p = p[:strings.Index(p, " is blocked by the .clineignore")]
		return "blocked source=.clineignore path=" + p, "", true
	}
	return "", "", false
}

// resultText flattens a tool_result content (string or blocks).
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []apiBlock
	if json.Unmarshal(raw, &bs) != nil {
		return parser.CompactJSON(raw)
	}
	var parts []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
