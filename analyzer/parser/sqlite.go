package parser

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// HasTable reports whether the database has a real table called name.
// Only type 'table' counts: a view, which can run any query (a recursive
// CTE that never ends), is never read in place of a table. An error (the
// file is not a database, its header or schema is corrupt) is returned,
// never taken for "no such table".
func HasTable(ctx context.Context, db *sql.DB, name string) (bool, error) {
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}

// Tables returns the names of the database's real tables (type 'table';
// views never count, see HasTable), or the error reading the schema.
func Tables(ctx context.Context, db *sql.DB) (map[string]bool, error) {
	out := map[string]bool{}
	err := EachRow(ctx, db, "SELECT name FROM sqlite_master WHERE type = 'table'", func(m map[string]any) {
		out[SQLText(m["name"])] = true
	})
	if err != nil {
		return nil, fmt.Errorf("read the schema: %w", err)
	}
	return out, nil
}

// Columns returns the columns of a real table by name, or nil when there
// is no such table (a view of that name included).
func Columns(ctx context.Context, db *sql.DB, table string) (map[string]bool, error) {
	// pragma_table_info lists a view's columns too: a view is not a table
	// (see HasTable), so it has none here.
	if ok, err := HasTable(ctx, db, table); err != nil || !ok {
		return nil, err
	}
	var cols map[string]bool
	err := EachRow(ctx, db, `SELECT name FROM pragma_table_info(?)`, func(m map[string]any) {
		if cols == nil {
			cols = map[string]bool{}
		}
		cols[SQLText(m["name"])] = true
	}, table)
	return cols, err
}

// EachRow runs the query q (with args) and calls fn with each row as a map
// from column name to value, so a parser reads columns by name and
// tolerates the ones a schema version lacks. ctx is checked every row.
func EachRow(ctx context.Context, db *sql.DB, q string, fn func(map[string]any), args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = vals[i]
		}
		fn(m)
	}
	return rows.Err()
}

// SQLText renders a SQLite value as text: "" for NULL, text and blobs as
// they are, numbers in decimal, times in RFC 3339 UTC.
func SQLText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}

