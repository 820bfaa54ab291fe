package codex

import (
	"context"
	"database/sql"
	"fmt"
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
//   - "subagent <child> of <parent>" from thread_spawn_edges.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	if ok, err := parser.HasTable(ctx, db, "threads"); err != nil || !ok {
		return err
	}
	created := map[string]timeline.Event{}
	err = parser.EachTableRow(ctx, db, "threads", func(r parser.Row) error {
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
		if !r.Has("first_user_message") {
			add("title", strconv.Quote(parser.SQLText(m["title"])))
		}
		add("rollout", parser.SQLText(m["rollout_path"]))
		rec := base
		rec.TurnType, rec.Text = timeline.System, strings.TrimSpace("thread record: "+strings.Join(kv, " "))
		out.Event(rec)
		if msg := parser.SQLText(m["first_user_message"]); msg != "" {
			u := base
			u.TurnType, u.Text = timeline.User, msg
			out.Event(u)
		}
		if at, ok := msOrSeconds(nil, m["archived_at"]); ok {
			a := base
			a.Time, a.TimeBasis = at, timeline.TimeRecorded
			a.TurnType, a.Text = timeline.System, "thread archived"
			out.Event(a)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read threads in %s: %w", in.Path, err)
	}
	return spawnEdges(ctx, db, created, out)
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
		e := timeline.Event{SessionID: child, TurnType: timeline.System, Text: "subagent " + child + " of " + parent, SourceLine: rowid, Secondary: true}
		if c, ok := created[child]; ok && !c.Time.IsZero() {
			e.Time, e.TimeBasis, e.ProjectPath = c.Time, timeline.TimeInherited, c.ProjectPath
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
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
