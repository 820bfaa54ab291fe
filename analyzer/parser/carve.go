package parser

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser/sqlitecarve"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Problem kinds of the carver (see Carve).
const (
	KindCarve    = "carve"     // freed space that could not be carved, a carve limit, recovered records no parser maps
	KindWALState = "wal_state" // a WAL whose frames are not all the database as it is now
)

// Carved is what the SQLite carver recovered from one store: records of
// deleted (or overwritten) rows, by table. A parser takes the records of
// the tables it maps (Records) and gives them rows as it gives live ones,
// marked recovered; Done accounts for the rest.
type Carved struct {
	byTable map[string][]sqlitecarve.Record
	taken   map[string]bool
	Result  *sqlitecarve.Result
}

// Carve runs the carver (analyzer/parser/sqlitecarve) over the input's
// store, the engine's private copy that db reads, and its WAL beside it;
// it only reads. The WAL's state and what could not be carved go to out
// as problem rows. It returns nil when carving is off (Input.NoCarve) or
// the store's file cannot be found; an error reading it is a problem
// row, never the parser's failure.
func Carve(ctx context.Context, in *Input, db *sql.DB, out Sink) *Carved {
	if in.NoCarve || db == nil {
		return nil
	}
	var path string
	if err := db.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&path); err != nil || path == "" {
		return nil
	}
	tables, err := sqlitecarve.Schema(ctx, db)
	if err != nil {
		out.Report(0, KindCarve, "not carved: "+err.Error())
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		out.Report(0, KindCarve, "not carved: "+err.Error())
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		out.Report(0, KindCarve, "not carved: "+err.Error())
		return nil
	}
	if st.Size() == 0 {
		if ws, err := os.Stat(path + "-wal"); err != nil || ws.Size() == 0 {
			return nil // an empty file: nothing freed to carve (CheckStore's empty_store says what it is)
		}
	}
	var res *sqlitecarve.Result
	if w, werr := os.Open(path + "-wal"); werr == nil {
		defer w.Close()
		ws, _ := w.Stat()
		res, err = sqlitecarve.Carve(ctx, f, st.Size(), w, ws.Size(), tables, sqlitecarve.Options{})
	} else {
		res, err = sqlitecarve.Carve(ctx, f, st.Size(), nil, 0, tables, sqlitecarve.Options{})
	}
	if err != nil {
		if ctx.Err() == nil {
			out.Report(0, KindCarve, "not carved: "+err.Error())
		}
		return nil
	}
	for _, p := range res.Problems {
		out.Report(int64(p.Page), KindCarve, fmt.Sprintf("page %d: %s", p.Page, p.Msg))
	}
	walState(res.WAL, in.Path, out)
	c := &Carved{byTable: map[string][]sqlitecarve.Record{}, taken: map[string]bool{}, Result: res}
	for _, r := range res.Records {
		c.byTable[r.Table] = append(c.byTable[r.Table], r)
	}
	return c
}

// walState describes a WAL whose frames are not all the database as it
// is now: frames of other salts (an earlier WAL generation), frames after
// the last commit, a broken checksum chain, an invalid header. Frames up
// to the last commit are read as the database (SQLite reads them).
func walState(w sqlitecarve.WALState, path string, out Sink) {
	if !w.Present || w.Frames == 0 && w.HeaderValid {
		return
	}
	var parts []string
	if !w.HeaderValid {
		parts = append(parts, "its header is not valid (no frame is read as the database)")
	}
	if w.OldSalt > 0 {
		parts = append(parts, fmt.Sprintf("%d frame(s) of salt %s, not the header's %08x/%08x (an earlier WAL generation: older page images)", w.OldSalt, strings.Join(w.OtherSalts, ", "), w.Salt1, w.Salt2))
	}
	if w.Uncommitted > 0 {
		parts = append(parts, fmt.Sprintf("%d frame(s) after the last commit (a transaction never committed)", w.Uncommitted))
	}
	if w.BadChecksum > 0 {
		parts = append(parts, fmt.Sprintf("%d frame(s) past a broken checksum chain", w.BadChecksum))
	}
	if len(parts) == 0 {
		return
	}
	out.Report(0, KindWALState, fmt.Sprintf("%s-wal: %d frame(s), %d committed and read as the database now; %s; these were carved", path, w.Frames, w.Committed, strings.Join(parts, "; ")))
}

// Records returns the records recovered from table, in carve order, and
// marks the table as mapped (Done does not count it).
func (c *Carved) Records(table string) []sqlitecarve.Record {
	if c == nil {
		return nil
	}
	c.taken[table] = true
	return c.byTable[table]
}

// Done reports, per table the parser did not map, how many records were
// recovered from it: each recovered record becomes rows or a counted
// problem row.
func (c *Carved) Done(out Sink) {
	if c == nil {
		return
	}
	var names []string
	for t := range c.byTable {
		if !c.taken[t] {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	for _, t := range names {
		out.Report(0, KindCarve, fmt.Sprintf("%d record(s) of table %s recovered from freed space; no parser maps this table to rows", len(c.byTable[t]), t))
	}
}

// RecoveredValue is the recovered field of the rows a recovered record
// gives: "partial" when only part of the record survived, else "yes".
func RecoveredValue(rec *sqlitecarve.Record) string {
	if rec.Partial {
		return "partial"
	}
	return "yes"
}

// RecoveredSink returns out marking every row emitted through it as given
// by the recovered record rec: recovered (RecoveredValue) and provenance
// (rec.Provenance(): where the carver found it) set on the row. A parser
// emits a recovered record's rows through it, so they say so themselves,
// not only through a row before them.
func RecoveredSink(out Sink, rec *sqlitecarve.Record) Sink {
	return recoveredSink{Sink: out, recovered: RecoveredValue(rec), provenance: rec.Provenance()}
}

type recoveredSink struct {
	Sink
	recovered, provenance string
}

func (s recoveredSink) Event(e timeline.Event) {
	e.Recovered, e.Provenance = s.recovered, s.provenance
	s.Sink.Event(e)
}

// SkipTables accounts for the records recovered from tables whose live
// rows give no rows of their own (a migration log, a backfill cursor, a
// dropped schema entry): each is a skip "no_evidence:recovered <table>
// record", counted per file in the inventory.
func (c *Carved) SkipTables(out Sink, tables ...string) {
	for _, t := range tables {
		for _, rec := range c.Records(t) {
			line := int64(0)
			if rec.RowidKnown {
				line = rec.Rowid
			}
			out.Skip(line, "no_evidence:recovered "+t+" record")
		}
	}
}
