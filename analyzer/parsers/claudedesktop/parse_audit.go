package claudedesktop

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Audit returns the parser of a Cowork session's audit log,
// <session dir>/audit.jsonl, a secondary source.
func Audit() parser.Parser {
	return newFiltered(parser.Spec{
		ID:      "claude-desktop/audit",
		Actions: claudetranscript.Actions,
		Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
			Basis: "audit.jsonl repeats the transcript's records as they are written"},
		Agent:   Agent,
		Version: 5,
		Targets: sessionTargets,
		Names:   []string{"audit.jsonl"},
		Doc:     "Claude desktop Cowork audit log <session dir>/audit.jsonl (secondary): turns the transcript lacks, init, permission and result records",
	}, parseAudit, func(p string) bool { return storeKind(p) != "" })
}

// auditLine is one audit.jsonl line: an Agent SDK message with the app's
// _audit_timestamp.
type auditLine struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	UUID            string          `json:"uuid"`
	SessionID       string          `json:"session_id"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	AuditTimestamp  string          `json:"_audit_timestamp"`
	Timestamp       string          `json:"timestamp"`
	Message         json.RawMessage `json:"message"`
	Model           string          `json:"model"`
}

type auditMessage struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

type auditBlock struct {
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

// seen holds what the session's transcripts already say.
type seen struct {
	uuids, tools, msgs map[string]bool
}

// transcriptKeys reads the session directory's transcripts for their
// record uuids, tool call ids and API message ids.
func transcriptKeys(ctx context.Context, in *parser.Input, out parser.Sink, dir string) *seen {
	s := &seen{uuids: map[string]bool{}, tools: map[string]bool{}, msgs: map[string]bool{}}
	for _, f := range in.List(parser.GlobEscape(dir) + "/.claude/projects/**/*.jsonl") {
		rc, err := in.OpenRelated(f.Path)
		if err != nil {
			out.Report(0, parser.KindParse, "transcript "+f.Path+" not readable for the copy check: "+err.Error()+" (its records may repeat here)")
			continue
		}
		err = parser.Lines(ctx, rc, nil, func(n int64, line []byte) error {
			var r struct {
				UUID    string `json:"uuid"`
				Message struct {
					ID      string          `json:"id"`
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &r) != nil {
				return nil
			}
			if r.UUID != "" {
				s.uuids[r.UUID] = true
			}
			if r.Message.ID != "" {
				s.msgs[r.Message.ID] = true
			}
			var blocks []auditBlock
			if json.Unmarshal(r.Message.Content, &blocks) == nil {
				for _, b := range blocks {
					if b.Type == "tool_use" && b.ID != "" {
						s.tools[b.ID] = true
					}
					if b.ToolUseID != "" {
						s.tools[b.ToolUseID] = true
					}
				}
			}
			return nil
		})
		rc.Close()
		if err != nil && ctx.Err() == nil {
			out.Problem(0, fmt.Sprintf("reading transcript %s: %v (records after the error are not known to be there)", f.Path, err))
		}
	}
	return s
}

type audit struct {
	in        *parser.Input
	out       parser.Sink
	seen      *seen
	session   string // fallback session id
	project   string
	line      int64
	tools     map[string]string
	lastModel string
	lastTime  time.Time
	rows      int             // rows the current line gave
	copies    int             // records or blocks of it dropped as the transcript's
	subs      map[string]bool // sub-agent sessions already opened
}

func parseAudit(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := slash(in.Path)
	dir := dirOf(p)
	a := &audit{in: in, out: out, tools: map[string]string{}, subs: map[string]bool{}}
	if rec := relatedRecord(in, dir); rec != nil {
		a.project = rec.project()
		a.session = rec.str("cliSessionId")
		if a.session == "" {
			a.session = rec.str("sessionId")
		}
	}
	if a.session == "" {
		a.session = baseOf(dir)
	}
	a.seen = transcriptKeys(ctx, in, out, dir)
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		a.line = n
		objs, lost := parser.SplitGlued(line)
		if len(objs) == 0 {
			out.Problem(n, parser.BadJSONLine(nil))
			return nil
		}
		if lost {
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), lost))
		}
		a.rows, a.copies = 0, 0
		for _, o := range objs {
			a.record(o)
		}
		switch {
		case a.rows > 0 || lost:
		case a.copies > 0:
			out.Skip(n, "copy_in_transcript")
		default:
			out.Skip(n, "no_evidence:empty_message")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

func (a *audit) record(raw []byte) {
	var l auditLine
	if err := json.Unmarshal(raw, &l); err != nil {
		a.out.Problem(a.line, parser.BadJSONLine(err))
		return
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields)
	tm := rawTime(json.RawMessage(`"` + l.AuditTimestamp + `"`))
	if tm.IsZero() {
		tm = rawTime(json.RawMessage(`"` + l.Timestamp + `"`))
	}
	sid := l.SessionID
	if sid == "" {
		sid = a.session
	}
	sidechain := l.ParentToolUseID != nil && *l.ParentToolUseID != ""
	parent := ""
	if sidechain {
		// A sub-agent's message: the SDK stream names only the parent's
		// tool use, so its session is "<session>/<tool use id>".
		parent, sid = sid, sid+"/"+*l.ParentToolUseID
	}
	// put writes a row of this line; emit one whose RecordID field holds
	// the suffix of the record's uuid ("" for the record itself, "#<i>"
	// for block i, "#<word>" for a derived row).
	put := func(e timeline.Event) {
		e.SessionID, e.ParentSessionID, e.ProjectPath, e.SourceLine, e.Secondary = sid, parent, a.project, a.line, true
		if e.ProjectPath == "" && l.Type == "system" && l.Subtype == "init" {
			e.ProjectPath = parser.StringValue(fields["cwd"])
		}
		switch {
		case !tm.IsZero():
			e.Time = tm
			a.lastTime = tm
		case !a.lastTime.IsZero():
			e.Time, e.TimeBasis = a.lastTime, timeline.TimeInherited
		default:
			e.TimeBasis = timeline.TimeNone
		}
		a.out.Event(e)
		a.rows++
	}
	emit := func(e timeline.Event) {
		if l.UUID == "" {
			e.RecordID = ""
		} else {
			e.RecordID = l.UUID + e.RecordID
		}
		put(e)
	}
	sys := func(text string) { emit(timeline.Event{TurnType: timeline.System, Text: text}) }
	if (l.Type == "user" || l.Type == "assistant") && l.UUID != "" && a.seen.uuids[l.UUID] {
		// The transcript holds this record (read by the claude-code
		// reader, which renders it its own way): counted, not repeated.
		a.copies++
		return
	}
	if sidechain && !a.subs[sid] {
		a.subs[sid] = true
		put(timeline.Event{TurnType: timeline.System, Text: "subagent " + parser.Shown(sid) + " of " + parser.Shown(parent), RecordID: sid + "#subagent"})
		a.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, ParentSessionID: parent})
	}

	switch {
	case l.Type == "user":
		a.user(&l, sidechain, emit)
	case l.Type == "assistant":
		a.assistant(&l, emit)
	case l.Type == "system" && l.Subtype == "init":
		sys(strings.TrimSpace("init: " + fieldList(fields, "model", "permissionMode", "cwd", "claude_code_version", "apiKeySource", "output_style") +
			counts(fields, "tools", "mcp_servers", "skills", "plugins", "slash_commands")))
		if m := parser.StringValue(fields["model"]); m != "" && m != a.lastModel {
			text := "model: " + m
			if a.lastModel != "" {
				text = "model: " + a.lastModel + " -> " + m
			}
			emit(timeline.Event{TurnType: timeline.System, Text: text, RecordID: "#model"})
			a.lastModel = m
		}
	case l.Type == "system" && strings.HasPrefix(l.Subtype, "permission"):
		a.permission(l.Subtype, fields, emit)
	case l.Type == "result":
		sys(strings.TrimSpace("result: " + orDash(l.Subtype) + " " +
			fieldList(fields, "is_error", "num_turns", "duration_ms", "duration_api_ms", "total_cost_usd", "stop_reason") + errorsText(fields["errors"])))
	default:
		typ := l.Type
		if l.Subtype != "" {
			typ = l.Subtype
		}
		if typ == "" {
			typ = "record"
		}
		sys(strings.TrimSpace(typ + ": " + otherFields(fields)))
	}
}

func (a *audit) user(l *auditLine, sidechain bool, emit func(timeline.Event)) {
	var m auditMessage
	_ = json.Unmarshal(l.Message, &m)
	textRow := func(s, suffix string) {
		if strings.TrimSpace(s) == "" {
			return
		}
		tt := timeline.User
		switch {
		case sidechain:
			// the parent model's prompt for its sub-agent
			tt, s = timeline.System, "subagent task: "+s
		case claudetranscript.Injected(s):
			tt = timeline.System
		}
		emit(timeline.Event{TurnType: tt, Text: s, RecordID: suffix})
	}
	if s := parser.StringValue(m.Content); s != "" {
		textRow(s, "")
		return
	}
	var blocks []auditBlock
	_ = json.Unmarshal(m.Content, &blocks)
	for i, b := range blocks {
		suffix := blockSuffix(i, len(blocks))
		switch b.Type {
		case "text":
			textRow(b.Text, suffix)
		case "tool_result":
			if a.seen.tools[b.ToolUseID] {
				a.copies++
				continue
			}
			isErr := "false"
			if b.IsError != nil && *b.IsError {
				isErr = "true"
			}
			emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: b.ToolUseID, ToolName: a.tools[b.ToolUseID],
				Text: resultText(b.Content), IsError: isErr, RecordID: suffix})
		case "image", "document":
			textRow("["+b.Type+"]", suffix)
		default:
			emit(timeline.Event{TurnType: timeline.System, Text: b.Type + " block", RecordID: suffix})
		}
	}
}

// blockSuffix is the RecordID suffix of block i of n, as the claude-code
// reader gives it: "#<i>" when the message has several blocks, "" for a
// message of one block (the record's uuid).
func blockSuffix(i, n int) string {
	if n == 1 {
		return ""
	}
	return "#" + strconv.Itoa(i)
}

func (a *audit) assistant(l *auditLine, emit func(timeline.Event)) {
	var m auditMessage
	_ = json.Unmarshal(l.Message, &m)
	var blocks []auditBlock
	if s := parser.StringValue(m.Content); s != "" {
		blocks = []auditBlock{{Type: "text", Text: s}}
	} else {
		_ = json.Unmarshal(m.Content, &blocks)
	}
	for i, b := range blocks {
		suffix := blockSuffix(i, len(blocks))
		switch b.Type {
		case "tool_use", "server_tool_use", "mcp_tool_use":
			a.tools[b.ID] = b.Name
			if a.seen.tools[b.ID] {
				a.copies++
				continue
			}
			emit(timeline.Event{TurnType: timeline.ToolUse, Model: m.Model, ToolName: b.Name, ToolUseID: b.ID,
				Text: toolText(b.Input), ToolInput: parser.CompactJSON(b.Input), RecordID: suffix})
			continue
		}
		if m.ID != "" && a.seen.msgs[m.ID] {
			a.copies++
			continue
		}
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: b.Text, RecordID: suffix})
			}
		case "thinking":
			emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: b.Thinking, RecordID: suffix})
		case "redacted_thinking":
			emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: "[redacted thinking]", RecordID: suffix})
		default:
			emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: "[" + b.Type + "]", RecordID: suffix})
		}
	}
}

// permission renders a permission request, response or automatic decision.
func (a *audit) permission(subtype string, f map[string]json.RawMessage, emit func(timeline.Event)) {
	tool := firstString(f, "tool_name", "toolName")
	id := firstString(f, "tool_use_id", "toolUseId", "toolUseID")
	e := timeline.Event{TurnType: timeline.System, ToolName: tool, ToolUseID: id}
	decision := firstString(f, "decision", "behavior", "result", "response")
	if decision == "" {
		for _, k := range []string{"response", "decision"} {
			var o map[string]json.RawMessage
			if json.Unmarshal(f[k], &o) == nil {
				decision = firstString(o, "behavior", "decision", "type")
			}
		}
	}
	reason := firstString(f, "reason", "decision_reason", "decisionReason", "message")
	switch {
	case subtype == "permission_request":
		text := "permission request: " + orDash(tool)
		input := f["input"]
		if input == nil {
			input = f["tool_input"]
		}
		if s := toolText(input); s != "" {
			text += " " + s
		}
		e.Text = text
	case strings.Contains(subtype, "auto"):
		src := firstString(f, "source")
		if src == "" {
			src = "auto"
		}
		e.Text = "permission decision: " + orDash(decision) + " source=" + src + " reason=" + orDash(reason)
	case subtype == "permission_response":
		src := firstString(f, "source")
		if src == "" {
			src = "user"
		}
		e.Text = "permission decision: " + orDash(decision) + " source=" + src + " reason=" + orDash(reason)
	default:
		e.Text = strings.TrimSpace(subtype + ": " + otherFields(f))
	}
	emit(e)
}

func firstString(f map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		if s := parser.StringValue(f[k]); s != "" {
			return s
		}
	}
	return ""
}

// fieldList renders the named scalar fields present as key=value.
func fieldList(f map[string]json.RawMessage, keys ...string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := f[k]; ok && string(bytes.TrimSpace(v)) != "null" {
			s := parser.JSONText(v)
			if len(bytes.TrimSpace(v)) > 0 && (v[0] == '{' || v[0] == '[') {
				continue
			}
			parts = append(parts, k+"="+s)
		}
	}
	return strings.Join(parts, " ")
}

// counts renders the lengths of the named list fields.
func counts(f map[string]json.RawMessage, keys ...string) string {
	var parts []string
	for _, k := range keys {
		if l := list(f[k]); f[k] != nil {
			parts = append(parts, fmt.Sprintf("%s=%d", k, len(l)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

func errorsText(raw json.RawMessage) string {
	l := list(raw)
	if len(l) == 0 {
		return ""
	}
	var s []string
	for _, x := range l {
		s = append(s, parser.JSONText(x))
	}
	return " errors=" + strings.Join(s, "; ")
}

// envelope keys common to audit lines, left out of generic rows.
var envelope = map[string]bool{"type": true, "subtype": true, "uuid": true, "session_id": true,
	"parent_tool_use_id": true, "_audit_timestamp": true, "_audit_hmac": true, "timestamp": true}

// otherFields renders every non-envelope field as key=value, sorted.
func otherFields(f map[string]json.RawMessage) string {
	keys := make([]string, 0, len(f))
	for k := range f {
		if !envelope[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+parser.JSONText(f[k]))
	}
	return strings.Join(parts, " ")
}

// userTexts returns a user message's typed text (a string, or text blocks).
func userTexts(raw json.RawMessage) []string {
	var m auditMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	if s := parser.StringValue(m.Content); s != "" {
		return []string{s}
	}
	var blocks []auditBlock
	_ = json.Unmarshal(m.Content, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// resultText renders a tool_result's content: a string, or blocks.
func resultText(raw json.RawMessage) string {
	if s := parser.StringValue(raw); s != "" {
		return s
	}
	var blocks []auditBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return parser.CompactJSON(raw)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// toolKeys are the arguments that identify a tool call, most telling first.
var toolKeys = []string{"command", "cmd", "file_path", "notebook_path", "filePath", "url",
	"pattern", "query", "path", "skill", "description", "prompt", "plan"}

// toolText returns a call's most identifying argument, else its JSON.
func toolText(input json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(input, &m) == nil {
		for _, k := range toolKeys {
			if s := parser.StringValue(m[k]); s != "" {
				return s
			}
		}
	}
	return parser.CompactJSON(input)
}
