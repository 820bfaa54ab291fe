package codexhome

import (
	"context"
	"database/sql"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseStateDB reads the threads table of state_<N>.sqlite, Codex's
// projection of its rollouts (rebuilt from them by "read-repair"), as a
// secondary source: it outlives a deleted rollout. The table began as
// codex-rs/state/migrations/0001_threads.sql (openai/codex @864b3ff5194d:
// id, rollout_path, created_at, updated_at, source, model_provider, cwd,
// title, sandbox_policy, approval_mode, tokens_used, archived, archived_at,
// git_*) and later migrations added first_user_message, cli_version,
// model, created_at_ms, originator, name and more (64 migrations in the
// 0.171.0 database of the real-agent fixture); columns are read by name,
// so any of those versions parses.
//
// Per thread (SourceLine the rowid, all rows Secondary):
//   - "thread record: source=.. originator=.. cli_version=.. model=..
//     approval=.. sandbox=.. rollout=<rollout_path>" (system) at the
//     creation time (created_at_ms, else created_at seconds);
//   - first_user_message as a user row at the same time (in the oldest
//     schema, without that column, the title is named in the record row);
//   - "thread archived" (system) at archived_at;
//   - "subagent <child> of <parent>" from thread_spawn_edges, with the
//     parent as ParentSessionID and in the child's session state.
//
// Two tables hold records the rollouts do not (secondary rows too, as
// every row of the database: a thread whose rollout is gone reads
// recovered):
//   - remote_control_enrollments (0.16x+, the desktop app's Remote
//     Control: a paired phone drives the host's app-server): one "remote
//     control: enrolled server <server_name> (server_id=..
//     environment_id=.. client=.. enabled=yes|no websocket=<url>
//     account=<account_id>)" row per enrollment at updated_at, in no
//     session;
//   - guardian_review_feedback (migration 60, openai/codex @30bdfec59ddf
//     "Persist Guardian review failures"): each failed or denying review
//     of the guardian reviewer, a JSON record {reviewed_thread_id,
//     reviewed_turn_id, target_item_id, reviewer_thread_id, model, status,
//     decision, action, ...}, gives "permission decision: denied
//     source=guardian_review status=<status> action=<action> (turn ..,
//     reviewer thread .., model ..) decision=<decision>" in the reviewed
//     thread at the record id's UUIDv7 time, ToolUseID the reviewed item;
//     the record's instructions and history are not printed.
//
// Record ids: "<thread>#first_user_message", "#archived", "<child>#spawn",
// "guardian_review:<id>"; the thread record and remote control rows hold
// values that change (a name, a model, the enabled flag), so they carry
// none and a database backup's identical copy is merged by full value.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, stateStore, out)
	if err != nil {
		return fmt.Errorf("read schema of %s: %w", in.Path, err)
	}
	carved := parser.Carve(ctx, in, db, out)
	defer carved.Done(out)
	// recovered records of tables that hold no evidence of their own:
	// the migration log, the rollout backfill cursor, schema entries of
	// tables and indexes a migration dropped
	carved.SkipTables(out, "_sqlx_migrations", "backfill_state", "sqlite_schema")
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "threads", Read: func() error { return threads(ctx, db, in, out, carved) }},
		parser.TableRead{Table: "remote_control_enrollments", Read: func() error { return remoteControl(ctx, db, out) }},
		parser.TableRead{Table: "guardian_review_feedback", Read: func() error { return guardianReviews(ctx, db, out) }})
}

// stateSchema is what parseStateDB requires of each table it reads (the
// thread_spawn_edges read of threads names its own columns); other
// columns are read by name when present, so older schemas (state_old.sql)
// read too.
var stateStore = parser.SQLiteStore{Name: "a Codex state", Tables: parser.SQLiteSchema{
	"threads":                    {"id"},
	"remote_control_enrollments": {},
	"guardian_review_feedback":   {"id", "record"},
}, Optional: map[string]string{
	"remote_control_enrollments": "releases before 0.16x",
	"guardian_review_feedback":   "releases before migration 60",
}}

