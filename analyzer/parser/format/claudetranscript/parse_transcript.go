package claudetranscript

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxPersisted bounds how much of a persisted tool output is read.
const maxPersisted = 64 << 20

// scope says whose record the current one is: which session its rows
// belong to, the subagent's parent, and whether it is a copy of a record
// another file holds.
type scope struct {
	session  string // the rows' session
	parent   string // the parent session (subagents, forks)
	id       string // the record's own id (uuid): the base of RecordIDs
	sub      string // the subagent id when the record is a subagent's
	replayed bool   // a copy (a fork's prefix, an agent_progress copy)
	known    bool   // session came from a record, not from the file name
}

// sessInfo is what the file tells about one session beyond its rows.
type sessInfo struct {
	sub                   bool // a subagent session
	parent, forkedFrom    string
	entry                 string // first entrypoint
	teleport, rc, vscode  bool   // origin signals seen
	bridge                string // last bridge session id
	synced                bool
	surface, header, task bool
	scratch, model, mode  string
}

// transcript is the state of one file's parse.
type transcript struct {
	ctx  context.Context
	in   *parser.Input
	out  parser.Sink
	opts Options

	fileSession   string // the file name's session id (main files)
	uuidName      bool   // the file name is a session uuid
	subagentID    string // set for agent-<id>.jsonl files
	subID         string // the subagent id rows of a subagent file carry
	parentSession string // from the <session>/subagents/ folder
	projectDir    string // the <slug> folder

	session, cwd string // the main chain's last session id and cwd
	lastTime     time.Time
	pending      []timeline.Event // rows before the first recorded time

	line    int64
	recTime time.Time
	cur     scope
	typ     string
	rows    int    // rows the current line gave
	marked  bool   // the current line got a Skip or a problem
	copied  string // the session whose records this file copied (1.0.x resume)

	blockMsg string              // the API message (id and request id) blocks is for
	blocks   map[blockKey]string // its blocks -> RecordID of their first row
	tools    map[string]string   // tool_use id -> tool name
	chains   map[string]string   // inline sidechain record uuid -> subagent id
	children map[string]struct{} // uuids a prompt or reply was chained to
	info     map[string]*sessInfo
	order    []string
	rd       *recordDecoder
	att      map[string][]byte // the current attachment's members
}

// Options say whose transcript is read.
type Options struct {
	// Agent is the catalog name the session states carry (claude-code,
	// or the agent whose files are this format).
	Agent string
	// CallIdentity gives a tool_use row the call's own id as its RecordID
	// ("<tool_use id>#tool_use") instead of the record's uuid: for writers
	// that repeat a call in later records of their own (iFlow's streaming
	// snapshots), so the copies are one row in the identity merge and a
	// different input under one call id is two rows and a problem.
	CallIdentity bool
	// ResultStatus reads toolUseResult.status: "error" marks the result
	// an error (iFlow's tool results carry no is_error).
	ResultStatus bool
}

// Parse reads one transcript file: every record becomes rows, a counted
// skip or a problem, and each session the file names gets its state
// (parent, fork, origin, synced) once the file ends.
func Parse(ctx context.Context, in *parser.Input, out parser.Sink, o Options) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()

	t := &transcript{
		ctx: ctx, in: in, out: out, opts: o,
		blocks:   map[blockKey]string{},
		tools:    map[string]string{},
		chains:   map[string]string{},
		children: map[string]struct{}{},
		info:     map[string]*sessInfo{},
		rd:       getRecordDecoder(),
	}
	defer putRecordDecoder(t.rd)
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
		t.uuidName = uuidRe.MatchString(stem)
	}

	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		t.line, t.rows, t.marked, t.typ = n, 0, false, ""
		dec := line
		if small, ok := t.rd.light.light(line); ok {
			if rec := t.rd.record(); t.rd.fillSkipped(line, rec) {
				t.record(rec, line)
				t.unmarked(n)
				return nil
			}
			dec = small
		}
		if rec := t.rd.record(); t.rd.decode(dec, rec) {
			t.record(rec, line)
			t.unmarked(n)
			return nil
		}
		var r record
		if jerr := json.Unmarshal(dec, &r); jerr != nil {
			objs, lost := parser.SplitGlued(line)
			if len(objs) == 0 {
				t.problem(parser.BadJSONLine(jerr))
				return nil
			}
			if len(objs) > 1 || lost {
				t.marked = true
				t.out.Report(t.line, parser.KindGlued, parser.GluedProblem(len(objs), lost))
			}
			// One valid record whose member has an unexpected type (a
			// numeric timestamp), or records glued on one line: each is
			// read leniently, and a record that still does not decode is
			// said, never dropped in silence.
			for _, o := range objs {
				r = record{}
				dropped, err := parser.DecodeLenient(o, &r)
				if err != nil {
					t.problem("record of an unexpected shape, not read: " + parser.JSONError(err))
					continue
				}
				if len(dropped) > 0 {
					t.problem(parser.LenientProblem(dropped))
				}
				t.record(&r, o)
			}
			return nil
		}
		t.record(&r, line)
		t.unmarked(n)
		return nil
	})
	t.flushPending(time.Time{}, timeline.TimeNone)
	t.states()
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// unmarked counts line n as skipped when its record gave no row and was
// neither skipped nor reported.
func (t *transcript) unmarked(n int64) {
	if t.rows == 0 && !t.marked {
		reason := "no_evidence:" + orDash(t.typ)
		if t.typ == "permission-mode" || t.typ == "mode" {
			reason = "state_only:" + t.typ
		}
		t.out.Skip(n, reason)
	}
}

