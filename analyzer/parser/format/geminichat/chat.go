package geminichat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"reflect"
	"sort"
	"strconv"
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
	LastUpdated string `json:"lastUpdated"`
	Kind        string `json:"kind"`
}

// entry is one message of the replayed op-log (its last copy and the line
// of that copy; for legacy JSON the 1-based message index), or a rewind
// marker, in first-insertion order.
type entry struct {
	id     string
	raw    json.RawMessage
	line   int64
	rewind *rewindMark
	// anchor is the entry that holds the message's place in the agent's
	// conversation order: the entry itself, or for a later copy kept
	// beside an earlier one (other content, see put), the earlier's anchor.
	anchor *entry
	// copy marks a $set batch's copy of a message already held: its rows
	// carry the message's record ids, so the correlate stage writes each
	// once (the first-hand row wins: earlier) or names the conflict. It
	// holds no place in the conversation and changes no emitter state.
	copy bool
}

// rewindMark is a $rewindTo line: the message it named, how many messages
// it took out of the agent's conversation, and the last time the file
// recorded before it (the line itself carries none).
type rewindMark struct {
	target string
	n      int
	at     string
	found  bool
}

// opLog replays a JSONL session file as the agent's own loader
// (loadConversationRecord) does, with three deliberate differences (see
// doc.go): $rewindTo takes messages out of the conversation but they stay
// as rows, followed by a rewind marker; and a $set messages batch only adds
// ids not yet seen, where the agent's loader would replace the whole list.
// A later bare copy of a held id replaces the earlier in place (last copy
// wins), unless it rewrites what the message said: then both stay (put).
// Memory: one raw copy per distinct message content.
type opLog struct {
	entries  []*entry
	live     map[string]*entry // messages the agent's conversation still holds
	seen     map[string]bool   // every id put, live or rewound
	meta     meta
	lastTime string // the last time the file recorded, in file order
	// pending is why a line read gives no row, for the lines whose
	// records may end without one (an earlier copy, a state update);
	// emitChat turns those that got no row into Sink.Skip.
	pending map[int64]string
}

func newOpLog() *opLog {
	return &opLog{live: map[string]*entry{}, seen: map[string]bool{}, pending: map[int64]string{}}
}

// note records why line may give no row (the first reason stays).
func (l *opLog) note(line int64, reason string) {
	if _, ok := l.pending[line]; !ok {
		l.pending[line] = reason
	}
}

// put applies a copy of message id read at line. A later copy that only
// adds what the agent adds to a message it holds (tokens, thoughts, tool
// call status and results: gemini-cli ChatRecordingService.pushMessage,
// recordMessageTokens, recordToolCalls) replaces the earlier, whose line
// is a skip "superseded". A copy that changes what the earlier said (its
// type, content, displayContent or timestamp, or a tool call's name or
// arguments, or drops a tool call) is not one of those updates: the
// agent's loader would show only the last, but both stay as rows and the
// line is a duplicate_id problem naming what changed.
func (l *opLog) put(id string, raw json.RawMessage, line int64, out parser.Sink) {
	if e, ok := l.live[id]; ok {
		if e.line != line {
			if changed := messageChanges(e.raw, raw); changed != "" {
				if out != nil {
					out.Report(line, parser.KindDuplicateID, fmt.Sprintf("message %s written again with other %s (first at line %d): both copies kept as rows, where the agent shows only the last", id, changed, e.line))
				}
				ne := &entry{id: id, raw: raw, line: line, anchor: e.anchor}
				l.entries = append(l.entries, ne)
				l.live[id] = ne
				return
			}
			l.note(e.line, "superseded") // the agent appended the message again
		}
		e.raw, e.line = raw, line
		return
	}
	e := &entry{id: id, raw: raw, line: line}
	e.anchor = e
	l.entries = append(l.entries, e)
	l.live[id] = e
	l.seen[id] = true
}

// messageChanges names what a later copy of a message changes beyond the
// agent's own updates (see put), "" when nothing.
func messageChanges(old, cur json.RawMessage) string {
	var a, b map[string]any
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(cur, &b) != nil {
		return ""
	}
	var changed []string
	for _, k := range []string{"type", "content", "displayContent", "timestamp"} {
		if !reflect.DeepEqual(a[k], b[k]) {
			changed = append(changed, k)
		}
	}
	calls := func(m map[string]any) map[string][2]any {
		out := map[string][2]any{}
		list, _ := m["toolCalls"].([]any)
		for i, c := range list {
			tc, _ := c.(map[string]any)
			id, _ := tc["id"].(string)
			if id == "" {
				id = "#" + strconv.Itoa(i)
			}
			out[id] = [2]any{tc["name"], tc["args"]}
		}
		return out
	}
	later := calls(b)
	for id, c := range calls(a) {
		if lc, ok := later[id]; !ok || !reflect.DeepEqual(c, lc) {
			changed = append(changed, "toolCalls")
			break
		}
	}
	return strings.Join(changed, ", ")
}

