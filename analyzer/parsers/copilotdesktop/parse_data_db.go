package copilotdesktop

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// secretCol matches columns whose values are never printed: only whether
// one is present.
var secretCol = regexp.MustCompile(`(?i)(token|secret|password|passwd|api_?key|credential|cookie|private_key)`)

// secretSetting matches settings keys whose values are redacted.
var secretSetting = secretCol

// row is one SQLite row read by column name.
type row struct{ parser.Row }

// first returns the first non-empty of the named columns.
func (r row) first(cols ...string) string {
	for _, c := range cols {
		if v := r.Get(c); v != "" {
			return v
		}
	}
	return ""
}

// kv renders the row's columns as k=v in column order, skipping empty
// values and the named columns; secret columns show present/absent.
func (r row) kv(skip ...string) string {
	sk := map[string]bool{}
	for _, s := range skip {
		sk[s] = true
	}
	var parts []string
	for _, c := range r.Cols {
		if sk[c] {
			continue
		}
		v := r.Get(c)
		if secretCol.MatchString(c) {
			if v == "" {
				v = "absent"
			} else {
				v = "present"
			}
			parts = append(parts, c+"="+v)
			continue
		}
		if v == "" {
			continue
		}
		if b, ok := r.Vals[c].([]byte); ok && bytes.IndexByte(b, 0) >= 0 {
			v = fmt.Sprintf("<%d bytes>", len(b))
		}
		if strings.ContainsAny(v, " \n\t\"") {
			v = strconv.Quote(v)
		}
		parts = append(parts, c+"="+v)
	}
	return strings.Join(parts, " ")
}

// timeCols are tried in order for a record's time.
var timeCols = []string{"created_at", "createdAt", "added_at", "timestamp", "started_at", "requested_at", "updated_at", "updatedAt"}

