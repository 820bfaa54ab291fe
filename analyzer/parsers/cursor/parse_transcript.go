package cursor

import (
	"context"
	"fmt"
	"io"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// transcript is one agent transcript file and what its path says.
type transcript struct {
	file   parser.File
	id     string // the conversation the file belongs to (the parent for a subagent)
	sub    string // the subagent's id, for <id>/subagents/<sub>.jsonl
	stemID string // the file's own id (sub for a subagent, id otherwise)
}

// classify reads a transcript path: <id>/<id>.jsonl, flat <id>.jsonl (and
// the legacy <id>.txt), nested <id>/transcript.jsonl, or
// <id>/subagents/<sub>.jsonl.
func classify(f parser.File) (transcript, bool) {
	p := slash(f.Path)
	i := strings.Index(p, "/agent-transcripts/")
	if i < 0 {
		return transcript{}, false
	}
	rest := strings.Split(p[i+len("/agent-transcripts/"):], "/")
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	t := transcript{file: f}
	switch {
	case len(rest) == 1:
		t.id = stem
	case len(rest) == 3 && rest[1] == "subagents":
		t.id, t.sub = rest[0], stem
	default:
		t.id = rest[0]
	}
	t.stemID = t.id
	if t.sub != "" {
		t.stemID = t.sub
	}
	return t, t.id != ""
}

// parseTranscriptFile is the cursor/transcript parser: every transcript
// file gives its own rows, all Secondary (the editor's state.vscdb or the
// Agent CLI's store.db is the store of record; the engine pairs each
// transcript row with the row of the store that repeats it, see doc.go).
func parseTranscriptFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	self, ok := classify(in.File)
	if !ok {
		self = transcript{file: in.File, id: strings.TrimSuffix(in.Base(), path.Ext(in.Base()))}
		self.stemID = self.id
	}
	// A subagent's top-level copy <sub>/<sub>.jsonl is the subagent, never
	// a session of its own (cctop's rule): its rows are the subagent's,
	// with the same record ids, so the engine writes them once.
	if self.sub == "" {
		if home := transcriptHome(in.Path); home != "" {
			for _, f := range in.List(parser.GlobEscape(home) + "/.cursor*/projects/*/agent-transcripts/*/subagents/" + parser.GlobEscape(self.id) + ".*") {
				if t, ok := classify(f); ok && t.sub == self.id && transcriptHome(f.Path) == home {
					self.id, self.sub = t.id, t.sub
					break
				}
			}
		}
	}
	r, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer r.Close()
	tr := &trEmitter{out: out, session: self.stemID, stem: self.stemID}
	if self.sub != "" {
		tr.parent = self.id
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: self.sub}, ParentSessionID: self.id})
		e := tr.base(1)
		e.TurnType, e.RecordID = timeline.System, self.stemID+"#subagent"
		e.Text = "subagent " + parser.Shown(self.sub) + " of " + parser.Shown(self.id)
		out.Event(e)
	}
	if strings.EqualFold(path.Ext(in.Path), ".txt") {
		return tr.text(ctx, r)
	}
	return tr.jsonl(ctx, r)
}

// trEmitter writes the rows of one transcript. Record ids: Cursor keeps
// none in a transcript, so a row's RecordID is "<file id>:line<n>#<k>",
// the k-th row (0-based) of the record at that line of the transcript
// (which Cursor only appends to): two copies of one transcript (under two
// project slugs, or a subagent's top-level copy) give each record once,
// and a copy whose record differs is reported by the engine.
type trEmitter struct {
	out     parser.Sink
	session string
	parent  string
	stem    string
	cur     time.Time // the time of the latest <timestamp> tag
	line    int64
	k       int // rows of the current record
}

func (t *trEmitter) base(line int64) timeline.Event {
	e := timeline.Event{SessionID: t.session, ParentSessionID: t.parent, SourceLine: line, Secondary: true}
	if t.cur.IsZero() {
		e.TimeBasis = timeline.TimeNone
	} else {
		e.Time, e.TimeBasis = t.cur, timeline.TimeInherited
	}
	return e
}

