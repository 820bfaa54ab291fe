package vscode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ResponseModelState values (chatService.ts).
const (
	stateCancelled = 2
	stateFailed    = 3
)

// parseChatSession reads one chat session file: the .json form
// (ISerializableChatData, also what "Export Chat" writes) or the .jsonl
// mutation log, which is replayed first so that only the final state of
// each request gives rows.
func parseChatSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	ss, isLog, err := loadSession(ctx, in, out)
	if err != nil || ss == nil {
		return err
	}
	e := &sessionEmitter{in: in, out: out, root: ss.root, reqLine: ss.reqLine, isLog: isLog, rowLines: map[int64]bool{}}
	e.run(ctx)
	e.removed(ss.removed)
	// Every applied log line is accounted for: the lines that wrote no
	// request whole were folded into the replayed state.
	for _, n := range ss.applied {
		if !e.rowLines[n] {
			out.Skip(n, "state_only")
			e.rowLines[n] = true
		}
	}
	e.state()
	return ctx.Err()
}

// loadSession returns the session object and each request's source line.
// A file that is not named .jsonl is still replayed when its first value
// is a mutation log entry.
func loadSession(ctx context.Context, in *parser.Input, out parser.Sink) (*session, bool, error) {
	asLog := strings.HasSuffix(in.Path, ".jsonl")
	if !asLog {
		rc, err := in.Open()
		if err != nil {
			return nil, false, fmt.Errorf("open %s: %w", in.Path, err)
		}
		v, err := decodeAny(rc)
		rc.Close()
		if errors.Is(err, io.EOF) {
			out.Problem(0, "empty file")
			return nil, false, nil
		}
		if err != nil {
			out.Problem(0, parser.NotJSON("", err))
			return nil, false, nil
		}
		m := obj(v)
		if m == nil {
			out.Problem(0, parser.NotJSONObject("", nil))
			return nil, false, nil
		}
		if _, ok := m["kind"]; !ok || m["requests"] != nil {
			lines := make([]int64, len(arr(m["requests"])))
			for i := range lines {
				lines[i] = int64(i + 1)
			}
			return &session{root: m, reqLine: lines}, false, nil
		}
		// A mutation log under another name.
	}
	rc, err := in.Open()
	if err != nil {
		return nil, true, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	s, err := replayLog(ctx, rc, out)
	if err != nil {
		return nil, true, err
	}
	if s == nil {
		out.Problem(0, "no initial (kind 0) entry: empty or unreadable log")
		return nil, true, nil
	}
	return s, true, nil
}

type sessionEmitter struct {
	in      *parser.Input
	out     parser.Sink
	root    map[string]any
	reqLine []int64
	isLog   bool

	sid, project string
	created      time.Time
	model        string

	// rid is the current record's id ("<session>:<requestId>", or
	// "<session>#session" for the session's own rows); k counts its rows.
	rid      string
	k        int
	rowLines map[int64]bool
}

// emit writes a row of the current record, record id "<rid>#<k>".
func (e *sessionEmitter) emit(ev timeline.Event) {
	ev.SessionID = e.sid
	ev.ProjectPath = e.project
	if e.rid != "" && ev.RecordID == "" {
		ev.RecordID = e.rid + "#" + strconv.Itoa(e.k)
		e.k++
	}
	e.rowLines[ev.SourceLine] = true
	e.out.Event(ev)
}

// record starts the rows of one record.
func (e *sessionEmitter) record(id string) { e.rid, e.k = id, 0 }

// removed writes the requests a later log entry took out of the session,
// each followed by a system row saying so.
func (e *sessionEmitter) removed(rs []removedRequest) {
	for _, r := range rs {
		e.request(r.req, r.line)
		t, basis := time.Time{}, timeline.TimeNone
		if rt, ok := epochMs(r.req["timestamp"]); ok {
			t, basis = rt, timeline.TimeInherited
		}
		rid := ""
		if e.rid != "" {
			rid = e.rid + "#removed"
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, SourceLine: r.by, RecordID: rid,
			Text: fmt.Sprintf("request removed from the session by mutation log line %d (edited, undone or rewound in VS Code)", r.by)})
	}
}