// uuidRe matches a session uuid file name.
var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (t *transcript) problem(msg string) {
	t.marked = true
	t.out.Problem(t.line, msg)
}

func (t *transcript) skip(reason string) {
	t.marked = true
	t.out.Skip(t.line, reason)
}

// si returns the session's info, in order of first mention.
func (t *transcript) si(session string) *sessInfo {
	s := t.info[session]
	if s == nil {
		s = &sessInfo{}
		t.info[session] = s
		t.order = append(t.order, session)
	}
	return s
}

// mainSession is the session of a main-chain record that names none.
func (t *transcript) mainSession() string {
	if t.session != "" {
		return t.session
	}
	if t.parentSession != "" {
		return t.parentSession
	}
	return t.fileSession
}

// rid returns the current record's id with suffix ("" when it has none).
func (t *transcript) rid(suffix string) string {
	if t.cur.id == "" {
		return ""
	}
	return t.cur.id + suffix
}

// scopeOf finds whose record r is.
func (t *transcript) scopeOf(r *record) scope {
	sc := scope{id: r.UUID, known: r.SessionID != ""}
	switch {
	case t.subagentID != "":
		if t.subID == "" {
			t.subID = t.subagentID
			if r.AgentID != "" {
				t.subID = r.AgentID
			}
		}
		if r.SessionID != "" {
			t.session = r.SessionID
		}
		sc.session, sc.parent, sc.sub, sc.known = t.subID, t.mainSession(), t.subID, true
	case r.IsSidechain:
		id := r.AgentID
		if id == "" && r.ParentUUID != nil {
			id = t.chains[*r.ParentUUID]
		}
		if id == "" {
			id = r.UUID
		}
		if id == "" {
			id = "sidechain"
		}
		if r.UUID != "" {
			t.chains[r.UUID] = id
		}
		if r.SessionID != "" {
			t.session = r.SessionID
		}
		sc.session, sc.parent, sc.sub, sc.known = id, t.mainSession(), id, true
	case r.ForkedFrom != nil && r.ForkedFrom.SessionID != "":
		// A /branch or forkSession copy: the original's record, in the
		// original's session; the fork's own session is forked from it.
		if r.SessionID != "" {
			t.session = r.SessionID
		}
		own := t.mainSession()
		if own != r.ForkedFrom.SessionID {
			fi := t.si(own)
			fi.forkedFrom, fi.parent = r.ForkedFrom.SessionID, r.ForkedFrom.SessionID
		}
		sc.session, sc.replayed, sc.known = r.ForkedFrom.SessionID, true, true
		if r.ForkedFrom.MessageUUID != "" {
			sc.id = r.ForkedFrom.MessageUUID
		}
	default:
		if r.SessionID != "" {
			t.session = r.SessionID
		}
		sc.session = t.mainSession()
		switch {
		case t.uuidName && r.SessionID != "" && r.SessionID != t.fileSession:
			// A resume by copy (1.0.x): another session's records copied
			// into this file under their own uuid and time.
			sc.replayed = true
			if fi := t.info[t.fileSession]; fi == nil || fi.forkedFrom == "" {
				t.copied = r.SessionID
			}
		case t.uuidName && r.SessionID == t.fileSession:
			if t.copied != "" {
				fi := t.si(t.fileSession)
				if fi.forkedFrom == "" {
					fi.forkedFrom, fi.parent = t.copied, t.copied
				}
			}
		}
		if fi := t.info[sc.session]; fi != nil && fi.parent != "" && !fi.sub {
			sc.parent = fi.parent
		}
	}
	return sc
}

// emit sends a row of the current record, filling session, project, line
// and time.
func (t *transcript) emit(e timeline.Event) {
	t.rows++
	if e.SourceLine == 0 {
		e.SourceLine = t.line
	}
	if e.ParentSessionID == "" {
		e.ParentSessionID = t.cur.parent
	}
	if t.cur.replayed {
		e.Replayed = true
	}
	if e.Time.IsZero() && e.TimeBasis == "" && t.recTime.IsZero() && t.lastTime.IsZero() {
		// No time yet: held until the first dated record, whose session
		// and project it then takes too (unless a record named them).
		if e.SessionID == "" && t.cur.known {
			e.SessionID = t.cur.session
		}
		e.TimeBasis = timeline.TimeInherited
		t.pending = append(t.pending, e)
		return
	}
	if e.SessionID == "" {
		e.SessionID = t.cur.session
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
			e.SessionID = t.cur.session
			if e.SessionID == "" {
				e.SessionID = t.mainSession()
			}
		}
		if e.ProjectPath == "" {
			e.ProjectPath = t.cwd
		}
		t.out.Event(e)
	}
	t.pending = nil
}

// sys emits a system row of the current record; suffix names a derived
// row ("#model") or is "" for the record's own row.
func (t *transcript) sys(text, suffix string) {
	t.emit(timeline.Event{TurnType: timeline.System, Text: text, RecordID: t.rid(suffix)})
}