// emit writes one row of the current record.
func (t *trEmitter) emit(e timeline.Event) {
	e.RecordID = t.stem + ":line" + strconv.FormatInt(t.line, 10) + "#" + strconv.Itoa(t.k)
	t.k++
	t.out.Event(e)
}

func (t *trEmitter) start(line int64) {
	t.line, t.k = line, 0
}

type trLine struct {
	Role    string          `json:"role"`
	Type    string          `json:"type"`
	Status  string          `json:"status"`
	Message json.RawMessage `json:"message"`
	Error   json.RawMessage `json:"error"`
	Text    string          `json:"text"`
}

type trMessage struct {
	Content json.RawMessage `json:"content"`
}

type trBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

var (
	tsTagRe     = regexp.MustCompile(`^\s*<timestamp>([^<]*)</timestamp>\s*`)
	userQueryRe = regexp.MustCompile(`(?s)<user_query>(.*?)</user_query>`)
	utcOffRe    = regexp.MustCompile(`^\s*(.*?)\s*\(UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?\)\s*$`)
)

// parseTagTime reads Cursor's <timestamp> text, "Tuesday, Jul 21, 2026,
// 1:11 PM (UTC+3)", to the minute, converted to UTC.
func parseTagTime(s string) (time.Time, bool) {
	m := utcOffRe.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	off := 0
	if m[2] != "" {
		h, _ := strconv.Atoi(m[3])
		mi, _ := strconv.Atoi(m[4])
		off = h*3600 + mi*60
		if m[2] == "-" {
			off = -off
		}
	}
	zone := time.FixedZone("", off)
	for _, l := range []string{"Monday, Jan 2, 2006, 3:04 PM", "Monday, January 2, 2006, 3:04 PM", "Jan 2, 2006, 3:04 PM"} {
		if t, err := time.ParseInLocation(l, m[1], zone); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// jsonl streams a JSON Lines transcript. Only user lines carry a time (the
// <timestamp> tag, to the minute), which later rows inherit; rows before
// the first tag, and every row of a transcript without one, are undated.
func (t *trEmitter) jsonl(ctx context.Context, r io.Reader) error {
	return parser.Lines(ctx, r, t.out, func(n int64, line []byte) error {
		t.start(n)
		var l trLine
		skip := ""
		if jerr := json.Unmarshal(line, &l); jerr == nil {
			skip = t.record(n, &l)
		} else if json.Valid(line) {
			t.out.Problem(n, parser.BadJSONLine(jerr))
			return nil
		} else {
			objs, lost := parser.SplitGlued(line)
			if len(objs) == 0 {
				t.out.Problem(n, parser.BadJSONLine(jerr))
				return nil
			}
			t.out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), lost))
			for _, obj := range objs {
				l = trLine{}
				if json.Unmarshal(obj, &l) == nil {
					t.record(n, &l)
				}
			}
		}
		if t.k == 0 && skip != "" {
			t.out.Skip(n, skip)
		}
		return nil
	})
}

// record emits one JSON line's rows; it returns the reason a record gave
// none ("" when it gave rows or a problem).
func (t *trEmitter) record(n int64, l *trLine) string {
	if l.Role == "" {
		switch {
		case l.Type == "turn_ended" && l.Status != "" && l.Status != "success":
			e := t.base(n)
			e.TurnType = timeline.System
			e.Text = "turn ended: " + l.Status
			if msg := firstNonEmpty(parser.JSONText(l.Error), l.Text); msg != "" {
				e.Text += " " + msg
			}
			t.emit(e)
			return ""
		case l.Type == "turn_ended":
			return "turn_ended_success"
		}
		t.out.Report(n, parser.KindSkippedRecord, "transcript line of unknown shape (no role, type "+strconv.Quote(l.Type)+")")
		return ""
	}
	var msg trMessage
	if len(l.Message) > 0 {
		if err := json.Unmarshal(l.Message, &msg); err != nil {
			t.out.Problem(n, "bad message: "+parser.JSONError(err))
			return ""
		}
	}
	blocks, err := contentBlocks(msg.Content)
	if err != nil {
		t.out.Problem(n, "bad content: "+parser.JSONError(err))
		return ""
	}
	for _, b := range blocks {
		t.block(n, l.Role, b)
	}
	return "no_content"
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// contentBlocks reads message.content: a string or an array of blocks.
func contentBlocks(raw json.RawMessage) ([]trBlock, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	if s[0] == '"' {
		var t string
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, err
		}
		return []trBlock{{Type: "text", Text: t}}, nil
	}
	var bs []trBlock
	err := json.Unmarshal(raw, &bs)
	return bs, err
}