// state records what the files tell of the session: it ran in this VS
// Code (origin local), and, when Copilot Chat's cloudSessions.json of the
// same editor was collected, whether it was uploaded (a session it lists
// is recorded synced yes by vscode/cloud-sessions; one it does not list
// reads synced no).
func (e *sessionEmitter) state() {
	st := timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: e.sid}, Origin: "local"}
	if p := cloudSessionsPath(e.in.Path); p != "" {
		if rc, err := e.in.OpenRelated(p); err == nil {
			b, err := readAllLimited(rc)
			rc.Close()
			if v, derr := decodeBytes(b); err == nil && derr == nil && obj(v) != nil {
				if _, listed := obj(v)[e.sid]; !listed {
					st.Synced = "no"
				}
			}
		}
	}
	e.out.Session(st)
}

// cloudSessionsPath is the editor's
// User/globalStorage/github.copilot-chat/cloudSessions.json for a chat
// session file under User/, or "".
func cloudSessionsPath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	for _, d := range []string{"/workspaceStorage/", "/globalStorage/"} {
		if i := strings.Index(p, d); i >= 0 {
			return p[:i] + "/globalStorage/github.copilot-chat/cloudSessions.json"
		}
	}
	return ""
}

func (e *sessionEmitter) run(ctx context.Context) {
	e.sid = str(e.root["sessionId"])
	if e.sid == "" {
		b := base(e.in.Path)
		e.sid = strings.TrimSuffix(strings.TrimSuffix(b, ".jsonl"), ".json")
	}
	if d := storageDir(e.in.Path); d != "" && strings.Contains(e.in.Path, "/chatSessions/") && !strings.Contains(e.in.Path, "/workspaceStorage/no-workspace/") {
		e.project = workspaceProject(e.in, d)
	}
	e.created, _ = epochMs(e.root["creationDate"])

	reqs := arr(e.root["requests"])
	headLine := int64(0)
	if e.isLog {
		headLine = 1
	}
	headT, headB := e.created, timeline.TimeRecorded
	if headT.IsZero() {
		headB = timeline.TimeNone
		for _, r := range reqs {
			if t, ok := epochMs(get(r, "timestamp")); ok {
				headT, headB = t, timeline.TimeInherited
				break
			}
		}
	}
	head := func(word, text string) {
		e.emit(timeline.Event{Time: headT, TimeBasis: headB, TurnType: timeline.System, Text: text, SourceLine: headLine, RecordID: e.sid + "#" + word})
	}
	p := e.in.Path
	switch {
	case strings.Contains(p, "/transferredChatSessions/"):
		head("transferred", "chat session: transferred to another workspace (globalStorage/transferredChatSessions)")
	case strings.Contains(p, "/emptyWindowChatSessions/"), strings.Contains(p, "/workspaceStorage/no-workspace/"):
		head("empty-window", "chat session: empty window, no folder open ("+emptyWhere(p)+")")
	}
	if t := str(e.root["customTitle"]); t != "" {
		head("title", "session title: "+t)
	}
	if len(reqs) == 0 {
		head("no-requests", "chat session: no requests")
		return
	}
	for i, r := range reqs {
		if ctx.Err() != nil {
			return
		}
		req := obj(r)
		if req == nil {
			continue
		}
		line := int64(i + 1)
		if i < len(e.reqLine) {
			line = e.reqLine[i]
		}
		e.request(req, line)
	}
}

func emptyWhere(p string) string {
	if strings.Contains(p, "/workspaceStorage/no-workspace/") {
		return "workspaceStorage/no-workspace/chatSessions"
	}
	return "globalStorage/emptyWindowChatSessions"
}

