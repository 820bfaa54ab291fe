package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// meta is the session metadata: the first line of a JSONL op-log, its $set
// updates, or the top-level keys of a legacy ConversationRecord.
type meta struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	Kind        string `json:"kind"`
}

// held is one message record kept for replay: its last copy and the line
// of that copy (for legacy JSON, the 1-based message index).
type held struct {
	raw  json.RawMessage
	line int64
}

// opLog replays a JSONL session file as the agent's own loader
// (loadConversationRecord) does, with one deliberate difference: messages
// are keyed by id in first-insertion order, a later bare copy replaces the
// earlier in place (last copy wins), $rewindTo drops that message and all
// after it (all of them when the id is unknown); but a $set messages batch
// only adds ids not yet held (see addArray), where the agent's loader
// would replace the whole list. Memory: one raw copy per live message id.
type opLog struct {
	order []string
	msgs  map[string]*held
	meta  meta
}

func newOpLog() *opLog { return &opLog{msgs: map[string]*held{}} }

func (l *opLog) put(id string, raw json.RawMessage, line int64) {
	if h, ok := l.msgs[id]; ok {
		h.raw, h.line = raw, line
		return
	}
	l.order = append(l.order, id)
	l.msgs[id] = &held{raw: raw, line: line}
}

func (l *opLog) clear() {
	l.order = l.order[:0]
	l.msgs = map[string]*held{}
}

func (l *opLog) rewind(id string) bool {
	for i, x := range l.order {
		if x == id {
			for _, y := range l.order[i:] {
				delete(l.msgs, y)
			}
			l.order = l.order[:i]
			return true
		}
	}
	l.clear()
	return false
}

func (l *opLog) mergeMeta(raw json.RawMessage) {
	var m meta
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	if m.SessionID != "" {
		l.meta.SessionID = m.SessionID
	}
	if m.ProjectHash != "" {
		l.meta.ProjectHash = m.ProjectHash
	}
	if m.StartTime != "" {
		l.meta.StartTime = m.StartTime
	}
	if m.Kind != "" {
		l.meta.Kind = m.Kind
	}
}

// addArray adds the message records of a JSON array at line. For a $set
// messages batch (keepHeld) a message already held keeps its held copy:
// the batch is the agent's history sync (resume, compression, masking),
// which the real 0.61.0 run shows re-dating every message to the resume
// time and dropping toolCalls, so the first-hand record is the better
// evidence; a message the batch leaves out is kept, since it happened even
// if the agent no longer holds it in context. New ids in a batch (a
// compression summary) are added.
func (l *opLog) addArray(raw json.RawMessage, line int64, out parser.Sink, keepHeld bool) {
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil {
		out.Problem(line, "messages is not an array: "+err.Error())
		return
	}
	for _, m := range arr {
		var idOnly struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(m, &idOnly) != nil {
			continue
		}
		id, ok := idOnly.ID.(string)
		if !ok {
			continue
		}
		if _, held := l.msgs[id]; held && keepHeld {
			continue
		}
		l.put(id, m, line)
	}
}

