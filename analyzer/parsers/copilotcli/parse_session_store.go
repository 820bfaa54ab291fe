package copilotcli

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// dbRow is one SQLite row read by column name.
type dbRow struct {
	rowid int64
	cols  []string
	vals  map[string]any
}

// get returns a column as text ("" when absent or NULL).
func (r dbRow) get(c string) string {
	v, ok := r.vals[c]
	if !ok || v == nil {
		return ""
	}
	switch x := v.(type) {
	case []byte:
		return string(x)
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	default:
		return fmt.Sprint(x)
	}
}

// has reports whether the column exists.
func (r dbRow) has(c string) bool { _, ok := r.vals[c]; return ok }

// timeOf reads the first present time column: ISO text, or epoch seconds
// or milliseconds.
func (r dbRow) timeOf(cols ...string) (time.Time, bool) {
	for _, c := range cols {
		s := r.get(c)
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

// eachRow calls fn for every row of table (rowid order), columns by name.
func eachRow(ctx context.Context, db *sql.DB, table string, fn func(r dbRow)) error {
	if !parser.HasTable(ctx, db, table) {
		return nil
	}
	q := `SELECT rowid AS "rowid__", * FROM "` + strings.ReplaceAll(table, `"`, `""`) + `" ORDER BY rowid`
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		// a WITHOUT ROWID table or a view
		rows, err = db.QueryContext(ctx, `SELECT 0 AS "rowid__", * FROM "`+strings.ReplaceAll(table, `"`, `""`)+`"`)
		if err != nil {
			return fmt.Errorf("query %s: %w", table, err)
		}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		r := dbRow{cols: cols[1:], vals: map[string]any{}}
		for i, c := range cols {
			if i == 0 {
				r.rowid, _ = strconv.ParseInt(fmt.Sprint(vals[0]), 10, 64)
				continue
			}
			r.vals[c] = vals[i]
		}
		fn(r)
	}
	return rows.Err()
}

// allKV renders every non-empty column except skip as k=v, in column
// order; blobs are named by size.
func allKV(r dbRow, skip ...string) string {
	sk := map[string]bool{}
	for _, s := range skip {
		sk[s] = true
	}
	var parts []string
	for _, c := range r.cols {
		if sk[c] {
			continue
		}
		v := r.get(c)
		if v == "" {
			continue
		}
		if b, ok := r.vals[c].([]byte); ok && !isText(b) {
			v = fmt.Sprintf("<%d bytes>", len(b))
		}
		parts = append(parts, c+"="+v)
	}
	return strings.Join(parts, " ")
}

func isText(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return false
		}
	}
	return true
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
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	cwd := map[string]string{}
	var errs []string
	if err := eachRow(ctx, db, "sessions", func(r dbRow) {
		id := r.get("id")
		if id == "" {
			id = r.get("session_id")
		}
		cwd[id] = r.get("cwd")
		e := timeline.Event{SessionID: id, ProjectPath: r.get("cwd"), TurnType: timeline.System, SourceLine: r.rowid, Secondary: true,
			Text: "session record: " + allKV(r, "id", "session_id")}
		setTime(&e, r, "created_at", "createdAt", "updated_at")
		out.Event(e)
	}); err != nil {
		errs = append(errs, err.Error())
	}
	if err := eachRow(ctx, db, "turns", func(r dbRow) {
		sid := r.get("session_id")
		base := timeline.Event{SessionID: sid, ProjectPath: cwd[sid], SourceLine: r.rowid, Secondary: true}
		setTime(&base, r, storeTimeCols...)
		if u := r.get("user_message"); strings.TrimSpace(u) != "" {
			e := base
			e.TurnType, e.Text = timeline.User, u
			out.Event(e)
		}
		if a := r.get("assistant_response"); strings.TrimSpace(a) != "" {
			e := base
			e.TurnType, e.Text, e.Model = timeline.Assistant, a, r.get("model")
			out.Event(e)
		}
	}); err != nil {
		errs = append(errs, err.Error())
	}
	for _, t := range storeTables {
		table := t
		if err := eachRow(ctx, db, table, func(r dbRow) {
			sid := r.get("session_id")
			e := timeline.Event{SessionID: sid, ProjectPath: cwd[sid], TurnType: timeline.System, SourceLine: r.rowid, Secondary: true,
				Text: table + ": " + allKV(r, "session_id")}
			setTime(&e, r, storeTimeCols...)
			out.Event(e)
		}); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("read %s: %s", in.Path, strings.Join(errs, "; "))
	}
	return nil
}

// setTime stamps e with the first parsable column of cols, else of any
// column named *_at or *At, else marks it undated.
func setTime(e *timeline.Event, r dbRow, cols ...string) {
	var more []string
	for _, c := range r.cols {
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