// redacted is the text Cursor writes in place of the model's reasoning.
const redacted = "[REDACTED]"

func (t *trEmitter) block(n int64, role string, b trBlock) {
	switch b.Type {
	case "text", "":
		if role == "user" {
			t.userText(n, b.Text)
			return
		}
		t.assistantText(n, b.Text)
	case "thinking", "redacted_thinking":
		text := firstNonEmpty(b.Thinking, b.Text)
		if text == "" || strings.TrimSpace(text) == redacted {
			t.withheld(n)
			return
		}
		e := t.base(n)
		e.TurnType, e.Text = timeline.Thinking, text
		t.emit(e)
	case "tool_use":
		e := t.base(n)
		e.TurnType = timeline.ToolUse
		e.ToolName = b.Name
		e.ToolUseID = b.ID
		e.ToolInput = parser.CompactJSON(b.Input)
		e.Text = identifying(e.ToolInput)
		t.emit(e)
	case "tool_result":
		e := t.base(n)
		e.TurnType = timeline.ToolResult
		e.ToolUseID = b.ToolUseID
		e.Text = resultText(b.Content)
		e.IsError = strconv.FormatBool(b.IsError)
		t.emit(e)
	default:
		e := t.base(n)
		e.TurnType = timeline.System
		e.Text = "content block: " + b.Type
		t.emit(e)
	}
}

func (t *trEmitter) assistantText(n int64, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if strings.TrimSpace(text) == redacted {
		t.withheld(n)
		return
	}
	e := t.base(n)
	e.TurnType, e.Text = timeline.Assistant, text
	t.emit(e)
}

// withheld is the row of a reasoning step whose text Cursor left out of
// the transcript ("[REDACTED]"): a system row, since the text is not the
// model's (the store of record keeps the reasoning itself).
func (t *trEmitter) withheld(n int64) {
	e := t.base(n)
	e.TurnType, e.Text = timeline.System, "reasoning withheld in the transcript: "+redacted
	t.emit(e)
}