func threads(ctx context.Context, db *sql.DB, in *parser.Input, out parser.Sink, carved *parser.Carved) error {
	created := map[string]timeline.Event{}
	cols, err := parser.Columns(ctx, db, "threads")
	if err != nil {
		return fmt.Errorf("read threads in %s: %w", in.Path, err)
	}
	thread := func(out parser.Sink, r parser.Row) {
		m, rowid := r.Vals, r.Rowid
		id := parser.SQLText(m["id"])
		base := timeline.Event{SessionID: id, ProjectPath: parser.SQLText(m["cwd"]), SourceLine: rowid, Secondary: true}
		t, ok := msOrSeconds(m["created_at_ms"], m["created_at"])
		if ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		created[id] = base
		var kv []string
		add := func(k, v string) {
			if v != "" {
				kv = append(kv, k+"="+v)
			}
		}
		src := parser.SQLText(m["source"])
		if strings.HasPrefix(src, "{") {
			src, _ = sourceOf([]byte(src))
		}
		add("source", src)
		add("originator", parser.SQLText(m["originator"]))
		add("cli_version", parser.SQLText(m["cli_version"]))
		add("model_provider", parser.SQLText(m["model_provider"]))
		add("model", parser.SQLText(m["model"]))
		add("approval", parser.SQLText(m["approval_mode"]))
		add("sandbox", policyName([]byte(parser.SQLText(m["sandbox_policy"]))))
		add("name", parser.SQLText(m["name"]))
		if !cols["first_user_message"] {
			add("title", strconv.Quote(parser.SQLText(m["title"])))
		}
		add("rollout", parser.SQLText(m["rollout_path"]))
		rec := base
		rec.TurnType, rec.Text = timeline.System, strings.TrimSpace("thread record: "+strings.Join(kv, " "))
		out.Event(rec)
		if msg := parser.SQLText(m["first_user_message"]); msg != "" {
			u := base
			u.TurnType, u.Text, u.RecordID = timeline.User, msg, id+"#first_user_message"
			out.Event(u)
		}
		if at, ok := msOrSeconds(nil, m["archived_at"]); ok {
			a := base
			a.Time, a.TimeBasis = at, timeline.TimeRecorded
			a.TurnType, a.Text, a.RecordID = timeline.System, "thread archived", id+"#archived"
			out.Event(a)
		}
	}
	err = parser.EachTableRow(ctx, db, "threads", func(r parser.Row) error {
		thread(out, r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read threads in %s: %w", in.Path, err)
	}
	carvedThreads(carved, created, out, thread)
	return spawnEdges(ctx, db, created, out)
}

// carvedThreads gives the thread records the SQLite carver recovered from
// the store's freed space (a thread deleted from the table, or an older
// version of one Codex rewrote) the rows a live thread gives, through
// parser.RecoveredSink, each after a row naming where it was found
// ("recovered record: thread <id> (<where>)", record id <id>#recovered).
// A recovered record whose id is a live thread's, or a thread recovered
// before, is an older version of it: counted as a recovered_copy skip.
// Like every row of the state DB these are secondary rows that only name
// the session: with no rollout row the session reads trace.
func carvedThreads(c *parser.Carved, created map[string]timeline.Event, out parser.Sink, thread func(parser.Sink, parser.Row)) {
	lost := 0
	for _, rec := range c.Records("threads") {
		m := rec.Row()
		r := parser.Row{Vals: m}
		if rec.RowidKnown {
			r.Rowid = rec.Rowid
		}
		id := r.Get("id")
		switch {
		case id == "":
			lost++
			continue
		case hasKey(created, id):
			out.Skip(r.Rowid, "recovered_copy:older version of a live or recovered thread")
			continue
		}
		rout := parser.RecoveredSink(out, &rec)
		what := "recovered record"
		if rec.Partial {
			what = "partially recovered record"
		}
		e := timeline.Event{SessionID: id, ProjectPath: r.Get("cwd"), SourceLine: r.Rowid, Secondary: true, TurnType: timeline.System,
			RecordID: id + "#recovered", Text: fmt.Sprintf("%s: thread %s (%s)", what, id, rec.Provenance())}
		if t, ok := msOrSeconds(m["created_at_ms"], m["created_at"]); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		rout.Event(e)
		thread(rout, r)
	}
	if lost > 0 {
		out.Report(0, parser.KindCarve, fmt.Sprintf("%d recovered threads record(s) lost their id: not given rows", lost))
	}
}

func hasKey(m map[string]timeline.Event, k string) bool { _, ok := m[k]; return ok }

func remoteControl(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "remote_control_enrollments", func(r parser.Row) error {
		kv := []string{}
		add := func(k, v string) {
			if v != "" {
				kv = append(kv, k+"="+v)
			}
		}
		add("server_id", r.Get("server_id"))
		add("environment_id", r.Get("environment_id"))
		add("client", r.Get("app_server_client_name"))
		if r.Has("remote_control_enabled") {
			if n, ok := parser.SQLInt(r.Vals["remote_control_enabled"]); ok {
				add("enabled", map[bool]string{true: "yes", false: "no"}[n != 0])
			}
		}
		add("websocket", r.Get("websocket_url"))
		add("account", r.Get("account_id"))
		e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, Secondary: true,
			Text: "remote control: enrolled server " + orDash(r.Get("server_name")) + " (" + strings.Join(kv, " ") + ")"}
		if t, ok := msOrSeconds(nil, r.Vals["updated_at"]); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		return nil
	})
}

