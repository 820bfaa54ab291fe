package continuesession

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// session is core/index.d.ts Session.
type session struct {
	SessionID          string            `json:"sessionId"`
	Title              string            `json:"title"`
	WorkspaceDirectory string            `json:"workspaceDirectory"`
	History            []json.RawMessage `json:"history"`
	// PerplexityHistory is PearAI's second history (PersistedSessionInfo,
	// trypear/pearai-submodule core/index.d.ts): the Perplexity
	// integration's chat, of the same ChatHistoryItem shape. Continue
	// never writes it.
	PerplexityHistory []json.RawMessage `json:"perplexityHistory"`
	Mode              string            `json:"mode"`
	ChatModelTitle    *string           `json:"chatModelTitle"`
}

// historyItem is ChatHistoryItem.
type historyItem struct {
	Message struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		ToolCalls        []toolCall      `json:"toolCalls"`
		ToolCallID       string          `json:"toolCallId"`
		RedactedThinking string          `json:"redactedThinking"`
		Usage            *struct {
			Model string `json:"model"`
		} `json:"usage"`
	} `json:"message"`
	ContextItems []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Content     string `json:"content"`
		URI         *struct {
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"uri"`
	} `json:"contextItems"`
	PromptLogs []struct {
		ModelTitle    string `json:"modelTitle"`
		ModelProvider string `json:"modelProvider"`
	} `json:"promptLogs"`
	ToolCallStates []toolCallState `json:"toolCallStates"`
	// ToolCallState is the single-call field of older builds.
	ToolCallState *toolCallState `json:"toolCallState"`
	Reasoning     *struct {
		Text    string          `json:"text"`
		StartAt json.RawMessage `json:"startAt"`
	} `json:"reasoning"`
	ConversationSummary string `json:"conversationSummary"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type toolCallState struct {
	ToolCallID string    `json:"toolCallId"`
	ToolCall   *toolCall `json:"toolCall"`
	Status     string    `json:"status"`
	Output     []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Content     string `json:"content"`
	} `json:"output"`
}

func (st *toolCallState) outputText() string {
	var parts []string
	for _, o := range st.Output {
		if o.Content != "" {
			parts = append(parts, o.Content)
		}
	}
	return strings.Join(parts, "\n")
}

// rejected reports whether the call was refused, and by whom: the IDE's
// cancelToolCall output "Tool Call Rejected" or the CLI's
// handlePermissionDenied texts.
func (st *toolCallState) rejected(resultText string) (source string, ok bool) {
	for _, o := range st.Output {
		if o.Name == "Tool Call Rejected" {
			return "user", true
		}
	}
	return deniedText(resultText)
}

func deniedText(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "Permission denied by user"), strings.HasPrefix(s, "The user skipped the tool call"):
		return "user", true
	case strings.HasPrefix(s, "Command blocked by security policy"):
		return "policy", true
	}
	return "", false
}

// indexEntry is a sessions.json entry (BaseSessionMetadata); older
// entries used snake_case session_id.
type indexEntry struct {
	SessionID          string          `json:"sessionId"`
	SnakeID            string          `json:"session_id"`
	Title              string          `json:"title"`
	DateCreated        json.RawMessage `json:"dateCreated"`
	SnakeDate          json.RawMessage `json:"date_created"`
	WorkspaceDirectory string          `json:"workspaceDirectory"`
}

func (e *indexEntry) id() string {
	if e.SessionID != "" {
		return e.SessionID
	}
	return e.SnakeID
}

func (e *indexEntry) created() (time.Time, bool) {
	if t, ok := EpochMillis(e.DateCreated); ok {
		return t, true
	}
	return EpochMillis(e.SnakeDate)
}

// readIndex decodes sessions.json; an empty file is an empty index.
func readIndex(r io.Reader) ([]indexEntry, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxWholeBytes))
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	out := make([]indexEntry, 0, len(raw))
	for _, r := range raw {
		var e indexEntry
		if json.Unmarshal(r, &e) != nil {
			out = append(out, indexEntry{}) // keep positions
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// ParseSessionFile reads a sessions/<id>.json, or sessions.json for the
// entries whose session file is gone, of Continue or a fork that keeps
// Continue's layout (PearAI's .pearai/sessions). Rows take the parser's
// agent.
func ParseSessionFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return parseSessionFile(ctx, in, out)
}

func parseSessionFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if in.Base() == "sessions.json" {
		return ParseIndex(ctx, in, out)
	}
	return ParseSession(ctx, in, out)
}

