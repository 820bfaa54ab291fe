package goose

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/sqlitecarve"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type dbSession struct {
	id, workdir, model, parent string
	modelShown, sub            bool
	recovered                  bool // known from a recovered sessions record
}

func parseSessionsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	carved := parser.Carve(ctx, in, db, out)
	defer carved.Done(out)
	// the schema version and AUTOINCREMENT counters hold no evidence
	carved.SkipTables(out, "schema_version", "sqlite_sequence", "sqlite_schema")
	sessions := map[string]*dbSession{}
	readable, err := parser.CheckStore(ctx, db, sessionsStore, out)
	if err != nil {
		return err
	}
	readSessions := func() error {
		sessRow := func(out parser.Sink, m map[string]any) {
			s := &dbSession{id: parser.SQLText(m["id"]), workdir: parser.SQLText(m["working_dir"])}
			var mc struct {
				ModelName string `json:"model_name"`
			}
			_ = json.Unmarshal([]byte(parser.SQLText(m["model_config_json"])), &mc)
			s.model = mc.ModelName
			s.parent = parser.SQLText(m["parent_session_id"])
			s.sub = s.parent != "" || parser.SQLText(m["session_type"]) == "sub_agent"
			if p := parser.SQLText(m["provider_name"]); p != "" && s.model != "" {
				s.model = p + "/" + s.model
			}
			sessions[s.id] = s
			sessionRows(m, s, out)
		}
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM sessions ORDER BY rowid", func(m map[string]any) { sessRow(out, m) })
		carvedSessions(carved, sessions, out, sessRow)
		return err
	}
	readMessages := func() error {
		q := "SELECT rowid AS rowid_, * FROM messages ORDER BY session_id, created_timestamp, rowid"
		liveIDs, liveRowids := map[string]bool{}, map[int64]bool{}
		msgRow := func(out parser.Sink, m map[string]any) {
			rowid := num(m["rowid_"])
			sid := parser.SQLText(m["session_id"])
			s := sessions[sid]
			if s == nil {
				s = &dbSession{id: sid}
				sessions[sid] = s
			}
			msg := message{ID: parser.SQLText(m["message_id"]), Role: parser.SQLText(m["role"]), Created: num(m["created_timestamp"])}
			if err := json.Unmarshal([]byte(parser.SQLText(m["content_json"])), &msg.Content); err != nil {
				out.Problem(rowid, parser.NotJSONArray("content_json", err))
				return
			}
			if md := parser.SQLText(m["metadata_json"]); md != "" {
				msg.Metadata = &metadata{}
				_ = json.Unmarshal([]byte(md), msg.Metadata)
			}
			base := timeline.Event{SessionID: sid, ParentSessionID: s.parent, ProjectPath: s.workdir, SourceLine: rowid}
			if t, ok := epoch(msg.Created); ok {
				base.Time = t
			} else {
				base.TimeBasis = timeline.TimeNone
			}
			n := 0
			if msg.Role == "assistant" && s.model != "" && !s.modelShown {
				e := base
				e.TurnType, e.Text = timeline.System, "model: "+s.model
				out.Event(e)
				s.modelShown = true
				n++
			}
			base.RecordID = msg.ID
			if n+emitMessage(out, base, &msg, s.model, rowid, s.sub) == 0 {
				out.Skip(rowid, "no_evidence:empty message")
			}
		}
		err := parser.EachRow(ctx, db, q, func(m map[string]any) {
			liveIDs[parser.SQLText(m["message_id"])] = true
			liveRowids[num(m["rowid_"])] = true
			msgRow(out, m)
		})
		carvedMessages(carved, sessions, liveIDs, liveRowids, out, msgRow)
		return err
	}
	if err := parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "sessions", Read: readSessions},
		parser.TableRead{Table: "messages", Read: readMessages},
	); err != nil {
		return err
	}
	return legacyFiles(ctx, in, out, sessions)
}

