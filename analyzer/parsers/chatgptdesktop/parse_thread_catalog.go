package chatgptdesktop

import (
	"context"
	"database/sql"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ThreadCatalog returns the parser of the chatgpt rows of
// .codex/sqlite/codex-dev.db local_thread_catalog.
func ThreadCatalog() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "chatgpt-desktop/thread-catalog",
		Agent:   FileAgent,
		Version: 5,
		Targets: []string{"state-db"},
		Names:   []string{"codex-dev.db"},
		Emits:   []string{"chatgpt-desktop"},
		Doc:     "ChatGPT desktop app's list of the account's ChatGPT conversations (.codex/sqlite/codex-dev.db local_thread_catalog, source_kind chatgpt); rows carry agent chatgpt-desktop",
	}, parseThreadCatalog)
}

func parseThreadCatalog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, catalogStore, out)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	if !readable["local_thread_catalog"] {
		return nil
	}
	cols, err := parser.Columns(ctx, db, "local_thread_catalog")
	if err != nil {
		return fmt.Errorf("read schema of %s: %w", in.Path, err)
	}
	// source_kind is checked here, not in catalogStore: SQLite column
	// names are case-insensitive, and CheckStore compares them exactly.
	has := map[string]bool{}
	for c := range cols {
		has[strings.ToLower(c)] = true
	}
	if !has["source_kind"] {
		out.Problem(0, "unknown schema: table local_thread_catalog lacks column(s) source_kind: not read (ChatGPT conversations cannot be told from Codex threads)")
		return nil
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "local_thread_catalog", Read: func() error {
		return catalogRows(ctx, db, out)
	}})
}

// catalogStore is the one table parseThreadCatalog reads; its one
// required column, source_kind, is checked apart (see parseThreadCatalog).
var catalogStore = parser.SQLiteStore{Name: "a ChatGPT desktop codex-dev", Tables: parser.SQLiteSchema{"local_thread_catalog": nil}}

func catalogRows(ctx context.Context, db *sql.DB, out parser.Sink) error {
	var ord int64
	return parser.EachTableRow(ctx, db, "local_thread_catalog", func(r parser.Row) error {
		ord++
		m := make(map[string]any, len(r.Vals))
		for c, v := range r.Vals {
			m[strings.ToLower(c)] = v // column names are case-insensitive in SQLite
		}
		line := r.Rowid
		if line == 0 {
			line = ord // a WITHOUT ROWID table: rows numbered in order
		}
		if strings.EqualFold(strings.TrimSpace(parser.SQLText(m["source_kind"])), "chatgpt") {
			conversation(m, line, out)
		} else {
			// a Codex-mode thread: its rollout is read by codex-cli
			out.Skip(line, "read_by:codex-cli/rollout")
		}
		return nil
	})
}

// conversation emits the three rows and the session state of one chatgpt row.
func conversation(m map[string]any, line int64, out parser.Sink) {
	id := parser.SQLText(m["thread_id"])
	if id == "" {
		out.Report(line, parser.KindSkippedRecord, "chatgpt row without thread_id, skipped")
		return
	}
	created, _ := asTime(m["source_created_at"])
	updated, okU := asTime(m["source_updated_at"])
	at := updated
	if !okU {
		if t, ok := asTime(m["source_recency_at"]); ok {
			at = t
		} else {
			at = created
		}
	}
	title := parser.SQLText(m["display_title"])
	if title == "" {
		title = parser.SQLText(m["title"])
	}
	origin := parser.SQLText(m["conversation_origin"])
	if origin == "" {
		var d map[string]any
		if json.Unmarshal([]byte(parser.SQLText(m["source_detail"])), &d) == nil {
			origin = parser.SQLText(d["conversation_origin"])
			if origin == "" {
				origin = parser.SQLText(d["conversationOrigin"])
			}
		}
	}
	base := timeline.Event{Agent: Agent, SessionID: id, ProjectPath: parser.SQLText(m["cwd"]),
		TurnType: timeline.System, SourceLine: line, Time: at}
	if at.IsZero() {
		base.TimeBasis = timeline.TimeNone
	}
	e := base
	e.RecordID = id + "#conversation"
	e.Text = "account conversation: " + orDash(title) + " conversation_origin=" + orDash(origin) +
		" created=" + timeText(created) + " updated=" + timeText(updated) + " host_id=" + orDash(parser.SQLText(m["host_id"]))
	out.Event(e)
	e = base
	e.RecordID = id + "#origin"
	e.Text = "session origin: remote chatgpt.com conversation " + parser.Shown(id)
	out.Event(e)
	e = base
	e.RecordID = id + "#synced"
	e.Text = "session synced: chatgpt.com holds conversation " + parser.Shown(id) + ", no local transcript"
	out.Event(e)
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Origin: "remote", Synced: "yes"})
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// asTime reads epoch seconds, epoch milliseconds (above 1e12) or RFC 3339
// text; false for NULL, zero or unreadable values.
func asTime(v any) (time.Time, bool) {
	var f float64
	switch x := v.(type) {
	case nil:
		return time.Time{}, false
	case time.Time:
		return x.UTC(), !x.IsZero()
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string, []byte:
		s := strings.TrimSpace(parser.SQLText(x))
		if s == "" {
			return time.Time{}, false
		}
		if p, err := strconv.ParseFloat(s, 64); err == nil {
			f = p
			break
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), true
			}
		}
		return time.Time{}, false
	default:
		return time.Time{}, false
	}
	if f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}, false
	}
	if f > 1e12 {
		return time.UnixMilli(int64(f)).UTC(), true
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
}