// record applies one op-log line.
func (l *opLog) record(line int64, obj []byte, out parser.Sink) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(obj, &top); err != nil {
		out.Problem(line, "not a JSON object: "+err.Error())
		return
	}
	str := func(k string) (string, bool) {
		v, ok := top[k]
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	}
	if id, ok := str("$rewindTo"); ok {
		if !l.rewind(id) {
			out.Problem(line, fmt.Sprintf("$rewindTo %s: message not found, all messages dropped (as the agent's loader does)", id))
		}
		return
	}
	if id, ok := str("id"); ok {
		raw := make(json.RawMessage, len(obj))
		copy(raw, obj)
		l.put(id, raw, line)
		return
	}
	if set, ok := top["$set"]; ok && isObject(set) {
		var s map[string]json.RawMessage
		_ = json.Unmarshal(set, &s)
		if msgs, ok := s["messages"]; ok && isArray(msgs) {
			l.addArray(msgs, line, out, true)
		}
		l.mergeMeta(set)
		return
	}
	if p, ok := top["$patch"]; ok && isObject(p) {
		// Not written by the agent at the source commits read (see doc.go):
		// a patch naming a held message id is merged into that message;
		// any other patch is read as a metadata update.
		var pm map[string]json.RawMessage
		_ = json.Unmarshal(p, &pm)
		var id string
		if v, ok := pm["id"]; ok {
			_ = json.Unmarshal(v, &id)
		}
		if h, ok := l.msgs[id]; ok && id != "" {
			var cur map[string]json.RawMessage
			if json.Unmarshal(h.raw, &cur) == nil {
				for k, v := range pm {
					cur[k] = v
				}
				if b, err := json.Marshal(cur); err == nil {
					h.raw, h.line = b, line
				}
			}
			return
		}
		l.mergeMeta(p)
		return
	}
	if _, ok := str("sessionId"); ok {
		// The first (metadata) line, or a whole legacy record on one line.
		l.mergeMeta(obj)
		if msgs, ok := top["messages"]; ok && isArray(msgs) {
			l.addArray(msgs, line, out, false)
		}
		return
	}
	out.Problem(line, "unknown record (no id, $set, $rewindTo or sessionId)")
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '['
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	log := newOpLog()
	if strings.HasSuffix(in.Path, ".jsonl") {
		err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
			objs, lost := parser.SplitGlued(line)
			if lost {
				if len(objs) == 0 {
					out.Problem(n, "truncated or invalid JSON line skipped")
				} else {
					out.Problem(n, "cut record before a glued record: the cut part is lost")
				}
			}
			for _, o := range objs {
				log.record(n, o, out)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read %s: %w", in.Path, err)
		}
	} else {
		if line, err := readLegacy(rc, log); err != nil {
			out.Problem(line, err.Error())
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	emitChat(in, log, out)
	return nil
}

// readLegacy decodes a legacy ConversationRecord from the stream, keeping
// the messages decoded before any error (a file cut short still yields its
// first messages). A message's line is its 1-based index in messages.
func readLegacy(r io.Reader, log *opLog) (int64, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("empty file")
		}
		return 0, fmt.Errorf("not a conversation record: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, fmt.Errorf("not a conversation record: top level is not an object")
	}
	var idx int64
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return idx, fmt.Errorf("conversation record cut short: %v", err)
		}
		k, _ := kt.(string)
		if k != "messages" {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return idx, fmt.Errorf("conversation record cut short at %q: %v", k, err)
			}
			switch k {
			case "sessionId", "projectHash", "startTime", "kind":
				b, _ := json.Marshal(map[string]json.RawMessage{k: v})
				log.mergeMeta(b)
			}
			continue
		}
		t, err := dec.Token()
		if err != nil {
			return idx, fmt.Errorf("conversation record cut short at messages: %v", err)
		}
		if d, ok := t.(json.Delim); !ok || d != '[' {
			return idx, fmt.Errorf("messages is not an array")
		}
		for dec.More() {
			idx++
			var m json.RawMessage
			if err := dec.Decode(&m); err != nil {
				return idx, fmt.Errorf("message %d cut short: %v", idx, err)
			}
			var idOnly struct {
				ID any `json:"id"`
			}
			_ = json.Unmarshal(m, &idOnly)
			id, _ := idOnly.ID.(string)
			if id == "" {
				id = fmt.Sprintf("#%d", idx) // legacy order is the array's
			}
			if _, dup := log.msgs[id]; dup {
				id = fmt.Sprintf("%s#%d", id, idx)
			}
			log.put(id, m, idx)
		}
		if _, err := dec.Token(); err != nil {
			return idx, fmt.Errorf("messages cut short: %v", err)
		}
	}
	return idx, nil
}

// message is one MessageRecord (chatRecordingTypes.ts).
type message struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      []toolCall      `json:"toolCalls"`
	Thoughts       []thought       `json:"thoughts"`
	Model          string          `json:"model"`
}