// request emits one request's rows in order: the prompt, its attachments,
// a model row when the model changes, the response parts, then cancel and
// error rows.
func (e *sessionEmitter) request(req map[string]any, line int64) {
	e.record("")
	if id := str(req["requestId"]); id != "" {
		e.record(e.sid + ":" + id)
	}
	t, basis := time.Time{}, timeline.TimeRecorded
	if rt, ok := epochMs(req["timestamp"]); ok {
		t = rt
	} else if !e.created.IsZero() {
		t, basis = e.created, timeline.TimeInherited
	} else {
		basis = timeline.TimeNone
	}
	inh := basis
	if inh == timeline.TimeRecorded {
		inh = timeline.TimeInherited
	}
	sys := func(text string, tb timeline.TimeBasis) {
		e.emit(timeline.Event{Time: t, TimeBasis: tb, TurnType: timeline.System, Text: text, SourceLine: line})
	}

	msg := req["message"]
	prompt := text(msg)
	if m := obj(msg); m != nil {
		prompt = str(m["text"])
	}
	if strings.TrimSpace(prompt) != "" {
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.User, Text: prompt, SourceLine: line})
	}
	for _, v := range arr(get(req, "variableData", "variables")) {
		vm := obj(v)
		if vm == nil {
			continue
		}
		name := str(vm["name"])
		if name == "" {
			name = str(vm["id"])
		}
		desc := strings.TrimSpace(str(vm["kind"]) + " " + name)
		if p := uriValue(vm["value"]); p != "" && !strings.Contains(name, p) {
			desc += " " + p
		}
		sys("attachment: "+desc, basis)
	}

	model := str(req["modelId"])
	if model == "" {
		model = str(get(req, "result", "metadata", "resolvedModel"))
	}
	if model != "" && model != e.model {
		txt := "model: " + model
		if e.model != "" {
			txt = "model: " + e.model + " -> " + model
		}
		e.emit(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, Model: model, Text: txt, SourceLine: line})
		e.model = model
	}

	r := &responseWalker{e: e, t: t, basis: inh, line: line, model: model}
	r.walk(req)

	end, endB := t, inh
	if ct, ok := epochMs(get(req, "modelState", "completedAt")); ok {
		end, endB = ct, timeline.TimeRecorded
	}
	state, hasState := num(get(req, "modelState", "value"))
	if isTrue(req["isCanceled"]) || hasState && int(state) == stateCancelled {
		e.emit(timeline.Event{Time: end, TimeBasis: endB, TurnType: timeline.System, Text: "request canceled", SourceLine: line})
	}
	if ed := obj(get(req, "result", "errorDetails")); ed != nil {
		txt := "request error: " + str(ed["message"])
		if c := str(ed["code"]); c != "" {
			txt += " (code " + c + ")"
		}
		e.emit(timeline.Event{Time: end, TimeBasis: endB, TurnType: timeline.System, Text: txt, SourceLine: line})
	} else if hasState && int(state) == stateFailed {
		e.emit(timeline.Event{Time: end, TimeBasis: endB, TurnType: timeline.System, Text: "request failed", SourceLine: line})
	}
}

// toolCall is one model-side call from result.metadata.toolCallRounds.
type toolCall struct {
	id, name, args string
}

type responseWalker struct {
	e     *sessionEmitter
	t     time.Time
	basis timeline.TimeBasis
	line  int64
	model string
	md    strings.Builder
}

func (r *responseWalker) row(ev timeline.Event) {
	ev.Time, ev.TimeBasis, ev.SourceLine = r.t, r.basis, r.line
	r.e.emit(ev)
}

func (r *responseWalker) flush() {
	if s := r.md.String(); strings.TrimSpace(s) != "" {
		r.row(timeline.Event{TurnType: timeline.Assistant, Model: r.model, Text: s})
	}
	r.md.Reset()
}

// skippedParts are response parts that carry no evidence of their own
// (UI hints, stop markers) or are shown through another part.
var skippedParts = map[string]bool{
	"prepareToolInvocation": true, "undoStop": true, "codeblockUri": true,
	"clearToPreviousToolInvocation": true, "mcpServersStarting": true,
	"command": true, "progressMessage": true, "treeData": true,
	"disabledClaudeHooks": true, "questionCarousel": true,
}

