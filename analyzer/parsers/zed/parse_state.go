package zed

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// stateStore is what parseStateDB reads of db/0-<channel>/db.sqlite (the
// one SQLite policy, parser.CheckStore). Every table is Optional: each is
// created by a migration of a later Zed (the ThreadMetadataDb, ProjectDb
// and KeyValueStore migrations in zed-industries/zed), so a db.sqlite of
// an older build lacks it. A table present without the columns its rows
// are read by is named in one problem row and the other tables are read;
// a db.sqlite with none of them is one "not a Zed agent-state database"
// problem.
var stateStore = parser.SQLiteStore{
	Name: "a Zed agent-state",
	Tables: parser.SQLiteSchema{
		"sidebar_threads":           {"title"},
		"trusted_worktrees":         {"absolute_path"},
		"scoped_kv_store":           {"namespace", "key", "value"},
		"archived_git_worktrees":    {"id", "worktree_path"},
		"thread_archived_worktrees": {"archived_worktree_id"},
		"sidebar_terminal_threads":  {"terminal_id"},
	},
	Optional: map[string]string{
		"sidebar_threads":           "Zed builds before the agent sidebar (ThreadMetadataDb)",
		"trusted_worktrees":         "Zed builds before worktree trust (ProjectDb)",
		"scoped_kv_store":           "Zed builds before the scoped key-value store",
		"archived_git_worktrees":    "Zed builds before worktree archiving (ThreadMetadataDb)",
		"thread_archived_worktrees": "Zed builds before the thread-to-worktree join (ThreadMetadataDb)",
		"sidebar_terminal_threads":  "Zed builds before terminal threads in the sidebar",
	},
}

// parseStateDB reads the tables of db/0-<channel>/db.sqlite that record
// agent use (stateStore). Columns are read by name.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	readable, err := parser.CheckStore(ctx, db, stateStore, out)
	if err != nil {
		out.Problem(0, "not a SQLite database: "+err.Error())
		return nil
	}
	if len(readable) == 0 {
		return nil
	}
	file := parser.DisplayFile(&in.File)
	links, err := worktreeLinks(ctx, db, readable, out)
	if err != nil {
		out.Problem(0, "not a SQLite database: "+err.Error())
		return nil
	}
	tables := []struct {
		name string
		fn   func(r row)
	}{
		{"sidebar_threads", func(r row) { sidebarThread(in, r, out) }},
		{"trusted_worktrees", func(r row) { trustedWorktree(in, r, out, file) }},
		{"scoped_kv_store", func(r row) { scopedKV(in, r, out, file) }},
		{"archived_git_worktrees", func(r row) { archivedWorktree(in, r, out, links) }},
		{"thread_archived_worktrees", func(r row) { linkRow(r, out, links) }},
		{"sidebar_terminal_threads", func(r row) { terminalThread(in, r, out) }},
	}
	reads := make([]parser.TableRead, 0, len(tables))
	for _, t := range tables {
		reads = append(reads, parser.TableRead{Table: t.name, Read: func() error {
			return eachRow(ctx, db, t.name, func(r row) error {
				r.Vals["__table"] = t.name
				t.fn(r)
				return nil
			})
		}})
	}
	return parser.ReadTables(ctx, out, readable, reads...)
}

// stamp gives e the first parseable time among cols, else the file mtime.
func stamp(in *parser.Input, r row, cols ...string) timeline.Event {
	for _, c := range cols {
		if t, ok := sqlTime(r.Get(c)); ok {
			return timeline.Event{TurnType: timeline.System, Time: t}
		}
	}
	return parser.SettingEvent(&in.File)
}

