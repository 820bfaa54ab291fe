package opencode

import (
	"context"
	"database/sql"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// dbSession is one row of session (1.x) or session_v2 (2.0).
type dbSession struct {
	info     sessionInfo
	rowid    int64
	project  string // project_id
	shareURL string
}

// parseDB reads an OpenCode (or Kilo) SQLite store. Columns are read by
// name, so the 1.x, V2 and 2.0 layouts and the forks' extra columns all
// parse; see doc.go for the tables.
func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	tables, err := parser.CheckStore(ctx, db, dbStore, out)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(tables) == 0 {
		return nil // not a store: CheckStore said so
	}
	r := &dbReader{ctx: ctx, db: db, in: in, out: out, tables: tables, base: baseName(in.Path)}
	r.secondary = strings.HasPrefix(r.base, "opencode-next")
	return r.run()
}

// dbStore is what parseDB reads of an OpenCode or Kilo store (the one
// SQLite policy, parser.CheckStore), each table with the columns its
// queries name. session, message and part are in every store seen (1.x,
// the real 1.18.33 and Kilo 7.7.7 stores, and the 2.0 layout, which keeps
// them beside session_v2); the others come and go with versions
// (session.sql.ts and share.sql.ts histories), so each is Optional with
// the versions that lack it. A table present without its columns is named
// in one problem row and the others are read; a table failing part way
// is named (scanOrProblem) and the next read.
var dbStore = parser.SQLiteStore{
	Name: "an OpenCode",
	Tables: parser.SQLiteSchema{
		"project":           {"id"},
		"session":           {"id"},
		"session_v2":        {"id"},
		"message":           {"id", "session_id", "time_created", "data"},
		"part":              {"id", "session_id", "message_id", "data"},
		"session_message":   {"id", "session_id", "time_created", "data"},
		"session_share":     nil,
		"event":             {"type", "data"},
		"permission":        {"project_id"},
		"worktree":          nil,
		"workspace":         nil,
		"project_directory": nil,
		"model_usage":       {"session_id"},
	},
	Optional: map[string]string{
		"project":           "the earliest 1.x stores",
		"session_v2":        "1.x (2.0 adds it)",
		"session_message":   "1.x before the V2 message table",
		"session_share":     "1.x builds that keep the share in session.share_url",
		"event":             "1.x before the sync log",
		"permission":        "1.x before project permission rulesets",
		"worktree":          "1.18 and later (replaced by workspace)",
		"workspace":         "builds before 1.18",
		"project_directory": "builds before 1.18",
		"model_usage":       "OpenCode and Kilo (only ZCode's CLI writes it)",
	},
}

type dbReader struct {
	ctx       context.Context
	db        *sql.DB
	in        *parser.Input
	out       parser.Sink
	tables    map[string]bool
	base      string
	secondary bool
	projects  map[string]string // project id -> worktree
	subagents map[string]bool
	dirs      map[string]string // session id -> directory
	synced    map[string]bool   // session id + url already given a synced row
	shared    map[string]bool   // sessions given a synced row
	parents   map[string]string // subagent session id -> parent session id
}