func (r *responseWalker) walk(req map[string]any) {
	parts := arr(req["response"])
	meta := obj(get(req, "result", "metadata"))
	var calls []toolCall
	for _, round := range arr(meta["toolCallRounds"]) {
		for _, c := range arr(get(round, "toolCalls")) {
			cm := obj(c)
			if cm == nil {
				continue
			}
			calls = append(calls, toolCall{id: str(cm["id"]), name: str(cm["name"]), args: str(cm["arguments"])})
		}
	}
	results := obj(meta["toolCallResults"])
	next := 0 // next model-side call to pair with a tool part
	for _, p := range parts {
		pm := obj(p)
		if pm == nil {
			if s, ok := p.(string); ok {
				r.md.WriteString(s)
			}
			continue
		}
		kind := str(pm["kind"])
		switch kind {
		case "":
			r.md.WriteString(text(pm))
		case "markdownContent", "markdownVuln":
			r.md.WriteString(text(pm["content"]))
		case "inlineReference":
			name := str(pm["name"])
			if name == "" {
				name = uriValue(pm["inlineReference"])
			}
			r.md.WriteString(name)
		case "thinking":
			r.flush()
			var s string
			if a := arr(pm["value"]); a != nil {
				var b []string
				for _, x := range a {
					b = append(b, str(x))
				}
				s = strings.Join(b, "")
			} else {
				s = text(pm["value"])
			}
			if strings.TrimSpace(s) != "" {
				r.row(timeline.Event{TurnType: timeline.Thinking, Model: r.model, Text: s})
			}
		case "toolInvocationSerialized", "toolInvocation":
			r.flush()
			sub := str(pm["subAgentInvocationId"]) != "" || isTrue(pm["fromSubAgent"])
			if !sub && next < len(calls) {
				r.modelCall(calls[next], results, pm)
				next++
			} else {
				r.partCall(pm)
			}
		default:
			if skippedParts[kind] {
				continue
			}
			r.flush()
			if s := partText(kind, pm); s != "" {
				r.row(timeline.Event{TurnType: timeline.System, Text: s})
			}
		}
	}
	r.flush()
	for ; next < len(calls); next++ {
		r.modelCall(calls[next], results, nil)
	}
}

// partText renders a non-text response part as a system row.
func partText(kind string, pm map[string]any) string {
	switch kind {
	case "progressTaskSerialized", "progressTask":
		return "progress: " + text(pm["content"])
	case "textEditGroup":
		return fmt.Sprintf("file edit: %s (%d edits)", uriValue(pm["uri"]), len(arr(pm["edits"])))
	case "notebookEditGroup":
		return fmt.Sprintf("notebook edit: %s (%d edits)", uriValue(pm["uri"]), len(arr(pm["edits"])))
	case "warning":
		return "warning: " + text(pm["content"])
	case "confirmation":
		return strings.TrimSpace("confirmation: " + text(pm["title"]) + " " + text(pm["message"]))
	case "elicitationSerialized", "elicitation":
		return strings.TrimSpace(fmt.Sprintf("elicitation: %s %s state=%s", text(pm["title"]), text(pm["message"]), str(pm["state"])))
	case "pullRequest":
		return strings.TrimSpace("pull request: " + str(pm["title"]) + " " + uriValue(pm["uri"]))
	case "multiDiffData":
		return "multi diff: " + text(get(pm, "multiDiffData", "title"))
	case "workspaceEdit":
		return fmt.Sprintf("workspace edit: %d file operations", len(arr(get(pm, "edits"))))
	case "extensions":
		return "extensions: " + parser.JSONValue(pm["extensions"])
	}
	return "response part " + kind
}

