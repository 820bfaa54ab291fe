package copilotcli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// dbRow is one SQLite row read by column name.
type dbRow struct{ parser.Row }

// timeOf reads the first present time column: ISO text, or epoch seconds
// or milliseconds.
func (r dbRow) timeOf(cols ...string) (time.Time, bool) {
	for _, c := range cols {
		s := r.Get(c)
		if s == "" {
			continue
		}
		if t, ok := parseDBTime(s); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseDBTime(s string) (time.Time, bool) {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		switch {
		case n > 1e14:
			return time.UnixMicro(int64(n)).UTC(), true
		case n > 1e11:
			return time.UnixMilli(int64(n)).UTC(), true
		case n > 1e8:
			return time.Unix(int64(n), int64((n-float64(int64(n)))*1e9)).UTC(), true
		}
		return time.Time{}, false
	}
	return parseTime(s)
}

// allKV renders every non-empty column except skip as k=v, in column
// order; blobs are named by size.
func allKV(r dbRow, skip ...string) string {
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
		if v == "" {
			continue
		}
		if b, ok := r.Vals[c].([]byte); ok && bytes.IndexByte(b, 0) >= 0 {
			v = fmt.Sprintf("<%d bytes>", len(b))
		}
		parts = append(parts, c+"="+v)
	}
	return strings.Join(parts, " ")
}

// storeTimeCols are the columns tried, in order, for a row's time.
var storeTimeCols = []string{"timestamp", "created_at", "createdAt", "updated_at", "time", "ts", "started_at", "ended_at"}

// storeTables are the session-store.db tables read besides sessions and
// turns, one system row per record.
var storeTables = []string{"session_files", "session_refs", "checkpoints", "forge_trajectory_events"}

// parseSessionStore reads session-store.db, the CLI's cross-session index,
// as a secondary source (every row Secondary; SourceLine the rowid):
// sessions give "session record: ..." at created_at, turns give the user
// message and the assistant response at the turn's timestamp (stamped when
// the turn ends, hence a one-hour dedup window against events.jsonl), and
// session_files, session_refs, checkpoints and forge_trajectory_events one
// "<table>: col=value ..." row each. Columns are read by name.
func parseSessionStore(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, sessionStore, out)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	cwd := map[string]string{}
	reads := []parser.TableRead{
		{Table: "sessions", Read: func() error {
			return eachRow(ctx, db, "sessions", func(r dbRow) {
				id := r.Get("id")
				if id == "" {
					id = r.Get("session_id")
				}
				cwd[id] = r.Get("cwd")
				e := timeline.Event{SessionID: id, ProjectPath: r.Get("cwd"), TurnType: timeline.System, SourceLine: r.Rowid, Secondary: true,
					Text: "session record: " + allKV(r, "id", "session_id"), RecordID: rid(id, "session-record")}
				setTime(&e, r, "created_at", "createdAt", "updated_at")
				out.Event(e)
			})
		}},
		{Table: "turns", Read: func() error {
			return eachRow(ctx, db, "turns", func(r dbRow) { turnRows(r, cwd, out) })
		}},
	}
	for _, t := range storeTables {
		table := t
		reads = append(reads, parser.TableRead{Table: table, Read: func() error {
			return eachRow(ctx, db, table, func(r dbRow) {
				sid := r.Get("session_id")
				e := timeline.Event{SessionID: sid, ProjectPath: cwd[sid], TurnType: timeline.System, SourceLine: r.Rowid, Secondary: true,
					Text: table + ": " + allKV(r, "session_id"), RecordID: storeRecordID(table, sid, r)}
				setTime(&e, r, storeTimeCols...)
				out.Event(e)
			})
		}})
	}
	return parser.ReadTables(ctx, out, readable, reads...)
}

// sessionStore is the tables parseSessionStore reads (the real 1.0.102
// store of fixtures/roots/real-agents-2 has them all; no release is known
// to lack one), with the columns that name a row's session; the others
// are read by name when present.
var sessionStore = parser.SQLiteStore{Name: "a Copilot CLI session-store", Tables: parser.SQLiteSchema{
	"sessions":                {"id"},
	"turns":                   {"session_id", "turn_index"},
	"session_files":           {"session_id"},
	"session_refs":            {"session_id"},
	"checkpoints":             {"session_id"},
	"forge_trajectory_events": {"session_id"},
}}

// turnRows emits the user and assistant rows of one turns row.
func turnRows(r dbRow, cwd map[string]string, out parser.Sink) {
	sid := r.Get("session_id")
	base := timeline.Event{SessionID: sid, ProjectPath: cwd[sid], SourceLine: r.Rowid, Secondary: true}
	setTime(&base, r, storeTimeCols...)
	// A turn is unique by (session_id, turn_index).
	turn := ""
	if ti := r.Get("turn_index"); sid != "" && ti != "" {
		turn = sid + "/turn/" + ti
	}
	rows := 0
	if u := r.Get("user_message"); strings.TrimSpace(u) != "" {
		e := base
		e.TurnType, e.Text, e.RecordID = timeline.User, u, rid(turn, "user")
		out.Event(e)
		rows++
	}
	if a := r.Get("assistant_response"); strings.TrimSpace(a) != "" {
		e := base
		e.TurnType, e.Text, e.Model, e.RecordID = timeline.Assistant, a, r.Get("model"), rid(turn, "assistant")
		out.Event(e)
		rows++
	}
	if rows == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_turn")
	}
}

// storeUnique are the columns (after session_id) of each table's UNIQUE
// key in the 1.0.102 schema; forge_trajectory_events has none, so its
// rows carry no record id.
var storeUnique = map[string][]string{
	"session_files": {"file_path"},
	"session_refs":  {"ref_type", "ref_value"},
	"checkpoints":   {"checkpoint_number"},
}

// storeRecordID is "<session>/<table>/<unique key values>" for a table
// whose rows are unique within a session, else "".
func storeRecordID(table, sid string, r dbRow) string {
	cols, ok := storeUnique[table]
	if !ok || sid == "" {
		return ""
	}
	id := sid + "/" + table
	for _, c := range cols {
		v := r.Get(c)
		if v == "" {
			return ""
		}
		id += "/" + v
	}
	return id
}

// setTime stamps e with the first parsable column of cols, else of any
// column named *_at or *At, else marks it undated.
func setTime(e *timeline.Event, r dbRow, cols ...string) {
	var more []string
	for _, c := range r.Cols {
		if strings.HasSuffix(c, "_at") || strings.HasSuffix(c, "At") {
			more = append(more, c)
		}
	}
	if t, ok := r.timeOf(append(cols, more...)...); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

// eachRow calls fn for every row of table (rowid order), columns by name.
func eachRow(ctx context.Context, db *sql.DB, table string, fn func(r dbRow)) error {
	return parser.EachTableRow(ctx, db, table, func(r parser.Row) error { fn(dbRow{r}); return nil })
}