// resultText flattens a tool_result content (string or text blocks).
func resultText(raw json.RawMessage) string {
	bs, err := contentBlocks(raw)
	if err != nil {
		return parser.JSONText(raw)
	}
	var parts []string
	for _, b := range bs {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// userText splits a user text: the <timestamp> tag dates the turn to the
// minute (time_basis recorded-minute); the <user_query> is what the person
// typed (a user row, or in a subagent's transcript the parent model's
// prompt, "subagent task:"); anything else is injected context.
func (t *trEmitter) userText(n int64, text string) {
	rest := text
	tagged := false
	if m := tsTagRe.FindStringSubmatchIndex(rest); m != nil {
		if tm, ok := parseTagTime(rest[m[2]:m[3]]); ok {
			t.cur, tagged = tm, true
		} else {
			t.out.Problem(n, "unreadable <timestamp> tag "+strconv.Quote(rest[m[2]:m[3]])+": the turn keeps the previous time")
		}
		rest = rest[m[1]:]
	}
	var queries []string
	for _, m := range userQueryRe.FindAllStringSubmatch(rest, -1) {
		queries = append(queries, strings.TrimSpace(m[1]))
	}
	other := strings.TrimSpace(userQueryRe.ReplaceAllString(rest, ""))
	dated := func() timeline.Event {
		e := t.base(n)
		if tagged {
			e.TimeBasis = timeline.TimeMinute
		}
		return e
	}
	if other != "" {
		e := dated()
		e.TurnType = timeline.System
		e.Text = "injected context: " + other
		t.emit(e)
	}
	for _, q := range queries {
		e := dated()
		if t.parent != "" {
			e.TurnType, e.Text = timeline.System, "subagent task: "+q
		} else {
			e.TurnType, e.Text = timeline.User, q
		}
		t.emit(e)
	}
}

// Legacy plain-text transcripts (<id>.txt, before the JSON Lines form):
// records open with a line "user:" or "assistant:" (also "A:"); a user
// record holds the <user_query> (and any <timestamp> tag); an assistant
// record holds reply text, "[Thinking] <text>" lines, "[Tool call] <Name>"
// followed by its arguments indented as "  key: value" lines, and
// "[Tool result] <Name>" followed by the result text (often empty).
var (
	txtRoleRe   = regexp.MustCompile(`^(user|assistant|A):\s*$`)
	txtMarkerRe = regexp.MustCompile(`^\[(Thinking|Tool call|Tool result)\]\s?(.*)$`)
	txtArgRe    = regexp.MustCompile(`^  ([A-Za-z0-9_.-]+): ?(.*)$`)
)

// text streams a legacy .txt transcript.
func (t *trEmitter) text(ctx context.Context, r io.Reader) error {
	var (
		role  string
		start int64
		body  []string
	)
	flush := func() {
		if role == "" {
			if strings.TrimSpace(strings.Join(body, "\n")) != "" {
				t.out.Report(start, parser.KindSkippedRecord, "text before the first user: or assistant: line")
			}
			return
		}
		t.start(start)
		if role == "user" {
			t.userText(start, strings.Join(body, "\n"))
		} else {
			t.assistantRecord(start, body)
		}
		if t.k == 0 {
			t.out.Skip(start, "no_content")
		}
	}
	err := parser.Lines(ctx, r, t.out, func(n int64, line []byte) error {
		s := strings.TrimRight(string(line), "\r")
		if m := txtRoleRe.FindStringSubmatch(s); m != nil {
			flush()
			role, start, body = m[1], n, nil
			if role == "A" {
				role = "assistant"
			}
			return nil
		}
		if role == "" && start == 0 {
			start = n
		}
		body = append(body, s)
		return nil
	})
	flush()
	return err
}

// assistantRecord emits the rows of one assistant record of a .txt.
func (t *trEmitter) assistantRecord(n int64, lines []string) {
	var text []string
	flushText := func() {
		t.assistantText(n, strings.TrimSpace(strings.Join(text, "\n")))
		text = nil
	}
	for i := 0; i < len(lines); i++ {
		m := txtMarkerRe.FindStringSubmatch(lines[i])
		if m == nil {
			text = append(text, lines[i])
			continue
		}
		flushText()
		switch m[1] {
		case "Thinking":
			if strings.TrimSpace(m[2]) == "" || strings.TrimSpace(m[2]) == redacted {
				t.withheld(n)
				continue
			}
			e := t.base(n)
			e.TurnType, e.Text = timeline.Thinking, strings.TrimSpace(m[2])
			t.emit(e)
		case "Tool call":
			args := map[string]string{}
			var keys []string
			for i+1 < len(lines) {
				a := txtArgRe.FindStringSubmatch(lines[i+1])
				if a == nil {
					break
				}
				i++
				if _, dup := args[a[1]]; !dup {
					keys = append(keys, a[1])
				}
				args[a[1]] = a[2]
			}
			e := t.base(n)
			e.TurnType, e.ToolName = timeline.ToolUse, strings.TrimSpace(m[2])
			e.ToolInput = orderedJSON(keys, args)
			e.Text = identifying(e.ToolInput)
			t.emit(e)
		case "Tool result":
			var res []string
			for i+1 < len(lines) && txtMarkerRe.FindStringSubmatch(lines[i+1]) == nil {
				i++
				res = append(res, lines[i])
			}
			e := t.base(n)
			e.TurnType, e.ToolName = timeline.ToolResult, strings.TrimSpace(m[2])
			e.Text = strings.TrimSpace(strings.Join(res, "\n"))
			t.emit(e)
		}
	}
	flushText()
}

// orderedJSON renders string arguments as a JSON object in their order.
func orderedJSON(keys []string, m map[string]string) string {
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kq, _ := json.Marshal(k)
		vq, _ := json.Marshal(m[k])
		b.Write(kq)
		b.WriteByte(':')
		b.Write(vq)
	}
	b.WriteByte('}')
	return b.String()
}