func (r *dbReader) run() error {
	r.projects = map[string]string{}
	r.synced = map[string]bool{}
	r.shared = map[string]bool{}
	r.parents = map[string]string{}
	r.subagents = map[string]bool{}
	r.dirs = map[string]string{}
	if r.tables["project"] {
		r.scanOrProblem("project", "SELECT rowid AS rowid_, * FROM project", func(m map[string]any) {
			r.projects[str(m["id"])] = first(m, "worktree", "directory", "path")
			r.out.Skip(i64(m["rowid_"]), "state_only:project")
		})
	}
	sessions, copies := r.sessions()
	shares := r.shares()
	seen := map[string]bool{}
	for _, s := range sessions {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		seen[s.info.ID] = true
		r.dirs[s.info.ID] = r.emitter(s).project
		if s.info.ParentID != "" {
			r.parents[s.info.ID] = s.info.ParentID
		}
		r.session(s, shares[s.info.ID])
	}
	// A session's second row (session and session_v2 both hold it, a
	// migration's copy) is a copy of the same record: its own rows go
	// through under the same record ids, so the correlate stage keeps one
	// where they agree and names the conflict where they do not. Its
	// messages are the session's, already read once.
	for _, s := range copies {
		r.emitter(s).sessionRows(&s.info, loc{line: s.rowid})
	}
	// messages whose session row is gone (deleted session, partial
	// migration) are still rows
	var orphaned []*dbSession
	for _, id := range r.orphans(seen, shares) {
		r.out.Report(0, parser.KindOrphanRecord, "records of session "+id+" whose session row is gone: kept")
		o := &dbSession{info: sessionInfo{ID: id}}
		orphaned = append(orphaned, o)
		r.session(o, shares[id])
	}
	live := map[string]*dbSession{}
	for _, s := range append(append([]*dbSession{}, sessions...), orphaned...) {
		live[s.info.ID] = s
	}
	carved := parser.Carve(r.ctx, r.in, r.db, r.out)
	known := r.carved(carved, live)
	carved.Done(r.out)
	for id := range live {
		known[id] = true
	}
	r.traces(known)
	r.events()
	// a store that keeps shares tells a session that was never shared
	shareable := r.tables["session_share"] || r.tables["event"] || r.hasColumn("session", "share_url")
	for _, s := range sessions {
		if shareable && !r.secondary && !r.shared[s.info.ID] {
			r.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: r.in.Agent, SessionID: s.info.ID}, Synced: "no"})
		}
	}
	r.permissionTable()
	r.worktrees()
	r.projectDirectories()
	r.modelUsage()
	return r.ctx.Err()
}

// modelUsage reads ZCode's model_usage table: one system row per model
// turn (provider, model, status, token counts, tool calls, duration) at
// its started_at, else completed_at.
func (r *dbReader) modelUsage() {
	if !r.tables["model_usage"] {
		return
	}
	r.scanOrProblem("model_usage", "SELECT rowid AS rowid_, * FROM model_usage ORDER BY rowid", func(m map[string]any) {
		sid := str(m["session_id"])
		ev := timeline.Event{TurnType: timeline.System, SessionID: sid, ParentSessionID: r.parents[sid], ProjectPath: r.dirs[sid],
			SourceLine: i64(m["rowid_"]), Model: str(m["model_id"]), TimeBasis: timeline.TimeNone}
		if t := msTime(rowMS(m["started_at"])); !t.IsZero() {
			ev.Time, ev.TimeBasis = t, timeline.TimeRecorded
		} else if t := msTime(rowMS(m["completed_at"])); !t.IsZero() {
			ev.Time, ev.TimeBasis = t, timeline.TimeRecorded
		}
		turn := str(m["turn_id"])
		if turn != "" {
			ev.RecordID = sid + "#usage:" + turn
		}
		text := "model usage: turn " + turn
		if p := str(m["provider_id"]); p != "" {
			text += " via " + p
		}
		if st := str(m["status"]); st != "" {
			text += ", status " + st
		}
		var counts []string
		for _, c := range [][2]string{{"input_tokens", "in"}, {"output_tokens", "out"}, {"reasoning_tokens", "reasoning"},
			{"cache_creation_input_tokens", "cache write"}, {"cache_read_input_tokens", "cache read"}} {
			if v, ok := m[c[0]]; ok && v != nil {
				counts = append(counts, str(v)+" "+c[1])
			}
		}
		if len(counts) > 0 {
			text += "; tokens " + strings.Join(counts, ", ")
		}
		if v, ok := m["tool_call_count"]; ok && v != nil {
			text += "; " + str(v) + " tool calls"
		}
		if v, ok := m["duration_ms"]; ok && v != nil {
			text += "; " + str(v) + " ms"
		}
		ev.Text = text
		r.out.Event(ev)
	})
}

func (r *dbReader) emitter(s *dbSession) *emitter {
	e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, sess: s.info.ID, project: s.info.Directory,
		start: msTime(int64(s.info.Time.Created)), subagents: r.subagents}
	if e.project == "" {
		e.project = r.projects[s.project]
	}
	return e
}

func (r *dbReader) session(s *dbSession, shares []shareRow) {
	e := r.emitter(s)
	l := loc{line: s.rowid}
	e.sessionRows(&s.info, l)
	for _, sh := range shares {
		t := sh.created
		if t.IsZero() {
			t = e.start
		}
		r.syncRow(e, t, loc{line: sh.rowid}, sh.url, sh.id)
	}
	if s.shareURL != "" {
		r.syncRow(e, msTime(int64(s.info.Time.Updated)), l, s.shareURL, "")
	}
	v1 := r.tables["message"] && r.count("SELECT count(*) FROM message WHERE session_id=?", s.info.ID) > 0 ||
		r.tables["part"] && r.count("SELECT count(*) FROM part WHERE session_id=?", s.info.ID) > 0
	v2 := r.tables["session_message"] && r.count("SELECT count(*) FROM session_message WHERE session_id=?", s.info.ID) > 0
	switch {
	case r.tables["session_v2"] && v2, v2 && !v1:
		r.v2Messages(e, s.info.ID)
	case v1:
		r.v1Messages(e, s.info.ID)
	}
}

