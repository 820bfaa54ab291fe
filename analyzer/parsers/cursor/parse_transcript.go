package cursor

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// transcript is one agent transcript file and what its path says.
type transcript struct {
	file   parser.File
	id     string // the composer (session) the rows belong to
	sub    string // the subagent's id, for <id>/subagents/<sub>.jsonl
	stemID string // the file's own id (sub for a subagent, id otherwise)
}

// classify reads a transcript path: <id>/<id>.jsonl, flat <id>.jsonl,
// nested <id>/transcript.jsonl, or <id>/subagents/<sub>.jsonl.
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
	case len(rest) == 2:
		t.id = rest[0]
	default:
		t.id = rest[0]
	}
	t.stemID = t.id
	if t.sub != "" {
		t.stemID = t.sub
	}
	return t, t.id != ""
}

// listTranscripts returns the transcripts of one home, with the copies
// Cursor leaves behind resolved: a subagent's top-level copy is dropped
// (any id seen under subagents/ is never a session), and of the same
// transcript kept under two project slugs only the newest (by mtime, then
// path) is kept.
func listTranscripts(in *parser.Input, home string) []transcript {
	files := in.List(parser.GlobEscape(home) + "/.cursor*/projects/*/agent-transcripts/**/*.jsonl")
	return resolveTranscripts(files, home)
}

func resolveTranscripts(files []parser.File, home string) []transcript {
	subs := map[string]bool{}
	var all []transcript
	for _, f := range files {
		if transcriptHome(f.Path) != home {
			continue
		}
		t, ok := classify(f)
		if !ok {
			continue
		}
		if t.sub != "" {
			subs[t.sub] = true
		}
		all = append(all, t)
	}
	best := map[string]transcript{}
	for _, t := range all {
		if t.sub == "" && subs[t.id] {
			continue
		}
		k := t.id + "\x00" + t.sub
		if o, ok := best[k]; ok {
			if o.file.MTime.After(t.file.MTime) || (o.file.MTime.Equal(t.file.MTime) && o.file.Path > t.file.Path) {
				continue
			}
		}
		best[k] = t
	}
	out := make([]transcript, 0, len(best))
	for _, t := range best {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].id != out[j].id {
			return out[i].id < out[j].id
		}
		if out[i].sub != out[j].sub {
			return out[i].sub < out[j].sub
		}
		return out[i].file.Path < out[j].file.Path
	})
	return out
}

// parseTranscriptFile is the cursor/transcript parser. A transcript whose
// home also has a collected global state.vscdb is left to that parser,
// which reads the transcripts of the conversations it no longer holds;
// otherwise the file's rows are emitted here, all Secondary.
func parseTranscriptFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	self, ok := classify(in.File)
	if !ok {
		self = transcript{file: in.File, id: strings.TrimSuffix(in.Base(), path.Ext(in.Base()))}
		self.stemID = self.id
	}
	if home := transcriptHome(in.Path); home != "" {
		if len(dbsOfHome(in, home)) > 0 {
			return nil
		}
		// Keep only the copy listTranscripts keeps: not a subagent's
		// top-level copy, not an older copy under another project slug.
		if list := listTranscripts(in, home); len(list) > 0 {
			kept := false
			for _, t := range list {
				if t.file.Path == in.Path {
					kept = true
				}
			}
			if !kept {
				return nil
			}
		}
	}
	r, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer r.Close()
	return emitTranscript(ctx, r, trOpts{session: self.id, sub: self.sub}, out)
}