// rewind applies {"$rewindTo": id}: the message id and every live message
// after it leave the conversation (all of them when the id is unknown, as
// the agent's loader does) but stay in entries; a marker follows them.
func (l *opLog) rewind(id string, line int64) bool {
	target, found := l.live[id]
	n := 0
	cut := !found
	for _, e := range l.entries {
		if e.rewind != nil {
			continue
		}
		if found && e == target.anchor {
			cut = true
		}
		// A message leaves at its place in the conversation (its
		// anchor), wherever its live copy was written.
		if le, ok := l.live[e.id]; cut && e.anchor == e && ok && le.anchor == e {
			delete(l.live, e.id)
			n++
		}
	}
	l.entries = append(l.entries, &entry{line: line, rewind: &rewindMark{target: id, n: n, at: l.lastTime, found: found}})
	return found
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
	for _, s := range []string{m.StartTime, m.LastUpdated} {
		if _, ok := parser.ParseTime(s); ok {
			l.lastTime = s
		}
	}
}

// addArray adds the message records of a JSON array at line. For a $set
// messages batch (keepHeld) a message already seen keeps its first-hand
// record: the batch is the agent's history sync (resume, compression,
// masking), which the real 0.61.0 run shows re-dating every message to the
// resume time and dropping toolCalls; a message the batch leaves out stays,
// since it happened even if the agent no longer holds it in context. The
// batch's copy of a held message is not dropped: it is an entry of its own
// (copy), whose rows carry the message's record ids and are marked
// Replayed, so the correlate stage writes each once (the first-hand row
// wins) or, where the copy says otherwise (an id reused for another
// message), keeps both and names the conflict. New ids in a batch (a
// compression summary) are added; a batch adding none is noted
// "history_sync_copy", the skip of its line if its copies give no row.
func (l *opLog) addArray(raw json.RawMessage, line int64, out parser.Sink, keepHeld bool) {
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil {
		out.Problem(line, "messages is not an array: "+parser.JSONError(err))
		return
	}
	added := 0
	for i, m := range arr {
		var idOnly struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(m, &idOnly)
		id, ok := idOnly.ID.(string)
		if !ok || id == "" {
			out.Report(line, parser.KindSkippedRecord, fmt.Sprintf("messages[%d] has no message id: not read", i))
			continue
		}
		if keepHeld && l.seen[id] {
			// not dropped: handed on as rows under the message's ids
			l.entries = append(l.entries, &entry{id: id, raw: m, line: line, copy: true})
			continue
		}
		l.put(id, m, line, out)
		added++
	}
	if added == 0 {
		l.note(line, "history_sync_copy")
	}
}