// modelCall emits a call from toolCallRounds with its result from
// toolCallResults; the paired tool part (when any) supplies is-error.
func (r *responseWalker) modelCall(c toolCall, results map[string]any, part map[string]any) {
	input := compactString(c.args)
	var args map[string]any
	if v, err := decodeBytes([]byte(c.args)); err == nil {
		args = obj(v)
	}
	txt := toolText(args)
	if txt == "" && part != nil {
		txt = partCallText(part)
	}
	r.row(timeline.Event{TurnType: timeline.ToolUse, Model: r.model, ToolName: c.name, ToolUseID: c.id, Text: txt, ToolInput: input})
	if part != nil {
		r.decision(part, c.name, c.id)
	}
	res, ok := results[c.id]
	var out string
	if ok {
		out = resultText(res)
	} else if part != nil && (isTrue(part["isComplete"]) || part["resultDetails"] != nil) {
		out = partResultText(part)
		ok = true
	}
	if !ok {
		return
	}
	isErr := "false"
	if part != nil && partIsError(part) {
		isErr = "true"
	}
	r.row(timeline.Event{TurnType: timeline.ToolResult, ToolName: c.name, ToolUseID: c.id, Text: out, IsError: isErr})
}

// partCall emits a tool call known only from its toolInvocationSerialized
// part (no toolCallRounds: an export, a canceled request, a sub-agent).
func (r *responseWalker) partCall(pm map[string]any) {
	id, name := str(pm["toolCallId"]), str(pm["toolId"])
	r.row(timeline.Event{TurnType: timeline.ToolUse, Model: r.model, ToolName: name, ToolUseID: id, Text: partCallText(pm), ToolInput: partInput(pm)})
	r.decision(pm, name, id)
	if !isTrue(pm["isComplete"]) && pm["resultDetails"] == nil {
		return
	}
	isErr := "false"
	if partIsError(pm) {
		isErr = "true"
	}
	r.row(timeline.Event{TurnType: timeline.ToolResult, ToolName: name, ToolUseID: id, Text: partResultText(pm), IsError: isErr})
}

// confirmKinds are ToolConfirmKind values (chatService.ts) as decisions.
var confirmKinds = map[int]string{0: "denied", 1: "not-needed", 2: "setting", 3: "standing-approval", 4: "user", 5: "skipped"}

// decision emits a tool part's isConfirmed (a ConfirmedReason, or a
// boolean before 1.104) as "permission decision: <decision> source=<source>".
func (r *responseWalker) decision(pm map[string]any, name, id string) {
	var dec, src string
	switch x := pm["isConfirmed"].(type) {
	case bool:
		dec, src = "denied", "user"
		if x {
			dec = "approved"
		}
	case map[string]any:
		f, ok := num(x["type"])
		if !ok {
			return
		}
		dec = confirmKinds[int(f)]
		if dec == "" {
			dec = "type " + str(x["type"])
		}
		for _, k := range []string{"scope", "id", "selectedButton", "reason"} {
			if s := text(x[k]); s != "" {
				src = s
				break
			}
		}
	default:
		return
	}
	txt := "permission decision: " + dec
	if src != "" {
		txt += " source=" + src
	}
	r.row(timeline.Event{TurnType: timeline.System, ToolName: name, ToolUseID: id, Text: txt})
}

// terminalCommand returns a terminal tool's command line (the user's
// edit, else the tool's edit, else the original; legacy "command").
func terminalCommand(tsd map[string]any) string {
	if str(tsd["kind"]) != "terminal" {
		return ""
	}
	if cl := obj(tsd["commandLine"]); cl != nil {
		for _, k := range []string{"userEdited", "toolEdited", "original"} {
			if s := str(cl[k]); s != "" {
				return s
			}
		}
	}
	return str(tsd["command"])
}

func partInput(pm map[string]any) string {
	tsd := obj(pm["toolSpecificData"])
	if raw, ok := tsd["rawInput"]; ok && raw != nil {
		return parser.JSONValue(raw)
	}
	if in := str(get(pm, "resultDetails", "input")); in != "" {
		return compactString(in)
	}
	if c := terminalCommand(tsd); c != "" {
		return parser.JSONValue(map[string]any{"command": c})
	}
	return ""
}