// states sends what the file told about each session, in order of first
// mention.
func (t *transcript) states() {
	for _, id := range t.order {
		s := t.info[id]
		st := timeline.SessionState{Key: timeline.SessionKey{Agent: t.opts.Agent, SessionID: id},
			ParentSessionID: s.parent, ForkedFrom: s.forkedFrom}
		if s.synced {
			st.Synced = "yes"
		}
		switch {
		case s.teleport || s.rc:
			st.Origin = "remote"
		case s.entry == "cli" || s.entry == "claude-vscode" || s.entry == "claude-desktop":
			st.Origin = "local"
		}
		if id == "" || (st.ParentSessionID == "" && st.ForkedFrom == "" && st.Synced == "" && st.Origin == "") {
			continue
		}
		t.out.Session(st)
	}
}

// skipTypes are record types that give no row, with the reason counted:
// copies of what other rows hold and bookkeeping with no evidence of its
// own (2.1.332 writes api-request* and cost-state beside every turn).
var skipTypes = map[string]string{
	"file-history-snapshot": "no_evidence:file-history-snapshot", // backup bookkeeping at every prompt
	"file-history-delta":    "no_evidence:file-history-delta",    // a backup taken before an edit the tool_use row shows
	"last-prompt":           "copy:last-prompt",                  // the last prompt, already a row
	"tools-used":            "copy:tools-used",                   // the tool names of the turn's tool_use rows
	"api-request-blob":      "copy:api-request-blob",             // the conversation as sent to the API
	"api-request":           "no_evidence:api-request",           // request parameters (model, betas, effort)
	"api-request-shape":     "no_evidence:api-request-shape",     // the system prompt and tool schemas sent
	"cost-state":            "no_evidence:cost-state",            // running token and cost totals
}

// prologue are the members record reads of a record whose type gives no
// row (skipTypes): kept whole when lightRecord rewrites the line.
var prologue = map[string]bool{"type": true, "cwd": true, "timestamp": true, "uuid": true, "sessionId": true,
	"agentId": true, "isSidechain": true, "parentUuid": true}

// skipAttachments are the attachment types attachment never reads beyond
// their type.
var skipAttachments = map[string]bool{"prompt_snapshot": true, "total_tokens_reminder": true, "date": true}

// lightRecord returns a smaller line to decode for a record whose large
// values the parser never reads: a skipTypes record keeps only its
// prologue's large values, a skipped attachment only its type. Two thirds
// of a 2.1.332 transcript's bytes are such records (api-request-shape, the
// prompt snapshot); they are scanned, never decoded. ok is false for every
// other record, and for a line the scan cannot vouch for (then the whole
// line is decoded, and a bad one reported, as before).
func lightRecord(line []byte) ([]byte, bool) {
	var sc lightScratch
	return sc.light(line)
}

// lightScratch holds lightRecord's buffers for the lines of one file.
type lightScratch struct {
	big []span
	out []byte
	// members are the line's top-level members as the scan found them
	// (key and value spans of the line); skip is set when the line is a
	// skipTypes record (recordDecoder.fillSkipped reads both).
	members []member
	skip    bool
}

type member struct{ key, val span }

type span struct{ at, end int }

// light is lightRecord with sc's buffers (the line it returns is valid
// until the next call).
func (sc *lightScratch) light(line []byte) ([]byte, bool) {
	// One scan notes the type, the attachment's span and the large
	// values no skipTypes record reads; the smaller line is then put
	// together from those spans, with no second scan.
	var typ []byte
	var att span
	big := sc.big[:0]
	members := sc.members[:0]
	sc.skip = false
	defer func() { sc.big, sc.members = big[:0], members }()
	message := false
	if !parser.TopFields(line, func(k, v []byte) bool {
		at := cap(line) - cap(v)
		ka := cap(line) - cap(k)
		members = append(members, member{span{ka, ka + len(k)}, span{at, at + len(v)}})
		switch string(k) {
		case "type":
			typ = v
		case "attachment":
			att = span{at, at + len(v)}
		case "message":
			// A user or assistant record, decoded whole: no need to
			// scan the rest of it (its message is most of its bytes).
			// A record whose type, already seen, gives no row
			// (api-request-blob: the conversation as sent) is scanned
			// on, its message a large value like any other.
			if !skipType(typ) {
				message = true
				return false
			}
		}
		if len(v) > 256 && !prologue[string(k)] {
			big = append(big, span{at, at + len(v)})
		}
		return true
	}) || message {
		return nil, false
	}
	if !plainString(typ) {
		return nil, false // RawString's test, without its string
	}
	ts := typ[1 : len(typ)-1]
	var repl []span
	var with []byte
	switch {
	case skipTypes[string(ts)] != "":
		repl, with = big, []byte("null")
		sc.skip = true
	case string(ts) == "attachment" && att.end > 0:
		var at []byte
		if !parser.TopFields(line[att.at:att.end], func(k, v []byte) bool {
			if string(k) == "type" {
				at = v
				return false
			}
			return true
		}) {
			return nil, false
		}
		if len(at) < 2 || at[0] != '"' || at[len(at)-1] != '"' || bytes.IndexByte(at, '\\') >= 0 || !skipAttachments[string(at[1:len(at)-1])] {
			return nil, false
		}
		big = append(big[:0], att)
		repl, with = big, append(append([]byte(`{"type":`), at...), '}')
	default:
		return nil, false
	}
	if len(repl) == 0 {
		return line, true
	}
	// A value left out must be one the whole line's decode accepts: the
	// scan above only balances brackets, so a value that is no JSON
	// inside them (an api-request-blob's message cut and spliced, a byte
	// flipped) sends the line to the whole decode, which reports it as a
	// bad line. Only a valid record of a skipped type is counted a skip.
	for _, r := range repl {
		if !jsontext.Value(line[r.at:r.end]).IsValid(v1opts) {
			return nil, false
		}
	}
	out := sc.out[:0]
	defer func() {
		if cap(out) <= 64<<10 { // a long line's copy is not kept
			sc.out = out[:0]
		}
	}()
	last := 0
	for _, r := range repl {
		out = append(append(out, line[last:r.at]...), with...)
		last = r.end
	}
	out = append(out, line[last:]...) // kept by the deferred call for the next line
	return out, true
}