// record applies one op-log line.
func (l *opLog) record(line int64, obj []byte, out parser.Sink) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(obj, &top); err != nil {
		out.Problem(line, parser.NotJSONObject("", err))
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
		if !l.rewind(id, line) {
			out.Problem(line, fmt.Sprintf("$rewindTo %s: message not found: the agent's loader drops every message (kept as rows, counted in the rewind row)", id))
		}
		return
	}
	if id, ok := str("id"); ok {
		raw := make(json.RawMessage, len(obj))
		copy(raw, obj)
		l.put(id, raw, line, out)
		if ts, _ := str("timestamp"); ts != "" {
			if _, ok := parser.ParseTime(ts); ok {
				l.lastTime = ts
			}
		}
		return
	}
	if set, ok := top["$set"]; ok && isObject(set) {
		var s map[string]json.RawMessage
		_ = json.Unmarshal(set, &s)
		if msgs, ok := s["messages"]; ok && isArray(msgs) {
			l.addArray(msgs, line, out, true)
		} else {
			l.note(line, "state_only")
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
		if h, ok := l.live[id]; ok && id != "" {
			var cur map[string]json.RawMessage
			if json.Unmarshal(h.raw, &cur) == nil {
				for k, v := range pm {
					cur[k] = v
				}
				if b, err := json.Marshal(cur); err == nil {
					l.put(id, b, line, out)
				}
			}
			return
		}
		l.note(line, "state_only")
		l.mergeMeta(p)
		return
	}
	if _, ok := str("sessionId"); ok {
		// The first (metadata) line, or a whole legacy record on one line.
		l.mergeMeta(obj)
		if msgs, ok := top["messages"]; ok && isArray(msgs) {
			l.addArray(msgs, line, out, false)
		} else {
			l.note(line, "state_only")
		}
		return
	}
	out.Report(line, parser.KindSkippedRecord, "unknown record (no id, $set, $patch, $rewindTo or sessionId)")
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func isArray(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '['
}

// ChatOptions say whose chat files are read.
type ChatOptions struct {
	// Agent is the catalog name the session states carry.
	Agent string
	// ModelType is the message type of the model's messages: "gemini"
	// (Gemini CLI), "qwen" (Qwen Code's legacy tmp/<hash>/chats files).
	ModelType string
	// Project names the project of a file from its projectHash (Gemini
	// CLI's projects.json and .project_root); nil leaves it empty.
	Project func(in *parser.Input, projectHash string) string
}

// ParseChat reads one chat file: the JSONL session (a metadata line, then
// message records, updates and rewinds) or a legacy ConversationRecord
// JSON file; every record becomes rows, a counted skip or a problem.
func ParseChat(ctx context.Context, in *parser.Input, out parser.Sink, o ChatOptions) error {
	if o.ModelType == "" {
		o.ModelType = "gemini"
	}
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
					out.Problem(n, parser.BadJSONLine(nil))
				} else {
					out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
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
	emitChat(in, log, out, o)
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
	err = parser.EachMember(context.Background(), dec, func(k string) error {
		if k != "messages" {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return fmt.Errorf("conversation record cut short at %q: %v", k, err)
			}
			switch k {
			case "sessionId", "projectHash", "startTime", "kind":
				b, _ := json.Marshal(map[string]json.RawMessage{k: v})
				log.mergeMeta(b)
			}
			return nil
		}
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("conversation record cut short at messages: %v", err)
		}
		if d, ok := t.(json.Delim); !ok || d != '[' {
			return fmt.Errorf("messages is not an array")
		}
		_, err = parser.EachElement(context.Background(), dec, func(int64) error {
			idx++
			var m json.RawMessage
			if err := dec.Decode(&m); err != nil {
				return fmt.Errorf("message %d cut short: %v", idx, err)
			}
			// Each element is its own record (a legacy file has no update
			// semantics): a reused id gives two rows and the engine's
			// duplicate_id report, never a silent drop.
			var idOnly struct {
				ID any `json:"id"`
			}
			_ = json.Unmarshal(m, &idOnly)
			id, _ := idOnly.ID.(string)
			log.entries = append(log.entries, &entry{id: id, raw: m, line: idx})
			return nil
		})
		var te *parser.TokenError
		if errors.As(err, &te) {
			return fmt.Errorf("messages cut short: %v", te.Err)
		}
		return err
	})
	var te *parser.TokenError
	switch {
	case errors.As(err, &te) && te.Stage == parser.TokenKey:
		return idx, fmt.Errorf("conversation record cut short: %v", te.Err)
	case errors.As(err, &te):
		// the closing '}', which this reader never required
	case err != nil:
		return idx, err
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
	parent    string // the parent session of a subagent file
	project   string
	start     time.Time
	model     string
	resultIDs map[string]bool // tool call ids whose result sits in toolCalls
	callIDs   map[string]bool
	task      bool           // a subagent's task prompt was written
	rows      map[int64]bool // lines that gave a row
	msgID     string         // the message being emitted
	copy      bool           // it is a $set batch's copy (see entry.copy)
	opts      ChatOptions
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
	ev.ParentSessionID = e.parent
	ev.ProjectPath = e.project
	// a batch copy repeats a held record: in the identity merge the
	// first-hand row wins, whatever time the batch stamped on it
	ev.Replayed = ev.Replayed || e.copy
	e.rows[ev.SourceLine] = true
	e.out.Event(ev)
}

// rid is the current message's RecordID with suffix ("" when the message
// has no id). A message id is unique only within a session (the real
// 0.61.0 files give the injected <session_context> message one id in every
// session, with other text), so it is prefixed with the session.
func (e *emitter) rid(suffix string) string {
	if e.msgID == "" {
		return ""
	}
	return e.session + ":" + e.msgID + suffix
}

// callRID is a tool call's RecordID: the call id, unique only within a
// session, prefixed with the session; a call without an id is the k-th
// call of its message.
func (e *emitter) callRID(callID string, k int) string {
	if callID != "" {
		return e.session + ":" + callID
	}
	return e.rid("#call" + strconv.Itoa(k))
}