type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
	Description   string          `json:"description"`
}

type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// emitter turns replayed messages into rows for one session file.
type emitter struct {
	out       parser.Sink
	session   string
	project   string
	start     time.Time
	model     string
	resultIDs map[string]bool // tool call ids whose result sits in toolCalls
	callIDs   map[string]bool
}

// at returns a row's time and basis: the record's own time, else the
// session start (inherited), else none.
func (e *emitter) at(ts string, fallback ...string) (time.Time, timeline.TimeBasis) {
	if t, ok := parser.ParseTime(ts); ok {
		return t, timeline.TimeRecorded
	}
	for _, f := range fallback {
		if t, ok := parser.ParseTime(f); ok {
			return t, timeline.TimeInherited
		}
	}
	if !e.start.IsZero() {
		return e.start, timeline.TimeInherited
	}
	return time.Time{}, timeline.TimeNone
}

func (e *emitter) emit(ev timeline.Event) {
	ev.SessionID = e.session
	ev.ProjectPath = e.project
	e.out.Event(ev)
}

func emitChat(in *parser.Input, log *opLog, out parser.Sink) {
	e := &emitter{out: out, resultIDs: map[string]bool{}, callIDs: map[string]bool{}}
	e.session = log.meta.SessionID
	if e.session == "" {
		e.session = strings.TrimSuffix(strings.TrimSuffix(base(in.Path), ".jsonl"), ".json")
		if len(log.order) > 0 {
			out.Problem(0, "no sessionId in the file: session id taken from the file name")
		}
	}
	e.start, _ = parser.ParseTime(log.meta.StartTime)
	e.project = newProjectResolver(in).Path(log.meta.ProjectHash)

	msgs := make([]message, 0, len(log.order))
	lines := make([]int64, 0, len(log.order))
	for _, id := range log.order {
		h := log.msgs[id]
		var m message
		if err := json.Unmarshal(h.raw, &m); err != nil {
			out.Problem(h.line, "message "+id+": "+err.Error())
			continue
		}
		msgs = append(msgs, m)
		lines = append(lines, h.line)
		for _, tc := range m.ToolCalls {
			e.callIDs[tc.ID] = true
			if len(bytes.TrimSpace(tc.Result)) > 0 && string(bytes.TrimSpace(tc.Result)) != "null" && string(bytes.TrimSpace(tc.Result)) != "[]" {
				e.resultIDs[tc.ID] = true
			}
		}
	}

	// A subagent file: chats/<parentSessionId>/<sessionId>.jsonl.
	if parent := subagentParent(in.Path); parent != "" || log.meta.Kind == "subagent" {
		t, basis := e.at(log.meta.StartTime)
		if parent == "" {
			parent = "unknown"
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System,
			Text: "subagent " + e.session + " of " + parent, SourceLine: 1})
	}

	for i := range msgs {
		e.message(&msgs[i], lines[i])
	}
}

// subagentParent returns <parent> for .../chats/<parent>/<file>, else "".
func subagentParent(p string) string {
	i := strings.LastIndex(p, "/chats/")
	if i < 0 {
		return ""
	}
	rest := p[i+len("/chats/"):]
	j := strings.IndexByte(rest, '/')
	if j <= 0 {
		return ""
	}
	return rest[:j]
}

func (e *emitter) message(m *message, line int64) {
	t, basis := e.at(m.Timestamp)
	switch m.Type {
	case "user":
		e.user(m, t, basis, line)
	case "gemini":
		e.gemini(m, t, basis, line)
	default:
		typ := m.Type
		if typ == "" {
			typ = "message"
		}
		text := partsText(parseParts(m.Content), false)
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System,
			Text: typ + ": " + text, SourceLine: line})
	}
}

