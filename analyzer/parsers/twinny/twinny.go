package twinny

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of twinny.
const Agent = "twinny"

// ExtensionID is twinny's VS Code extension id: its state row key.
const ExtensionID = "rjmacarthy.twinny"

// Global- and workspace-state keys (src/common/constants/storage.ts,
// src/extension/team/policy-store.ts).
const (
	conversationsKey = "twinny.conversations"
	activeKey        = "twinny.active-conversation"
	teamPolicyKey    = "twinny.teamPolicy"
	reviewOwnerKey   = "reviewOwner"
	reviewRepoKey    = "reviewRepo"
)

// StateExtension reads the rjmacarthy.twinny row of a state.vscdb.
func StateExtension() vscodestate.StateExtension {
	return vscodestate.StateExtension{
		Agent: Agent, Keys: []string{ExtensionID}, Actions: actions,
		Doc:  "rjmacarthy.twinny row (twinny.conversations and an unsaved active conversation, tool steps with their Run/Skip answers, twinny.teamPolicy; a workspace row's pull request review repository)",
		Read: readState,
	}
}

func readState(ctx context.Context, st *vscodestate.VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error {
	r, ok, err := st.Item(ctx, present[ExtensionID])
	if err != nil || !ok {
		return err
	}
	members, err := r.Members()
	if err != nil {
		out.Problem(r.Rowid, r.NotObject(err))
		return nil
	}
	m := map[string]json.RawMessage{}
	for _, x := range members {
		m[x.Key] = x.Value
	}
	read := false
	saved := map[string]bool{}
	if v, ok := m[conversationsKey]; ok {
		read = true
		var convs map[string]json.RawMessage
		if err := json.Unmarshal(v, &convs); err != nil {
			out.Problem(r.Rowid, conversationsKey+": not an object of conversations: "+parser.JSONError(err))
		} else {
			ids := make([]string, 0, len(convs))
			for id := range convs {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				saved[id] = true
				conversation(out, r.Rowid, id, convs[id], "")
			}
		}
	}
	if v, ok := m[activeKey]; ok && string(v) != "null" {
		read = true
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(v, &head) == nil && head.ID != "" && !saved[head.ID] {
			conversation(out, r.Rowid, head.ID, v, "active conversation not in twinny.conversations (unsaved or removed)")
		}
	}
	if v, ok := m[teamPolicyKey]; ok {
		read = true
		teamPolicy(in, out, r.Rowid, v)
	}
	owner, repo := str(m[reviewOwnerKey]), str(m[reviewRepoKey])
	if owner != "" || repo != "" {
		read = true
		e := parser.SettingEvent(&in.File)
		e.SourceLine = r.Rowid
		e.Text = fmt.Sprintf("pull request review repository: %s/%s (from %s, file mtime)", owner, repo, parser.DisplayFile(&in.File))
		out.Event(e)
	}
	if !read {
		out.Skip(r.Rowid, "no_evidence:twinny-state-without-conversations")
	}
	return nil
}

func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// convo is a Conversation (src/common/types.ts) as ConversationHistory
// stores it: updateConversation stamps updatedAt (Date.now()).
type convo struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	PinnedTitle bool      `json:"pinnedTitle"`
	UpdatedAt   *float64  `json:"updatedAt"`
	Messages    []message `json:"messages"`
}

// message is a ChatCompletionMessage: an OpenAI chat message plus id,
// excludeFromApi, prompt (the text a feature recorded for the model),
// images and the reply's tool steps.
type message struct {
	ID             string          `json:"id"`
	Role           string          `json:"role"`
	Content        json.RawMessage `json:"content"`
	Name           string          `json:"name"`
	Prompt         *string         `json:"prompt"`
	ExcludeFromAPI bool            `json:"excludeFromApi"`
	Images         []any           `json:"images"`
	ToolCallID     string          `json:"tool_call_id"`
	ToolCalls      []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolSteps []toolStep `json:"toolSteps"`
}

// toolStep is a ToolStepView (src/extension/chat/tool-steps.ts): a call
// with its shown arguments, summary, output (cut at 4000 characters by
// twinny) and status running|waiting|done|failed|skipped|stopped; a
// skipped step is a command the user answered Skip.
type toolStep struct {
	ID       string            `json:"id"`
	Name     string            `json:"name"`
	Args     map[string]string `json:"args"`
	Summary  string            `json:"summary"`
	Output   string            `json:"output"`
	Status   string            `json:"status"`
	Command  string            `json:"command"`
	Approval string            `json:"approval"`
}

func conversation(out parser.Sink, line int64, key string, raw json.RawMessage, note string) {
	var c convo
	if err := json.Unmarshal(raw, &c); err != nil {
		out.Problem(line, fmt.Sprintf("conversation %q: %s", key, parser.JSONError(err)))
		return
	}
	sid := c.ID
	if sid == "" {
		sid = key
	}
	base := timeline.Event{SessionID: sid, SourceLine: line, TimeBasis: timeline.TimeNone}
	if c.UpdatedAt != nil && *c.UpdatedAt > 0 {
		base.Time, base.TimeBasis = time.UnixMilli(int64(*c.UpdatedAt)).UTC(), timeline.TimeInherited
	}
	emit := func(e timeline.Event) {
		e.SessionID, e.SourceLine, e.Time, e.TimeBasis = base.SessionID, base.SourceLine, base.Time, base.TimeBasis
		out.Event(e)
	}
	head := "conversation: " + c.Title
	if c.PinnedTitle {
		head += " (title set by the user)"
	}
	if note != "" {
		head += " [" + note + "]"
	}
	emit(timeline.Event{TurnType: timeline.System, Text: head, RecordID: sid + "#conversation"})
	for i, m := range c.Messages {
		id := m.ID
		if id == "" {
			id = sid + ":" + strconv.Itoa(i)
		}
		messageRows(emit, id, &m)
	}
}