// ParseIndex reads sessions.json for the entries whose session file was
// not collected (deleted, or lost): one "session listed in sessions.json:"
// row each at its dateCreated. Entries with a file give no row (their
// session file's rows carry the time).
func ParseIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	entries, err := readIndex(rc)
	if err != nil {
		out.Problem(0, parser.NotJSONArray("sessions.json", err))
		return nil
	}
	dir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	have := map[string]bool{}
	for _, f := range in.List(parser.GlobEscape(dir) + "/*.json") {
		have[strings.TrimSuffix(f.Base(), ".json")] = true
	}
	for i, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := e.id()
		if id == "" {
			out.Problem(int64(i+1), "entry without sessionId")
			continue
		}
		if have[id] {
			out.Skip(int64(i+1), "state_only") // its dateCreated times the session file's rows
			continue
		}
		ev := timeline.Event{TurnType: timeline.System, SessionID: id, SourceLine: int64(i + 1),
			ProjectPath: ProjectPath(e.WorkspaceDirectory)}
		if t, ok := e.created(); ok {
			ev.Time = t
		} else {
			ev.TimeBasis = timeline.TimeNone
		}
		ev.Text = fmt.Sprintf("session listed in sessions.json without its session file: %s", e.Title)
		if e.SnakeID != "" && e.SessionID == "" {
			ev.Text += " (old snake_case entry)"
		}
		out.Event(ev)
	}
	return nil
}

// sessionTime finds the session's dateCreated in sessions.json beside it.
func sessionTime(in *parser.Input, id string, out parser.Sink) (time.Time, bool) {
	dir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	rc, err := in.OpenRelated(dir + "/sessions.json")
	if err != nil {
		if errors.Is(err, parser.ErrNotCollected) {
			out.Problem(0, "sessions.json not collected: rows carry the session file's mtime")
		} else {
			out.Problem(0, "sessions.json unreadable: "+err.Error())
		}
		return time.Time{}, false
	}
	defer rc.Close()
	entries, err := readIndex(rc)
	if err != nil {
		out.Problem(0, parser.NotJSON("sessions.json", nil)+": rows carry the session file's mtime")
		return time.Time{}, false
	}
	for _, e := range entries {
		if e.id() == id {
			if t, ok := e.created(); ok {
				return t, true
			}
			out.Problem(0, "sessions.json entry has no usable dateCreated: rows carry the session file's mtime")
			return time.Time{}, false
		}
	}
	out.Problem(0, "sessions.json has no entry for this session: rows carry the session file's mtime")
	return time.Time{}, false
}

// sessionWriter emits a session's rows with the shared fields.
type sessionWriter struct {
	out     parser.Sink
	id      string
	project string
	time    time.Time
	basis   timeline.TimeBasis
	rows    int // rows written
	// resumes are the times cn.log gives this session's resumes (sorted).
	resumes []time.Time
}

func (w *sessionWriter) emit(e timeline.Event) {
	w.rows++
	e.SessionID, e.ProjectPath = w.id, w.project
	if e.Time.IsZero() && e.TimeBasis == timeline.TimeRecorded {
		e.Time, e.TimeBasis = w.time, w.basis
	}
	w.out.Event(e)
}

func ParseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var s session
	if err := json.NewDecoder(rc).Decode(&s); err != nil {
		if err == io.EOF {
			return nil
		}
		out.Problem(0, "not a Continue session JSON object: "+parser.JSONError(err))
		return nil
	}
	id := s.SessionID
	if id == "" {
		id = strings.TrimSuffix(in.Base(), ".json")
	}
	w := &sessionWriter{out: out, id: id, project: ProjectPath(s.WorkspaceDirectory)}
	if t, ok := sessionTime(in, id, out); ok {
		w.time, w.basis = t, timeline.TimeInherited
	} else if !in.MTime.IsZero() {
		w.time, w.basis = in.MTime.UTC(), timeline.TimeFileMTime
	} else {
		w.basis = timeline.TimeNone
	}
	if w.basis == timeline.TimeInherited {
		w.resumes = sessionResumes(in, id, w.time)
	}
	if s.Title != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "session name: " + s.Title})
	}
	if s.Mode != "" {
		w.emit(timeline.Event{TurnType: timeline.System, Text: "session mode: " + s.Mode})
	}
	sessionModel := ""
	if s.ChatModelTitle != nil {
		sessionModel = *s.ChatModelTitle
	}

	if err := historyRows(ctx, w, out, s.History, sessionModel, 0); err != nil {
		return err
	}
	if len(s.PerplexityHistory) > 0 {
		n := int64(len(s.History))
		w.emit(timeline.Event{TurnType: timeline.System, SourceLine: n + 1, Text: "perplexity history: the Perplexity integration's chat of this session"})
		return historyRows(ctx, w, out, s.PerplexityHistory, sessionModel, n)
	}
	return nil
}