func emitChat(in *parser.Input, log *opLog, out parser.Sink, o ChatOptions) {
	e := &emitter{out: out, opts: o, resultIDs: map[string]bool{}, callIDs: map[string]bool{}, rows: map[int64]bool{}}
	e.session = log.meta.SessionID
	if e.session == "" {
		e.session = strings.TrimSuffix(strings.TrimSuffix(path.Base(in.Path), ".jsonl"), ".json")
		if len(log.entries) > 0 {
			out.Problem(0, "no sessionId in the file: session id taken from the file name")
		}
	}
	e.start, _ = parser.ParseTime(log.meta.StartTime)
	if o.Project != nil {
		e.project = o.Project(in, log.meta.ProjectHash)
	}

	msgs := make([]*message, len(log.entries))
	for i, en := range log.entries {
		if en.rewind != nil {
			continue
		}
		var m message
		if err := json.Unmarshal(en.raw, &m); err != nil {
			out.Problem(en.line, "message "+en.id+": "+parser.JSONError(err))
			continue
		}
		msgs[i] = &m
		for _, tc := range m.ToolCalls {
			e.callIDs[tc.ID] = true
			if len(bytes.TrimSpace(tc.Result)) > 0 && string(bytes.TrimSpace(tc.Result)) != "null" && string(bytes.TrimSpace(tc.Result)) != "[]" {
				e.resultIDs[tc.ID] = true
			}
		}
	}

	// A subagent file: chats/<parentSessionId>/<sessionId>.jsonl. Its rows
	// carry its own session and the parent's.
	if parent := subagentParent(in.Path); parent != "" || log.meta.Kind == "subagent" {
		t, basis := e.at(log.meta.StartTime)
		if parent == "" {
			parent = "unknown"
		} else {
			e.parent = parent
			out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: e.opts.Agent, SessionID: e.session}, ParentSessionID: parent})
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System,
			Text: "subagent " + e.session + " of " + parent, SourceLine: 1, RecordID: e.session + "#subagent"})
	}

	for i, en := range log.entries {
		if en.rewind != nil {
			e.rewound(en.rewind, en.line)
			continue
		}
		if msgs[i] == nil {
			continue
		}
		e.msgID, e.copy = msgs[i].ID, en.copy
		if why := e.message(msgs[i], en.line); why != "" {
			log.note(en.line, why)
		}
	}
	lines := make([]int64, 0, len(log.pending))
	for n := range log.pending {
		if !e.rows[n] {
			lines = append(lines, n)
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i] < lines[j] })
	for _, n := range lines {
		out.Skip(n, log.pending[n])
	}
}

// rewound writes the row that follows the messages a $rewindTo took out of
// the conversation: at the last time the file recorded before it
// (inherited: the line records none).
func (e *emitter) rewound(r *rewindMark, line int64) {
	t, basis := time.Time{}, timeline.TimeNone
	when := "an unrecorded time"
	if pt, ok := parser.ParseTime(r.at); ok {
		t, basis = pt, timeline.TimeInherited
		when = pt.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, SourceLine: line,
		Text: fmt.Sprintf("rewound by /rewind at %s: %d record(s)", when, r.n), RecordID: e.session + ":" + r.target + "#rewound"})
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

// message emits one message's rows; when it gives none it returns why.
func (e *emitter) message(m *message, line int64) string {
	t, basis := e.at(m.Timestamp)
	switch m.Type {
	case "user":
		return e.user(m, t, basis, line)
	case e.opts.ModelType:
		return e.gemini(m, t, basis, line)
	default:
		typ := m.Type
		if typ == "" {
			typ = "message"
		}
		text := PartsText(ParseParts(m.Content), false)
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System,
			Text: typ + ": " + text, SourceLine: line, RecordID: e.rid("")})
		return ""
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

func (e *emitter) user(m *message, t time.Time, basis timeline.TimeBasis, line int64) string {
	parts := ParseParts(m.Content)
	// Tool responses the agent records as a user turn: already a
	// tool_result from the call's own result, else a tool_result here.
	echo, rows := false, 0
	for k, p := range parts {
		fr := p.FunctionResponse
		if fr == nil {
			continue
		}
		if e.resultIDs[fr.ID] {
			echo = true
			continue
		}
		text, isErr := responseText(fr.Response)
		// The user message is its own record (not the call's).
		id := e.rid("")
		if len(parts) > 1 {
			id = e.rid("#" + strconv.Itoa(k))
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolResult,
			ToolName: fr.Name, ToolUseID: fr.ID, Text: text, IsError: boolStr(isErr), SourceLine: line, RecordID: id})
		rows++
	}
	text := PartsText(parts, false)
	if disp := PartsText(ParseParts(m.DisplayContent), false); strings.TrimSpace(disp) != "" && !injected(text) {
		text = disp
	}
	if strings.TrimSpace(text) == "" {
		switch {
		case rows > 0:
			return ""
		case echo:
			return "tool_response_echo" // the call's own result is the row
		default:
			return "no_evidence:empty_user"
		}
	}
	tt := timeline.User
	switch {
	case e.parent != "" && !e.task && !injected(text) && !e.copy:
		// A subagent's first prompt is the task the parent's model wrote.
		e.task = true
		tt, text = timeline.System, "subagent task: "+text
	case e.parent != "" || injected(text):
		tt = timeline.System
	}
	e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: tt, Text: text, SourceLine: line, RecordID: e.rid("")})
	return ""
}

