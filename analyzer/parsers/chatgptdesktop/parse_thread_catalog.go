package chatgptdesktop

import (
	"context"
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
		Version: 1,
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
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='local_thread_catalog'").Scan(&n); err != nil {
		return fmt.Errorf("read schema of %s: %w", in.Path, err)
	}
	if n == 0 {
		return nil
	}
	rows, err := db.QueryContext(ctx, "SELECT rowid AS rowid_, * FROM local_thread_catalog ORDER BY rowid")
	if err != nil {
		// A WITHOUT ROWID table: number the rows in order instead.
		rows, err = db.QueryContext(ctx, "SELECT * FROM local_thread_catalog")
		if err != nil {
			return fmt.Errorf("query local_thread_catalog in %s: %w", in.Path, err)
		}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, c := range cols {
		has[strings.ToLower(c)] = true
	}
	if !has["source_kind"] {
		out.Problem(0, "local_thread_catalog has no source_kind column: ChatGPT conversations cannot be told from Codex threads, none read")
		return nil
	}
	var ord int64
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		ord++
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			out.Problem(ord, "local_thread_catalog row: "+err.Error())
			continue
		}
		m := map[string]any{}
		for i, c := range cols {
			m[strings.ToLower(c)] = vals[i]
		}
		line := ord
		if r, ok := asInt(m["rowid_"]); ok {
			line = r
		}
		if !strings.EqualFold(strings.TrimSpace(asString(m["source_kind"])), "chatgpt") {
			continue
		}
		conversation(m, line, out)
	}
	return rows.Err()
}

// conversation emits the three rows and the session state of one chatgpt row.
func conversation(m map[string]any, line int64, out parser.Sink) {
	id := asString(m["thread_id"])
	if id == "" {
		out.Problem(line, "chatgpt row without thread_id, skipped")
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
	title := asString(m["display_title"])
	if title == "" {
		title = asString(m["title"])
	}
	origin := asString(m["conversation_origin"])
	if origin == "" {
		var d map[string]any
		if json.Unmarshal([]byte(asString(m["source_detail"])), &d) == nil {
			origin = asString(d["conversation_origin"])
			if origin == "" {
				origin = asString(d["conversationOrigin"])
			}
		}
	}
	base := timeline.Event{Agent: Agent, SessionID: id, ProjectPath: asString(m["cwd"]),
		TurnType: timeline.System, SourceLine: line, Time: at}
	if at.IsZero() {
		base.TimeBasis = timeline.TimeNone
	}
	e := base
	e.Text = "account conversation: " + orDash(title) + " conversation_origin=" + orDash(origin) +
		" created=" + timeText(created) + " updated=" + timeText(updated) + " host_id=" + orDash(asString(m["host_id"]))
	out.Event(e)
	e = base
	e.Text = "session origin: remote chatgpt.com conversation " + id
	out.Event(e)
	e = base
	e.Text = "session synced: chatgpt.com holds conversation " + id + ", no local transcript"
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

// asString renders a SQLite value as text ("" for NULL).
func asString(v any) string {
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
	default:
		return fmt.Sprint(x)
	}
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	case []byte:
		n, err := strconv.ParseInt(string(x), 10, 64)
		return n, err == nil
	}
	return 0, false
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
		s := strings.TrimSpace(asString(x))
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
