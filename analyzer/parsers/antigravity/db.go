package antigravity

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func unescapePath(p string) (string, error) { return url.PathUnescape(p) }

// parseDB reads conversations/<id>.db (a steps table: idx, step_type,
// status, metadata, task_details, step_payload and, in later builds,
// permissions, the blobs protobuf) or conversation_summaries.db. The
// protobuf schemas are not public: blobs are decoded without one
// (parser.WireStrings) and their text fields become system rows; nothing
// is taken for a prompt or a reply on a guess.
func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		out.Problem(0, "not a readable SQLite database: "+err.Error())
		return nil
	}
	if in.Base() == "conversation_summaries.db" {
		return dumpTables(ctx, in, out)
	}
	sid := strings.TrimSuffix(in.Base(), ".db")
	readable, err := parser.CheckStore(ctx, db, conversationStore, out)
	if err != nil {
		return err
	}
	if !readable["steps"] {
		// CheckStore named why; every table is still written, decoded
		// without a schema
		return dumpTables(ctx, in, out)
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "steps", Read: func() error {
		return readSteps(ctx, in, db, sid, out)
	}})
}

// conversationStore is conversations/<id>.db (the one SQLite policy,
// parser.CheckStore): the steps table with the two columns every step
// row has (idx falls back to the rowid; the blob columns are read when
// present). A database without it, or a steps table without them, is one
// problem row naming it, and then every table is written decoded without
// a schema (dumpTables), so nothing goes unread.
var conversationStore = parser.SQLiteStore{Name: "an Antigravity conversation", Tables: parser.SQLiteSchema{
	"steps": {"step_type", "status"},
}}

// readSteps writes the conversation's head row and one row per step.
func readSteps(ctx context.Context, in *parser.Input, db *sql.DB, sid string, out parser.Sink) error {
	first := true
	return parser.EachTableRow(ctx, db, "steps", func(r parser.Row) error {
		if first {
			first = false
			out.Event(timeline.Event{TurnType: timeline.System, SessionID: sid, SourceLine: r.Rowid, TimeBasis: timeline.TimeNone,
				Text: "conversation " + sid + " (database, data_dir=" + dataDir(in.Path) + ")", RecordID: sid + "#conversation"})
		}
		idx := r.Get("idx")
		if idx == "" {
			idx = fmt.Sprint(r.Rowid)
		}
		head := fmt.Sprintf("step %s type=%s status=%s", idx, r.Get("step_type"), r.Get("status"))
		var parts []string
		for _, c := range []string{"step_payload", "task_details", "metadata"} {
			if !r.Has(c) {
				continue
			}
			if t := blobText(r.Vals[c]); t != "" {
				parts = append(parts, c+": "+t)
			}
		}
		e := timeline.Event{TurnType: timeline.System, SessionID: sid, SourceLine: r.Rowid, TimeBasis: timeline.TimeNone,
			Text: head + " (decoded without a schema)", RecordID: sid + ":" + idx + "#db"}
		if len(parts) > 0 {
			e.Text += "\n" + strings.Join(parts, "\n")
		}
		out.Event(e)
		if r.Has("permissions") {
			if t := blobText(r.Vals["permissions"]); t != "" {
				out.Event(timeline.Event{TurnType: timeline.System, SessionID: sid, SourceLine: r.Rowid, TimeBasis: timeline.TimeNone,
					Text: "permission grants of step " + idx + " (decoded without a schema): " + t, RecordID: sid + ":" + idx + "#permissions"})
			}
		}
		return nil
	})
}

// blobText renders a column: text as it is, a blob decoded as protobuf
// without a schema (its text fields, "<path>=<text>", one per line).
func blobText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		ss, ok := parser.WireStrings(x)
		var lines []string
		for _, s := range ss {
			lines = append(lines, s.Path+"="+s.Text)
		}
		if !ok {
			lines = append(lines, fmt.Sprintf("(%d bytes, not a well-formed protobuf message)", len(x)))
		}
		return strings.Join(lines, "\n")
	}
	return parser.SQLText(v)
}

// dumpTables writes one system row per row of every table of a database
// whose layout is not known (conversation_summaries.db): its text columns
// and its blobs decoded without a schema.
func dumpTables(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	var tables []string
	if err := parser.EachRow(ctx, db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", func(m map[string]any) {
		tables = append(tables, parser.SQLText(m["name"]))
	}); err != nil {
		out.Problem(0, "tables: "+err.Error())
		return nil
	}
	file := path.Base(in.Path)
	for _, t := range tables {
		if err := parser.EachTableRow(ctx, db, t, func(r parser.Row) error {
			cols := append([]string(nil), r.Cols...)
			sort.Strings(cols)
			var parts []string
			sid := ""
			for _, c := range cols {
				v := blobText(r.Vals[c])
				if v == "" {
					continue
				}
				lc := strings.ToLower(c)
				if sid == "" && (strings.Contains(lc, "conversation") || strings.Contains(lc, "cascade") || lc == "id") && uuidLike(v) {
					sid = v
				}
				parts = append(parts, c+"="+v)
			}
			out.Event(timeline.Event{TurnType: timeline.System, SessionID: sid, SourceLine: r.Rowid, TimeBasis: timeline.TimeNone,
				Text: fmt.Sprintf("%s table %s row %d (decoded without a schema): %s", file, t, r.Rowid, strings.Join(parts, "; "))})
			return nil
		}); err != nil {
			out.Problem(0, t+": "+err.Error())
		}
	}
	return nil
}

func uuidLike(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
}