// plainString reports a raw JSON value that is a string with no escape
// (RawString's test, without making the string).
func plainString(v []byte) bool {
	return len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' && bytes.IndexByte(v, '\\') < 0
}

// skipType reports a raw type value that names a skipTypes record.
func skipType(typ []byte) bool {
	return plainString(typ) && skipTypes[string(typ[1:len(typ)-1])] != ""
}

// record handles one decoded line.
func (t *transcript) record(r *record, raw []byte) {
	t.typ = r.Type
	if r.Cwd != "" {
		t.cwd = r.Cwd
	}
	t.recTime = parseTime(r.Timestamp)
	if r.Timestamp != "" && t.recTime.IsZero() {
		// Said, not passed over: the rows take the time before them.
		t.problem(fmt.Sprintf("timestamp %q is no usable time (RFC 3339 with a zone): the record's rows take the time before them (inherited)", r.Timestamp))
	}
	if !t.recTime.IsZero() {
		if t.lastTime.IsZero() && len(t.pending) > 0 {
			t.flushPending(t.recTime, timeline.TimeInherited)
		}
		t.lastTime = t.recTime
	}
	t.cur = t.scopeOf(r)
	if reason, ok := skipTypes[r.Type]; ok {
		t.skip(reason)
		return
	}
	switch r.Type {
	case "atis-latch":
		if a := string(bytes.TrimSpace(r.Atis)); a == "" || a == "null" || a == `""` {
			t.skip("no_evidence:atis-latch")
			return
		}
	case "progress":
		t.progress(r)
		return
	}
	t.header()
	t.entrypoint(r)
	switch r.Type {
	case "user":
		t.user(r)
	case "assistant":
		t.assistant(r)
	case "system":
		t.system(r)
	case "summary":
		t.sys("summary: "+r.Summary, "")
	case "queue-operation":
		text := "queue-operation " + r.Operation
		if c := parser.JSONText(r.Content); c != "" {
			text += ": " + c
		}
		t.sys(text, "")
	case "attachment":
		t.attachment(r.Attachment)
	case "permission-mode":
		t.permissionMode(r.PermissionMode, "")
	case "mode":
		t.sys("session mode: "+orDash(parser.StringValue(r.Mode)), "")
	case "bridge-session":
		t.bridgeSession(r)
	case "continued-in":
		t.continuedIn(r)
	case "teleported-from":
		t.teleportedFrom(r)
	default:
		t.other(r.Type, raw)
	}
}

// header emits "subagent <id> of <parent>" at a subagent's first record
// (a subagent file's first line, an inline sidechain's root).
func (t *transcript) header() {
	if t.cur.sub == "" {
		return
	}
	s := t.si(t.cur.sub)
	if s.header {
		return
	}
	s.header, s.sub = true, true
	if s.parent == "" {
		s.parent = t.cur.parent
	}
	t.emit(timeline.Event{TurnType: timeline.System, Text: "subagent " + t.cur.sub + " of " + t.cur.parent,
		RecordID: t.cur.sub + "#subagent"})
}

// entrypoint emits "session surface: <entrypoint>" at a session's first
// entrypoint and notes the origin it tells.
func (t *transcript) entrypoint(r *record) {
	s := t.si(t.cur.session)
	if r.Entrypoint != "" && !s.surface {
		s.surface = true
		t.sys("session surface: "+r.Entrypoint, "#surface")
	}
	if t.cur.sub != "" || t.cur.replayed {
		return
	}
	if r.Entrypoint != "" && s.entry == "" {
		s.entry = r.Entrypoint
		if r.Entrypoint == "claude-vscode" && !s.vscode {
			s.vscode = true
			t.sys("session origin: local (VS Code extension)", "#origin")
		}
	}
	if parser.JSONText(r.RemoteSourced) == "true" && !s.teleport {
		s.teleport = true
		t.sys("session origin: remote (teleport, remoteSourced)", "#origin")
	}
	t.remoteControlOrigin(s)
}

// remoteControlOrigin emits the origin row of a session the Remote
// Control server spawned: entrypoint sdk-cli with a bridge session.
func (t *transcript) remoteControlOrigin(s *sessInfo) {
	if s.entry == "sdk-cli" && s.bridge != "" && !s.rc && !s.teleport {
		s.rc = true
		t.sys("session origin: remote (Remote Control, entrypoint sdk-cli)", "#origin")
	}
}

// progress handles a progress record: a hook that ran, a subagent's
// record copied into its parent (agent_progress), or a running tool's
// partial output.
func (t *transcript) progress(r *record) {
	var d progressData
	if len(r.Data) == 0 || json.Unmarshal(r.Data, &d) != nil {
		t.skip("no_evidence:progress")
		return
	}
	switch d.Type {
	case "hook_progress":
		t.header()
		t.sys("hook "+d.HookName+": "+d.Command, "")
	case "agent_progress":
		t.agentProgress(&d)
	default:
		// bash_progress, mcp_progress: the tool's result row holds the
		// output.
		t.skip("copy:progress/" + orDash(d.Type))
	}
}

