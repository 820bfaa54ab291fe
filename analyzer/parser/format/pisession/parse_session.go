package pisession

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// entry is one line of a pi session file (SessionHeader or SessionEntry).
type entry struct {
	Type          string          `json:"type"`
	ID            string          `json:"id"`
	ParentID      *string         `json:"parentId"`
	Timestamp     string          `json:"timestamp"`
	Cwd           string          `json:"cwd"`
	Version       int             `json:"version"`
	ParentSession string          `json:"parentSession"`
	Message       *message        `json:"message"`
	Provider      string          `json:"provider"`
	ModelID       string          `json:"modelId"`
	Model         string          `json:"model"` // OhMyPi's model_change: "provider/modelId"
	ThinkingLevel string          `json:"thinkingLevel"`
	Summary       string          `json:"summary"`
	CustomType    string          `json:"customType"`
	Content       json.RawMessage `json:"content"`
	Data          json.RawMessage `json:"data"`
	Name          string          `json:"name"`
	TokensBefore  json.Number     `json:"tokensBefore"`
	TargetID      string          `json:"targetId"`
	Label         *string         `json:"label"`
}

type message struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Model        string          `json:"model"`
	Provider     string          `json:"provider"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	Timestamp    json.Number     `json:"timestamp"`
	ToolCallID   string          `json:"toolCallId"`
	ToolName     string          `json:"toolName"`
	IsError      bool            `json:"isError"`
	// bashExecution
	Command   string      `json:"command"`
	Output    string      `json:"output"`
	ExitCode  json.Number `json:"exitCode"`
	Cancelled bool        `json:"cancelled"`
	// custom
	CustomType string `json:"customType"`
	Summary    string `json:"summary"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Redacted  bool            `json:"redacted"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	MimeType  string          `json:"mimeType"`
}

// littleCoderTools are tools only little-coder's extensions register
// (itayinbarr/little-coder .pi/extensions).
var littleCoderTools = map[string]bool{
	"ShellSession": true, "ShellSessionCwd": true, "ShellSessionReset": true,
	"EvidenceAdd": true, "EvidenceGet": true, "EvidenceList": true,
	"BrowserNavigate": true, "BrowserClick": true, "BrowserType": true, "BrowserScroll": true,
	"BrowserExtract": true, "BrowserBack": true, "BrowserHistory": true,
}

// gateReasons are the block reasons of little-coder's permission gate.
var gateReasons = []string{"bash whitelist: ", "manual permission mode: "}

type sessionState struct {
	out       parser.Sink
	opt       Options
	in        *parser.Input
	sid, cwd  string
	start     time.Time
	model     string
	drop      map[string]bool
	lcFlagged bool
	lcPending string
	// A fork (contract mode): the parent's session id, and whether the
	// entry being read is a copy of one of the parent's (Replayed, in the
	// parent's session).
	parentSID string
	forkSID   string
	replay    bool
}

func (st *sessionState) event(t time.Time, tt timeline.TurnType, text string, n int64) timeline.Event {
	e := timeline.Event{Time: t, SessionID: st.sid, ProjectPath: st.cwd, TurnType: tt, Text: text, SourceLine: n}
	switch {
	case st.replay:
		// a copy of the parent's entry: its record, in its session
		e.Replayed = true
	case st.parentSID != "":
		e.ParentSessionID = st.parentSID
	}
	if t.IsZero() {
		if !st.start.IsZero() {
			e.Time, e.TimeBasis = st.start, timeline.TimeInherited
		} else {
			e.TimeBasis = timeline.TimeNone
		}
	}
	return e
}

// agent is the catalog name session states carry.
func (st *sessionState) agent() string {
	if st.opt.Agent != "" {
		return st.opt.Agent
	}
	return "pi"
}

func (st *sessionState) emit(t time.Time, tt timeline.TurnType, text string, n int64) {
	st.out.Event(st.event(t, tt, text, n))
}

// emitID emits a row with the record id of entry id (contract mode).
func (st *sessionState) emitID(t time.Time, tt timeline.TurnType, text string, n int64, id string) {
	e := st.event(t, tt, text, n)
	e.RecordID = st.rid(id)
	st.out.Event(e)
}

// flagLittleCoder emits, once, the row saying little-coder drove the session.
func (st *sessionState) flagLittleCoder(t time.Time, why string, n int64) {
	if st.lcFlagged {
		return
	}
	st.lcFlagged = true
	sid := st.sid
	if st.replay {
		sid = st.forkSID
	}
	e := st.event(t, timeline.System, "session driven by little-coder: "+why, n)
	e.SessionID, e.Replayed = sid, false
	if st.opt.Contract && sid != "" {
		e.RecordID = sid + "#little-coder"
	}
	st.out.Event(e)
}

// parentIDs reads the entry ids and the session id of a collected parent
// session file (nil when it was not collected); a parent read only in
// part is a problem row (its later copies then stay the fork's own).
func (st *sessionState) parentIDs(ctx context.Context, in *parser.Input, n int64, p string) (map[string]bool, string) {
	rc, err := in.OpenRelated(p)
	if err != nil {
		return nil, ""
	}
	defer rc.Close()
	ids := map[string]bool{}
	sid := ""
	err = parser.Lines(ctx, rc, nil, func(_ int64, line []byte) error {
		var e struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(line, &e) != nil || e.ID == "" {
			return nil
		}
		if e.Type == "session" {
			sid = e.ID
		} else {
			ids[e.ID] = true
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		st.out.Problem(n, fmt.Sprintf("reading parent session %s: %v (its entries after the error are not known, so their replayed copies here are kept as the fork's own)", p, err))
	}
	return ids, sid
}

// sessionIDOfPath is the id in a session file name <time>_<id>.jsonl.
func sessionIDOfPath(p string) string {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(p, `\`, "/")), ".jsonl")
	if i := strings.LastIndex(base, "_"); i >= 0 {
		return base[i+1:]
	}
	return ""
}

func (st *sessionState) entry(ctx context.Context, in *parser.Input, n int64, e *entry, raw []byte) {
	t, _ := parser.ParseTime(e.Timestamp)
	if e.Type == "session" {
		if e.ID != "" {
			st.sid = e.ID
		}
		st.cwd, st.start = e.Cwd, t
		rows := false
		if e.ParentSession != "" {
			var psid string
			st.drop, psid = st.parentIDs(ctx, in, n, e.ParentSession)
			if psid == "" && st.opt.ParentID != nil {
				psid = st.opt.ParentID(in, e.ParentSession)
			} else if psid == "" {
				psid = sessionIDOfPath(e.ParentSession)
			}
			if st.opt.Contract && psid != "" && psid != st.sid {
				st.parentSID = psid
				st.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: st.agent(), SessionID: st.sid}, ForkedFrom: psid, ParentSessionID: psid})
			}
			st.emitID(t, timeline.System, "session forked from "+e.ParentSession, n, e.ID+"#fork")
			rows = true
		}
		if st.lcPending != "" {
			st.flagLittleCoder(t, st.lcPending, n)
			rows = true
		}
		if !rows {
			st.skip(n, "state_only")
		}
		return
	}
	if e.ID != "" && st.drop[e.ID] {
		if !st.opt.Contract || st.parentSID == "" {
			st.skip(n, "fork_copy_in_parent")
			return // copied from the collected parent file, which gives its rows
		}
		// Contract: the copy is the parent's record, replayed here: its
		// rows carry the parent's session and the entry's own id, so the
		// identity merge writes the parent's and keeps this one only
		// where the parent lost it.
		st.forkSID, st.sid, st.replay = st.sid, st.parentSID, true
		defer func() { st.sid, st.replay = st.forkSID, false }()
	}
	switch e.Type {
	case "message":
		if e.Message == nil {
			st.out.Problem(n, "message entry without a message")
			return
		}
		if t.IsZero() {
			t, _ = MsTime(e.Message.Timestamp)
		}
		st.message(t, n, e.ID, e.Message, raw)
	case "model_change":
		id := e.ModelID
		if id == "" && e.Model != "" {
			// OhMyPi: "provider/modelId"
			id = e.Model
			if p, m, ok := strings.Cut(e.Model, "/"); ok && e.Provider == "" {
				e.Provider, id = p, m
			}
		}
		switch {
		case id == "":
			st.skip(n, "no_evidence:model_change")
			return
		case st.model == "":
			st.emitID(t, timeline.System, "model: "+id+" provider="+e.Provider, n, e.ID)
		case id != st.model:
			st.emitID(t, timeline.System, "model: "+st.model+" -> "+id+" provider="+e.Provider, n, e.ID)
		default:
			st.skip(n, "state_only")
		}
		st.model = id
	case "thinking_level_change":
		m := st.model
		if m != "" {
			m += " "
		}
		lvl := e.ThinkingLevel
		if lvl == "" {
			lvl = "(not set: null)" // OhMyPi 18.2.3 writes thinkingLevel null
		}
		st.emitID(t, timeline.System, "model: "+m+"thinking_level="+lvl, n, e.ID)
	case "compaction":
		st.emitID(t, timeline.System, "compaction: "+e.Summary, n, e.ID)
	case "branch_summary":
		st.emitID(t, timeline.System, "branch summary: "+e.Summary, n, e.ID)
	case "custom_message":
		st.emitID(t, timeline.System, e.CustomType+": "+contentText(e.Content), n, e.ID)
	case "session_info":
		if e.Name != "" {
			st.emitID(t, timeline.System, "session name: "+e.Name, n, e.ID)
		} else {
			st.skip(n, "no_evidence:session_info")
		}
	case "custom":
		if st.opt.Custom != nil && st.opt.Custom(&Session{st: st}, n, CustomEntry{ID: e.ID, Type: e.CustomType, Time: t, Data: e.Data}) {
			return
		}
		st.custom(t, n, e)
	case "label":
		if !st.opt.Contract {
			return
		}
		// A person's bookmark on an entry (or its removal).
		text := "label removed from entry " + e.TargetID
		if e.Label != nil && *e.Label != "" {
			text = "label " + strconv.Quote(*e.Label) + " on entry " + e.TargetID
		}
		st.emitID(t, timeline.System, text, n, e.ID)
	default:
		if st.opt.Extra != nil && st.opt.Extra(&Session{st: st}, n, e.Type, raw) {
			return
		}
		st.out.Problem(n, "unknown entry type "+strconv.Quote(e.Type))
	}
}

// custom reads the extension entries that say something about the session:
// pi's bug report (/bug upload or exported zip).
func (st *sessionState) custom(t time.Time, n int64, e *entry) {
	if e.CustomType != "pi.bug-report" {
		if st.opt.Contract {
			st.emitID(t, timeline.System, e.CustomType+": "+parser.CompactJSON(e.Data), n, e.ID)
		}
		return
	}

	var d map[string]any
	_ = json.Unmarshal(e.Data, &d)
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := d[k].(string); ok && v != "" {
				return v
			}
		}
		return ""
	}
	if u := str("url", "uploadUrl", "shareUrl", "id"); u != "" && str("zip", "zipPath", "path", "file") == "" {
		st.emitID(t, timeline.System, "session synced: bug report uploaded "+u, n, e.ID)
		st.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: st.agent(), SessionID: st.sid}, Synced: "yes"})
		return
	}
	if p := str("zip", "zipPath", "path", "file"); p != "" {
		st.emitID(t, timeline.System, "bug report exported: "+p, n, e.ID)
		return
	}
	st.emitID(t, timeline.System, "bug report: "+parser.CompactJSON(e.Data), n, e.ID)
}

// contentText joins the text of a string or block-list content; images
// are named, not inlined.
func contentText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image "+b.MimeType+"]")
		}
	}
	return strings.Join(parts, "\n")
}

func (st *sessionState) message(t time.Time, n int64, id string, m *message, raw []byte) {
	bid := func(i int) string { return id + "#" + strconv.Itoa(i) }
	switch m.Role {
	case "user":
		if st.opt.Contract {
			st.userContract(t, n, id, m, raw)
			return
		}
		text := contentText(m.Content)
		if strings.TrimSpace(text) != "" {
			st.emit(t, timeline.User, text, n)
		}
	case "assistant":
		rows := 0
		// A resumed session run with another model records no
		// model_change entry (pi 0.x, seen in real-agents-2): the switch
		// shows only in the messages' own model.
		if m.Model != "" && m.Model != st.model {
			prov := ""
			if m.Provider != "" {
				prov = " provider=" + m.Provider
			}
			if st.model == "" {
				st.emitID(t, timeline.System, "model: "+m.Model+prov, n, id+"#model")
			} else {
				st.emitID(t, timeline.System, "model: "+st.model+" -> "+m.Model+prov, n, id+"#model")
			}
			st.model = m.Model
			rows++
		}
		var bs []block
		if err := json.Unmarshal(m.Content, &bs); err != nil && len(m.Content) > 0 {
			st.out.Problem(n, "assistant content: "+parser.JSONError(err))
			rows++
		}
		for i, b := range bs {
			var e timeline.Event
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) == "" {
					continue
				}
				e = st.event(t, timeline.Assistant, b.Text, n)
			case "thinking":
				text := b.Thinking
				if b.Redacted && text == "" {
					text = "[redacted thinking]"
				}
				if strings.TrimSpace(text) == "" {
					continue
				}
				e = st.event(t, timeline.Thinking, text, n)
			case "toolCall":
				e = st.event(t, timeline.ToolUse, mainArg(b.Arguments), n)
				e.ToolName, e.ToolUseID, e.ToolInput = b.Name, b.ID, parser.CompactJSON(b.Arguments)
				if littleCoderTools[b.Name] && st.opt.LittleCoder {
					defer st.flagLittleCoder(t, "tool "+b.Name, n)
				}
			default:
				if st.opt.Contract && b.Type != "" {
					// A block kind this reader does not know: named, not lost.
					e = st.event(t, timeline.System, "assistant block "+strconv.Quote(b.Type), n)
					break
				}
				continue
			}
			e.Model = m.Model
			e.RecordID = st.rid(bid(i))
			st.out.Event(e)
			rows++
		}
		if m.StopReason == "error" || m.ErrorMessage != "" {
			st.emitID(t, timeline.System, "error: "+m.ErrorMessage, n, id+"#error")
			rows++
		}
		if rows == 0 {
			st.skip(n, "no_evidence:empty_assistant_message")
		}
	case "toolResult":
		text := contentText(m.Content)
		e := st.event(t, timeline.ToolResult, text, n)
		e.ToolName, e.ToolUseID, e.IsError = m.ToolName, m.ToolCallID, strconv.FormatBool(m.IsError)
		e.RecordID = st.rid(id)
		st.out.Event(e)
		if st.opt.ToolResultNote != nil {
			if note := st.opt.ToolResultNote(raw); note != "" {
				d := st.event(t, timeline.System, note, n)
				d.ToolName, d.ToolUseID = m.ToolName, m.ToolCallID
				d.RecordID = st.rid(id + "#decision")
				st.out.Event(d)
			}
		}
		for _, r := range gateReasons {
			if m.IsError && st.opt.LittleCoder && strings.Contains(text, r) {
				d := st.event(t, timeline.System, "permission decision: denied source=little-coder-permission-gate", n)
				d.ToolName, d.ToolUseID = m.ToolName, m.ToolCallID
				d.RecordID = st.rid(id + "#decision")
				st.out.Event(d)
				st.flagLittleCoder(t, "permission gate", n)
				break
			}
		}
	case "bashExecution":
		// A command the user ran with "!": linked by the entry line.
		tid := "bash-" + strconv.FormatInt(n, 10)
		in, _ := json.Marshal(map[string]string{"command": m.Command})
		u := st.event(t, timeline.ToolUse, m.Command, n)
		u.ToolName, u.ToolUseID, u.ToolInput = "bash", tid, string(in)
		u.RecordID = st.rid(id + "#use")
		st.out.Event(u)
		text := m.Output
		isErr := m.Cancelled
		if m.ExitCode != "" && m.ExitCode != "0" {
			isErr = true
			text += "\n[exit code " + m.ExitCode.String() + "]"
		}
		if m.Cancelled {
			text += "\n[cancelled]"
		}
		r := st.event(t, timeline.ToolResult, strings.TrimPrefix(text, "\n"), n)
		r.ToolName, r.ToolUseID, r.IsError = "bash", tid, strconv.FormatBool(isErr)
		r.RecordID = st.rid(id + "#result")
		st.out.Event(r)
	case "custom", "hookMessage": // hookMessage: the v2 name, renamed by migrateV2ToV3
		st.emitID(t, timeline.System, m.CustomType+": "+contentText(m.Content), n, id)
	case "branchSummary", "compactionSummary":
		st.emitID(t, timeline.System, m.Role+": "+m.Summary, n, id)
	default:
		st.out.Problem(n, "unknown message role "+strconv.Quote(m.Role))
	}
}

// userContract writes a user message in contract mode: text a person typed
// is one user row; a message another session or a tool wrote
// (Options.UserOrigin) and blocks the harness wrote (Options.Harness) are
// system rows.
func (st *sessionState) userContract(t time.Time, n int64, id string, m *message, raw []byte) {
	if st.opt.UserOrigin != nil {
		if prefix := st.opt.UserOrigin(raw); prefix != "" {
			st.emitID(t, timeline.System, prefix+contentText(m.Content), n, id)
			return
		}
	}
	harness := func(s string) bool { return st.opt.Harness != nil && st.opt.Harness(s) }
	var str string
	if json.Unmarshal(m.Content, &str) == nil {
		switch {
		case strings.TrimSpace(str) == "":
			st.skip(n, "no_evidence:empty_user_message")
		case harness(str):
			st.emitID(t, timeline.System, str, n, id)
		default:
			st.emitID(t, timeline.User, str, n, id)
		}
		return
	}
	var bs []block
	if err := json.Unmarshal(m.Content, &bs); err != nil {
		st.out.Problem(n, "user content: "+parser.JSONError(err))
		return
	}
	var typed []string
	first, rows := -1, 0
	for i, b := range bs {
		var text string
		switch b.Type {
		case "text":
			text = b.Text
		case "image":
			text = "[image " + b.MimeType + "]"
		default:
			text = "[" + b.Type + " block]"
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		if b.Type == "text" && harness(text) {
			st.emitID(t, timeline.System, strings.TrimSpace(text), n, id+"#"+strconv.Itoa(i))
			rows++
			continue
		}
		if first < 0 {
			first = i
		}
		typed = append(typed, text)
	}
	if first >= 0 {
		st.emitID(t, timeline.User, strings.Join(typed, "\n"), n, id+"#"+strconv.Itoa(first))
		rows++
	}
	if rows == 0 {
		st.skip(n, "no_evidence:empty_user_message")
	}
}

// mainArg is a tool call's most identifying argument.
func mainArg(raw json.RawMessage) string {
	var args map[string]any
	if json.Unmarshal(raw, &args) != nil {
		return ""
	}
	for _, k := range []string{"command", "path", "file_path", "filePath", "url", "pattern", "query", "cmd"} {
		if v, ok := args[k].(string); ok && v != "" {
			return v
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v, ok := args[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}
