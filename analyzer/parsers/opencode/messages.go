package opencode

import (
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sessionInfo is what the rows of one session share: the session record of
// the 1.x JSON tree, the export's info, or the session/session_v2 row.
type sessionInfo struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectID"`
	Directory string `json:"directory"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Version   string `json:"version"`
	Time      struct {
		Created  num `json:"created"`
		Updated  num `json:"updated"`
		Archived num `json:"archived"`
	} `json:"time"`
	Share *struct {
		URL string `json:"url"`
	} `json:"share"`
	Permission json.RawMessage `json:"permission"`
}

// msgInfo is a 1.x message (MessageV2.Info): the message table's data
// column, a storage/message file, or an export's messages[].info.
type msgInfo struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	Role      string `json:"role"`
	Time      struct {
		Created   num `json:"created"`
		Completed num `json:"completed"`
	} `json:"time"`
	ModelID    string    `json:"modelID"`
	ProviderID string    `json:"providerID"`
	Model      *modelRef `json:"model"`
	Path       *struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Summary json.RawMessage `json:"summary"`
	Error   *struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data"`
	} `json:"error"`
	Agent string `json:"agent"`
	Mode  string `json:"mode"`
	// Parts inline (the pre-1.0 message files and the export entries).
	Parts []json.RawMessage `json:"parts"`
}