// agentProgress emits the subagent record an agent_progress record
// carries, in the subagent's own session, as a replayed copy: when the
// subagent's file was collected its rows win the identity merge; when it
// was not (claude-code #43764), these rows stand for it.
func (t *transcript) agentProgress(d *progressData) {
	if d.AgentID == "" || len(bytes.TrimSpace(d.Message)) == 0 || string(bytes.TrimSpace(d.Message)) == "null" {
		t.skip("no_evidence:agent_progress")
		return
	}
	var m record
	if err := json.Unmarshal(d.Message, &m); err != nil {
		t.problem("unreadable agent_progress message: " + parser.JSONError(err))
		return
	}
	t.cur = scope{session: d.AgentID, parent: t.cur.session, id: m.UUID, sub: d.AgentID, replayed: true, known: true}
	if tm := parseTime(m.Timestamp); !tm.IsZero() {
		t.recTime = tm
	}
	t.header()
	switch m.Type {
	case "user":
		t.user(&m)
	case "assistant":
		t.assistant(&m)
	default:
		t.skip("no_evidence:agent_progress/" + orDash(m.Type))
	}
}

// permissionMode emits a mode row on a session's first mode and on each
// change.
func (t *transcript) permissionMode(mode, suffix string) {
	s := t.si(t.cur.session)
	if mode == "" || mode == s.mode {
		return
	}
	if s.mode == "" {
		t.sys("permission mode: "+mode, suffix)
	} else {
		t.sys("permission mode: "+s.mode+" -> "+mode, suffix)
	}
	s.mode = mode
}

// injectedPrefixes mark text the agent wrote into a user record.
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
// context rather than typed (the Claude desktop audit log shares the list).
func Injected(text string) bool {
	s := strings.TrimSpace(text)
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// repair reassembles a message written as an object of numeric keys
// (claude-code #24663) and says so.
func (t *transcript) repair(m *message) {
	if len(m.spread) == 0 {
		return
	}
	s := m.spreadText()
	n := len(m.spread)
	m.spread = nil
	var inner message
	if strings.HasPrefix(strings.TrimSpace(s), "{") && json.Unmarshal([]byte(s), &inner) == nil &&
		(inner.Content.Str != "" || len(inner.Content.Blocks) > 0) {
		if inner.ID == "" {
			inner.ID = m.ID
		}
		if inner.Model == "" {
			inner.Model = m.Model
		}
		*m = inner
		t.problem(fmt.Sprintf("message written as an object of %d numeric keys (claude-code #24663): reassembled in key order as the API message it spells", n))
		return
	}
	if m.Content.Str == "" && len(m.Content.Blocks) == 0 {
		m.Content.Str = s
		t.problem(fmt.Sprintf("message written as an object of %d numeric keys (claude-code #24663): its characters reassembled in key order as the text", n))
		return
	}
	t.problem(fmt.Sprintf("message carries %d numeric keys beside its content (claude-code #24663): the content is read, the fragments are not", n))
}

// user handles a user record: a prompt, injected context, tool results,
// or in a subagent the task its parent's model wrote.
func (t *transcript) user(r *record) {
	var m message
	if r.Message != nil {
		m = *r.Message
	}
	t.repair(&m)
	t.permissionMode(r.PermissionMode, "#mode")
	// Everything in a subagent that is not a tool result was written by
	// the parent agent or the harness, not by a person.
	inSub := t.cur.sub != ""
	agentWritten := r.IsMeta || r.IsCompactSummary || r.IsVisibleInTranscriptOnly || inSub
	prompt := false
	textRow := func(s, id string, task bool) {
		if strings.TrimSpace(s) == "" {
			return
		}
		tt := timeline.User
		switch {
		case task && inSub && !Injected(s) && !t.si(t.cur.sub).task:
			t.si(t.cur.sub).task = true
			tt, s = timeline.System, "subagent task: "+s
		case agentWritten || Injected(s):
			tt = timeline.System
		default:
			prompt = true
		}
		t.emit(timeline.Event{TurnType: tt, Text: s, RecordID: id})
	}
	if s := m.Content.Str; s != "" {
		textRow(s, t.rid(""), true)
	} else {
		blocks := m.Content.Blocks
		var results []string
		for i := range blocks {
			b := &blocks[i]
			id := t.rid(blockSuffix(i, len(blocks)))
			switch b.Type {
			case "text":
				textRow(b.Text, id, true)
			case "tool_result":
				t.toolResult(r, b, len(blocks), id)
				results = append(results, b.ToolUseID)
			case "image", "document":
				textRow("["+b.Type+" "+mediaType(b)+"]", id, false)
			default:
				t.emit(timeline.Event{TurnType: timeline.System, Text: b.Type + " block", RecordID: id})
			}
		}
		if len(results) > 0 {
			t.permissionDecision(r, results[0])
		}
	}
	if prompt {
		t.endMessage()
	}
	if prompt && r.ParentUUID != nil && *r.ParentUUID != "" && !t.cur.replayed {
		// A typed prompt chained to a record that already had a reply or
		// a prompt after it: the person went back (/rewind, Esc Esc, or a
		// resume at an earlier message). The earlier branch's records
		// stay as rows; this row says what happened.
		if _, ok := t.children[*r.ParentUUID]; ok {
			t.sys("rewound: this prompt continues from record "+*r.ParentUUID+"; the records written after that one stay, as an abandoned branch", "#rewound")
		}
	}
	if prompt && r.ParentUUID != nil && *r.ParentUUID != "" {
		t.children[*r.ParentUUID] = struct{}{}
	}
	if prompt && (r.PromptSource != "" || r.TurnOrigin != "") && r.PromptSource != "user" {
		t.sys("prompt trigger: promptSource="+orDash(r.PromptSource)+" turnOrigin="+orDash(r.TurnOrigin), "#trigger")
	}
}

// blockSuffix is the RecordID suffix of block i of n: "#<i>" when the
// record has several blocks, "" when its one block is the record (a
// subagent's prompt is a string in its own file and one text block in
// its agent_progress copy: both are the record's id).
func blockSuffix(i, n int) string {
	if n == 1 {
		return ""
	}
	return "#" + strconv.Itoa(i)
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
func (t *transcript) toolResult(r *record, b *block, nblocks int, id string) {
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
	if (b.IsError != nil && *b.IsError) || (t.opts.ResultStatus && turObj && tur.Status == "error") {
		isErr = "true"
	}
	t.emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: b.ToolUseID,
		ToolName: t.tools[b.ToolUseID], Text: text, IsError: isErr, RecordID: id})
}