func (e *emitter) gemini(m *message, t time.Time, basis timeline.TimeBasis, line int64) string {
	rows := 0
	emit := func(ev timeline.Event) {
		rows++
		ev.SourceLine = line
		e.emit(ev)
	}
	if m.Model != "" && m.Model != e.model && !e.copy {
		text := "model: " + m.Model
		if e.model != "" {
			text = "model: " + e.model + " -> " + m.Model
		}
		emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, Text: text, RecordID: e.rid("#model")})
		e.model = m.Model
	}
	model := m.Model
	for k, th := range m.Thoughts {
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
		emit(timeline.Event{Time: tt, TimeBasis: tb, TurnType: timeline.Thinking, Model: model, Text: text, RecordID: e.rid("#thought" + strconv.Itoa(k))})
	}
	parts := ParseParts(m.Content)
	if th := PartsText(parts, true); strings.TrimSpace(th) != "" {
		emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.Thinking, Model: model, Text: th, RecordID: e.rid("#thinking")})
	}
	if text := PartsText(parts, false); strings.TrimSpace(text) != "" {
		emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.Assistant, Model: model, Text: text, RecordID: e.rid("")})
	}
	for k, p := range parts {
		fc := p.FunctionCall
		if fc == nil || (fc.ID != "" && e.callIDs[fc.ID]) {
			continue
		}
		id := e.rid("#part" + strconv.Itoa(k))
		if fc.ID != "" {
			id = e.callRID(fc.ID, k)
		}
		emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolUse, Model: model,
			ToolName: fc.Name, ToolUseID: fc.ID, Text: callText(fc.Name, fc.Args, ""), ToolInput: parser.CompactJSON(fc.Args), RecordID: id})
	}
	for k := range m.ToolCalls {
		rows += e.toolCall(&m.ToolCalls[k], k, model, t, basis, m.Timestamp, line)
	}
	if rows == 0 {
		return "no_evidence:empty_gemini"
	}
	return ""
}

// toolCall emits a toolCalls[] entry's call, result and decision rows and
// returns how many.
func (e *emitter) toolCall(tc *toolCall, k int, model string, t time.Time, basis timeline.TimeBasis, msgTS string, line int64) int {
	if basis != timeline.TimeRecorded {
		t, basis = e.at(tc.Timestamp)
	}
	id := e.callRID(tc.ID, k)
	e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.ToolUse, Model: model,
		ToolName: tc.Name, ToolUseID: tc.ID, Text: callText(tc.Name, tc.Args, tc.Description),
		ToolInput: parser.CompactJSON(tc.Args), SourceLine: line, RecordID: id})
	rows := 1
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
			ToolName: tc.Name, ToolUseID: tc.ID, Text: text, IsError: boolStr(isErr), SourceLine: line, RecordID: id + "#result"})
		rows++
	}
	if tc.Status == "cancelled" || tc.Status == "awaiting_approval" {
		e.emit(timeline.Event{Time: rt, TimeBasis: rb, TurnType: timeline.System,
			ToolName: tc.Name, ToolUseID: tc.ID, Text: "permission decision: " + tc.Status, SourceLine: line, RecordID: id + "#decision"})
		rows++
	}
	return rows
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// resultText renders a tool call's result parts: each functionResponse's
// response.output, else response.error (which makes it an error), else the
// response as JSON; text and data parts as partsText.
func resultText(raw json.RawMessage) (string, bool) {
	var texts []string
	isErr := false
	for _, p := range ParseParts(raw) {
		if p.FunctionResponse != nil {
			s, e := responseText(p.FunctionResponse.Response)
			isErr = isErr || e
			if s != "" {
				texts = append(texts, s)
			}
			continue
		}
		if s := PartsText([]Part{p}, p.Thought); s != "" {
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