// injectedTags open user-role content the agent wrote, not the person.
var injectedTags = []string{
	"<session_context>", "<hook_context>", "<state_snapshot>", "<extension_context>",
	"<loaded_context>", "<project_context>", "<global_context>", "<system-reminder>",
	"<intent_summary>", "<original_user_request>", "<background_output>",
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

func (e *emitter) user(m *message, t time.Time, basis timeline.TimeBasis, line int64) {
	parts := parseParts(m.Content)
	// Tool responses the agent records as a user turn: already a
	// tool_result from the call's own result, else a tool_result here.
	for _, p := range parts {
		fr := p.FunctionResponse
		if fr == nil || e.resultIDs[fr.ID] {
			continue
		}
		text, isErr := responseText(fr.Response)
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolResult,
			ToolName: fr.Name, ToolUseID: fr.ID, Text: text, IsError: boolStr(isErr), SourceLine: line})
	}
	text := partsText(parts, false)
	if disp := partsText(parseParts(m.DisplayContent), false); strings.TrimSpace(disp) != "" && !injected(text) {
		text = disp
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	tt := timeline.User
	if injected(text) {
		tt = timeline.System
	}
	e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: tt, Text: text, SourceLine: line})
}

func (e *emitter) gemini(m *message, t time.Time, basis timeline.TimeBasis, line int64) {
	if m.Model != "" && m.Model != e.model {
		text := "model: " + m.Model
		if e.model != "" {
			text = "model: " + e.model + " -> " + m.Model
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, Text: text, SourceLine: line})
		e.model = m.Model
	}
	model := m.Model
	for _, th := range m.Thoughts {
		tt, tb := e.at(th.Timestamp, m.Timestamp)
		text := strings.TrimSpace(th.Subject)
		if d := strings.TrimSpace(th.Description); d != "" {
			if text != "" {
				text += "\n\n"
			}
			text += d
		}
		if text == "" {
			continue
		}
		e.emit(timeline.Event{Time: tt, TimeBasis: tb, TurnType: timeline.Thinking, Model: model, Text: text, SourceLine: line})
	}
	parts := parseParts(m.Content)
	if th := partsText(parts, true); strings.TrimSpace(th) != "" {
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.Thinking, Model: model, Text: th, SourceLine: line})
	}
	if text := partsText(parts, false); strings.TrimSpace(text) != "" {
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.Assistant, Model: model, Text: text, SourceLine: line})
	}
	for _, p := range parts {
		fc := p.FunctionCall
		if fc == nil || (fc.ID != "" && e.callIDs[fc.ID]) {
			continue
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolUse, Model: model,
			ToolName: fc.Name, ToolUseID: fc.ID, Text: callText(fc.Name, fc.Args, ""), ToolInput: parser.CompactJSON(fc.Args), SourceLine: line})
	}
	for i := range m.ToolCalls {
		e.toolCall(&m.ToolCalls[i], model, t, basis, m.Timestamp, line)
	}
}

