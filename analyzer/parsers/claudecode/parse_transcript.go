package claudecode

import (
	"bytes"
	"context"
	"fmt"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
	"hash/fnv"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Transcript returns the parser of session transcripts,
// .claude/projects/<slug>/<session>.jsonl and the subagent files.
func Transcript() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/transcript",
		Actions: Actions,
		Agent:   Agent,
		Version: 2,
		Targets: []string{"projects"},
		Names:   []string{"*.jsonl"},
		Doc:     "Claude Code session transcripts and subagent transcripts (.claude/projects/<slug>/<session>.jsonl)",
	}, parseTranscript)
}

// maxPersisted bounds how much of a persisted tool output is read.
const maxPersisted = 64 << 20

// record is one transcript line; only the keys the parser uses.
type record struct {
	Type                      string          `json:"type"`
	Subtype                   string          `json:"subtype"`
	UUID                      string          `json:"uuid"`
	ParentUUID                *string         `json:"parentUuid"`
	SessionID                 string          `json:"sessionId"`
	Cwd                       string          `json:"cwd"`
	Timestamp                 string          `json:"timestamp"`
	IsSidechain               bool            `json:"isSidechain"`
	IsMeta                    bool            `json:"isMeta"`
	IsCompactSummary          bool            `json:"isCompactSummary"`
	IsVisibleInTranscriptOnly bool            `json:"isVisibleInTranscriptOnly"`
	IsAPIErrorMessage         bool            `json:"isApiErrorMessage"`
	AgentID                   string          `json:"agentId"`
	Entrypoint                string          `json:"entrypoint"`
	PromptSource              string          `json:"promptSource"`
	TurnOrigin                string          `json:"turnOrigin"`
	PermissionMode            string          `json:"permissionMode"`
	RequestedModel            string          `json:"requestedModel"`
	Message                   *message        `json:"message"`
	Content                   json.RawMessage `json:"content"`
	ToolUseResult             toolUseResult   `json:"toolUseResult"`
	PermissionDecision        json.RawMessage `json:"permissionDecision"`
	ToolDenialKind            string          `json:"toolDenialKind"`
	Summary                   string          `json:"summary"`
	Operation                 string          `json:"operation"`
	Data                      json.RawMessage `json:"data"`
	Attachment                json.RawMessage `json:"attachment"`
	CompactMetadata           *struct {
		Trigger   string          `json:"trigger"`
		PreTokens json.RawMessage `json:"preTokens"`
	} `json:"compactMetadata"`
	Error        json.RawMessage `json:"error"`
	RetryAttempt json.RawMessage `json:"retryAttempt"`
	MaxRetries   json.RawMessage `json:"maxRetries"`
	RetryInMs    json.RawMessage `json:"retryInMs"`
	HookInfos    []struct {
		Command string `json:"command"`
	} `json:"hookInfos"`
	HookErrors            json.RawMessage `json:"hookErrors"`
	PreventedContinuation bool            `json:"preventedContinuation"`
	StopReason            string          `json:"stopReason"`
}

// message is the Anthropic API message inside user and assistant records.
// It is decoded with its record in one pass: a long line (a 50 MB tool
// output) is not kept as raw JSON at several levels.
type message struct {
	ID      string     `json:"id"`
	Model   string     `json:"model"`
	Role    string     `json:"role"`
	Content msgContent `json:"content"`
}

// msgContent is message.content: a string or a list of blocks.
type msgContent struct {
	Str    string
	Blocks []block
}

// UnmarshalJSONFrom decodes either form straight from the decoder, so a
// long string is not first copied as raw JSON.
func (c *msgContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		c.Str = tok.String()
		return nil
	case '[':
		return jsonv2.UnmarshalDecode(dec, &c.Blocks, json.DefaultOptionsV1())
	}
	return dec.SkipValue()
}

// resultContent is a tool_result block's content, kept only as its text
// (a string, or text blocks joined, images named).
type resultContent struct{ Text string }

// UnmarshalJSONFrom renders the content as text straight from the decoder.
func (c *resultContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		c.Text = tok.String()
		return nil
	case '[':
		var blocks []block
		if err := jsonv2.UnmarshalDecode(dec, &blocks, json.DefaultOptionsV1()); err != nil {
			return err
		}
		c.Text = blocksText(blocks)
		return nil
	case 'n':
		return dec.SkipValue()
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	c.Text = parser.CompactJSON(json.RawMessage(v))
	return nil
}

