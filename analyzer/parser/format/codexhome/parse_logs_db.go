package codexhome

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseLogsDB reads logs_<N>.sqlite, the tracing log Codex (the CLI, the
// app-server the ChatGPT desktop app runs, and forks) writes through its
// SQLite log layer (codex-rs/state/src/log_db.rs @00a0498eea1c): table
// logs {id, ts (s), ts_nanos, level, target, feedback_log_body (the span
// path "name{fields}:" then the event's fields as tracing's DefaultFields
// formats them), thread_id, process_uuid}. Most rows are diagnostics; only
// the rows whose body holds one of the records below are read (a SQL
// filter on the body), each giving one row at ts + ts_nanos in the row's
// thread, SourceLine the log id, RecordID "<file>:<id>":
//   - an approval the person gave, as the session loop logs the
//     submission ("Submission sub=Submission { .. op: ExecApproval { id:
//     "<call>", .., decision: Approved } }", PatchApproval likewise):
//     "permission decision: <approved|approved_for_session|denied|abort|
//     ..> source=user op=<ExecApproval|PatchApproval>", ToolUseID the id;
//   - the telemetry event of every tool decision (codex-rs/otel
//     SessionTelemetry::tool_decision: event.name="codex.tool_decision"
//     tool_name= call_id= decision= source=): "permission decision:
//     <decision> source=<config|user|..> tool=<tool_name>";
//   - a /feedback report: the rows logged inside the app-server request
//     span of method feedback/upload (codex-rs/app-server upload_feedback
//     sends the report, logs and rollouts to Sentry): each a row "session
//     synced: /feedback report sent to Sentry (feedback/upload request
//     <id>)", RecordID "<file>:feedback/upload/<process_uuid>/<id>" (one
//     identity per request: the correlate stage keeps the first row and
//     counts the others as repeats), and the thread's session state synced
//     yes.
//
// A row the filter selects that matches none of these is Skip
// "no_evidence:log".
func parseLogsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, logsStore, out)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	if !readable["logs"] {
		return nil
	}
	cols, err := parser.Columns(ctx, db, "logs")
	if err != nil {
		return fmt.Errorf("read schema of %s: %w", in.Path, err)
	}
	// the body is one of two columns (message before feedback_log_body),
	// so it is checked here, not in logsStore
	body := "feedback_log_body"
	if !cols[body] {
		if !cols["message"] {
			out.Problem(0, "unknown schema: table logs lacks column(s) feedback_log_body (or message): not read")
			return nil
		}
		body = "message"
	}
	sel := []string{"id", "ts", body + " AS body"}
	for _, c := range []string{"ts_nanos", "thread_id", "process_uuid"} {
		if cols[c] {
			sel = append(sel, c)
		}
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM logs WHERE " + body + " LIKE '%ExecApproval {%' OR " + body + " LIKE '%PatchApproval {%' OR " +
		body + " LIKE '%codex.tool_decision%' OR " + body + " LIKE '%feedback/upload%' ORDER BY id"
	file := path.Base(in.Path)
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "logs", Read: func() error {
		return logRows(ctx, db, q, file, out)
	}})
}

// logsStore is the one table parseLogsDB reads, with the columns every
// row needs (its body column is checked apart: see parseLogsDB).
var logsStore = parser.SQLiteStore{Name: "a Codex log", Tables: parser.SQLiteSchema{"logs": {"id", "ts"}}}

func logRows(ctx context.Context, db *sql.DB, q, file string, out parser.Sink) error {
	return parser.EachRow(ctx, db, q, func(m map[string]any) {
		id, _ := parser.SQLInt(m["id"])
		b := parser.SQLText(m["body"])
		e := timeline.Event{SessionID: parser.SQLText(m["thread_id"]), TurnType: timeline.System, SourceLine: id,
			RecordID: file + ":" + strconv.FormatInt(id, 10)}
		if sec, ok := parser.SQLInt(m["ts"]); ok && sec > 0 {
			ns, _ := parser.SQLInt(m["ts_nanos"])
			e.Time = time.Unix(sec, ns).UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		switch {
		case approvalRe.MatchString(b):
			a := approvalRe.FindStringSubmatch(b)
			e.Text = "permission decision: " + snakeCase(a[3]) + " source=user op=" + a[1]
			e.ToolUseID = a[2]
		case strings.Contains(b, `event.name="codex.tool_decision"`) || strings.Contains(b, "event.name=codex.tool_decision"):
			f := logFields(b)
			e.Text = "permission decision: " + orDash(f["decision"]) + " source=" + orDash(f["source"]) + " tool=" + orDash(f["tool_name"])
			e.ToolUseID, e.ToolName = f["call_id"], f["tool_name"]
			if e.SessionID == "" {
				e.SessionID = f["conversation.id"]
			}
		case strings.Contains(b, `rpc.method="feedback/upload"`) || strings.Contains(b, "rpc.method=feedback/upload"):
			// Every row logged inside the request's span is that request:
			// one identity per process and request id, and the correlate
			// stage keeps the first row of it (the others are repeats).
			req := logFields(b)["rpc.request_id"]
			e.RecordID = file + ":feedback/upload/" + parser.SQLText(m["process_uuid"]) + "/" + req
			e.Text = "session synced: /feedback report sent to Sentry (feedback/upload request " + orDash(req) + ")"
			if e.SessionID != "" {
				out.Session(timeline.SessionState{Key: timeline.SessionKey{SessionID: e.SessionID}, Synced: "yes"})
			}
		default:
			out.Skip(id, "no_evidence:log")
			return
		}
		out.Event(e)
	})
}

// approvalRe reads the Debug form of an approval submission.
var approvalRe = regexp.MustCompile(`\b(ExecApproval|PatchApproval) \{ id: "((?:[^"\\]|\\.)*)"[^{}]*?decision: ([A-Za-z]+)`)

// logFieldRe reads key=value pairs of a tracing DefaultFields body (a
// quoted Debug string or a bare word).
var logFieldRe = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.]*)=("(?:[^"\\]|\\.)*"|[^\s{}]+)`)

func logFields(b string) map[string]string {
	m := map[string]string{}
	for _, f := range logFieldRe.FindAllStringSubmatch(b, -1) {
		v := f[2]
		if strings.HasPrefix(v, `"`) {
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			} else {
				v = strings.Trim(v, `"`)
			}
		}
		if _, seen := m[f[1]]; !seen {
			m[f[1]] = v
		}
	}
	return m
}

// snakeCase renders a Rust variant name (ApprovedForSession) as
// approved_for_session.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
