package cody

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Sourcegraph Cody.
const Agent = "cody"

// ExtensionID is Cody's VS Code extension id: its global-state row key.
const ExtensionID = "sourcegraph.cody-ai"

// The global-state keys read.
const (
	historyKey = "cody-local-chatHistory-v2"
	modelsKey  = "cody-model-preferences"
)

// maxWhole bounds a JetBrains global-state file or a legacy history read
// whole.
const maxWhole = 256 << 20

// Parsers returns Cody's own parsers (the JetBrains agent's global state
// files, the legacy JetBrains project history and the editor settings);
// its state.vscdb row is read through StateExtension.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "cody/jetbrains-state", Agent: Agent, Version: 1, Actions: actions,
			Targets: []string{"jetbrains-state"}, Names: []string{historyKey, modelsKey},
			Doc: "Cody-nodejs/[Data/]JetBrains-globalState/cody-local-chatHistory-v2 (chats: prompts, replies, tool calls and results, confirmation steps, errors; chat id time) and cody-model-preferences (model rows)",
		}, parseJetBrains),
		parser.New(parser.Spec{
			ID: "cody/legacy-history", Agent: Agent, Version: 1,
			Targets: []string{"project"}, Names: []string{"cody_history.xml"},
			Doc:       "the pre-agent JetBrains plugin's <project>/.idea/cody_history.xml (secondary: prompts and replies with the chat's updatedAt, host-local time)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.System}, Basis: "the legacy chat ids (internalId) are not the agent's chat ids and updatedAt is host-local: pair on text alone (sourcegraph/jetbrains HistoryService)"},
		}, parseLegacyHistory),
		parser.New(parser.Spec{
			ID: "cody/settings", Agent: "vscode", Version: 1,
			Targets: []string{"settings"}, Names: []string{"settings.json"},
			Emits: []string{Agent},
			Doc:   "cody.* standing permission settings of the editor's User/settings.json (agentic shell allow and block lists, terminal context, agentic context, MCP servers): permission setting rows at the file mtime",
		}, parseSettings),
	}
}

// StateExtension reads the sourcegraph.cody-ai row of a state.vscdb.
func StateExtension() vscodestate.StateExtension {
	return vscodestate.StateExtension{
		Agent: Agent, Keys: []string{ExtensionID}, Actions: actions,
		Doc:  "sourcegraph.cody-ai row (cody-local-chatHistory-v2 chats, cody-model-preferences)",
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
	read := false
	for _, m := range members {
		switch m.Key {
		case historyKey:
			read = true
			chats(ctx, in, out, r.Rowid, m.Value)
		case modelsKey:
			read = true
			modelPrefs(in, out, r.Rowid, m.Value)
		}
	}
	if !read {
		out.Skip(r.Rowid, "no_evidence:cody-state-without-history")
	}
	return nil
}

func parseJetBrains(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readWhole(in)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if in.Base() == modelsKey {
		modelPrefs(in, out, 1, b)
		return nil
	}
	chats(ctx, in, out, 1, b)
	return nil
}

func readWhole(in *parser.Input) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxWhole+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(b) > maxWhole {
		return nil, fmt.Errorf("%s: over %d bytes: not read", in.Path, maxWhole)
	}
	return b, nil
}

// chatTranscript is SerializedChatTranscript
// (lib/shared/src/chat/transcript/index.ts).
type chatTranscript struct {
	ID                       string        `json:"id"`
	ChatTitle                string        `json:"chatTitle"`
	Interactions             []interaction `json:"interactions"`
	LastInteractionTimestamp string        `json:"lastInteractionTimestamp"`
}

type interaction struct {
	HumanMessage     *message `json:"humanMessage"`
	AssistantMessage *message `json:"assistantMessage"`
}

// message is SerializedChatMessage.
type message struct {
	Speaker      string        `json:"speaker"`
	Text         string        `json:"text"`
	Model        string        `json:"model"`
	Intent       string        `json:"intent"`
	Agent        string        `json:"agent"`
	ContextFiles []contextItem `json:"contextFiles"`
	Error        *chatError    `json:"error"`
	Processes    []step        `json:"processes"`
	SubMessages  []struct {
		Text string `json:"text"`
		Step *step  `json:"step"`
	} `json:"subMessages"`
	Content []part `json:"content"`
}

type contextItem struct {
	URI    json.RawMessage `json:"uri"`
	Type   string          `json:"type"`
	Source string          `json:"source"`
}

// uri renders a context item's uri: a string, or a serialized vscode.Uri
// object ({scheme, path, ...} or {fsPath}).
func (c contextItem) uri() string {
	var s string
	if json.Unmarshal(c.URI, &s) == nil {
		return s
	}
	var u struct {
		Scheme string `json:"scheme"`
		Path   string `json:"path"`
		FSPath string `json:"fsPath"`
	}
	if json.Unmarshal(c.URI, &u) == nil {
		if u.FSPath != "" {
			return u.FSPath
		}
		if u.Scheme != "" && u.Scheme != "file" {
			return u.Scheme + "://" + strings.TrimPrefix(u.Path, "/")
		}
		return u.Path
	}
	return ""
}