// toolUseResult is the structured copy of a tool result: only the fields
// the parser reads are kept (an object's exit code, interruption and
// persisted-output path; a string's text), not the copy of the output.
type toolUseResult struct {
	Obj                 bool
	Str                 string
	Interrupted         bool
	ExitCode            string
	PersistedOutputPath string
}

// UnmarshalJSONFrom keeps the few fields read, skipping the rest (the
// output's copy) without storing it.
func (u *toolUseResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '{':
		var o struct {
			Interrupted         bool            `json:"interrupted"`
			ExitCode            json.RawMessage `json:"exitCode"`
			PersistedOutputPath string          `json:"persistedOutputPath"`
		}
		if err := jsonv2.UnmarshalDecode(dec, &o, json.DefaultOptionsV1()); err != nil {
			return nil // a shape we do not know: the fields stay unset
		}
		u.Obj, u.Interrupted, u.ExitCode, u.PersistedOutputPath = true, o.Interrupted, parser.JSONText(o.ExitCode), o.PersistedOutputPath
		return nil
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		u.Str = tok.String()
		return nil
	}
	return dec.SkipValue()
}

// block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   resultContent   `json:"content"`
	IsError   *bool           `json:"is_error"`
	Source    *struct {
		MediaType string `json:"media_type"`
	} `json:"source"`
}

// transcript is the state of one file's parse.
type transcript struct {
	ctx context.Context
	in  *parser.Input
	out parser.Sink

	fileSession   string // the file name's session id (main files)
	subagentID    string // set for agent-<id>.jsonl files
	parentSession string // from the <session>/subagents/ folder
	projectDir    string // the <slug> folder

	session, cwd string
	lastTime     time.Time
	pending      []timeline.Event // rows before the first recorded time

	line      int64
	recTime   time.Time
	seenUUID  map[string]bool
	seenBlock map[uint64]bool
	model     map[bool]string // last model per chain (main, sidechain)
	mode      string
	surface   bool
	header    bool
	tools     map[string]string // tool_use id -> tool name
}

func parseTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()

	t := &transcript{
		ctx: ctx, in: in, out: out,
		seenUUID:  map[string]bool{},
		seenBlock: map[uint64]bool{},
		model:     map[bool]string{},
		tools:     map[string]string{},
	}
	p := strings.ReplaceAll(in.Path, `\`, "/")
	stem := strings.TrimSuffix(baseOf(p), ".jsonl")
	dir := dirOf(p)
	t.projectDir = dir
	if strings.HasPrefix(stem, "agent-") {
		t.subagentID = strings.TrimPrefix(stem, "agent-")
		if baseOf(dir) == "subagents" {
			t.parentSession = baseOf(dirOf(dir))
			t.projectDir = dirOf(dirOf(dir))
		}
	} else {
		t.fileSession = stem
	}

	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		t.line = n
		var r record
		if jerr := json.Unmarshal(line, &r); jerr != nil {
			objs, lost := parser.SplitGlued(line)
			if len(objs) == 0 {
				out.Problem(n, "malformed JSON line (cut short or corrupt), skipped: "+jerr.Error())
				return nil
			}
			out.Problem(n, parser.GluedProblem(len(objs), lost))
			for _, o := range objs {
				r = record{}
				if json.Unmarshal(o, &r) == nil {
					t.record(&r, o)
				}
			}
			return nil
		}
		t.record(&r, line)
		return nil
	})
	t.flushPending(time.Time{}, timeline.TimeNone)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// sessionID returns the session id rows carry: the record's sessionId (the
// parent's, in a subagent file), else the folder or file name.
func (t *transcript) sessionID() string {
	if t.session != "" {
		return t.session
	}
	if t.parentSession != "" {
		return t.parentSession
	}
	return t.fileSession
}

// emit sends a row of the current record, filling session, project, line
// and time.
func (t *transcript) emit(e timeline.Event) {
	if e.SourceLine == 0 {
		e.SourceLine = t.line
	}
	if e.Time.IsZero() && e.TimeBasis == "" && t.recTime.IsZero() && t.lastTime.IsZero() {
		// No time yet: held until the first dated record, whose session
		// and project it then takes too.
		e.TimeBasis = timeline.TimeInherited
		t.pending = append(t.pending, e)
		return
	}
	if e.SessionID == "" {
		e.SessionID = t.sessionID()
	}
	if e.ProjectPath == "" {
		e.ProjectPath = t.cwd
	}
	if e.Time.IsZero() && e.TimeBasis == "" {
		switch {
		case !t.recTime.IsZero():
			e.Time = t.recTime
		default:
			e.Time, e.TimeBasis = t.lastTime, timeline.TimeInherited
		}
	}
	t.out.Event(e)
}

// flushPending emits the rows held before the first dated record with tm.
func (t *transcript) flushPending(tm time.Time, basis timeline.TimeBasis) {
	for _, e := range t.pending {
		e.Time, e.TimeBasis = tm, basis
		if e.SessionID == "" {
			e.SessionID = t.sessionID()
		}
		if e.ProjectPath == "" {
			e.ProjectPath = t.cwd
		}
		t.out.Event(e)
	}
	t.pending = nil
}

func (t *transcript) sys(text string) {
	t.emit(timeline.Event{TurnType: timeline.System, Text: text})
}

// record handles one decoded line.
func (t *transcript) record(r *record, raw []byte) {
	if r.UUID != "" {
		if t.seenUUID[r.UUID] {
			return // the same record written twice
		}
		t.seenUUID[r.UUID] = true
	}
	if r.SessionID != "" {
		t.session = r.SessionID
	}
	if r.Cwd != "" {
		t.cwd = r.Cwd
	}
	t.recTime = parseTime(r.Timestamp)
	if !t.recTime.IsZero() {
		if t.lastTime.IsZero() && len(t.pending) > 0 {
			t.flushPending(t.recTime, timeline.TimeInherited)
		}
		t.lastTime = t.recTime
	}
	switch r.Type {
	case "file-history-snapshot", "last-prompt":
		return // file backups / a copy of the last prompt: not rows
	case "progress":
		// hook_progress is the only progress kind kept: it says a hook
		// command ran. agent_progress repeats the subagent's own records.
		if r.Data != nil {
			var d struct {
				Type     string `json:"type"`
				HookName string `json:"hookName"`
				Command  string `json:"command"`
			}
			if json.Unmarshal(r.Data, &d) == nil && d.Type == "hook_progress" {
				t.subagentHeader(r)
				t.sys("hook " + d.HookName + ": " + d.Command)
			}
		}
		return
	}
	t.subagentHeader(r)
	if r.Entrypoint != "" && !t.surface {
		t.surface = true
		t.sys("session surface: " + r.Entrypoint)
	}
	switch r.Type {
	case "user":
		t.user(r)
	case "assistant":
		t.assistant(r)
	case "system":
		t.system(r)
	case "summary":
		t.sys("summary: " + r.Summary)
	case "queue-operation":
		text := "queue-operation " + r.Operation
		if c := parser.JSONText(r.Content); c != "" {
			text += ": " + c
		}
		t.sys(text)
	case "attachment":
		t.attachment(r.Attachment)
	case "permission-mode":
		t.permissionMode(r.PermissionMode)
	default:
		t.other(r.Type, raw)
	}
}

// subagentHeader emits "subagent <id> of <session>" at the start of a
// subagent file, and at each inline sidechain root of a main file.
func (t *transcript) subagentHeader(r *record) {
	if t.subagentID != "" {
		if t.header {
			return
		}
		t.header = true
		id := t.subagentID
		if r.AgentID != "" {
			id = r.AgentID
		}
		t.sys("subagent " + id + " of " + t.sessionID())
		return
	}
	if r.IsSidechain && r.ParentUUID == nil && r.Type == "user" {
		id := r.AgentID
		if id == "" {
			id = r.UUID
		}
		t.sys("subagent " + id + " of " + t.sessionID())
	}
}

// permissionMode emits a mode row on the first mode and on each change.
func (t *transcript) permissionMode(mode string) {
	if mode == "" || mode == t.mode {
		return
	}
	if t.mode == "" {
		t.sys("permission mode: " + mode)
	} else {
		t.sys("permission mode: " + t.mode + " -> " + mode)
	}
	t.mode = mode
}

// injectedPrefixes mark text Claude Code (or the Claude desktop app
// driving it) wrote into a user record.
var injectedPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<system-reminder>", "<bash-stdout>", "<bash-stderr>",
	"<user-prompt-submit-hook>", "<task-notification>", "<environment_context>",
	"<session_context>",
	"Caveat: The messages below were generated by the user",
	"[Request interrupted by user",
	"This session is being continued from a previous conversation",
}

// Injected reports whether a user record's text is harness-written
// context, not what a person typed (the Claude desktop app's audit log
// reads Claude Code's records too).
func Injected(text string) bool {
	s := strings.TrimSpace(text)
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// user handles a user record: a prompt, injected context, or tool results.
func (t *transcript) user(r *record) {
	var m message
	if r.Message != nil {
		m = *r.Message
	}
	t.permissionMode(r.PermissionMode)
	// Everything in a sidechain that is not a tool result was written by
	// the parent agent, not by a person.
	agentWritten := r.IsMeta || r.IsCompactSummary || r.IsVisibleInTranscriptOnly || r.IsSidechain
	prompt := false
	textRow := func(s string) {
		if strings.TrimSpace(s) == "" {
			return
		}
		tt := timeline.User
		if agentWritten || Injected(s) {
			tt = timeline.System
		} else {
			prompt = true
		}
		t.emit(timeline.Event{TurnType: tt, Text: s})
	}
	if s := m.Content.Str; s != "" {
		textRow(s)
	} else {
		blocks := m.Content.Blocks
		var results []string
		for i := range blocks {
			b := &blocks[i]
			switch b.Type {
			case "text":
				textRow(b.Text)
			case "tool_result":
				t.toolResult(r, b, len(blocks))
				results = append(results, b.ToolUseID)
			case "image", "document":
				textRow("[" + b.Type + " " + mediaType(b) + "]")
			default:
				t.sys(b.Type + " block")
			}
		}
		if len(results) > 0 {
			t.permissionDecision(r, results[0])
		}
	}
	if prompt && (r.PromptSource != "" || r.TurnOrigin != "") && r.PromptSource != "user" {
		t.sys("prompt trigger: promptSource=" + orDash(r.PromptSource) + " turnOrigin=" + orDash(r.TurnOrigin))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func mediaType(b *block) string {
	if b.Source != nil && b.Source.MediaType != "" {
		return b.Source.MediaType
	}
	return "?"
}

// persistedRe finds the path a <persisted-output> stub names.
var persistedRe = regexp.MustCompile(`(?m)saved to:\s*(.+?\.txt)\s*$`)

// toolResult emits one tool_result row.
func (t *transcript) toolResult(r *record, b *block, nblocks int) {
	text := b.Content.Text
	tur := &r.ToolUseResult
	turObj := tur.Obj
	if !turObj && text == "" {
		text = tur.Str
	}
	if strings.Contains(text, "<persisted-output>") {
		p := ""
		if m := persistedRe.FindStringSubmatch(text); m != nil {
			p = m[1]
		} else if nblocks == 1 {
			p = tur.PersistedOutputPath
		}
		if p != "" {
			if full, ok := t.persisted(p); ok {
				text = full
			}
		}
	}
	if turObj && nblocks == 1 {
		if tur.Interrupted {
			text += "\n[interrupted]"
		}
		if c := tur.ExitCode; c != "" && c != "null" {
			text += "\n[exit code " + c + "]"
		}
	}
	isErr := "false"
	if b.IsError != nil && *b.IsError {
		isErr = "true"
	}
	t.emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: b.ToolUseID,
		ToolName: t.tools[b.ToolUseID], Text: text, IsError: isErr})
}

// persisted reads a persisted tool output by its original path, or by its
// base name under <slug>/<session>/tool-results/.
func (t *transcript) persisted(p string) (string, bool) {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	cands := []string{p}
	if !strings.HasPrefix(p, "/") && !(len(p) > 1 && p[1] == ':') {
		cands = []string{t.projectDir + "/" + t.sessionID() + "/" + p}
	}
	alt := t.projectDir + "/" + t.sessionID() + "/tool-results/" + baseOf(p)
	if alt != cands[0] {
		cands = append(cands, alt)
	}
	for _, c := range cands {
		rc, err := t.in.OpenRelated(c)
		if err != nil {
			continue
		}
		var sb strings.Builder
		_, err = io.Copy(&sb, io.LimitReader(rc, maxPersisted))
		rc.Close()
		if err != nil {
			t.out.Problem(t.line, "read persisted output "+c+": "+err.Error())
			continue
		}
		return strings.ToValidUTF8(sb.String(), "\uFFFD"), true
	}
	return "", false
}

// blocksText joins the text of content blocks; other blocks are named.
func blocksText(blocks []block) string {
	var parts []string
	for i := range blocks {
		b := &blocks[i]
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image", "document":
			parts = append(parts, "["+b.Type+" "+mediaType(b)+"]")
		default:
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// permissionDecision emits the decision recorded on a tool-result line.
func (t *transcript) permissionDecision(r *record, firstID string) {
	raw := bytes.TrimSpace(r.PermissionDecision)
	if len(raw) == 0 || string(raw) == "null" {
		if r.ToolDenialKind != "" {
			t.emit(timeline.Event{TurnType: timeline.System, ToolUseID: firstID,
				Text: "permission decision: reject (interrupted) toolDenialKind=" + r.ToolDenialKind})
		}
		return
	}
	var decision, source, reason, extra string
	if raw[0] == '"' {
		decision = parser.StringValue(raw)
	} else {
		var d map[string]json.RawMessage
		if json.Unmarshal(raw, &d) != nil {
			t.out.Problem(t.line, "unreadable permissionDecision")
			return
		}
		decision = firstOf(d, "decision", "behavior", "type", "result")
		source = firstOf(d, "source", "decisionSource")
		reason = firstOf(d, "reasonType")
		if reason == "" {
			for _, k := range []string{"reason", "decisionReason"} {
				var rr map[string]json.RawMessage
				if json.Unmarshal(d[k], &rr) == nil {
					reason = firstOf(rr, "type", "reasonType")
				} else if s := parser.StringValue(d[k]); s != "" {
					reason = s
				}
				if reason != "" {
					break
				}
			}
		}
		// 2.1.332 records the rule code and where the rule came from
		// (reasonCode rule:cliArg / bashMiss:no-rule-match, ruleSource).
		if v := firstOf(d, "reasonCode"); v != "" {
			extra += " code=" + v
		}
		if v := firstOf(d, "ruleSource"); v != "" {
			extra += " rule=" + v
		}
	}
	if r.ToolDenialKind != "" {
		extra += " toolDenialKind=" + r.ToolDenialKind
	}
	t.emit(timeline.Event{TurnType: timeline.System, ToolUseID: firstID,
		Text: "permission decision: " + orDash(decision) + " source=" + orDash(source) + " reason=" + orDash(reason) + extra})
}

// firstOf returns the first key of d that holds a string (or, for an object,
// its "type").
func firstOf(d map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		v, ok := d[k]
		if !ok {
			continue
		}
		if s := parser.StringValue(v); s != "" {
			return s
		}
		var o map[string]json.RawMessage
		if json.Unmarshal(v, &o) == nil {
			if s := parser.StringValue(o["type"]); s != "" {
				return s
			}
		}
	}
	return ""
}

// assistant handles an assistant record: one or more content blocks of one
// API message.
func (t *transcript) assistant(r *record) {
	var m message
	if r.Message != nil {
		m = *r.Message
	}
	blocks := m.Content.Blocks
	if s := m.Content.Str; s != "" {
		blocks = []block{{Type: "text", Text: s}}
	}
	if r.IsAPIErrorMessage || m.Model == "<synthetic>" {
		var parts []string
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		text := strings.Join(parts, "\n")
		if r.IsAPIErrorMessage {
			text = "api error: " + text
		}
		t.sys(text)
		return
	}
	modelDone := false
	for i := range blocks {
		b := &blocks[i]
		if m.ID != "" {
			k := blockKey(m.ID, b)
			if t.seenBlock[k] {
				continue // the same block of a split message written again
			}
			t.seenBlock[k] = true
		}
		if !modelDone {
			modelDone = true
			t.modelRow(r, m.Model)
		}
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			t.emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: b.Text})
		case "thinking":
			t.emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: b.Thinking})
		case "redacted_thinking":
			t.emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: "[redacted thinking]"})
		case "tool_use", "server_tool_use", "mcp_tool_use":
			t.tools[b.ID] = b.Name
			t.emit(timeline.Event{TurnType: timeline.ToolUse, Model: m.Model, ToolName: b.Name,
				ToolUseID: b.ID, Text: toolText(b.Input), ToolInput: parser.CompactJSON(b.Input)})
		default:
			if b.ToolUseID != "" { // web_search_tool_result and kin
				isErr := "false"
				if b.IsError != nil && *b.IsError {
					isErr = "true"
				}
				t.emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: b.ToolUseID,
					ToolName: t.tools[b.ToolUseID], Text: b.Content.Text, IsError: isErr})
				continue
			}
			t.emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: "[" + b.Type + "]"})
		}
	}
}

// blockKey identifies one content block of one API message.
func blockKey(msgID string, b *block) uint64 {
	h := fnv.New64a()
	h.Write([]byte(msgID))
	h.Write([]byte{0})
	h.Write([]byte(b.Type))
	h.Write([]byte{0})
	h.Write([]byte(b.ID))
	h.Write([]byte{0})
	h.Write([]byte(b.Text))
	h.Write([]byte(b.Thinking))
	h.Write(b.Input)
	return h.Sum64()
}

// modelRow emits "model: <id>" at the first reply of a chain and
// "model: <old> -> <new>" on each change.
func (t *transcript) modelRow(r *record, model string) {
	if model == "" {
		return
	}
	chain := r.IsSidechain && t.subagentID == ""
	old := t.model[chain]
	if old == model {
		return
	}
	t.model[chain] = model
	text := "model: " + model
	if old != "" {
		text = "model: " + old + " -> " + model
	}
	if r.RequestedModel != "" && r.RequestedModel != model {
		text += " requested=" + r.RequestedModel
	}
	t.sys(text)
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

// system renders a system record.
func (t *transcript) system(r *record) {
	var extra []string
	if c := parser.JSONText(r.Content); c != "" {
		extra = append(extra, c)
	}
	if cm := r.CompactMetadata; cm != nil {
		extra = append(extra, "trigger="+cm.Trigger, "preTokens="+parser.JSONText(cm.PreTokens))
	}
	if e := errorText(r.Error); e != "" {
		extra = append(extra, "error="+e)
	}
	if a := parser.JSONText(r.RetryAttempt); a != "" {
		extra = append(extra, "retryAttempt="+a+"/"+orDash(parser.JSONText(r.MaxRetries)))
	}
	if ms := parser.JSONText(r.RetryInMs); ms != "" {
		extra = append(extra, "retryInMs="+ms)
	}
	if len(r.HookInfos) > 0 {
		var cmds []string
		for _, h := range r.HookInfos {
			cmds = append(cmds, h.Command)
		}
		extra = append(extra, "hooks="+strings.Join(cmds, " | "))
		if e := parser.CompactJSON(r.HookErrors); e != "" && e != "[]" {
			extra = append(extra, "hookErrors="+e)
		}
		if r.PreventedContinuation {
			extra = append(extra, "preventedContinuation=true stopReason="+r.StopReason)
		}
	}
	sub := r.Subtype
	if sub == "" {
		sub = "system"
	}
	t.sys(strings.TrimSpace(sub + ": " + strings.Join(extra, " ")))
}

// errorText returns an API error's message, else its JSON.
func errorText(raw json.RawMessage) string {
	if s := parser.StringValue(raw); s != "" {
		return s
	}
	var e struct {
		Message string `json:"message"`
		Error   struct {
			Message string `json:"message"`
			Error   struct {
				Message string `json:"message"`
			} `json:"error"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil {
		for _, s := range []string{e.Error.Error.Message, e.Error.Message, e.Message} {
			if s != "" {
				return s
			}
		}
	}
	return parser.CompactJSON(raw)
}