// guardianRecord is a guardian_review_feedback record (codex-rs/ext/
// guardian-reviewer/src/feedback.rs ReviewFeedbackRecord).
type guardianRecord struct {
	ReviewedThreadID string  `json:"reviewed_thread_id"`
	ReviewedTurnID   string  `json:"reviewed_turn_id"`
	TargetItemID     *string `json:"target_item_id"`
	ReviewerThreadID string  `json:"reviewer_thread_id"`
	Model            string  `json:"model"`
	Status           string  `json:"status"`
	Decision         *string `json:"decision"`
	Action           string  `json:"action"`
	ActionTruncated  bool    `json:"action_truncated"`
}

func guardianReviews(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "guardian_review_feedback", func(r parser.Row) error {
		var g guardianRecord
		if err := json.Unmarshal([]byte(r.Get("record")), &g); err != nil {
			out.Report(r.Rowid, parser.KindSkippedRecord, parser.NotJSON("guardian review record "+r.Get("id"), err))
			return nil
		}
		sid := g.ReviewedThreadID
		if sid == "" {
			sid = r.Get("thread_id")
		}
		text := "permission decision: denied source=guardian_review status=" + orDash(g.Status) + " action=" + g.Action
		if g.ActionTruncated {
			text += " [action truncated]"
		}
		var kv []string
		if g.ReviewedTurnID != "" {
			kv = append(kv, "turn "+g.ReviewedTurnID)
		}
		if g.ReviewerThreadID != "" {
			kv = append(kv, "reviewer thread "+g.ReviewerThreadID)
		}
		if g.Model != "" {
			kv = append(kv, "model "+g.Model)
		}
		if len(kv) > 0 {
			text += " (" + strings.Join(kv, ", ") + ")"
		}
		if g.Decision != nil && *g.Decision != "" {
			text += " decision=" + *g.Decision
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.System, Text: text, SourceLine: r.Rowid, Secondary: true,
			RecordID: "guardian_review:" + r.Get("id")}
		if g.TargetItemID != nil {
			e.ToolUseID = *g.TargetItemID
		}
		if t, ok := uuidV7Time(r.Get("id")); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		return nil
	})
}

func spawnEdges(ctx context.Context, db *sql.DB, created map[string]timeline.Event, out parser.Sink) error {
	if ok, err := parser.HasTable(ctx, db, "thread_spawn_edges"); err != nil || !ok {
		return err
	}
	rows, err := db.QueryContext(ctx, "SELECT rowid, parent_thread_id, child_thread_id FROM thread_spawn_edges ORDER BY rowid")
	if err != nil {
		out.Problem(0, "thread_spawn_edges: "+err.Error())
		return nil
	}
	defer rows.Close()
	for rows.Next() {
		var rowid int64
		var parent, child string
		if err := rows.Scan(&rowid, &parent, &child); err != nil {
			out.Problem(0, "thread_spawn_edges row: "+err.Error())
			continue
		}
		e := timeline.Event{SessionID: child, ParentSessionID: parent, TurnType: timeline.System, Text: "subagent " + child + " of " + parent,
			SourceLine: rowid, Secondary: true, RecordID: child + "#spawn"}
		if c, ok := created[child]; ok && !c.Time.IsZero() {
			e.Time, e.TimeBasis, e.ProjectPath = c.Time, timeline.TimeInherited, c.ProjectPath
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{SessionID: child}, ParentSessionID: parent})
	}
	return rows.Err()
}

// msOrSeconds reads a time from epoch milliseconds, else epoch seconds.
func msOrSeconds(ms, sec any) (time.Time, bool) {
	if n, ok := parser.SQLInt(ms); ok && n > 0 {
		return time.UnixMilli(n).UTC(), true
	}
	if n, ok := parser.SQLInt(sec); ok && n > 0 {
		return time.Unix(n, 0).UTC(), true
	}
	return time.Time{}, false
}