// syncRow gives one "session synced:" row per session and share URL: the
// session_share row, the session's share_url and the sync log's events
// record the same upload, so a later record of it is accounted as a skip.
func (r *dbReader) syncRow(e *emitter, t time.Time, l loc, url, id string) {
	key := e.sess + "\x00" + url
	if url == "" {
		return
	}
	if r.synced[key] {
		r.out.Skip(l.line, "state_only:share already recorded")
		return
	}
	l.rid = e.sess + "#synced:" + url
	r.shared[e.sess] = true
	r.synced[key] = true
	what := "share " + url
	if id != "" {
		what = "share " + id + " " + url
	}
	e.synced(t, l, what)
}

// sessions reads session (1.x) and session_v2 (2.0) in creation order;
// copies are the rows of a session id already read (in the other table).
func (r *dbReader) sessions() (all, copies []*dbSession) {
	byID := map[string]*dbSession{}
	for _, table := range []string{"session", "session_v2"} {
		if !r.tables[table] {
			continue
		}
		r.scanOrProblem(table, "SELECT rowid AS rowid_, * FROM "+table+" ORDER BY rowid", func(m map[string]any) {
			s := sessionFromRow(m, i64(m["rowid_"]))
			s.info.Share = nil // emitted by the reader, deduplicated
			if s.info.ID == "" {
				r.out.Problem(s.rowid, table+" row without id")
				return
			}
			if byID[s.info.ID] != nil {
				// a session migrated to session_v2: its rows go through
				// as a copy's (run)
				copies = append(copies, s)
				return
			}
			byID[s.info.ID] = s
			all = append(all, s)
		})
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].info.Time.Created, all[j].info.Time.Created
		if a != b {
			return a < b
		}
		return all[i].info.ID < all[j].info.ID
	})
	return all, copies
}

// sessionFromRow reads a session or session_v2 row (a live one, or one
// the carver recovered).
func sessionFromRow(m map[string]any, rowid int64) *dbSession {
	s := &dbSession{rowid: rowid}
	if d := str(m["data"]); strings.HasPrefix(strings.TrimSpace(d), "{") {
		_ = json.Unmarshal([]byte(d), &s.info)
	}
	setStr(&s.info.ID, str(m["id"]))
	setStr(&s.info.Directory, first(m, "directory", "path"))
	setStr(&s.info.ParentID, str(m["parent_id"]))
	setStr(&s.info.Title, str(m["title"]))
	setStr(&s.info.Version, str(m["version"]))
	s.project = first(m, "project_id")
	if s.project == "" {
		s.project = s.info.ProjectID
	}
	if v := rowMS(m["time_created"]); v > 0 {
		s.info.Time.Created = num(v)
	}
	if v := rowMS(m["time_updated"]); v > 0 {
		s.info.Time.Updated = num(v)
	}
	if v := i64(m["time_archived"]); v > 0 {
		s.info.Time.Archived = num(v)
	}
	if p := str(m["permission"]); p != "" {
		s.info.Permission = json.RawMessage(p)
	}
	s.shareURL = str(m["share_url"])
	if s.shareURL == "" && s.info.Share != nil {
		s.shareURL = s.info.Share.URL
	}
	return s
}

type shareRow struct {
	rowid   int64
	id, url string
	created time.Time
}

// shares reads session_share: {session_id, id, secret, url} columns or a
// data JSON {id, secret, url}. The secret is never read into a row.
func (r *dbReader) shares() map[string][]shareRow {
	m := map[string][]shareRow{}
	if !r.tables["session_share"] {
		return m
	}
	r.scanOrProblem("session_share", "SELECT rowid AS rowid_, * FROM session_share ORDER BY rowid", func(row map[string]any) {
		sh := shareRow{rowid: i64(row["rowid_"]), id: str(row["id"]), url: str(row["url"]), created: msTime(i64(row["time_created"]))}
		if d := str(row["data"]); d != "" {
			var v struct {
				ID  string `json:"id"`
				URL string `json:"url"`
			}
			if json.Unmarshal([]byte(d), &v) == nil {
				setStr(&sh.id, v.ID)
				setStr(&sh.url, v.URL)
			}
		}
		sid := first(row, "session_id", "sessionID")
		m[sid] = append(m[sid], sh)
	})
	return m
}