func partCallText(pm map[string]any) string {
	tsd := obj(pm["toolSpecificData"])
	if c := terminalCommand(tsd); c != "" {
		return c
	}
	if s := toolText(obj(tsd["rawInput"])); s != "" {
		return s
	}
	if in := str(get(pm, "resultDetails", "input")); in != "" {
		if v, err := decodeBytes([]byte(in)); err == nil {
			if s := toolText(obj(v)); s != "" {
				return s
			}
		}
	}
	return text(pm["invocationMessage"])
}

func partIsError(pm map[string]any) bool {
	if isTrue(get(pm, "resultDetails", "isError")) {
		return true
	}
	tsd := obj(pm["toolSpecificData"])
	if code, ok := num(get(tsd, "terminalCommandState", "exitCode")); ok && code != 0 {
		return true
	}
	return false
}

// partResultText renders a tool part's result: the output values of
// resultDetails, the URIs it lists, a terminal's output and exit code, or
// the past-tense message.
func partResultText(pm map[string]any) string {
	var b []string
	rd := pm["resultDetails"]
	if a := arr(rd); a != nil {
		for _, x := range a {
			if p := uriValue(x); p != "" {
				b = append(b, p)
			}
		}
	}
	for _, o := range arr(get(rd, "output")) {
		om := obj(o)
		if om == nil {
			continue
		}
		if s := str(om["value"]); s != "" && (om["isText"] == nil || isTrue(om["isText"])) {
			b = append(b, s)
		} else if mt := str(om["mimeType"]); mt != "" {
			b = append(b, "[data "+mt+"]")
		}
	}
	if o := obj(get(rd, "output")); o != nil {
		if mt := str(o["mimeType"]); mt != "" {
			b = append(b, "[data "+mt+"]")
		}
	}
	tsd := obj(pm["toolSpecificData"])
	if s := str(get(tsd, "terminalCommandOutput", "text")); s != "" {
		b = append(b, s)
	}
	if code, ok := num(get(tsd, "terminalCommandState", "exitCode")); ok {
		b = append(b, fmt.Sprintf("exit code %d", int(code)))
	}
	if len(b) == 0 {
		if s := text(pm["pastTenseMessage"]); s != "" {
			b = append(b, s)
		}
	}
	return strings.Join(b, "\n")
}

// resultText renders a toolCallResults value (a LanguageModelToolResult:
// {content: [{value} | {mimeType, data}]}).
func resultText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b []string
	for _, c := range arr(get(v, "content")) {
		cm := obj(c)
		if cm == nil {
			if s, ok := c.(string); ok {
				b = append(b, s)
			}
			continue
		}
		switch x := cm["value"].(type) {
		case string:
			b = append(b, x)
		case nil:
			if mt := str(cm["mimeType"]); mt != "" {
				b = append(b, "[data "+mt+"]")
			}
		default:
			b = append(b, parser.JSONValue(x))
		}
	}
	if len(b) == 0 {
		return parser.JSONValue(v)
	}
	return strings.Join(b, "\n")
}

// toolText picks a call's most identifying argument: the shell command,
// the file path, the URL, the pattern or query.
func toolText(args map[string]any) string {
	for _, k := range []string{"command", "commandLine", "cmd", "filePath", "file_path", "path", "uri", "url", "urls", "query", "pattern", "includePattern", "glob", "dirPath", "files", "filePaths", "prompt", "description", "title", "name"} {
		v, ok := args[k]
		if !ok {
			continue
		}
		if s := str(v); s != "" {
			return s
		}
		if a := arr(v); len(a) > 0 {
			var ss []string
			for _, x := range a {
				if s := str(x); s != "" {
					ss = append(ss, s)
				}
			}
			if len(ss) > 0 {
				return strings.Join(ss, " ")
			}
		}
	}
	return ""
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