type modelRef struct {
	ID         string `json:"id"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
}

func (m *modelRef) name() string {
	if m == nil {
		return ""
	}
	id := m.ModelID
	if id == "" {
		id = m.ID
	}
	return joinModel(m.ProviderID, id)
}

func joinModel(provider, model string) string {
	switch {
	case model == "":
		return ""
	case provider == "" || strings.HasPrefix(model, provider+"/"):
		return model
	}
	return provider + "/" + model
}

// part is a 1.x message part (MessageV2.Part).
type part struct {
	ID        string `json:"id"`
	MessageID string `json:"messageID"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	Time      *struct {
		Start   num `json:"start"`
		End     num `json:"end"`
		Created num `json:"created"`
	} `json:"time"`
	// tool
	CallID string     `json:"callID"`
	Tool   string     `json:"tool"`
	State  *toolState `json:"state"`
	// file
	Mime     string `json:"mime"`
	Filename string `json:"filename"`
	URL      string `json:"url"`
	// agent, subtask
	Name        string `json:"name"`
	Prompt      string `json:"prompt"`
	Description string `json:"description"`
	Agent       string `json:"agent"`
	// retry
	Attempt num             `json:"attempt"`
	Error   json.RawMessage `json:"error"`
	// compaction
	Auto bool `json:"auto"`
	// patch
	Files []string `json:"files"`
	// ZCode's earlier part shapes, Anthropic-style blocks: thinking
	// {thinking}, tool_use {id, name, input}, tool_result {tool_use_id,
	// content, is_error}
	Thinking  string          `json:"thinking"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

type toolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Raw      string          `json:"raw"`
	Output   json.RawMessage `json:"output"`
	Content  json.RawMessage `json:"content"`
	Error    json.RawMessage `json:"error"`
	Title    string          `json:"title"`
	Metadata json.RawMessage `json:"metadata"`
	Time     *struct {
		Start num `json:"start"`
		End   num `json:"end"`
	} `json:"time"`
}

// loc is where a record came from: a file (empty for the input itself)
// and a line, element index or rowid, and the RecordID its rows carry
// (the agent's own id of the record, "" where it keeps none).
type loc struct {
	file string
	line int64
	rid  string
}

// with is l for a row derived from the record: RecordID "<id><suffix>"
// (suffix "#result", "#decision", "#<n>"), or "" when the record has none.
func (l loc) with(suffix string) loc {
	if l.rid != "" {
		l.rid += suffix
	}
	return l
}

// id is l naming the record rid.
func (l loc) id(rid string) loc { l.rid = rid; return l }

// emitter turns one session's records into rows.
type emitter struct {
	out       parser.Sink
	agent     string
	secondary bool
	sess      string
	parent    string // the parent session of a subagent session
	project   string
	start     time.Time
	model     string // last model seen
	// subagents holds the "child\x00parent" pairs already given a row; a
	// database reader shares one map across its sessions.
	subagents map[string]bool
	// calls names the tool of each tool_use block's id, for the
	// tool_result block that answers it (ZCode's earlier part shapes)
	calls map[string]string
}

// subagent emits "subagent <child> of <parent>" once per pair.
func (e *emitter) subagent(t time.Time, l loc, child, parent string) {
	if e.subagents == nil {
		e.subagents = map[string]bool{}
	}
	k := child + "\x00" + parent
	if child == "" || parent == "" || e.subagents[k] {
		return
	}
	e.subagents[k] = true
	ev := e.base(t, l.id(child+"#subagent"))
	ev.TurnType, ev.Text = timeline.System, "subagent "+child+" of "+parent
	ev.SessionID, ev.ParentSessionID = child, parent
	e.out.Event(ev)
	e.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: e.agent, SessionID: child}, ParentSessionID: parent})
}

func (e *emitter) base(t time.Time, l loc) timeline.Event {
	ev := timeline.Event{SessionID: e.sess, ParentSessionID: e.parent, ProjectPath: e.project, SourceFile: l.file, SourceLine: l.line,
		RecordID: l.rid, Secondary: e.secondary}
	switch {
	case !t.IsZero():
		ev.Time = t
	case !e.start.IsZero():
		ev.Time, ev.TimeBasis = e.start, timeline.TimeInherited
	default:
		ev.TimeBasis = timeline.TimeNone
	}
	return ev
}

func (e *emitter) system(t time.Time, l loc, text string) {
	ev := e.base(t, l)
	ev.TurnType, ev.Text = timeline.System, text
	e.out.Event(ev)
}

// sessionRows emits the rows the session record itself gives. A child
// session (parentID) is a subagent's: its rows carry ParentSessionID.
func (e *emitter) sessionRows(s *sessionInfo, l loc) {
	t := msTime(int64(s.Time.Created))
	l = l.id(s.ID)
	if s.ParentID != "" && s.ParentID != s.ID {
		e.parent = s.ParentID
	}
	e.subagent(t, l, s.ID, s.ParentID)
	if s.Title != "" {
		e.system(t, l.with("#title"), "session title: "+s.Title)
	}
	if s.Share != nil && s.Share.URL != "" {
		e.synced(t, l.id(s.ID+"#synced:"+s.Share.URL), "share "+s.Share.URL)
	}
	if a := msTime(int64(s.Time.Archived)); !a.IsZero() {
		e.system(a, l.with("#archived"), "session archived")
	}
	e.rules(msTime(int64(s.Time.Updated)), l.with("#permission"), s.Permission, "session "+s.ID)
}

// synced emits a "session synced:" row and the session's sync state.
func (e *emitter) synced(t time.Time, l loc, what string) {
	e.system(t, l, "session synced: "+what)
	e.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: e.agent, SessionID: e.sess}, Synced: "yes"})
}

// rule is one Permission.Ruleset entry.
type rule struct {
	Permission string `json:"permission"`
	Pattern    string `json:"pattern"`
	Action     string `json:"action"`
}

// rules emits one "permission setting:" row per rule of a ruleset (an
// array of {permission, pattern, action}, or the older config-shaped
// object).
func (e *emitter) rules(t time.Time, l loc, raw json.RawMessage, from string) {
	raw = trimRaw(raw)
	if len(raw) == 0 {
		return
	}
	var rs []rule
	if raw[0] == '[' {
		if json.Unmarshal(raw, &rs) != nil {
			return
		}
		for i, r := range rs {
			key := r.Permission
			if r.Pattern != "" {
				key += " " + r.Pattern
			}
			e.system(t, l.with("-"+itoa(int64(i))), "permission setting: "+key+"="+r.Action+" (from "+from+")")
		}
		return
	}
	for i, kv := range flattenPermission("", raw) {
		e.system(t, l.with("-"+itoa(int64(i))), "permission setting: "+kv+" (from "+from+")")
	}
}

// message emits the rows of one 1.x message and its parts. l names the
// message record (RecordID the message id); each part's rows carry the
// part id. A message with no part at all (the part rows lost in a
// migration, opencode #13818) gives one system row saying so.
func (e *emitter) message(m *msgInfo, parts []partRec, l loc) {
	created := msTime(int64(m.Time.Created))
	if m.Role == "assistant" && m.Path != nil && m.Path.Cwd != "" {
		e.project = m.Path.Cwd
	}
	model := ""
	if m.Role == "assistant" {
		model = joinModel(m.ProviderID, m.ModelID)
		if model == "" {
			model = m.Model.name()
		}
	}
	own := 0 // rows of the message record itself
	if e.modelRow(created, l, model) {
		own++
	}
	summary := m.Role == "assistant" && strings.TrimSpace(string(m.Summary)) == "true"
	for i := range parts {
		e.partOf(m.Role, &parts[i], created, model, summary)
	}
	if m.Error != nil && m.Error.Name != "" {
		t := msTime(int64(m.Time.Completed))
		if t.IsZero() {
			t = created
		}
		msg := errMessage(m.Error.Data)
		text := "error: " + m.Error.Name
		if msg != "" {
			text += ": " + msg
		}
		e.system(t, l.with("#error"), text)
		own++
	}
	switch {
	case len(parts) == 0 && own == 0:
		role := m.Role
		if role == "" {
			role = "unknown"
		}
		e.system(created, l.with("#noparts"), "message without parts: role="+role+" (its part rows are gone)")
	case own == 0 && l.file == "":
		e.out.Skip(l.line, "state_only:message")
	}
}

// modelRow emits "model: <id>" for the first model and "model: <old> ->
// <new>" on each change, and reports whether it gave a row. Its text
// depends on the messages before it, so it carries no RecordID (the
// engine merges copies by full value).
func (e *emitter) modelRow(t time.Time, l loc, model string) bool {
	if model == "" || model == e.model {
		return false
	}
	l.rid = ""
	if e.model == "" {
		e.system(t, l, "model: "+model)
	} else {
		e.system(t, l, "model: "+e.model+" -> "+model)
	}
	e.model = model
	return true
}

type partRec struct {
	p       part
	loc     loc
	created time.Time // the part row's time_created, when there is one
	// out, when set, is the sink the part's rows go to (a recovered
	// part's: parser.RecoveredSink)
	out parser.Sink
}

// partOf emits the rows of pr (through its own sink when it has one).
func (e *emitter) partOf(role string, pr *partRec, msgTime time.Time, model string, summary bool) {
	if pr.out != nil {
		keep := e.out
		e.out = pr.out
		defer func() { e.out = keep }()
	}
	e.part(role, &pr.p, pr.loc, msgTime, pr.created, model, summary)
}

// skip accounts for a record of the input that gives no row.
func (e *emitter) skip(l loc, reason string) {
	if l.file == "" {
		e.out.Skip(l.line, reason)
	}
}

// part emits the rows of one part of a message with the given role ("" when
// the message record is gone: an orphaned part).
func (e *emitter) part(role string, p *part, l loc, msgTime, rowTime time.Time, model string, summary bool) {
	pick := func(ts ...num) time.Time {
		for _, v := range ts {
			if t := msTime(int64(v)); !t.IsZero() {
				return t
			}
		}
		if !rowTime.IsZero() {
			return rowTime
		}
		return msgTime
	}
	var start num
	if p.Time != nil {
		start = p.Time.Start
		if start == 0 {
			start = p.Time.Created
		}
	}
	switch p.Type {
	case "text":
		if strings.TrimSpace(p.Text) == "" {
			e.skip(l, "empty_text")
			return
		}
		ev := e.base(pick(start), l)
		ev.Text = p.Text
		switch {
		case summary:
			ev.TurnType, ev.Text = timeline.System, "compaction summary: "+p.Text
		case p.Synthetic:
			ev.TurnType = timeline.System
		case role == "user" && e.parent != "":
			// the prompt the parent session's model wrote for this subagent
			ev.TurnType, ev.Text = timeline.System, "subagent task: "+p.Text
		case role == "user":
			ev.TurnType = timeline.User
		case role == "":
			ev.TurnType, ev.Text = timeline.System, "text of a message whose record is gone (role unknown): "+p.Text
		default:
			ev.TurnType, ev.Model = timeline.Assistant, model
		}
		e.out.Event(ev)
	case "reasoning":
		if strings.TrimSpace(p.Text) == "" {
			e.skip(l, "no_evidence:encrypted reasoning")
			return
		}
		ev := e.base(pick(start), l)
		ev.TurnType, ev.Text, ev.Model = timeline.Thinking, p.Text, model
		e.out.Event(ev)
	case "tool":
		e.tool(p, l, pick, model)
	case "file":
		name := p.Filename
		if name == "" && strings.HasPrefix(p.URL, "file://") {
			name = strings.TrimPrefix(p.URL, "file://")
		}
		text := "attachment: " + name
		if p.Mime != "" {
			text += " (" + p.Mime + ")"
		}
		e.system(pick(start), l, text)
	case "agent":
		e.system(pick(start), l, "agent mention: "+p.Name)
	case "subtask":
		text := "subtask: agent=" + p.Agent
		if p.Description != "" {
			text += " " + p.Description
		}
		if p.Prompt != "" {
			text += ": " + p.Prompt
		}
		e.system(pick(start), l, text)
	case "compaction":
		if p.Auto {
			e.system(pick(start), l, "compaction: auto")
		} else {
			e.system(pick(start), l, "compaction: requested")
		}
	case "retry":
		text := "retry: attempt " + itoa(int64(p.Attempt))
		if msg := errMessage(p.Error); msg != "" {
			text += ": " + msg
		}
		e.system(pick(start), l, text)
	case "thinking":
		if p.Text == "" {
			p.Text = p.Thinking
		}
		if strings.TrimSpace(p.Text) == "" {
			e.skip(l, "no_evidence:empty thinking")
			return
		}
		ev := e.base(pick(start), l)
		ev.TurnType, ev.Text, ev.Model = timeline.Thinking, p.Text, model
		e.out.Event(ev)
	case "tool_use":
		// a call whose result is a tool_result block of a later message
		if e.calls == nil {
			e.calls = map[string]string{}
		}
		e.calls[p.CallID] = p.Name
		c := *p
		c.Tool, c.State = p.Name, &toolState{Status: "pending", Input: p.Input}
		e.tool(&c, l, pick, model)
	case "tool_result":
		ev := e.base(pick(start), l)
		ev.TurnType, ev.ToolName, ev.ToolUseID = timeline.ToolResult, e.calls[p.ToolUseID], p.ToolUseID
		ev.IsError, ev.Text = fmt.Sprint(p.IsError), contentText(p.Content)
		e.out.Event(ev)
	case "step-start", "step-finish", "snapshot", "patch":
		e.skip(l, "no_evidence:"+p.Type)
	default:
		e.skip(l, "no_evidence:part "+p.Type)
	}
}

// tool emits a tool part: the call (RecordID the part id), its result
// ("#result"), a denial ("#decision") and, for a task call, the subagent
// row of the session it started.
func (e *emitter) tool(p *part, l loc, pick func(...num) time.Time, model string) {
	st := p.State
	if st == nil {
		st = &toolState{}
	}
	var ts, te num
	if st.Time != nil {
		ts, te = st.Time.Start, st.Time.End
	}
	input := trimRaw(st.Input)
	if len(input) > 0 && input[0] == '"' && st.Raw == "" {
		// a pending V2 input is the raw argument text
		input = []byte(parser.CompactJSON([]byte(parser.JSONText(input))))
	}
	use := e.base(pick(ts), l)
	use.TurnType, use.ToolName, use.ToolUseID, use.Model = timeline.ToolUse, p.Tool, p.CallID, model
	use.ToolInput = parser.CompactJSON(input)
	use.Text = toolArg(p.Tool, input)
	if use.Text == "" {
		use.Text = st.Title
	}
	e.out.Event(use)
	switch st.Status {
	case "completed", "error":
	default:
		return // pending or running: the call never finished
	}
	res := e.base(pick(te, ts), l.with("#result"))
	res.TurnType, res.ToolName, res.ToolUseID = timeline.ToolResult, p.Tool, p.CallID
	if st.Status == "error" {
		res.IsError = "true"
		res.Text = errMessage(st.Error)
	} else {
		res.IsError = fmt.Sprint(p.Tool == "invalid")
		res.Text = parser.JSONText(st.Output)
		if res.Text == "" {
			res.Text = contentText(st.Content)
		}
	}
	e.out.Event(res)
	if p.Tool == "task" {
		var md struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(trimRaw(st.Metadata), &md) == nil && md.SessionID != "" {
			sub := e.base(pick(ts), l)
			e.subagent(sub.Time, l, md.SessionID, e.sess)
		}
	}
	if st.Status == "error" {
		if d := denial(res.Text); d != "" {
			ev := e.base(pick(te, ts), l.with("#decision"))
			ev.TurnType, ev.ToolName, ev.ToolUseID = timeline.System, p.Tool, p.CallID
			ev.Text = "permission decision: denied source=" + d
			e.out.Event(ev)
		}
	}
}

// denial recognises OpenCode's permission errors: the user's reject
// (PermissionNext.RejectedError) and a configured deny rule
// (DeniedError).
func denial(msg string) string {
	l := strings.ToLower(msg)
	switch {
	case strings.Contains(l, "user rejected permission"), strings.Contains(l, "user dismissed"):
		return "user"
	case strings.Contains(l, "rule which prevents you from using"):
		return "config"
	}
	return ""
}

var patchFileRe = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)

// toolArg is the call's most identifying argument: the command, file path,
// URL, pattern or query; apply_patch's file names; a question's text.
func toolArg(tool string, input json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	if pt, ok := m["patchText"].(string); ok {
		var files []string
		for _, f := range patchFileRe.FindAllStringSubmatch(pt, -1) {
			files = append(files, strings.TrimSpace(f[1]))
		}
		return strings.Join(files, ", ")
	}
	if tool == "invalid" {
		// OpenCode's stand-in for a call to a tool it does not offer (one
		// a deny rule removed, or a made-up name); the arguments are lost
		if s, ok := m["tool"].(string); ok {
			return s
		}
	}
	if qs, ok := m["questions"].([]any); ok && len(qs) > 0 {
		if q, ok := qs[0].(map[string]any); ok {
			if s, ok := q["question"].(string); ok {
				return s
			}
		}
	}
	for _, k := range []string{"command", "cmd", "filePath", "file_path", "path", "url", "pattern", "query", "description", "prompt", "name"} {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// errMessage renders an error value: a string, {message}, {data:{message}}
// or {name, data}.
func errMessage(raw json.RawMessage) string {
	raw = trimRaw(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return parser.JSONText(raw)
	}
	var v struct {
		Name    string          `json:"name"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return parser.CompactJSON(raw)
	}
	if v.Message != "" {
		return v.Message
	}
	if d := errMessage(v.Data); d != "" {
		return d
	}
	if v.Name != "" {
		return v.Name
	}
	return parser.CompactJSON(raw)
}

// contentText joins the text of a V2 tool output content array.
func contentText(raw json.RawMessage) string {
	raw = trimRaw(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return parser.JSONText(raw)
	}
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return parser.CompactJSON(raw)
	}
	var b []string
	for _, it := range items {
		if it.Text != "" {
			b = append(b, it.Text)
		}
	}
	return strings.Join(b, "\n")
}

func trimRaw(raw json.RawMessage) json.RawMessage {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil
	}
	return json.RawMessage(s)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