type chatError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// step is ProcessingStep (messages.ts): type tool, confirmation or step.
type step struct {
	Type        string     `json:"type"`
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Content     string     `json:"content"`
	State       string     `json:"state"`
	Error       *chatError `json:"error"`
}

// part is a MessagePart (sourcegraph-api/completions/types.ts).
type part struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	URI      string `json:"uri"`
	ToolCall *struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"tool_call"`
	ToolResult *struct {
		ID      string `json:"id"`
		Content string `json:"content"`
	} `json:"tool_result"`
}

// chatTime is a chat's creation time: its id, Date.toUTCString() (second
// precision); ids from the JetBrains import bug CODY-3538 were UUIDs, so
// lastInteractionTimestamp (the same string) is tried next.
func chatTime(c *chatTranscript, key string) (time.Time, bool) {
	for _, s := range []string{c.ID, key, c.LastInteractionTimestamp} {
		if t, err := time.Parse(http.TimeFormat, s); err == nil {
			return t.UTC(), true
		}
		if t, err := time.Parse(time.RFC1123, s); err == nil {
			return t.UTC(), true
		}
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// chats reads an AccountKeyedChatHistory: {"<endpoint>-<username>":
// {chat: {<chatID>: SerializedChatTranscript}}}.
func chats(ctx context.Context, in *parser.Input, out parser.Sink, line int64, raw []byte) {
	var hist map[string]struct {
		Chat map[string]json.RawMessage `json:"chat"`
	}
	if err := json.Unmarshal(raw, &hist); err != nil {
		out.Problem(line, "cody-local-chatHistory-v2: not an account-keyed history object: "+parser.JSONError(err))
		return
	}
	accounts := make([]string, 0, len(hist))
	for k := range hist {
		accounts = append(accounts, k)
	}
	sort.Strings(accounts)
	n := 0
	for _, acct := range accounts {
		ids := make([]string, 0, len(hist[acct].Chat))
		for id := range hist[acct].Chat {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			if ctx.Err() != nil {
				return
			}
			n++
			var c chatTranscript
			if err := json.Unmarshal(hist[acct].Chat[id], &c); err != nil {
				out.Problem(line, fmt.Sprintf("chat %q: not a chat transcript: %s", id, parser.JSONError(err)))
				continue
			}
			chat(in, out, line, acct, id, &c)
		}
	}
	if n == 0 {
		out.Skip(line, "no_evidence:empty-chat-history")
	}
}

func chat(in *parser.Input, out parser.Sink, line int64, acct, key string, c *chatTranscript) {
	sid := c.ID
	if sid == "" {
		sid = key
	}
	t, ok := chatTime(c, key)
	base := timeline.Event{SessionID: sid, SourceLine: line, TimeBasis: timeline.TimeInherited, Time: t}
	if !ok {
		base.Time, base.TimeBasis = time.Time{}, timeline.TimeNone
	}
	emit := func(e timeline.Event) {
		e.SessionID, e.SourceLine, e.Time, e.TimeBasis = base.SessionID, base.SourceLine, base.Time, base.TimeBasis
		out.Event(e)
	}
	head := "chat: account=" + acct
	if c.ChatTitle != "" {
		head += " title=" + c.ChatTitle
	}
	if key != c.ID && c.ID != "" {
		head += " stored under " + key
	}
	emit(timeline.Event{TurnType: timeline.System, Text: head, RecordID: sid + "#chat"})
	for i, it := range c.Interactions {
		rid := sid + ":" + strconv.Itoa(i)
		if it.HumanMessage != nil {
			messageRows(emit, rid+"h", it.HumanMessage)
		}
		if it.AssistantMessage != nil {
			messageRows(emit, rid+"a", it.AssistantMessage)
		}
	}
}

// messageRows writes one message's rows; a human message's text is what
// the person typed (a user row), its tool_result parts are tool output.
func messageRows(emit func(timeline.Event), rid string, m *message) {
	n := 0
	next := func() string { s := rid + "#" + strconv.Itoa(n); n++; return s }
	human := m.Speaker == "human"
	if len(m.ContextFiles) > 0 {
		var uris []string
		for _, f := range m.ContextFiles {
			if u := f.uri(); u != "" {
				uris = append(uris, u)
			}
		}
		if len(uris) > 0 {
			emit(timeline.Event{TurnType: timeline.System, Text: "context files: " + strings.Join(uris, ", "), RecordID: next()})
		}
	}
	text := m.Text
	textParts := false
	for _, p := range m.Content {
		if p.Type == "text" && p.Text != "" {
			textParts = true
		}
	}
	if text == "" && textParts {
		var b []string
		for _, p := range m.Content {
			if p.Type == "text" && p.Text != "" {
				b = append(b, p.Text)
			}
		}
		text = strings.Join(b, "\n")
	}
	if text != "" {
		tt := timeline.Assistant
		switch m.Speaker {
		case "human":
			tt = timeline.User
		case "system":
			tt = timeline.System
		}
		e := timeline.Event{TurnType: tt, Text: text, RecordID: next()}
		if !human {
			e.Model = m.Model
		}
		emit(e)
	}
	for _, p := range m.Content {
		switch {
		case p.Type == "tool_call" && p.ToolCall != nil:
			emit(timeline.Event{TurnType: timeline.ToolUse, ToolName: p.ToolCall.Name, ToolUseID: p.ToolCall.ID, ToolInput: p.ToolCall.Arguments,
				Text: p.ToolCall.Name, Model: m.Model, RecordID: next()})
		case p.Type == "tool_result" && p.ToolResult != nil:
			emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: p.ToolResult.ID, Text: p.ToolResult.Content, RecordID: next()})
		}
	}
	steps := append([]step(nil), m.Processes...)
	for _, s := range m.SubMessages {
		if s.Step != nil {
			steps = append(steps, *s.Step)
		}
		if s.Text != "" && s.Text != text {
			emit(timeline.Event{TurnType: timeline.Assistant, Text: s.Text, Model: m.Model, RecordID: next()})
		}
	}
	for _, s := range steps {
		emit(stepRow(s, next()))
	}
	if m.Error != nil {
		emit(timeline.Event{TurnType: timeline.System, Text: "error: " + strings.TrimSpace(m.Error.Name+": "+m.Error.Message), RecordID: next()})
	}
}

// stepRow renders a processing step: a tool step (Deep Cody's context
// tools) is a tool_use row naming the tool, with its content; a
// confirmation step is the permission request the user answered, with its
// final state; a status step a system row.
func stepRow(s step, rid string) timeline.Event {
	switch s.Type {
	case "tool":
		e := timeline.Event{TurnType: timeline.ToolUse, ToolName: s.Title, ToolUseID: s.ID, Text: strings.TrimSpace(s.Title + " " + s.Content), RecordID: rid}
		if s.Content != "" {
			in, _ := json.Marshal(map[string]string{"content": s.Content})
			e.ToolInput = string(in)
		}
		if s.State != "" {
			e.Text += " (state " + s.State + ")"
		}
		return e
	case "confirmation":
		txt := "permission request: " + strings.TrimSpace(s.Title+" "+s.Content)
		if s.Description != "" {
			txt += " (" + s.Description + ")"
		}
		txt += " state=" + s.State
		if s.Error != nil {
			txt += " error=" + s.Error.Message
		}
		return timeline.Event{TurnType: timeline.System, Text: txt, ToolUseID: s.ID, RecordID: rid}
	}
	return timeline.Event{TurnType: timeline.System, Text: "step: " + strings.TrimSpace(s.Title+" "+s.Content) + " state=" + s.State, RecordID: rid}
}

// modelPrefs reads DefaultsAndUserPreferencesByEndpoint: {endpoint:
// {defaults: {chat, edit, autocomplete}, selected: {...}}}; each selected
// and default model is a system row at the store's mtime.
func modelPrefs(in *parser.Input, out parser.Sink, line int64, raw []byte) {
	var prefs map[string]struct {
		Defaults map[string]string `json:"defaults"`
		Selected map[string]string `json:"selected"`
	}
	if err := json.Unmarshal(raw, &prefs); err != nil {
		out.Problem(line, "cody-model-preferences: not an endpoint-keyed object: "+parser.JSONError(err))
		return
	}
	eps := make([]string, 0, len(prefs))
	for k := range prefs {
		eps = append(eps, k)
	}
	sort.Strings(eps)
	n := 0
	for _, ep := range eps {
		for _, kind := range []string{"selected", "defaults"} {
			m := prefs[ep].Selected
			if kind == "defaults" {
				m = prefs[ep].Defaults
			}
			usages := make([]string, 0, len(m))
			for u := range m {
				usages = append(usages, u)
			}
			sort.Strings(usages)
			for _, u := range usages {
				e := parser.SettingEvent(&in.File)
				e.SourceLine, e.Model = line, m[u]
				e.Text = fmt.Sprintf("model preference: endpoint=%s %s.%s=%s (from %s, file mtime)", ep, kind, u, m[u], parser.DisplayFile(&in.File))
				out.Event(e)
				n++
			}
		}
	}
	if n == 0 {
		out.Skip(line, "no_evidence:empty-model-preferences")
	}
}