// trOpts says how transcript rows are emitted.
type trOpts struct {
	source  string // SourceFile when the rows come from another input's file
	session string
	sub     string
	project string
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

// emitTranscript streams one transcript. Rows are Secondary; only user
// lines carry a time (the <timestamp> tag, minute precision), which later
// rows inherit.
func emitTranscript(ctx context.Context, r io.Reader, o trOpts, out parser.Sink) error {
	var cur time.Time
	base := func(line int64) timeline.Event {
		e := timeline.Event{SessionID: o.session, ProjectPath: o.project, SourceFile: o.source, SourceLine: line, Secondary: true}
		if cur.IsZero() {
			e.TimeBasis = timeline.TimeNone
		} else {
			e.Time, e.TimeBasis = cur, timeline.TimeInherited
		}
		return e
	}
	problem := func(line int64, msg string) {
		if o.source != "" {
			msg = o.source + ": " + msg
		}
		out.Problem(line, msg)
	}
	if o.sub != "" {
		e := base(1)
		e.TurnType = timeline.System
		e.Text = "subagent " + o.sub + " of " + o.session
		out.Event(e)
	}
	return parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			problem(n, "truncated or glued JSON line")
		}
		for _, obj := range objs {
			var l trLine
			if err := json.Unmarshal(obj, &l); err != nil {
				problem(n, "bad JSON: "+err.Error())
				continue
			}
			if l.Role == "" {
				if l.Type == "turn_ended" && l.Status != "" && l.Status != "success" {
					e := base(n)
					e.TurnType = timeline.System
					e.Text = "turn ended: " + l.Status
					if msg := firstNonEmpty(parser.JSONText(l.Error), l.Text); msg != "" {
						e.Text += " " + msg
					}
					out.Event(e)
				}
				continue
			}
			var msg trMessage
			if len(l.Message) > 0 {
				if err := json.Unmarshal(l.Message, &msg); err != nil {
					problem(n, "bad message: "+err.Error())
					continue
				}
			}
			blocks, err := contentBlocks(msg.Content)
			if err != nil {
				problem(n, "bad content: "+err.Error())
				continue
			}
			for _, b := range blocks {
				emitBlock(&cur, base, n, l.Role, b, o, out)
			}
		}
		return nil
	})
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

func emitBlock(cur *time.Time, base func(int64) timeline.Event, n int64, role string, b trBlock, o trOpts, out parser.Sink) {
	switch b.Type {
	case "text", "":
		if role == "user" {
			emitUserText(cur, base, n, b.Text, o, out)
			return
		}
		if strings.TrimSpace(b.Text) == "" {
			return
		}
		e := base(n)
		if strings.TrimSpace(b.Text) == "[REDACTED]" {
			e.TurnType = timeline.Thinking // reasoning Cursor withheld
		} else {
			e.TurnType = timeline.Assistant
		}
		e.Text = b.Text
		out.Event(e)
	case "thinking", "redacted_thinking":
		t := firstNonEmpty(b.Thinking, b.Text, "[REDACTED]")
		e := base(n)
		e.TurnType = timeline.Thinking
		e.Text = t
		out.Event(e)
	case "tool_use":
		e := base(n)
		e.TurnType = timeline.ToolUse
		e.ToolName = b.Name
		e.ToolUseID = b.ID
		e.ToolInput = parser.CompactJSON(b.Input)
		e.Text = identifying(e.ToolInput)
		out.Event(e)
	case "tool_result":
		e := base(n)
		e.TurnType = timeline.ToolResult
		e.ToolUseID = b.ToolUseID
		e.Text = resultText(b.Content)
		e.IsError = strconv.FormatBool(b.IsError)
		out.Event(e)
	default:
		e := base(n)
		e.TurnType = timeline.System
		e.Text = "content block: " + b.Type
		out.Event(e)
	}
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

// emitUserText splits a user text block: the <timestamp> tag dates the
// turn; the <user_query> is what the person typed (a user row, or for a
// subagent the parent agent's prompt); anything else is injected context.
func emitUserText(cur *time.Time, base func(int64) timeline.Event, n int64, text string, o trOpts, out parser.Sink) {
	rest := text
	tagged := false
	if m := tsTagRe.FindStringSubmatchIndex(rest); m != nil {
		if t, ok := parseTagTime(rest[m[2]:m[3]]); ok {
			*cur, tagged = t, true
		}
		rest = rest[m[1]:]
	}
	var queries []string
	for _, m := range userQueryRe.FindAllStringSubmatch(rest, -1) {
		queries = append(queries, strings.TrimSpace(m[1]))
	}
	other := strings.TrimSpace(userQueryRe.ReplaceAllString(rest, ""))
	dated := func() timeline.Event {
		e := base(n)
		if tagged {
			e.TimeBasis = timeline.TimeRecorded
		}
		return e
	}
	if other != "" {
		e := dated()
		e.TurnType = timeline.System
		e.Text = "injected context: " + other
		out.Event(e)
	}
	for _, q := range queries {
		e := dated()
		if o.sub != "" {
			e.TurnType = timeline.System
			e.Text = "subagent prompt: " + q
		} else {
			e.TurnType = timeline.User
			e.Text = q
		}
		out.Event(e)
	}
}