// persisted reads a persisted tool output by its original path, or by its
// base name under <slug>/<session>/tool-results/.
func (t *transcript) persisted(p string) (string, bool) {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	session := t.mainSession()
	cands := []string{p}
	if !strings.HasPrefix(p, "/") && !(len(p) > 1 && p[1] == ':') {
		cands = []string{t.projectDir + "/" + session + "/" + p}
	}
	alt := t.projectDir + "/" + session + "/tool-results/" + baseOf(p)
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
			t.problem("read persisted output " + c + ": " + err.Error())
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
			t.emit(timeline.Event{TurnType: timeline.System, ToolUseID: firstID, RecordID: t.rid("#decision"),
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
			t.problem("unreadable permissionDecision")
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
	t.emit(timeline.Event{TurnType: timeline.System, ToolUseID: firstID, RecordID: t.rid("#decision"),
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
	t.repair(&m)
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
		t.sys(text, "")
		return
	}
	if r.ParentUUID != nil && *r.ParentUUID != "" {
		t.children[*r.ParentUUID] = struct{}{}
	}
	if msg := m.ID + "\x00" + r.RequestID; msg != t.blockMsg {
		// Blocks of one API message are written on adjacent lines (tool
		// results of its parallel calls may come between); only the
		// current message's are remembered. The message is its id and the
		// request that returned it: a gateway that reuses a message id
		// for a later turn's reply answers another request.
		t.blockMsg = msg
		clear(t.blocks)
	}
	modelDone := false
	for i := range blocks {
		b := &blocks[i]
		id := t.rid(blockSuffix(i, len(blocks)))
		if m.ID != "" && id != "" {
			// One API message split over several lines: a block written
			// again (under another uuid) is the same block, so its row
			// carries the first row's id and the identity merge writes it
			// once.
			k := keyOf(b)
			if first, ok := t.blocks[k]; ok {
				id = first
			} else {
				t.blocks[k] = id
			}
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
			t.emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: b.Text, RecordID: id})
		case "thinking":
			t.emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: b.Thinking, RecordID: id})
		case "redacted_thinking":
			t.emit(timeline.Event{TurnType: timeline.Thinking, Model: m.Model, Text: "[redacted thinking]", RecordID: id})
		case "tool_use", "server_tool_use", "mcp_tool_use":
			t.tools[b.ID] = b.Name
			if t.opts.CallIdentity && b.ID != "" {
				id = b.ID + "#tool_use"
			}
			t.emit(timeline.Event{TurnType: timeline.ToolUse, Model: m.Model, ToolName: b.Name,
				ToolUseID: b.ID, Text: toolText(b.Input), ToolInput: parser.CompactJSON(b.Input), RecordID: id})
		default:
			if b.ToolUseID != "" { // web_search_tool_result and kin
				isErr := "false"
				if b.IsError != nil && *b.IsError {
					isErr = "true"
				}
				t.emit(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: b.ToolUseID,
					ToolName: t.tools[b.ToolUseID], Text: b.Content.Text, IsError: isErr, RecordID: id})
				continue
			}
			t.emit(timeline.Event{TurnType: timeline.Assistant, Model: m.Model, Text: "[" + b.Type + "]", RecordID: id})
		}
	}
}

// blockKey is one content block of the current API message, by its full
// value (compared whole, never by a hash).
type blockKey struct{ typ, id, text, thinking, input string }

func keyOf(b *block) blockKey {
	return blockKey{b.Type, b.ID, b.Text, b.Thinking, string(b.Input)}
}

// endMessage forgets the current API message's blocks at a turn
// boundary (a typed prompt): a reply after it is a new message, even
// under a message id and request id seen before.
func (t *transcript) endMessage() {
	t.blockMsg = ""
	clear(t.blocks)
}