// sidebarThread: one row per thread the agent sidebar lists, native
// (agent_id NULL) or an external ACP agent's (claude-code, gemini, codex,
// ...), whose transcript Zed itself does not keep.
func sidebarThread(in *parser.Input, r row, out parser.Sink) {
	e := stamp(in, r, "created_at", "updated_at")
	e.SourceLine = r.Rowid
	e.SessionID = r.Get("session_id")
	e.ProjectPath = firstPath(r.Get("folder_paths"))
	agent := r.Get("agent_id")
	if agent == "" {
		agent = r.Get("agent_name")
	}
	if agent == "" {
		agent = "zed"
	}
	title := r.Get("title_override")
	if title == "" {
		title = r.Get("title")
	}
	e.Text = fmt.Sprintf("sidebar thread: %s (agent %s", title, agent)
	if u := r.Get("updated_at"); u != "" && u != r.Get("created_at") {
		e.Text += ", updated " + u
	}
	if r.Get("archived") == "1" {
		e.Text += ", archived"
	}
	e.Text += ")"
	if id := r.bytes("thread_id"); len(id) > 0 {
		e.RecordID = "sidebar:" + hex.EncodeToString(id)
	} else if e.SessionID != "" {
		e.RecordID = "sidebar:" + e.SessionID
	}
	out.Event(e)
}

func trustedWorktree(in *parser.Input, r row, out parser.Sink, file string) {
	e := parser.SettingEvent(&in.File)
	e.SourceLine = r.Rowid
	p := r.Get("absolute_path")
	if p == "" {
		p = "(all local worktrees)" // a NULL path trusts every local worktree
	}
	e.Text = "permission setting: trusted_worktrees=" + p
	if h := r.Get("host_name"); h != "" {
		if u := r.Get("user_name"); u != "" {
			h = u + "@" + h
		}
		e.Text += " host=" + h
	}
	e.Text += fmt.Sprintf(" (from %s, file mtime)", file)
	e.ProjectPath = r.Get("absolute_path")
	out.Event(e)
}

// scopedKV reads the key-value namespaces the agent panel writes.
func scopedKV(in *parser.Input, r row, out parser.Sink, file string) {
	ns, key, val := r.Get("namespace"), r.Get("key"), r.Get("value")
	e := parser.SettingEvent(&in.File)
	e.SourceLine = r.Rowid
	switch ns {
	case "agent_draft_prompts":
		txt := draftText([]byte(val))
		if strings.TrimSpace(txt) == "" {
			out.Skip(r.Rowid, "empty_text")
			return
		}
		e.SessionID = key
		e.Text = "unsent draft: " + txt
	case "created_git_worktrees":
		e.Text = fmt.Sprintf("git worktree created: %s %s", key, parser.CompactJSON([]byte(val)))
	default:
		if !strings.HasPrefix(ns, "agent") && !strings.Contains(ns, "thread") && !strings.Contains(ns, "worktree") {
			out.Skip(r.Rowid, "no_evidence:kv namespace "+ns)
			return
		}
		e.Text = fmt.Sprintf("%s: %s=%s", ns, key, parser.CompactJSON([]byte(val)))
	}
	e.RecordID = "kv:" + ns + "/" + key
	out.Event(e)
}

// archivedWorktree gives one row per archived worktree, and per thread
// the thread_archived_worktrees join links it to (the agent thread whose
// worktree it was): that row is the thread's.
func archivedWorktree(in *parser.Input, r row, out parser.Sink, links *links) {
	e := stamp(in, r, "archived_at", "created_at")
	e.SourceLine = r.Rowid
	e.ProjectPath = r.Get("main_repo_path")
	e.Text = "archived git worktree: " + r.Get("worktree_path") + " repo=" + r.Get("main_repo_path")
	if b := r.Get("branch_name"); b != "" {
		e.Text += " branch=" + b
	}
	for _, k := range []struct{ col, name string }{{"commit_hash", "commit"}, {"original_commit_hash", "original_commit"},
		{"staged_commit_hash", "staged_commit"}, {"unstaged_commit_hash", "unstaged_commit"}} {
		if c := r.Get(k.col); c != "" {
			e.Text += " " + k.name + "=" + c
		}
	}
	id := r.Get("id")
	links.seen[id] = true
	ts := links.byWorktree[id]
	if len(ts) == 0 {
		e.RecordID = "archived-worktree:" + id
		out.Event(e)
		return
	}
	for _, t := range ts {
		te := e
		te.SessionID, te.RecordID = t.session, "archived-worktree:"+id+"#"+t.key
		if t.session == "" {
			te.Text += " (thread " + t.key + ", not in sidebar_threads)"
		}
		out.Event(te)
	}
}