// v1Messages reads the message and part tables of one session. Parts
// whose message row is gone (a partial migration or a deletion that
// removed the message but not its parts, opencode #13654 and #13818) still
// give rows, from what the part records, and an orphan_record problem per
// lost message.
func (r *dbReader) v1Messages(e *emitter, sid string) {
	parts := map[string][]partRec{}
	var order []string // message ids in part order
	if r.tables["part"] {
		r.scanOrProblem("part", "SELECT rowid AS rowid_, * FROM part WHERE session_id=? ORDER BY message_id, id", func(m map[string]any) {
			rowid := i64(m["rowid_"])
			p, mid, err := partFromRow(m)
			if err != nil {
				r.out.Problem(rowid, "part data: "+err.Error())
				return
			}
			if _, ok := parts[mid]; !ok {
				order = append(order, mid)
			}
			parts[mid] = append(parts[mid], partRec{p: p, loc: loc{line: rowid, rid: p.ID}, created: msTime(rowMS(m["time_created"]))})
		}, sid)
	}
	seen := map[string]bool{}
	if r.tables["message"] {
		r.scanOrProblem("message", "SELECT rowid AS rowid_, * FROM message WHERE session_id=? ORDER BY time_created, id", func(m map[string]any) {
			rowid := i64(m["rowid_"])
			mi, err := msgFromRow(m)
			if err != nil {
				r.out.Problem(rowid, "message data: "+err.Error())
				return
			}
			mid := str(m["id"])
			seen[mid] = true
			e.message(&mi, parts[mid], loc{line: rowid, rid: mi.ID})
		}, sid)
	}
	for _, mid := range order {
		if seen[mid] {
			continue
		}
		ps := parts[mid]
		r.out.Report(ps[0].loc.line, parser.KindOrphanRecord, fmt.Sprintf("%d part(s) of message %s in session %s whose message row is gone (opencode #13654, #13818): kept, role unknown", len(ps), mid, sid))
		for _, pr := range ps {
			e.part("", &pr.p, pr.loc, time.Time{}, pr.created, "", false)
		}
	}
}

// partFromRow reads a part row (live or recovered): the part and its
// message id.
func partFromRow(m map[string]any) (part, string, error) {
	var p part
	if err := json.Unmarshal([]byte(str(m["data"])), &p); err != nil {
		return p, "", err
	}
	if p.Type == "tool_use" && p.CallID == "" {
		p.CallID = p.ID // the block's own id, before the row's replaces it
	}
	setStr(&p.ID, str(m["id"]))
	return p, str(m["message_id"]), nil
}

// msgFromRow reads a message row (live or recovered).
func msgFromRow(m map[string]any) (msgInfo, error) {
	var mi msgInfo
	if err := json.Unmarshal([]byte(str(m["data"])), &mi); err != nil {
		return mi, err
	}
	if mi.Time.Created == 0 {
		mi.Time.Created = num(rowMS(m["time_created"]))
	}
	setStr(&mi.ID, str(m["id"]))
	return mi, nil
}

// v2 is a session_message data payload (SessionMessage without type and
// id): user, synthetic, shell, assistant, compaction, agent-switched and
// model-switched.
type v2 struct {
	Time struct {
		Created   num `json:"created"`
		Completed num `json:"completed"`
	} `json:"time"`
	Text    string          `json:"text"`
	Files   json.RawMessage `json:"files"`
	CallID  string          `json:"callID"`
	Command string          `json:"command"`
	Output  string          `json:"output"`
	Agent   json.RawMessage `json:"agent"`
	Model   json.RawMessage `json:"model"`
	Content []struct {
		Type  string     `json:"type"`
		ID    string     `json:"id"`
		Name  string     `json:"name"`
		Text  string     `json:"text"`
		State *toolState `json:"state"`
		Time  *struct {
			Created   num `json:"created"`
			Ran       num `json:"ran"`
			Completed num `json:"completed"`
		} `json:"time"`
		Synthetic bool `json:"synthetic"`
	} `json:"content"`
	Error   json.RawMessage `json:"error"`
	Reason  string          `json:"reason"`
	Summary string          `json:"summary"`
}