// modelRow emits "model: <id>" at a session's first reply and
// "model: <old> -> <new>" on each change.
func (t *transcript) modelRow(r *record, model string) {
	if model == "" {
		return
	}
	s := t.si(t.cur.session)
	old := s.model
	if old == model {
		return
	}
	s.model = model
	text := "model: " + model
	if old != "" {
		text = "model: " + old + " -> " + model
	}
	if r.RequestedModel != "" && r.RequestedModel != model {
		text += " requested=" + r.RequestedModel
	}
	t.sys(text, "#model")
}

// toolKeys are the arguments that identify a tool call, most telling first.
var toolKeys = []string{"command", "cmd", "file_path", "notebook_path", "filePath", "url",
	"pattern", "query", "path", "skill", "description", "prompt", "plan",
	"absolute_path"} // the last: Gemini-style read_file (iFlow)

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
	switch r.Subtype {
	case "bridge_status":
		t.bridgeStatus(r)
		return
	case "scheduled_task_fire":
		text := "scheduled task fired: " + orDash(r.TaskID) + " cron=" + orDash(r.Cron)
		if c := parser.JSONText(r.Content); c != "" {
			text += " (" + c + ")"
		}
		t.sys(text, "")
		return
	}
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
	t.sys(strings.TrimSpace(sub+": "+strings.Join(extra, " ")), "")
}

// urlRe finds the URL a bridge_status line's text names.
var urlRe = regexp.MustCompile(`https?://\S+`)

// bridgeStatus renders a Remote Control bridge_status line: the session is
// mirrored to claude.ai at the URL.
func (t *transcript) bridgeStatus(r *record) {
	url := r.URL
	if url == "" {
		url = urlRe.FindString(parser.JSONText(r.Content))
	}
	s := t.si(t.cur.session)
	id := s.bridge
	if id == "" && url != "" {
		id = baseOf(strings.TrimRight(url, "/"))
	}
	if !t.cur.replayed {
		s.synced = true
	}
	t.sys("session synced: remote control bridge "+orDash(id)+" url "+orDash(url), "")
}

// bridgeSession renders a bridge-session record: the Remote Control
// bridge session a transcript is attached to (none once detached).
func (t *transcript) bridgeSession(r *record) {
	id := parser.StringValue(r.BridgeSessionID)
	none := id
	if none == "" {
		none = "none"
	}
	t.sys("remote control: bridge session "+none+" lastSequenceNum="+orDash(parser.JSONText(r.LastSequenceNum)), "")
	if id == "" || t.cur.replayed || t.cur.sub != "" {
		return
	}
	s := t.si(t.cur.session)
	s.bridge, s.synced = id, true
	t.remoteControlOrigin(s)
}

// continuedIn renders a continued-in record: the conversation was handed
// to another session (the session daemon's worker, a background move).
func (t *transcript) continuedIn(r *record) {
	t.sys("session continued in: "+orDash(r.ContinuedInSessionID), "")
	if id := r.ContinuedInSessionID; id != "" && id != t.cur.session && !t.cur.replayed {
		s := t.si(id)
		if s.forkedFrom == "" {
			s.forkedFrom, s.parent = t.cur.session, t.cur.session
		}
	}
}

// teleportedFrom renders the record a --teleport writes at the top of the
// local copy of a cloud session.
func (t *transcript) teleportedFrom(r *record) {
	text := "session origin: remote (teleport, remoteSourced)"
	if r.RemoteSessionID != "" {
		text += " remoteSessionId=" + r.RemoteSessionID
	}
	t.sys(text, "")
	if !t.cur.replayed {
		t.si(t.cur.session).teleport = true
	}
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
	// The record was decoded once; its attachment is read through its
	// members' spans, decoding only the values a row shows.
	if t.att == nil {
		t.att = map[string][]byte{}
	}
	a := t.att
	if !parser.TopMapInto(a, raw, t.rd.intern) {
		t.sys("attachment", "")
		return
	}
	typ := parser.StringValue(a["type"])
	var detail string
	var list []string
	switch typ {
	case "prompt_snapshot", "total_tokens_reminder", "date": // skipAttachments
		// The system prompt as sent, a token budget, today's date.
		t.skip("no_evidence:attachment/" + typ)
		return
	case "remote_session_change":
		url := parser.StringValue(a["url"])
		if url == "" {
			t.skip("no_evidence:attachment/remote_session_change") // attribution text only
			return
		}
		t.sys("attachment remote_session_change: url "+url, "")
		return
	case "model":
		var id struct {
			ModelID string `json:"modelId"`
		}
		if json.Unmarshal(a["identity"], &id) == nil && id.ModelID != "" {
			t.sys("attachment model: "+id.ModelID, "")
			return
		}
	case "deferred_tools_delta":
		var d struct {
			Added    []string `json:"addedNames"`
			Removed  []string `json:"removedNames"`
			Pending  []string `json:"pendingMcpServers"`
			NeedAuth []string `json:"needsAuthMcpServers"`
			Failed   []string `json:"failedMcpServers"`
		}
		if deferredDelta(a, raw, &d.Added, &d.Removed, &d.Pending, &d.NeedAuth, &d.Failed) {
			var parts []string
			for _, kv := range []struct {
				k string
				v []string
			}{{"added", d.Added}, {"removed", d.Removed}, {"pending MCP servers", d.Pending},
				{"MCP servers needing auth", d.NeedAuth}, {"failed MCP servers", d.Failed}} {
				if len(kv.v) > 0 {
					parts = append(parts, kv.k+" "+strings.Join(kv.v, ", "))
				}
			}
			t.sys(strings.TrimSpace("attachment deferred_tools_delta: "+strings.Join(parts, "; ")), "")
			return
		}
	case "environment":
		t.environment(a)
	}
	switch {
	case a["names"] != nil && stringList(a["names"], &list):
		detail = strings.Join(list, ", ")
	case a["addedTypes"] != nil && stringList(a["addedTypes"], &list):
		detail = strings.Join(list, ", ")
	case parser.StringValue(a["content"]) != "":
		detail = parser.StringValue(a["content"])
	default:
		detail = membersJSON(a, "type")
	}
	t.sys("attachment "+typ+": "+detail, "")
}