// historyRows writes the rows of one ChatHistory; base offsets SourceLine
// (a second history's items follow the first's).
func historyRows(ctx context.Context, w *sessionWriter, out parser.Sink, history []json.RawMessage, sessionModel string, base int64) error {
	items := make([]historyItem, len(history))
	ok := make([]bool, len(history))
	answered := map[string]bool{} // tool call ids with a role "tool" message
	states := map[string]*toolCallState{}
	for i, raw := range history {
		if err := json.Unmarshal(raw, &items[i]); err != nil {
			out.Problem(base+int64(i+1), "history item is not an object: "+parser.JSONError(err))
			continue
		}
		ok[i] = true
		it := &items[i]
		if it.Message.Role == "tool" && it.Message.ToolCallID != "" {
			answered[it.Message.ToolCallID] = true
		}
		if it.ToolCallState != nil {
			it.ToolCallStates = append(it.ToolCallStates, *it.ToolCallState)
		}
		for j := range it.ToolCallStates {
			st := &it.ToolCallStates[j]
			if st.ToolCallID == "" && st.ToolCall != nil {
				st.ToolCallID = st.ToolCall.ID
			}
			states[st.ToolCallID] = st
		}
	}

	// A resumed session's later runs start at the resumes cn.log records.
	runAt := map[int]time.Time{} // history index of a run's first prompt -> the resume's time
	if resumes := w.resumes; base == 0 && len(resumes) > 0 {
		var prompts []int
		for i := range items {
			if ok[i] && items[i].Message.Role == "user" && strings.TrimSpace(ContentText(items[i].Message.Content)) != "" {
				prompts = append(prompts, i)
			}
		}
		switch {
		case len(resumes) == 0:
		case len(prompts) == len(resumes)+1:
			for j, t := range resumes {
				runAt[prompts[j+1]] = t
			}
		default:
			var ts []string
			for _, t := range resumes {
				ts = append(ts, timeline.FormatTime(t))
			}
			out.Problem(0, fmt.Sprintf("cn.log records %d resume(s) of this session (%s) but it holds %d prompt(s): which prompts each resumed run added is not recorded, so every row keeps the session's dateCreated", len(resumes), strings.Join(ts, ", "), len(prompts)))
		}
	}

	lastModel := ""
	toolNames := map[string]string{}
	for i := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !ok[i] {
			continue
		}
		if t, ok := runAt[i]; ok {
			w.time = t // the rows of a resumed run inherit the resume's time
		}
		it := &items[i]
		line := base + int64(i+1)
		model := sessionModel
		if n := len(it.PromptLogs); n > 0 && it.PromptLogs[n-1].ModelTitle != "" {
			model = it.PromptLogs[n-1].ModelTitle
		}
		if u := it.Message.Usage; u != nil && u.Model != "" {
			model = u.Model // the model that answered (cn 1.5: usage.model per assistant message)
		}
		rows := w.rows
		text := ContentText(it.Message.Content)
		switch it.Message.Role {
		case "user":
			for _, c := range it.ContextItems {
				t := "context item: " + c.Name
				if c.URI != nil && c.URI.Value != "" {
					t += " (" + c.URI.Value + ")"
				}
				if c.Content != "" {
					t += "\n" + c.Content
				}
				w.emit(timeline.Event{TurnType: timeline.System, SourceLine: line, Text: t})
			}
			if strings.TrimSpace(text) != "" {
				w.emit(timeline.Event{TurnType: timeline.User, SourceLine: line, Text: text})
			}
		case "assistant", "thinking":
			if model != "" && model != lastModel {
				t := "model: " + model
				if lastModel != "" {
					t = "model: " + lastModel + " -> " + model
				}
				w.emit(timeline.Event{TurnType: timeline.System, SourceLine: line, Text: t, Model: model})
				lastModel = model
			}
			if it.Reasoning != nil && strings.TrimSpace(it.Reasoning.Text) != "" {
				e := timeline.Event{TurnType: timeline.Thinking, SourceLine: line, Text: it.Reasoning.Text, Model: model}
				if t, ok := EpochMillis(it.Reasoning.StartAt); ok {
					e.Time = t // Date.now() when the reasoning began: recorded
				}
				w.emit(e)
			}
			if it.Message.Role == "thinking" {
				if it.Message.RedactedThinking != "" {
					text = "[redacted thinking]"
				}
				if strings.TrimSpace(text) != "" {
					w.emit(timeline.Event{TurnType: timeline.Thinking, SourceLine: line, Text: text, Model: model})
				}
				break
			}
			if strings.TrimSpace(text) != "" {
				w.emit(timeline.Event{TurnType: timeline.Assistant, SourceLine: line, Text: text, Model: model})
			}
			calls := it.Message.ToolCalls
			if len(calls) == 0 {
				for _, st := range it.ToolCallStates {
					if st.ToolCall != nil {
						calls = append(calls, *st.ToolCall)
					}
				}
			}
			for _, c := range calls {
				input, args := ArgsJSON(c.Function.Arguments)
				toolNames[c.ID] = c.Function.Name
				w.emit(timeline.Event{TurnType: timeline.ToolUse, SourceLine: line, Model: model,
					ToolName: c.Function.Name, ToolUseID: c.ID, ToolInput: input, Text: Identifying(args), RecordID: c.ID})
			}
			// Results kept only in toolCallStates (the CLI writes no role
			// "tool" message): emitted here, on the call's line.
			for j := range it.ToolCallStates {
				st := &it.ToolCallStates[j]
				if answered[st.ToolCallID] {
					continue
				}
				switch st.Status {
				case "done", "errored", "canceled":
				default:
					if len(st.Output) == 0 {
						continue
					}
				}
				name := toolNames[st.ToolCallID]
				if name == "" && st.ToolCall != nil {
					name = st.ToolCall.Function.Name
				}
				emitResult(w, line, st.ToolCallID, name, st.outputText(), st)
			}
		case "tool":
			emitResult(w, line, it.Message.ToolCallID, toolNames[it.Message.ToolCallID], text, states[it.Message.ToolCallID])
		case "system":
			if strings.TrimSpace(text) != "" {
				w.emit(timeline.Event{TurnType: timeline.System, SourceLine: line, Text: text})
			}
		default:
			out.Problem(line, fmt.Sprintf("unknown message role %q", it.Message.Role))
		}
		if it.ConversationSummary != "" {
			w.emit(timeline.Event{TurnType: timeline.System, SourceLine: line, Text: "conversation summary: " + it.ConversationSummary})
		}
		if w.rows == rows {
			out.Skip(line, "empty_message")
		}
	}
	return nil
}

// emitResult writes a tool_result row and, for a refused call, a
// permission decision row. st may be nil (no toolCallStates entry).
func emitResult(w *sessionWriter, line int64, id, name, text string, st *toolCallState) {
	isErr := "false"
	status := ""
	if st != nil {
		status = st.Status
		if text == "" {
			text = st.outputText()
		}
	}
	if status == "errored" || status == "canceled" {
		isErr = "true"
	}
	source, denied := deniedText(text)
	if st != nil {
		source, denied = st.rejected(text)
	}
	if denied {
		isErr = "true"
	}
	if status != "" && status != "done" && text == "" {
		text = status
	}
	rid := ""
	if id != "" {
		rid = id + "#result"
	}
	w.emit(timeline.Event{TurnType: timeline.ToolResult, SourceLine: line, ToolName: name, ToolUseID: id, Text: text, IsError: isErr, RecordID: rid})
	if denied {
		if rid != "" {
			rid = id + "#decision"
		}
		w.emit(timeline.Event{TurnType: timeline.System, SourceLine: line, ToolName: name, ToolUseID: id,
			Text: "permission decision: denied source=" + source, RecordID: rid})
	}
}