// threadLink is one thread_archived_worktrees row resolved to its thread.
type threadLink struct {
	key     string // the thread's id as stored (session id, or hex thread_id)
	session string // the threads.id it names ("" when unknown)
	rowid   int64
}

type links struct {
	byWorktree map[string][]threadLink
	// seen are the archived_git_worktrees ids read. It drops no record:
	// it only accounts for each thread_archived_worktrees row (joined
	// into its worktree's row, a Skip, or an orphan_record when that row
	// is gone). The join's primary key keeps each link once; a link
	// listed twice all the same (a store without that key) gives the
	// worktree's row twice under one RecordID, which the correlate stage
	// merges (TestDuplicateLinkThroughTheEngine).
	seen map[string]bool
}

// worktreeLinks reads thread_archived_worktrees: (session_id,
// archived_worktree_id) in its first form, (thread_id BLOB,
// archived_worktree_id) since the sidebar keyed threads by a 16-byte id
// (zed-industries/zed a846890 thread_metadata_store.rs); a thread_id is
// resolved through sidebar_threads to the session (threads.id).
func worktreeLinks(ctx context.Context, db *sql.DB, readable map[string]bool, out parser.Sink) (*links, error) {
	l := &links{byWorktree: map[string][]threadLink{}, seen: map[string]bool{}}
	if !readable["thread_archived_worktrees"] {
		return l, nil
	}
	cols, err := parser.Columns(ctx, db, "thread_archived_worktrees")
	if err != nil || cols == nil {
		return l, err
	}
	sessionOf := map[string]string{}
	if sc, err := parser.Columns(ctx, db, "sidebar_threads"); err == nil && readable["sidebar_threads"] && sc["thread_id"] {
		err := eachRow(ctx, db, "sidebar_threads", func(r row) error {
			if id := r.bytes("thread_id"); len(id) > 0 {
				sessionOf[hex.EncodeToString(id)] = r.Get("session_id")
			}
			return nil
		})
		if err != nil {
			out.Problem(0, "read sidebar_threads: "+err.Error())
		}
	}
	err = eachRow(ctx, db, "thread_archived_worktrees", func(r row) error {
		t := threadLink{rowid: r.Rowid}
		if cols["session_id"] {
			t.key = r.Get("session_id")
			t.session = t.key
		} else {
			t.key = hex.EncodeToString(r.bytes("thread_id"))
			t.session = sessionOf[t.key]
		}
		wid := r.Get("archived_worktree_id")
		l.byWorktree[wid] = append(l.byWorktree[wid], t)
		return nil
	})
	if err != nil {
		out.Problem(0, "read thread_archived_worktrees: "+err.Error())
	}
	return l, nil
}

// linkRow accounts for a thread_archived_worktrees row: its thread gave
// the archived worktree's row, unless the worktree row is gone.
func linkRow(r row, out parser.Sink, l *links) {
	wid := r.Get("archived_worktree_id")
	if l.seen[wid] {
		out.Skip(r.Rowid, "state_only:joined into its archived_git_worktrees row")
		return
	}
	out.Report(r.Rowid, parser.KindOrphanRecord, "thread_archived_worktrees links archived worktree "+wid+", whose archived_git_worktrees row is gone")
}

func terminalThread(in *parser.Input, r row, out parser.Sink) {
	e := stamp(in, r, "created_at")
	e.SourceLine = r.Rowid
	e.SessionID = r.Get("terminal_id")
	e.ProjectPath = r.Get("working_directory")
	if e.ProjectPath == "" {
		e.ProjectPath = firstPath(r.Get("folder_paths"))
	}
	title := r.Get("custom_title")
	if title == "" {
		title = r.Get("title")
	}
	e.Text = "terminal thread: " + title
	if wd := r.Get("working_directory"); wd != "" {
		e.Text += " cwd=" + wd
	}
	if e.SessionID != "" {
		e.RecordID = "terminal:" + e.SessionID
	}
	out.Event(e)
}