func (r row) when(cols ...string) (time.Time, bool) {
	if len(cols) == 0 {
		cols = timeCols
	}
	for _, c := range cols {
		if t, ok := parseDBTime(r.Get(c)); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseDBTime reads ISO 8601 text or epoch seconds / milliseconds /
// microseconds.
func parseDBTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		switch {
		case n > 1e14:
			return time.UnixMicro(int64(n)).UTC(), true
		case n > 1e11:
			return time.UnixMilli(int64(n)).UTC(), true
		case n > 1e8:
			return time.Unix(int64(n), 0).UTC(), true
		}
		return time.Time{}, false
	}
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// joins resolves project paths: projects by id, worktree paths, the
// workspace of each id, and the workspace of each session alias.
type joins struct {
	projectPath   map[string]string // project id -> main_repo_path
	worktreePath  map[string]string // worktree id -> path
	workspaceProj map[string]string // workspace id -> project path
	sessionWS     map[string]string // session id -> workspace id
}

func (j *joins) sessionProject(sessionID, workspaceID string) string {
	if workspaceID == "" {
		workspaceID = j.sessionWS[sessionID]
	}
	return j.workspaceProj[workspaceID]
}

type dbOut struct {
	out parser.Sink
}

// emit writes one system row of table at the record's time (or the
// given time), SourceLine the rowid, RecordID the record's id in its
// table (see recordID) with suffix ("#forked", "#archived") for a row
// derived from it.
func (o *dbOut) emit(r row, table, suffix, sid, project, text string, t time.Time, basis timeline.TimeBasis) {
	e := timeline.Event{SessionID: sid, ProjectPath: project, TurnType: timeline.System, Text: text, SourceLine: r.Rowid, Time: t, TimeBasis: basis}
	if id := recordID(table, r); id != "" {
		e.RecordID = id + suffix
	}
	if t.IsZero() && basis == timeline.TimeRecorded {
		if rt, ok := r.when(); ok {
			e.Time = rt
		} else {
			e.TimeBasis = timeline.TimeNone
		}
	}
	o.out.Event(e)
}

// recordKeys are the columns that identify a record of each table, tried
// in order (the primary key where the fixture schema has one).
var recordKeys = map[string][]string{
	"settings":                 {"key", "name", "id"},
	"session_deletion_intents": {"id", "session_id"},
}

// recordID is "<table>/<id>": the record's own id within data.db, one
// store per user, so unique across the user's rows; "" when the record
// has none.
func recordID(table string, r row) string {
	keys := recordKeys[table]
	if keys == nil {
		keys = []string{"id"}
	}
	if v := r.first(keys...); v != "" {
		return table + "/" + v
	}
	return ""
}

// parseDataDB reads Copilot Desktop's .copilot/data.db, one system row per
// record of the tables it knows (see the package doc). Columns are read
// by name; a table it reads that is missing, or whose read fails part
// way, is one problem row naming it and the other tables are read
// (parser.CheckStore, parser.ReadTables).
func parseDataDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, dataStore, out)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	o := &dbOut{out: out}
	var reads []parser.TableRead
	run := func(table string, fn func(r row)) {
		reads = append(reads, parser.TableRead{Table: table, Read: func() error { return eachRow(ctx, db, table, fn) }})
	}
	j := &joins{projectPath: map[string]string{}, worktreePath: map[string]string{}, workspaceProj: map[string]string{}, sessionWS: map[string]string{}}
	// The joins are taken in the same one read of each table as its rows
	// (projects, worktrees and workspaces come first for that), so a table
	// whose read fails is named once.
	run("projects", func(r row) {
		p := r.first("main_repo_path", "path", "repo_path")
		j.projectPath[r.Get("id")] = p
		o.emit(r, "projects", "", "", p, "project added: "+r.kv(), time.Time{}, timeline.TimeRecorded)
	})
	run("worktrees", func(r row) {
		j.worktreePath[r.Get("id")] = r.first("path", "worktree_path")
		p := j.projectPath[r.Get("project_id")]
		if p == "" {
			p = r.first("path", "worktree_path")
		}
		o.emit(r, "worktrees", "", "", p, "worktree: "+r.kv(), time.Time{}, timeline.TimeRecorded)
	})
	run("workspaces", func(r row) {
		p := j.projectPath[r.Get("project_id")]
		if p == "" {
			p = j.worktreePath[r.Get("worktree_id")]
		}
		if p == "" {
			p = r.first("path", "cwd")
		}
		j.workspaceProj[r.Get("id")] = p
		o.emit(r, "workspaces", "", "", p, "workspace: "+r.kv(), time.Time{}, timeline.TimeRecorded)
	})
	run("workspace_session_aliases", func(r row) {
		if sid := r.first("session_id", "alias"); sid != "" {
			j.sessionWS[sid] = r.Get("workspace_id")
		}
		// a join only: it gives the session rows their project
		out.Skip(r.Rowid, "state_only")
	})
	ft, fb := in.MTime.UTC(), timeline.TimeFileMTime
	if in.MTime.IsZero() {
		ft, fb = time.Time{}, timeline.TimeNone
	}

	run("accounts", func(r row) {
		login := r.first("login", "username", "user_name", "name", "email", "id")
		o.emit(r, "accounts", "", "", "", strings.TrimSpace("account: "+login+" "+r.kv("login")), time.Time{}, timeline.TimeRecorded)
	})
	run("settings", func(r row) {
		key := r.first("key", "name", "id")
		val := r.first("value", "json", "data")
		if secretSetting.MatchString(key) && val != "" {
			val = "[redacted]"
		}
		o.emit(r, "settings", "", "", "", fmt.Sprintf("desktop settings: %s=%s (from data.db, file mtime)", key, val), ft, fb)
	})
	run("model_providers", func(r row) {
		o.emit(r, "model_providers", "", "", "", "model provider: "+r.kv(), time.Time{}, timeline.TimeRecorded)
	})
	run("sessions", func(r row) {
		sid := r.first("id", "session_id")
		p := j.sessionProject(sid, r.Get("workspace_id"))
		o.emit(r, "sessions", "", sid, p, "desktop session: "+r.kv("id", "session_id"), time.Time{}, timeline.TimeRecorded)
		if parent := r.first("forked_from_session_id", "parent_session_id", "forked_from"); parent != "" {
			o.emit(r, "sessions", "#forked", sid, p, "forked from session "+parent, time.Time{}, timeline.TimeRecorded)
			if sid != "" {
				out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, ForkedFrom: parent})
			}
		}
		if at := r.Get("archived_at"); at != "" {
			if t, ok := parseDBTime(at); ok {
				o.emit(r, "sessions", "#archived", sid, p, "desktop session archived", t, timeline.TimeRecorded)
			}
		}
	})
	for _, tl := range sessionTables {
		tl := tl
		run(tl.table, func(r row) {
			sid := r.Get("session_id")
			p := j.sessionProject(sid, r.Get("workspace_id"))
			if p == "" {
				p = j.projectPath[r.Get("project_id")]
			}
			o.emit(r, tl.table, "", sid, p, tl.label+": "+r.kv("session_id"), time.Time{}, timeline.TimeRecorded)
		})
	}
	return parser.ReadTables(ctx, out, readable, reads...)
}

// sessionTables are the tables read as "<label>: k=v" rows.
var sessionTables = []struct{ table, label string }{
	{"activity_items", "activity"},
	{"session_checkpoints", "session checkpoint"},
	{"my_copilot_scheduled_tasks", "scheduled task"},
	{"my_copilot_scheduled_task_triggers", "scheduled task trigger"},
	{"my_copilot_scheduled_task_invocations", "scheduled task run"},
	{"session_automations", "session automation"},
	{"session_deletion_intents", "session deletion intent"},
}

// dataStore is the tables parseDataDB reads, the seed's list for the
// real 1.1.29 and 1.1.30 installs. No column is required: the column
// names are not published (see the package doc), every one is read by
// name and a row lacking them is still a row. No table is Optional: no
// release is known to lack one.
var dataStore = func() parser.SQLiteStore {
	s := parser.SQLiteStore{Name: "a Copilot Desktop data", Tables: parser.SQLiteSchema{}}
	for _, t := range []string{"projects", "worktrees", "workspaces", "workspace_session_aliases", "accounts", "settings", "model_providers", "sessions"} {
		s.Tables[t] = nil
	}
	for _, t := range sessionTables {
		s.Tables[t.table] = nil
	}
	return s
}()

// eachRow calls fn for each row of table in rowid order (nothing when the
// table is missing).
func eachRow(ctx context.Context, db *sql.DB, table string, fn func(r row)) error {
	return parser.EachTableRow(ctx, db, table, func(r parser.Row) error { fn(row{r}); return nil })
}