// attachment renders an attachment record (injected context).
func (t *transcript) attachment(raw json.RawMessage) {
	var a map[string]json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		t.sys("attachment")
		return
	}
	typ := parser.StringValue(a["type"])
	var detail string
	var list []string
	switch {
	case a["names"] != nil && json.Unmarshal(a["names"], &list) == nil:
		detail = strings.Join(list, ", ")
	case a["addedTypes"] != nil && json.Unmarshal(a["addedTypes"], &list) == nil:
		detail = strings.Join(list, ", ")
	case parser.StringValue(a["content"]) != "":
		detail = parser.StringValue(a["content"])
	default:
		delete(a, "type")
		b, _ := json.Marshal(a)
		detail = string(b)
	}
	t.sys("attachment " + typ + ": " + detail)
}

// envelopeKeys are common to every record and left out of generic rows.
var envelopeKeys = map[string]bool{"type": true, "sessionId": true, "uuid": true, "parentUuid": true,
	"timestamp": true, "cwd": true, "version": true, "gitBranch": true, "userType": true,
	"isSidechain": true, "entrypoint": true, "slug": true, "agentId": true}

// other renders a record of a type without its own wording as
// "<type>: <its keys as JSON>".
func (t *transcript) other(typ string, raw []byte) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if !envelopeKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+parser.JSONText(m[k]))
	}
	if typ == "" {
		typ = "record"
	}
	t.sys(strings.TrimSpace(typ + ": " + strings.Join(parts, " ")))
}