// sessionsStore is sessions.db (the one SQLite policy, parser.CheckStore):
// sessions and messages, both made by create_schema since the first
// schema version (session_manager.rs), with the columns the queries name
// (message_id is read when present: migration 7 adds it). A missing table
// or one lacking a column is one problem row naming it and the other is
// still read; a table failing part way is named and the next read; a file
// with neither is "not a goose sessions database".
var sessionsStore = parser.SQLiteStore{Name: "a goose sessions", Tables: parser.SQLiteSchema{
	"sessions": {"id"},
	"messages": {"session_id", "role", "content_json", "created_timestamp"},
}}

// sessionRows gives the rows and state of one sessions row.
func sessionRows(m map[string]any, s *dbSession, out parser.Sink) {
	base := timeline.Event{SessionID: s.id, ParentSessionID: s.parent, ProjectPath: s.workdir, SourceLine: num(m["rowid_"]), TurnType: timeline.System}
	rid := func(e *timeline.Event, word string) {
		if s.id != "" {
			e.RecordID = s.id + "#" + word
		}
	}
	n := 0
	if t, ok := timeOf(m["created_at"]); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	name := parser.SQLText(m["name"])
	if name == "" {
		name = parser.SQLText(m["description"])
	}
	if name != "" {
		e := base
		e.Text = "session name: " + name
		rid(&e, "name")
		out.Event(e)
		n++
	}
	typ := parser.SQLText(m["session_type"])
	if typ != "" && typ != "user" || parser.SQLText(m["schedule_id"]) != "" {
		e := base
		e.Text = "session type: " + typ
		if typ == "" {
			e.Text += "user"
		}
		if sid := parser.SQLText(m["schedule_id"]); sid != "" {
			e.Text += " schedule_id=" + parser.Shown(sid)
		}
		rid(&e, "type")
		out.Event(e)
		n++
	}
	if p := s.parent; p != "" {
		e := base
		e.Text = "subagent " + parser.Shown(s.id) + " of " + parser.Shown(p)
		rid(&e, "subagent")
		out.Event(e)
		n++
	}
	if mode := parser.SQLText(m["goose_mode"]); mode != "" {
		e := base
		e.Text = "permission mode: " + mode
		rid(&e, "mode")
		out.Event(e)
		n++
	}
	if at, ok := timeOf(m["archived_at"]); ok {
		e := base
		e.Time, e.TimeBasis, e.Text = at, timeline.TimeRecorded, "session archived"
		rid(&e, "archived")
		out.Event(e)
		n++
	}
	relayed := "no"
	if typ == "gateway" {
		relayed = "yes"
	}
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: s.id}, Relayed: relayed, ParentSessionID: s.parent})
	if n == 0 {
		out.Skip(base.SourceLine, "state_only:session")
	}
}