var (
	brRe  = regexp.MustCompile(`(?i)<br\s*/?>|</p>|</div>`)
	tagRe = regexp.MustCompile(`<[^>]*>`)
)

// composerText turns the composer's HTML of a user turn into the text the
// user typed (twinny's own composerText: <br> and block ends are line
// breaks, tags dropped, entities unescaped).
func composerText(s string) string {
	if !strings.Contains(s, "<") {
		return html.UnescapeString(s)
	}
	s = brRe.ReplaceAllString(s, "\n")
	s = tagRe.ReplaceAllString(s, "")
	return strings.TrimSpace(html.UnescapeString(s))
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b []string
		for _, p := range parts {
			if p.Type == "text" && p.Text != "" {
				b = append(b, p.Text)
			}
		}
		return strings.Join(b, "\n")
	}
	return ""
}

func messageRows(emit func(timeline.Event), id string, m *message) {
	n := 0
	next := func() string { s := id + "#" + strconv.Itoa(n); n++; return s }
	text := contentText(m.Content)
	switch m.Role {
	case "user":
		if t := composerText(text); t != "" {
			emit(timeline.Event{TurnType: timeline.User, Text: t, RecordID: next()})
		}
		if len(m.Images) > 0 {
			emit(timeline.Event{TurnType: timeline.System, Text: fmt.Sprintf("images attached: %d", len(m.Images)), RecordID: next()})
		}
	case "assistant":
		if text != "" {
			emit(timeline.Event{TurnType: timeline.Assistant, Text: text, RecordID: next()})
		}
	case "tool", "function":
		emit(timeline.Event{TurnType: timeline.ToolResult, ToolName: m.Name, ToolUseID: m.ToolCallID, Text: text, RecordID: next()})
	default:
		if text != "" {
			emit(timeline.Event{TurnType: timeline.System, Text: text, RecordID: next()})
		}
	}
	if m.Prompt != nil && *m.Prompt != "" && *m.Prompt != text {
		emit(timeline.Event{TurnType: timeline.System, Text: "prompt sent for this message: " + *m.Prompt, RecordID: next()})
	}
	for _, c := range m.ToolCalls {
		emit(timeline.Event{TurnType: timeline.ToolUse, ToolName: c.Function.Name, ToolUseID: c.ID, ToolInput: c.Function.Arguments, Text: c.Function.Name, RecordID: next()})
	}
	for _, s := range m.ToolSteps {
		in, _ := json.Marshal(s.Args)
		if s.Args == nil {
			in = nil
		}
		text := s.Summary
		if text == "" {
			text = s.Name
		}
		emit(timeline.Event{TurnType: timeline.ToolUse, ToolName: s.Name, ToolUseID: s.ID, ToolInput: string(in), Text: text, RecordID: s.ID + "#use"})
		switch s.Status {
		case "skipped":
			emit(timeline.Event{TurnType: timeline.System, ToolName: s.Name, ToolUseID: s.ID, Text: "permission decision: denied source=user (Skip)", RecordID: s.ID + "#decision"})
		case "waiting":
			emit(timeline.Event{TurnType: timeline.System, ToolName: s.Name, ToolUseID: s.ID, Text: "permission request: " + s.Approval + " " + s.Command + " (no answer recorded)", RecordID: s.ID + "#decision"})
		}
		if s.Output != "" || s.Status == "done" || s.Status == "failed" || s.Status == "stopped" {
			isErr := "false"
			if s.Status == "failed" {
				isErr = "true"
			}
			t := s.Output
			if s.Status == "stopped" {
				t = strings.TrimSpace(t + "\n(stopped by the user or cut off)")
			}
			emit(timeline.Event{TurnType: timeline.ToolResult, ToolName: s.Name, ToolUseID: s.ID, Text: t, IsError: isErr, RecordID: s.ID + "#result"})
		}
	}
}

// teamPolicy reads TeamPolicyState {url, providerIds, policy}: one system
// row naming the team and the policy it enforces, at the store's mtime.
func teamPolicy(in *parser.Input, out parser.Sink, line int64, raw json.RawMessage) {
	var p struct {
		URL         string          `json:"url"`
		ProviderIDs []string        `json:"providerIds"`
		Policy      json.RawMessage `json:"policy"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		out.Problem(line, teamPolicyKey+": "+parser.JSONError(err))
		return
	}
	e := parser.SettingEvent(&in.File)
	e.SourceLine = line
	e.Text = parser.RedactSecrets(fmt.Sprintf("permission setting: twinny.teamPolicy url=%s providers=%s policy=%s (from %s, file mtime)",
		p.URL, strings.Join(p.ProviderIDs, ","), strings.TrimSpace(string(p.Policy)), parser.DisplayFile(&in.File)))
	out.Event(e)
}