// SQLInt reads a SQLite value as an integer: an integer, a real
// (truncated) or decimal text (spaces trimmed); false for NULL and
// anything else.
func SQLInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	case []byte:
		n, err := strconv.ParseInt(strings.TrimSpace(string(x)), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Row is one SQLite row read by column name, with its rowid (0 for a
// WITHOUT ROWID table or a view).
type Row struct {
	Rowid int64
	Cols  []string
	Vals  map[string]any
}

// Get returns a column as text ("" when absent or NULL; see SQLText).
func (r Row) Get(c string) string { return SQLText(r.Vals[c]) }

// Has reports whether the row has the column.
func (r Row) Has(c string) bool { _, ok := r.Vals[c]; return ok }

// EachTableRow calls fn for every row of table in rowid order, columns by
// name; a missing table (or a view of that name) gives no rows and no
// error. An error from fn stops the read and is returned.
func EachTableRow(ctx context.Context, db *sql.DB, table string, fn func(Row) error) error {
	if ok, err := HasTable(ctx, db, table); err != nil || !ok {
		return err
	}
	id := `"` + strings.ReplaceAll(table, `"`, `""`) + `"`
	rows, err := db.QueryContext(ctx, `SELECT rowid AS "rowid__", * FROM `+id+` ORDER BY rowid`)
	if err != nil {
		// a WITHOUT ROWID table (a view never gets here: HasTable)
		if rows, err = db.QueryContext(ctx, `SELECT 0 AS "rowid__", * FROM `+id); err != nil {
			return fmt.Errorf("query %s: %w", table, err)
		}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		r := Row{Cols: cols[1:], Vals: make(map[string]any, len(cols)-1)}
		r.Rowid, _ = strconv.ParseInt(SQLText(vals[0]), 10, 64)
		for i := 1; i < len(cols); i++ {
			r.Vals[cols[i]] = vals[i]
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sqlTimeLayouts are the text forms SQLite stores hold times in: Go's
// mattn/go-sqlite3 time.Time form (with the zone offset), SQLite's
// CURRENT_TIMESTAMP (UTC, no zone), RFC 3339.
var sqlTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02",
}

// SQLEpoch reads an epoch column, seconds or milliseconds (Epoch with
// milliseconds above 1e11): the time and TimeRecorded, or TimeNone for
// NULL, text and values out of range.
func SQLEpoch(v any) (time.Time, timeline.TimeBasis) {
	if n, ok := SQLInt(v); ok {
		if t, ok := Epoch(n, 1e11); ok {
			return t, timeline.TimeRecorded
		}
	}
	return time.Time{}, timeline.TimeNone
}

// SQLTime reads a time column: a time.Time the driver decoded (columns
// declared DATE, DATETIME or TIMESTAMP), or text in one of the forms
// SQLite stores use (a zone offset when written; none means UTC, as
// CURRENT_TIMESTAMP writes). A Go monotonic suffix (" m=+1.5") is
// dropped. ok is false for NULL, numbers and unreadable text.
func SQLTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		if x.IsZero() {
			return time.Time{}, false
		}
		return x.UTC(), true
	case []byte:
		return SQLTime(string(x))
	case string:
		s := strings.TrimSpace(x)
		if i := strings.Index(s, " m="); i > 0 {
			s = s[:i]
		}
		// time.Time.String(): "2006-01-02 15:04:05.999999999 -0700 MST"
		if t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", s); err == nil {
			return t.UTC(), true
		}
		for _, l := range sqlTimeLayouts {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// SQLiteSchema is the tables a SQLite parser reads, as plaso's SQLite
// plugins declare theirs: each table with the columns without which its
// rows cannot be read.
type SQLiteSchema map[string][]string

// SQLiteStore is what a SQLite parser requires of one kind of store: the
// one schema policy of the SQLite parsers (CheckStore).
type SQLiteStore struct {
	// Name is the store with its article, for the problem of a file that
	// holds none of the tables: "a Flowise", "an n8n".
	Name string
	// Tables is every table the parser reads, with its required columns.
	Tables SQLiteSchema
	// Optional names the tables of Tables that a version of the agent
	// does not create, each with which versions lack it ("before 0.16"):
	// such a table's absence is no problem row. Every other table of
	// Tables that is absent is one.
	Optional map[string]string
}

// CheckStore compares db's schema with s and returns the tables to read.
// A store with none of the tables of s is one problem, "not <Name>
// database: none of the tables ...", and nothing is read. Otherwise each
// table of s that is absent and not Optional is one problem row naming
// it; each table present that lacks required columns is named, with the
// columns, in one problem row ("unknown schema: table messages lacks
// column(s) content, role: not read; the other tables are read"); the
// others are returned. A view is never a table (see HasTable). The error
// is the one reading the schema (not a database, a corrupt header).
func CheckStore(ctx context.Context, db *sql.DB, s SQLiteStore, out Sink) (map[string]bool, error) {
	tables, err := Tables(ctx, db)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		// Nothing at all, not a store of another kind: said as such, once,
		// rather than as every table it lacks.
		if empty, err := EmptyStore(ctx, db, s.Name, out); err != nil || empty {
			return map[string]bool{}, err
		}
	}
	names := make([]string, 0, len(s.Tables))
	for t := range s.Tables {
		names = append(names, t)
	}
	sort.Strings(names)
	var missing, bad []string
	ok := map[string]bool{}
	for _, t := range names {
		if !tables[t] {
			if _, opt := s.Optional[t]; !opt {
				missing = append(missing, t)
			}
			continue
		}
		cols, err := Columns(ctx, db, t)
		if err != nil {
			return nil, fmt.Errorf("read the columns of %s: %w", t, err)
		}
		var lack []string
		for _, c := range s.Tables[t] {
			if !cols[c] {
				lack = append(lack, c)
			}
		}
		if len(lack) > 0 {
			sort.Strings(lack)
			bad = append(bad, "table "+t+" lacks column(s) "+strings.Join(lack, ", "))
			continue
		}
		ok[t] = true
	}
	if len(ok) == 0 && len(bad) == 0 {
		out.Problem(0, "not "+s.Name+" database: none of the tables "+strings.Join(names, ", "))
		return ok, nil
	}
	for _, t := range missing {
		out.Problem(0, "table "+t+" missing: its rows cannot be read; the other tables are read")
	}
	if len(bad) > 0 {
		out.Problem(0, "unknown schema: "+strings.Join(bad, "; ")+": not read; the other tables are read")
	}
	return ok, nil
}

// EmptyStore reports a store whose schema holds nothing at all (no table,
// view or index: an empty file, a database never written or every table
// dropped) as one empty_store problem, name saying what it
// should have been ("a Cursor conversation-search database"), and returns
// true; false, with nothing reported, when it holds a table. CheckStore
// does this itself; a parser that reads a store without declaring its
// tables calls it first.
func EmptyStore(ctx context.Context, db *sql.DB, name string, out Sink) (bool, error) {
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		return false, fmt.Errorf("read the schema: %w", err)
	}
	if n > 0 {
		return false, nil // a table, a view, an index: a store of some schema
	}
	out.Report(0, KindEmptyStore, emptyStoreMsg(ctx, db, name))
	return true, nil
}

// emptyStoreMsg says what a store without a table is: an empty file (no
// page, and no WAL holding one) or a database of pages but no table.
func emptyStoreMsg(ctx context.Context, db *sql.DB, name string) string {
	var pages int64 = -1
	_ = db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages)
	switch {
	case pages == 0:
		return "empty file: 0 bytes (and no WAL holding a page), where " + name + " database should be: nothing to read"
	case pages > 0:
		return fmt.Sprintf("empty store: a SQLite database of %d page(s) holding no table (never written, or every table dropped), where %s database should be: nothing to read", pages, name)
	default:
		return "empty store: a SQLite database holding no table, where " + name + " database should be: nothing to read"
	}
}

// TableNotRead words the one SQLite error policy's problem: a read of
// table failed part way (a corrupt page, a locked or cut file); the rows
// read before it stand and the parser goes on with the other tables.
// ReadTables writes it; a parser whose reads of a table are spread over
// its run (opencode's per-session queries) writes it itself.
func TableNotRead(table string, err error) string {
	return "table " + table + " not read to the end: " + err.Error() + "; the other tables are read"
}

// TableRead is one table's read in ReadTables.
type TableRead struct {
	Table string
	Read  func() error
}

// ReadTables is the one error policy of the SQLite parsers: each read
// whose table is in present (CheckStore's result) runs in order; one that
// fails is a problem row naming its table and the error, and the next
// table is read. Only a cancelled ctx stops it (its error is returned).
func ReadTables(ctx context.Context, out Sink, present map[string]bool, reads ...TableRead) error {
	for _, r := range reads {
		if !present[r.Table] {
			continue
		}
		if err := r.Read(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Problem(0, TableNotRead(r.Table, err))
		}
	}
	return ctx.Err()
}

// OpenStore opens in's SQLite database and checks it against s
// (CheckStore): the database, the tables present and true; or, when the
// schema cannot be read, a problem row "not a readable SQLite database:
// ..." and false. An error is the open's own (the file could not be
// opened or copied): the caller returns it.
func OpenStore(ctx context.Context, in *Input, s SQLiteStore, out Sink) (*sql.DB, map[string]bool, bool, error) {
	db, err := in.DB(ctx)
	if err != nil {
		return nil, nil, false, fmt.Errorf("open %s: %w", in.Path, err)
	}
	present, err := CheckStore(ctx, db, s, out)
	if err != nil {
		out.Problem(0, "not a readable SQLite database: "+err.Error())
		return nil, nil, false, nil
	}
	return db, present, true, nil
}