// environment emits "scratch directory: <path>" from the environment
// attachment, once per session and on each change.
// membersJSON renders members as a compact JSON object in key order (as
// encoding a map would), leaving out the keys named.
func membersJSON(m map[string][]byte, except ...string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(except, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if plainKey(k) {
			b.WriteByte('"')
			b.WriteString(k)
			b.WriteByte('"')
		} else {
			kq, _ := json.Marshal(k)
			b.Write(kq)
		}
		b.WriteByte(':')
		var c bytes.Buffer
		if json.Compact(&c, m[k]) != nil {
			c.Reset()
			c.WriteString("null")
		}
		b.Write(c.Bytes())
	}
	b.WriteByte('}')
	return b.String()
}

// plainKey reports a key json.Marshal writes as its bytes in quotes:
// printable ASCII with nothing it escapes (a quote, a backslash, <, >, &).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// deferredNames are the members of a deferred_tools_delta attachment
// attachment reads, in the order of deferredDelta's lists.
var deferredNames = [...]string{"addedNames", "removedNames", "pendingMcpServers", "needsAuthMcpServers", "failedMcpServers"}

// deferredDelta fills the lists from a deferred_tools_delta attachment's
// members a (raw, the attachment, validated by the record's decode), as
// json.Unmarshal of raw into a struct of those five []string fields does,
// and reports whether that would have succeeded. A member named like one
// of them in another case (json.Unmarshal matches names without case) is
// left to json.Unmarshal.
func deferredDelta(a map[string][]byte, raw []byte, lists ...*[]string) bool {
	for k := range a {
		for _, n := range deferredNames {
			if k != n && strings.EqualFold(k, n) {
				var d struct {
					Added    []string `json:"addedNames"`
					Removed  []string `json:"removedNames"`
					Pending  []string `json:"pendingMcpServers"`
					NeedAuth []string `json:"needsAuthMcpServers"`
					Failed   []string `json:"failedMcpServers"`
				}
				err := json.Unmarshal(raw, &d)
				*lists[0], *lists[1], *lists[2], *lists[3], *lists[4] = d.Added, d.Removed, d.Pending, d.NeedAuth, d.Failed
				return err == nil
			}
		}
	}
	for i, n := range deferredNames {
		if v, ok := a[n]; ok && !stringList(v, lists[i]) {
			return false
		}
	}
	return true
}

// stringList decodes raw, a JSON value, into *list as json.Unmarshal into
// a []string does (null leaves it nil), and reports whether it succeeded:
// an array of plain strings is read from its bytes, any other value by
// json.Unmarshal (TestStringListMatchesUnmarshal).
func stringList(raw []byte, list *[]string) bool {
	*list = nil
	b := bytes.TrimSpace(raw)
	if string(b) == "null" {
		return true
	}
	if out, ok := plainStringList(b); ok {
		*list = out
		return true
	}
	*list = nil
	return json.Unmarshal(raw, list) == nil
}

// plainStringList reads ["a", "b"] whose strings have no escape, control
// character or invalid UTF-8; false for anything else.
func plainStringList(b []byte) ([]string, bool) {
	if len(b) < 2 || b[0] != '[' {
		return nil, false
	}
	out := []string{}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return out, skipSpace(b, i+1) == len(b)
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil, false
		}
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if c := b[j]; c < 0x20 || c == '\\' {
				return nil, false
			}
			j++
		}
		if j >= len(b) || !utf8.Valid(b[i+1:j]) {
			return nil, false
		}
		out = append(out, string(b[i+1:j]))
		i = skipSpace(b, j+1)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return out, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
	return nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func (t *transcript) environment(a map[string][]byte) {
	var env struct {
		Scratch string `json:"scratchpadDirectory"`
	}
	if json.Unmarshal(a["snapshot"], &env) != nil || env.Scratch == "" {
		return
	}
	s := t.si(t.cur.session)
	if s.scratch == env.Scratch {
		return
	}
	s.scratch = env.Scratch
	t.sys("scratch directory: "+env.Scratch, "#scratch")
}

// envelopeKeys are common to every record and left out of generic rows.
var envelopeKeys = map[string]bool{"type": true, "sessionId": true, "uuid": true, "parentUuid": true,
	"timestamp": true, "cwd": true, "version": true, "gitBranch": true, "userType": true,
	"isSidechain": true, "entrypoint": true, "slug": true, "agentId": true}

// other renders a record of a type without its own wording as
// "<type>: <its keys as JSON>".
func (t *transcript) other(typ string, raw []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.problem("unreadable " + orDash(typ) + " record: " + parser.JSONError(err))
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
	t.sys(strings.TrimSpace(typ+": "+strings.Join(parts, " ")), "")
}
