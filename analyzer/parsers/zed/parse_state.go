package zed

import (
	"context"
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseStateDB reads the tables of db/0-<channel>/db.sqlite that record
// agent use; every table is optional (older builds lack some). Columns are
// read by name.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	file := parser.DisplayFile(&in.File)
	tables := []struct {
		name string
		fn   func(r row)
	}{
		{"sidebar_threads", func(r row) { sidebarThread(in, r, out) }},
		{"trusted_worktrees", func(r row) { trustedWorktree(in, r, out, file) }},
		{"scoped_kv_store", func(r row) { scopedKV(in, r, out, file) }},
		{"archived_git_worktrees", func(r row) { archivedWorktree(in, r, out) }},
		{"sidebar_terminal_threads", func(r row) { terminalThread(in, r, out) }},
	}
	for _, t := range tables {
		cols, err := parser.Columns(ctx, db, t.name)
		if err != nil {
			out.Problem(0, "not a SQLite database: "+err.Error())
			return nil
		}
		if cols == nil {
			continue
		}
		err = eachRow(ctx, db, t.name, func(r row) error {
			r.Vals["__table"] = t.name
			t.fn(r)
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Problem(0, fmt.Sprintf("read %s: %v", t.name, err))
		}
	}
	return nil
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
			return
		}
		e.SessionID = key
		e.Text = "unsent draft: " + txt
	case "created_git_worktrees":
		e.Text = fmt.Sprintf("git worktree created: %s %s", key, parser.CompactJSON([]byte(val)))
	default:
		if !strings.HasPrefix(ns, "agent") && !strings.Contains(ns, "thread") && !strings.Contains(ns, "worktree") {
			return
		}
		e.Text = fmt.Sprintf("%s: %s=%s", ns, key, parser.CompactJSON([]byte(val)))
	}
	out.Event(e)
}

func archivedWorktree(in *parser.Input, r row, out parser.Sink) {
	e := stamp(in, r, "archived_at", "created_at")
	e.SourceLine = r.Rowid
	e.ProjectPath = r.Get("main_repo_path")
	e.Text = "archived git worktree: " + r.Get("worktree_path") + " repo=" + r.Get("main_repo_path")
	if b := r.Get("branch_name"); b != "" {
		e.Text += " branch=" + b
	}
	if c := r.Get("commit_hash"); c != "" {
		e.Text += " commit=" + c
	}
	out.Event(e)
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
	out.Event(e)
}