// legacyFiles reads the legacy sessions/<id>.jsonl files collected beside
// sessions.db as a secondary source. goose imports them once when it
// creates the database (session_manager.rs import_legacy) and leaves them,
// so a file usually repeats the database; but a turn the database lacks (a
// session deleted after the import, a file written by an older goose after
// it, a failed import) is known only there. Every line is read: the engine
// drops the secondary rows that repeat a database row of the same session
// (same turn type and text within the declared second) and writes the rest,
// marked secondary, naming the file as their source.
func legacyFiles(ctx context.Context, in *parser.Input, out parser.Sink, sessions map[string]*dbSession) error {
	dir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	files := in.List(parser.GlobEscape(dir) + "/*.jsonl")
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := strings.TrimSuffix(path.Base(f.Path), ".jsonl")
		rc, err := in.OpenRelated(f.Path)
		if err != nil {
			out.Problem(0, "open "+path.Base(f.Path)+": "+err.Error())
			continue
		}
		j := jsonlSession{sourceFile: f.Path, id: id, secondary: true}
		if s := sessions[id]; s != nil {
			j.parent, j.delegated = s.parent, s.sub
		}
		err = j.read(ctx, rc, prefixSink{out, path.Base(f.Path) + ": "})
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// prefixSink names the legacy file in problems and skips reported against
// the database input.
type prefixSink struct {
	parser.Sink
	prefix string
}

func (p prefixSink) Problem(line int64, msg string) { p.Sink.Problem(line, p.prefix+msg) }

func (p prefixSink) Report(line int64, kind, msg string) { p.Sink.Report(line, kind, p.prefix+msg) }

func (p prefixSink) Skip(line int64, reason string) { p.Sink.Skip(line, "legacy file: "+reason) }

// parseSessionJSONL reads a legacy session file on its own when no
// sessions.db was collected beside it (otherwise goose/sessions-db reads
// it as a secondary source).
func parseSessionJSONL(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	if len(in.List(parser.GlobEscape(path.Dir(p)+"/sessions.db"))) > 0 {
		return nil
	}
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	j := jsonlSession{id: strings.TrimSuffix(path.Base(p), ".jsonl")}
	return j.read(ctx, rc, out)
}

// jsonlSession is how one legacy session file is read.
type jsonlSession struct {
	sourceFile string // set on the rows when the file is not the input
	id         string // the session id (the file stem)
	parent     string // the parent session, when sessions.db names one
	delegated  bool   // a sub-agent session (its user text the parent wrote)
	secondary  bool   // read beside sessions.db
}

// read reads a legacy session file (session/legacy.rs): line 1 is the
// session metadata {working_dir, description, schedule_id, ...} (read as a
// message when it is one), then one Message per line.
func (j *jsonlSession) read(ctx context.Context, r io.Reader, out parser.Sink) error {
	var workdir string
	// The metadata line has no time: its rows take the first message's.
	var pending []timeline.Event
	defer func() {
		for _, p := range pending {
			out.Event(p)
		}
	}()
	base := func(n int64) timeline.Event {
		return timeline.Event{SessionID: j.id, ParentSessionID: j.parent, ProjectPath: workdir, SourceFile: j.sourceFile, SourceLine: n, Secondary: j.secondary}
	}
	return parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(nil))
				return nil
			}
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
		}
		for _, o := range objs {
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(o, &probe); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			_, hasRole := probe["role"]
			if !hasRole {
				if n == 1 {
					var meta struct {
						WorkingDir  string `json:"working_dir"`
						Description string `json:"description"`
						ScheduleID  string `json:"schedule_id"`
					}
					_ = json.Unmarshal(o, &meta)
					workdir = meta.WorkingDir
					e := base(n)
					e.TurnType, e.TimeBasis = timeline.System, timeline.TimeNone
					if meta.Description != "" {
						e.Text = "session name: " + meta.Description
						pending = append(pending, e)
					}
					if meta.ScheduleID != "" {
						e.Text = "session type: scheduled schedule_id=" + parser.Shown(meta.ScheduleID)
						pending = append(pending, e)
					}
					if len(pending) == 0 {
						out.Skip(n, "state_only:session metadata")
					}
					continue
				}
				out.Problem(n, "record without a role: skipped")
				continue
			}
			var msg message
			if err := json.Unmarshal(o, &msg); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			b := base(n)
			if t, ok := epoch(msg.Created); ok {
				b.Time = t
			} else {
				b.TimeBasis = timeline.TimeNone
			}
			for _, p := range pending {
				if !b.Time.IsZero() {
					p.Time, p.TimeBasis = b.Time, timeline.TimeInherited
				}
				out.Event(p)
			}
			pending = nil
			b.RecordID = msg.ID
			if emitMessage(out, b, &msg, "", n, j.delegated) == 0 {
				out.Skip(n, "no_evidence:empty message")
			}
		}
		return nil
	})
}

// timeOf reads a TIMESTAMP column, which the driver may hand over as a
// time.Time or as text.
func timeOf(v any) (time.Time, bool) {
	if t, ok := v.(time.Time); ok {
		if t.IsZero() {
			return t, false
		}
		return t.UTC(), true
	}
	return sqlTime(parser.SQLText(v))
}

// num is parser.SQLInt, 0 when the value is no integer.
func num(v any) int64 { n, _ := parser.SQLInt(v); return n }

// carvedRow is a record the SQLite carver recovered, as the live rows are
// read (rowid_ the rowid when it survived, else 0).
func carvedRow(rec *sqlitecarve.Record) map[string]any {
	m := rec.Row()
	m["rowid_"] = int64(0)
	if rec.RowidKnown {
		m["rowid_"] = rec.Rowid
	}
	return m
}