func v2Model(raw json.RawMessage) string {
	raw = trimRaw(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return parser.JSONText(raw)
	}
	var m modelRef
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return m.name()
}

func v2Agent(raw json.RawMessage) string {
	raw = trimRaw(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var a struct {
			Name string `json:"name"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(raw, &a) == nil {
			if a.Name != "" {
				return a.Name
			}
			return a.ID
		}
	}
	return parser.JSONText(raw)
}

// v2Messages reads session_message rows of one session.
func (r *dbReader) v2Messages(e *emitter, sid string) {
	order := "time_created, id"
	if r.hasColumn("session_message", "seq") {
		order = "seq, " + order
	}
	r.scanOrProblem("session_message", "SELECT rowid AS rowid_, * FROM session_message WHERE session_id=? ORDER BY "+order, func(m map[string]any) {
		rowid := i64(m["rowid_"])
		l := loc{line: rowid, rid: str(m["id"])}
		var d v2
		if err := json.Unmarshal([]byte(str(m["data"])), &d); err != nil {
			r.out.Problem(rowid, "session_message data: "+parser.JSONError(err))
			return
		}
		t := msTime(int64(d.Time.Created))
		if t.IsZero() {
			t = msTime(i64(m["time_created"]))
		}
		switch typ := str(m["type"]); typ {
		case "user":
			n := 0
			if strings.TrimSpace(d.Text) != "" {
				ev := e.base(t, l)
				ev.TurnType, ev.Text = timeline.User, d.Text
				if e.parent != "" {
					ev.TurnType, ev.Text = timeline.System, "subagent task: "+d.Text
				}
				r.out.Event(ev)
				n++
			}
			for i, f := range fileNames(d.Files) {
				e.system(t, l.with("#file-"+itoa(int64(i))), "attachment: "+f)
				n++
			}
			if n == 0 {
				r.out.Skip(rowid, "empty_text")
			}
		case "synthetic":
			if strings.TrimSpace(d.Text) != "" {
				e.system(t, l, d.Text)
			} else {
				r.out.Skip(rowid, "empty_text")
			}
		case "shell":
			use := e.base(t, l)
			use.TurnType, use.ToolName, use.ToolUseID, use.Text = timeline.ToolUse, "shell", d.CallID, d.Command
			in, _ := json.Marshal(map[string]string{"command": d.Command})
			use.ToolInput = string(in)
			r.out.Event(use)
			if c := msTime(int64(d.Time.Completed)); !c.IsZero() || d.Output != "" {
				if c.IsZero() {
					c = t
				}
				res := e.base(c, l.with("#result"))
				res.TurnType, res.ToolName, res.ToolUseID, res.Text, res.IsError = timeline.ToolResult, "shell", d.CallID, d.Output, "false"
				r.out.Event(res)
			}
		case "assistant":
			model := v2Model(d.Model)
			n := 0
			if e.modelRow(t, l, model) {
				n++
			}
			// content has no times of its own but the tools': a text or
			// reasoning block is dated at the end of the tool before it
			cursor := t
			for i, c := range d.Content {
				cl := l.with("#" + itoa(int64(i)))
				switch c.Type {
				case "text":
					if strings.TrimSpace(c.Text) == "" {
						continue
					}
					n++
					ev := e.base(cursor, cl)
					ev.TurnType, ev.Text, ev.Model = timeline.Assistant, c.Text, model
					if c.Synthetic {
						ev.TurnType, ev.Model = timeline.System, ""
					}
					r.out.Event(ev)
				case "reasoning":
					if strings.TrimSpace(c.Text) == "" {
						continue
					}
					n++
					ev := e.base(cursor, cl)
					ev.TurnType, ev.Text, ev.Model = timeline.Thinking, c.Text, model
					r.out.Event(ev)
				case "tool":
					p := part{Type: "tool", CallID: c.ID, Tool: c.Name, State: c.State}
					if p.State == nil {
						p.State = &toolState{}
					}
					if c.Time != nil && p.State.Time == nil {
						start := c.Time.Ran
						if start == 0 {
							start = c.Time.Created
						}
						p.State.Time = &struct {
							Start num `json:"start"`
							End   num `json:"end"`
						}{start, c.Time.Completed}
					}
					pick := func(ts ...num) time.Time {
						for _, v := range ts {
							if tt := msTime(int64(v)); !tt.IsZero() {
								return tt
							}
						}
						return t
					}
					n++
					e.tool(&p, cl, pick, model)
					if p.State.Time != nil {
						if tt := pick(p.State.Time.End, p.State.Time.Start); tt.After(cursor) {
							cursor = tt
						}
					}
				}
			}
			if msg := errMessage(d.Error); msg != "" {
				c := msTime(int64(d.Time.Completed))
				if c.IsZero() {
					c = t
				}
				e.system(c, l.with("#error"), "error: "+msg)
				n++
			}
			if n == 0 {
				r.out.Skip(rowid, "no_evidence:empty assistant message")
			}
		case "compaction":
			text := "compaction"
			if d.Reason != "" {
				text += " (" + d.Reason + ")"
			}
			if d.Summary != "" {
				text += ": " + d.Summary
			}
			e.system(t, l, text)
		case "agent-switched":
			e.system(t, l, "agent switched: "+v2Agent(d.Agent))
		case "model-switched":
			if !e.modelRow(t, l, v2Model(d.Model)) {
				r.out.Skip(rowid, "state_only:model-switched")
			}
		default:
			r.out.Problem(rowid, "session_message type "+strconv.Quote(typ)+" not read")
		}
	}, sid)
}

func fileNames(raw json.RawMessage) []string {
	var fs []struct {
		Filename string `json:"filename"`
		Name     string `json:"name"`
		Path     string `json:"path"`
		URI      string `json:"uri"`
		URL      string `json:"url"`
		Mime     string `json:"mime"`
	}
	if json.Unmarshal(trimRaw(raw), &fs) != nil {
		return nil
	}
	var out []string
	for _, f := range fs {
		n := f.Filename
		for _, c := range []string{f.Name, f.Path, f.URI} {
			if n == "" {
				n = c
			}
		}
		if n == "" && strings.HasPrefix(f.URL, "file://") {
			n = strings.TrimPrefix(f.URL, "file://")
		}
		if f.Mime != "" {
			n += " (" + f.Mime + ")"
		}
		out = append(out, n)
	}
	return out
}

// orphans are session ids that have messages, parts or shares but no
// session row.
func (r *dbReader) orphans(seen map[string]bool, shares map[string][]shareRow) []string {
	set := map[string]bool{}
	for id := range shares {
		if id != "" && !seen[id] {
			set[id] = true
		}
	}
	for _, t := range []string{"message", "part", "session_message"} {
		if !r.tables[t] {
			continue
		}
		r.scanOrProblem(t, "SELECT DISTINCT session_id FROM "+t, func(m map[string]any) {
			if id := str(m["session_id"]); id != "" && !seen[id] {
				set[id] = true
			}
		})
	}
	var ids []string
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// events reads the sync log's session.updated.1 rows whose info carries a
// share URL (a session shared on opncd.ai); each gives one session synced:
// row.
func (r *dbReader) events() {
	if !r.tables["event"] {
		return
	}
	used := r.removedParts()
	r.scanOrProblem("event", "SELECT rowid AS rowid_, * FROM event ORDER BY rowid", func(m map[string]any) {
		typ := first(m, "type", "name", "event")
		rowid := i64(m["rowid_"])
		if used[rowid] {
			return // gave the rows of a removed part
		}
		if !strings.HasPrefix(typ, "session.updated") {
			r.out.Skip(rowid, "no_evidence:event "+typ)
			return
		}
		var d struct {
			SessionID string `json:"sessionID"`
			Info      struct {
				ID    string `json:"id"`
				Share *struct {
					URL string `json:"url"`
				} `json:"share"`
				Time struct {
					Updated num `json:"updated"`
				} `json:"time"`
			} `json:"info"`
		}
		if err := json.Unmarshal([]byte(first(m, "data", "payload")), &d); err != nil {
			r.out.Problem(rowid, "event data: "+parser.JSONError(err))
			return
		}
		if d.Info.Share == nil || d.Info.Share.URL == "" {
			r.out.Skip(rowid, "no_evidence:session update without a share")
			return
		}
		sid := d.SessionID
		if sid == "" {
			sid = first(m, "aggregate_id", "session_id")
		}
		if sid == "" {
			sid = d.Info.ID
		}
		e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, sess: sid, project: r.dirs[sid], parent: r.parents[sid]}
		t := msTime(int64(d.Info.Time.Updated))
		if t.IsZero() {
			t = msTime(i64(m["time_created"]))
		}
		r.syncRow(e, t, loc{line: rowid}, d.Info.Share.URL, "")
	})
}

// removedPart is a message.part.removed event whose part row is gone.
type removedPart struct {
	rowid                int64
	session, message, id string
	update               int64 // rowid of the part's last message.part.updated event
	data                 []byte
}

// removedParts keeps what the sync log says of the parts OpenCode removed
// (message.part.removed events; Kilo removes its transient progress parts,
// a revert removes the parts after its point): the part's last
// message.part.updated event still holds it, so the part gives its rows
// from there, followed by "part removed from message <id>". It returns the
// event rowids that gave rows.
func (r *dbReader) removedParts() map[int64]bool {
	used := map[int64]bool{}
	var removed []*removedPart
	byPart := map[string]*removedPart{}
	r.scanOrProblem("event", "SELECT rowid AS rowid_, * FROM event WHERE type LIKE 'message.part.removed%' ORDER BY rowid", func(m map[string]any) {
		var d struct {
			SessionID string `json:"sessionID"`
			MessageID string `json:"messageID"`
			PartID    string `json:"partID"`
		}
		rowid := i64(m["rowid_"])
		if json.Unmarshal([]byte(first(m, "data", "payload")), &d) != nil || d.PartID == "" {
			return // counted as an event with no evidence
		}
		removed = append(removed, &removedPart{rowid: rowid, session: d.SessionID, message: d.MessageID, id: d.PartID})
	})
	// (no query may run while a scan's rows are open: the engine gives a
	// store one connection)
	kept := removed[:0]
	for _, rp := range removed {
		if r.tables["part"] && r.count("SELECT count(*) FROM part WHERE id=?", rp.id) > 0 {
			continue // the part is still there (re-added)
		}
		kept = append(kept, rp)
		byPart[rp.id] = rp
	}
	removed = kept
	if len(removed) == 0 {
		return used
	}
	r.scanOrProblem("event", "SELECT rowid AS rowid_, data FROM event WHERE type LIKE 'message.part.updated%' ORDER BY rowid", func(m map[string]any) {
		var d struct {
			Part struct {
				ID string `json:"id"`
			} `json:"part"`
		}
		data := []byte(str(m["data"]))
		if json.Unmarshal(data, &d) != nil {
			return
		}
		if rp := byPart[d.Part.ID]; rp != nil && i64(m["rowid_"]) < rp.rowid {
			rp.update, rp.data = i64(m["rowid_"]), data
		}
	})
	for _, rp := range removed {
		e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, sess: rp.session, project: r.dirs[rp.session], parent: r.parents[rp.session]}
		var t time.Time
		if rp.data != nil {
			var d struct {
				Part part `json:"part"`
				Time num  `json:"time"`
			}
			if json.Unmarshal(rp.data, &d) == nil {
				role := ""
				if r.tables["message"] {
					r.scanOrProblem("message", "SELECT data FROM message WHERE id=?", func(m map[string]any) {
						var mi msgInfo
						if json.Unmarshal([]byte(str(m["data"])), &mi) == nil {
							role = mi.Role
						}
					}, rp.message)
				}
				t = msTime(int64(d.Time))
				e.part(role, &d.Part, loc{line: rp.update, rid: rp.id}, t, t, "", false)
				used[rp.update] = true
			}
		}
		ev := e.base(t, loc{line: rp.rowid, rid: rp.id + "#removed"})
		if !t.IsZero() {
			ev.TimeBasis = timeline.TimeInherited
		}
		ev.TurnType, ev.Text = timeline.System, "part removed from message "+rp.message
		if rp.data == nil {
			ev.Text += " (the sync log holds none of its content)"
		}
		r.out.Event(ev)
		used[rp.rowid] = true
	}
	return used
}

// permissionTable reads the project-level permission rulesets.
func (r *dbReader) permissionTable() {
	if !r.tables["permission"] {
		return
	}
	r.scanOrProblem("permission", "SELECT rowid AS rowid_, * FROM permission ORDER BY rowid", func(m map[string]any) {
		pid := str(m["project_id"])
		e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, project: r.projects[pid]}
		t := msTime(i64(m["time_updated"]))
		if t.IsZero() {
			t = msTime(i64(m["time_created"]))
		}
		from := r.base + " permission, project " + pid
		l := loc{line: i64(m["rowid_"])}
		if d := str(m["data"]); d != "" {
			e.rules(t, l.id("permission:"+pid), json.RawMessage(d), from)
			return
		}
		// 1.18: one row per saved grant, {action, resource}
		if id := str(m["id"]); id != "" {
			l.rid = "permission:" + id
		}
		e.system(t, l, "permission setting: "+str(m["action"])+"="+str(m["resource"])+" (from "+from+")")
	})
}

// worktrees reads the worktree and workspace tables: directories OpenCode
// created for isolated work (scratch directories).
func (r *dbReader) worktrees() {
	for _, table := range []string{"worktree", "workspace"} {
		if r.tables[table] {
			r.worktreeTable(table)
		}
	}
}

// worktreeTable reads worktree (early builds) or workspace (1.18: id, type,
// name, branch, directory, extra, project_id, time_used).
func (r *dbReader) worktreeTable(table string) {
	r.scanOrProblem(table, "SELECT rowid AS rowid_, * FROM "+table+" ORDER BY rowid", func(m map[string]any) {
		dir := first(m, "directory", "path", "worktree")
		pid := str(m["project_id"])
		e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, project: r.projects[pid], sess: str(m["session_id"])}
		var kv []string
		for _, k := range []string{"type", "name", "branch", "project_id"} {
			if v := str(m[k]); v != "" {
				kv = append(kv, k+"="+v)
			}
		}
		text := "scratch directory: " + dir
		if len(kv) > 0 {
			text += " (" + table + " " + strings.Join(kv, " ") + ")"
		}
		e.system(rowTime(m), loc{line: i64(m["rowid_"]), rid: str(m["id"])}, text)
	})
}

// projectDirectories reads project_directory: each directory a project was
// opened from (past use).
func (r *dbReader) projectDirectories() {
	if !r.tables["project_directory"] {
		return
	}
	r.scanOrProblem("project_directory", "SELECT rowid AS rowid_, * FROM project_directory ORDER BY rowid", func(m map[string]any) {
		dir := first(m, "directory", "path", "worktree")
		pid := str(m["project_id"])
		e := &emitter{out: r.out, agent: r.in.Agent, secondary: r.secondary, project: dir}
		e.system(rowTime(m), loc{line: i64(m["rowid_"])}, "project directory: "+dir+" (project "+pid+")")
	})
}

func rowTime(m map[string]any) time.Time {
	for _, k := range []string{"time_created", "time_updated", "time_used"} {
		if t := msTime(i64(m[k])); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

func (r *dbReader) count(q string, args ...any) int64 {
	var n int64
	if err := r.db.QueryRowContext(r.ctx, q, args...).Scan(&n); err != nil {
		r.out.Problem(0, fmt.Sprintf("%s: %v", q, err))
		return 0
	}
	return n
}

func (r *dbReader) hasColumn(table, col string) bool {
	cols, err := parser.Columns(r.ctx, r.db, table)
	if err != nil {
		r.out.Problem(0, fmt.Sprintf("columns of %s: %v", table, err))
	}
	return cols[col]
}

// scanOrProblem runs q, a read of table, with parser.EachRow; a failing
// read is the one SQLite policy's problem (parser.TableNotRead), and the
// run goes on.
func (r *dbReader) scanOrProblem(table, q string, fn func(map[string]any), args ...any) {
	err := parser.EachRow(r.ctx, r.db, q, fn, args...)
	if err == nil || r.ctx.Err() != nil {
		return // a cancelled run is its parse's error, not a table's problem
	}
	r.out.Problem(0, parser.TableNotRead(table, err))
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

// rowMS reads a time column as epoch ms: a number (OpenCode's), or RFC
// 3339 text (ZCode writes both); 0 when neither.
func rowMS(v any) int64 {
	if n := i64(v); n > 0 {
		return n
	}
	if t, ok := parser.ParseTime(str(v)); ok {
		return t.UnixMilli()
	}
	return 0
}

func i64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case string, []byte:
		n, _ := strconv.ParseFloat(str(x), 64)
		return int64(n)
	}
	return 0
}

func first(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := str(m[k]); s != "" {
			return s
		}
	}
	return ""
}

func setStr(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}