func (e *emitter) toolCall(tc *toolCall, model string, t time.Time, basis timeline.TimeBasis, msgTS string, line int64) {
	if basis != timeline.TimeRecorded {
		t, basis = e.at(tc.Timestamp)
	}
	e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolUse, Model: model,
		ToolName: tc.Name, ToolUseID: tc.ID, Text: callText(tc.Name, tc.Args, tc.Description),
		ToolInput: parser.CompactJSON(tc.Args), SourceLine: line})
	rt, rb := e.at(tc.Timestamp, msgTS)
	hasResult := e.resultIDs[tc.ID]
	if hasResult || tc.Status == "success" || tc.Status == "error" || tc.Status == "cancelled" {
		var text string
		var isErr bool
		if hasResult {
			text, isErr = resultText(tc.Result)
		}
		if text == "" {
			var s string
			if json.Unmarshal(tc.ResultDisplay, &s) == nil {
				text = s
			} else {
				text = parser.CompactJSON(tc.ResultDisplay)
			}
		}
		if tc.Status == "error" {
			isErr = true
		}
		e.emit(timeline.Event{Time: rt, TimeBasis: rb, TurnType: timeline.ToolResult,
			ToolName: tc.Name, ToolUseID: tc.ID, Text: text, IsError: boolStr(isErr), SourceLine: line})
	}
	if tc.Status == "cancelled" || tc.Status == "awaiting_approval" {
		e.emit(timeline.Event{Time: rt, TimeBasis: rb, TurnType: timeline.System,
			ToolName: tc.Name, ToolUseID: tc.ID, Text: "permission decision: " + tc.Status, SourceLine: line})
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// part is one @google/genai Part (or a bare string).
type part struct {
	Text             *string       `json:"text"`
	Thought          bool          `json:"thought"`
	FunctionCall     *functionCall `json:"functionCall"`
	FunctionResponse *functionResp `json:"functionResponse"`
	InlineData       *struct {
		MimeType string `json:"mimeType"`
	} `json:"inlineData"`
	FileData *struct {
		MimeType string `json:"mimeType"`
		FileURI  string `json:"fileUri"`
	} `json:"fileData"`
	ExecutableCode *struct {
		Code string `json:"code"`
	} `json:"executableCode"`
	CodeExecutionResult *struct {
		Output string `json:"output"`
	} `json:"codeExecutionResult"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResp struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// parseParts reads a PartListUnion: a string, a Part, or an array of
// strings and Parts.
func parseParts(raw json.RawMessage) []part {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []part{{Text: &s}}
		}
	case '{':
		var p part
		if json.Unmarshal(raw, &p) == nil {
			return []part{p}
		}
	case '[':
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) == nil {
			var ps []part
			for _, a := range arr {
				ps = append(ps, parseParts(a)...)
			}
			return ps
		}
	}
	return nil
}

// partsText joins the text of parts (thought parts when thoughts is true,
// the others otherwise), the way the agent's partListUnionToString does,
// with placeholders for data parts.
func partsText(ps []part, thoughts bool) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Thought != thoughts {
			continue
		}
		switch {
		case p.Text != nil:
			b.WriteString(*p.Text)
		case thoughts:
		case p.InlineData != nil:
			fmt.Fprintf(&b, "[inlineData %s]", p.InlineData.MimeType)
		case p.FileData != nil:
			fmt.Fprintf(&b, "[fileData %s %s]", p.FileData.MimeType, p.FileData.FileURI)
		case p.ExecutableCode != nil:
			b.WriteString(p.ExecutableCode.Code)
		case p.CodeExecutionResult != nil:
			b.WriteString(p.CodeExecutionResult.Output)
		}
	}
	return b.String()
}

// resultText renders a tool call's result parts: each functionResponse's
// response.output, else response.error (which makes it an error), else the
// response as JSON; text and data parts as partsText.
func resultText(raw json.RawMessage) (string, bool) {
	var texts []string
	isErr := false
	for _, p := range parseParts(raw) {
		if p.FunctionResponse != nil {
			s, e := responseText(p.FunctionResponse.Response)
			isErr = isErr || e
			if s != "" {
				texts = append(texts, s)
			}
			continue
		}
		if s := partsText([]part{p}, p.Thought); s != "" {
			texts = append(texts, s)
		}
	}
	return strings.Join(texts, "\n"), isErr
}

func responseText(raw json.RawMessage) (string, bool) {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) != nil {
		return parser.CompactJSON(raw), false
	}
	var s string
	if v, ok := r["output"]; ok && json.Unmarshal(v, &s) == nil {
		return s, false
	}
	if v, ok := r["error"]; ok {
		if json.Unmarshal(v, &s) == nil {
			return s, true
		}
		return parser.CompactJSON(v), true
	}
	return parser.CompactJSON(raw), false
}

// callKeys are the arguments that identify a call, most telling first.
var callKeys = []string{"command", "file_path", "absolute_path", "pattern", "dir_path", "path", "paths", "url", "urls", "query", "prompt", "fact"}

// callText is a call's most identifying argument: the shell command, the
// file path, the pattern, the URL, the query; else its description.
func callText(name string, args json.RawMessage, description string) string {
	var a map[string]json.RawMessage
	if json.Unmarshal(args, &a) == nil {
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
	}
	return description
}