// provenance emits the row naming where a recovered record was found,
// through the record's own RecoveredSink.
func provenance(out parser.Sink, rec *sqlitecarve.Record, what, id, sid, project string, t time.Time) {
	head := "recovered record"
	if rec.Partial {
		head = "partially recovered record"
	}
	e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: num(carvedRow(rec)["rowid_"]), TurnType: timeline.System, Time: t,
		Text: fmt.Sprintf("%s: %s %s (%s)", head, what, id, rec.Provenance())}
	if t.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	if !strings.HasPrefix(id, "rowid ") {
		e.RecordID = id + "#recovered"
	}
	out.Event(e)
}

// carvedSessions gives the sessions records the carver recovered (a
// session goose session remove deleted) the rows a live one gives, each
// marked recovered (parser.RecoveredSink) after a row naming where it was
// found; the session reads recovered yes. A record whose id is a live or
// recovered session's is an older version of it: a recovered_copy skip.
func carvedSessions(c *parser.Carved, sessions map[string]*dbSession, out parser.Sink, sessRow func(parser.Sink, map[string]any)) {
	lost := 0
	for _, rec := range c.Records("sessions") {
		m := carvedRow(&rec)
		id := parser.SQLText(m["id"])
		switch {
		case id == "":
			lost++
			continue
		case sessions[id] != nil:
			out.Skip(num(m["rowid_"]), "recovered_copy:older version of a live or recovered session")
			continue
		}
		rout := parser.RecoveredSink(out, &rec)
		t, _ := timeOf(m["created_at"])
		provenance(rout, &rec, "session", id, id, parser.SQLText(m["working_dir"]), t)
		sessRow(rout, m)
		sessions[id].recovered = true
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Recovered: "yes"})
	}
	if lost > 0 {
		out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered sessions record(s) lost their id: not given rows", lost))
	}
}

// carvedMessages gives the messages records the carver recovered the
// rows a live message gives, in session and time order, each marked
// recovered after a row naming where it was found. messages.id is an
// AUTOINCREMENT rowid, never reused: a recovered record with a live
// message_id or rowid is an older version of that message (a
// recovered_copy skip). A session with live rows reads recovered partial,
// one known only from recovered records yes.
func carvedMessages(c *parser.Carved, sessions map[string]*dbSession, liveIDs map[string]bool, liveRowids map[int64]bool, out parser.Sink, msgRow func(parser.Sink, map[string]any)) {
	recs := c.Records("messages")
	var keep []sqlitecarve.Record
	lost := 0
	for _, rec := range recs {
		m := carvedRow(&rec)
		mid, rowid := parser.SQLText(m["message_id"]), num(m["rowid_"])
		switch {
		case parser.SQLText(m["session_id"]) == "" || mid == "" && rowid == 0:
			lost++
			continue
		case mid != "" && liveIDs[mid], rowid != 0 && liveRowids[rowid]:
			out.Skip(rowid, "recovered_copy:older version of a live or recovered message")
			continue
		}
		if mid != "" {
			liveIDs[mid] = true
		}
		if rowid != 0 {
			liveRowids[rowid] = true
		}
		keep = append(keep, rec)
	}
	sort.SliceStable(keep, func(i, j int) bool {
		a, b := keep[i].Row(), keep[j].Row()
		if sa, sb := parser.SQLText(a["session_id"]), parser.SQLText(b["session_id"]); sa != sb {
			return sa < sb
		}
		return num(a["created_timestamp"]) < num(b["created_timestamp"])
	})
	for i := range keep {
		rec := &keep[i]
		m := carvedRow(rec)
		sid, mid := parser.SQLText(m["session_id"]), parser.SQLText(m["message_id"])
		if mid == "" {
			mid = fmt.Sprintf("rowid %d", num(m["rowid_"]))
		}
		state := "yes"
		if s := sessions[sid]; s != nil && !s.recovered {
			state = "partial"
		}
		project := ""
		if s := sessions[sid]; s != nil {
			project = s.workdir
		}
		t, _ := epoch(num(m["created_timestamp"]))
		rout := parser.RecoveredSink(out, rec)
		provenance(rout, rec, "message", mid, sid, project, t)
		msgRow(rout, m)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Recovered: state})
	}
	if lost > 0 {
		out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered messages record(s) lost their session id or both ids: not given rows", lost))
	}
}
