package vscode

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ownedTasksKey is Copilot Chat's record of the cloud agent tasks started
// or adopted from this VS Code (CloudTaskOwnership), inside the extension's
// globalState row of ItemTable.
const ownedTasksKey = "github.copilot.cloudAgent.ownedTasks"

// approvalKey reports whether an ItemTable key holds standing tool
// approvals (LanguageModelToolsConfirmationService: chat/autoconfirm,
// chat/autoconfirm-post, chat/servers/autoconfirm,
// chat/servers/autoconfirm-post, chat/autoconfirm-combination; and the
// older ToolConfirmStore's chat/autoconfirm).
func approvalKey(k string) bool {
	return strings.HasPrefix(k, "chat/") && strings.Contains(k, "autoconfirm")
}

// parseStateDB reads a state.vscdb (User/globalStorage, a profile's
// globalStorage, or a workspace's). Standing tool approvals give one
// "permission setting: <key>=<tool or server> (from <file>, file mtime)"
// row each; the GitHub.copilot-chat row's cloud agent tasks give a
// "session synced:" and a "session origin: remote GitHub cloud agent" row
// each, at the time the task was recorded.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	st, err := vscodestate.OpenVSCodeState(ctx, in, out)
	if err != nil {
		out.Problem(0, vscodestate.NotReadable(err))
		return nil
	}
	if st == nil {
		return nil // not a state database: CheckStore said so
	}
	project := ""
	if d := storageDir(in.Path); d != "" {
		project = workspaceProject(in, d)
	}
	ft, fb := fileTime(in)
	row := func(r vscodestate.StateRow) error {
		if r.TooLarge {
			out.Problem(r.Rowid, r.Unread())
			return nil
		}
		v, err := decodeBytes(r.Value)
		if err != nil {
			out.Problem(r.Rowid, r.NotJSON(err))
			return nil
		}
		if approvalKey(r.Key) {
			// An older build stored the list JSON-encoded inside a string.
			if s, ok := v.(string); ok {
				if inner, err := decodeBytes([]byte(s)); err == nil {
					v = inner
				}
			}
			for _, id := range approvalIDs(v) {
				out.Event(timeline.Event{Time: ft, TimeBasis: fb, TurnType: timeline.System, ProjectPath: project,
					Text: fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", r.Key, id, in.Path), SourceLine: r.Rowid})
			}
			return nil
		}
		n := ownedTasks(obj(v)[ownedTasksKey], r.Rowid, in.Path, out)
		n += pickedRepos(obj(v)[pickedReposKey], r.Rowid, in.Path, out)
		if n == 0 {
			out.Skip(r.Rowid, "no_evidence:copilot-chat-state-without-tasks-or-repositories")
		}
		return nil
	}
	if err := st.ItemsMatching(ctx, "chat/", approvalKey, row); err != nil {
		return err
	}
	// The GitHub account's sign-in and usage records (parser.AuthAccounts).
	for _, p := range [][]string{{"github", "github-enterprise"}, {"github-enterprise"}} {
		accounts, err := st.AuthAccounts(ctx, p[0], p[1:]...)
		if err != nil {
			return err
		}
		for _, a := range accounts {
			vscodestate.AccountRows(in, out, a)
		}
	}
	r, ok, err := st.Item(ctx, "github.copilot-chat")
	if err != nil {
		return err
	}
	if ok {
		return row(r)
	}
	return nil
}

// pickedReposKey is Copilot Chat's list of the repositories the user
// picked for cloud agent tasks (copilotCloudSessionsProvider.ts
// USER_SELECTED_REPOS_KEY: [{name, timestamp}], entries older than a week
// dropped on read), in the extension's globalState row.
const pickedReposKey = "userSelectedRepositories"

// pickedRepos emits "source host repository: <owner/repo> picked for a
// cloud agent task (from state.vscdb userSelectedRepositories)" per entry
// at its timestamp (the last time it was picked).
func pickedRepos(v any, rowid int64, file string, out parser.Sink) int {
	n := 0
	for _, x := range arr(v) {
		m := obj(x)
		name := str(m["name"])
		if name == "" {
			out.Report(rowid, parser.KindSkippedRecord, pickedReposKey+": entry without a repository name")
			continue
		}
		t, ok := epochMs(m["timestamp"])
		basis := timeline.TimeRecorded
		if !ok {
			basis = timeline.TimeNone
		}
		out.Event(timeline.Event{Time: t, TimeBasis: basis, TurnType: timeline.System, SourceLine: rowid, RecordID: pickedReposKey + ":" + name,
			Text: fmt.Sprintf("source host repository: %s picked for a cloud agent task (from %s %s)", name, base(file), pickedReposKey)})
		n++
	}
	return n
}

// approvalIDs lists the tool or server ids of an approval store: an array
// of ids, or an object whose true-valued keys are ids.
func approvalIDs(v any) []string {
	var ids []string
	if a := arr(v); a != nil {
		for _, x := range a {
			if s := str(x); s != "" {
				ids = append(ids, s)
			} else if x != nil {
				ids = append(ids, parser.JSONValue(x))
			}
		}
		return ids
	}
	if m := obj(v); m != nil {
		for _, k := range sortedKeys(m) {
			if b, ok := m[k].(bool); ok && !b {
				continue
			}
			ids = append(ids, k)
		}
	}
	return ids
}

// ownedTasks emits the cloud agent tasks of github.copilot.cloudAgent.ownedTasks:
// {taskId: recordedAt} or {taskId: {recordedAt, application}}.
func ownedTasks(v any, rowid int64, file string, out parser.Sink) int {
	m := obj(v)
	if m == nil {
		return 0
	}
	type task struct {
		id, app string
		t       time.Time
	}
	var tasks []task
	for id, x := range m {
		tk := task{id: id}
		if t, ok := epochMs(x); ok {
			tk.t = t
		} else if xm := obj(x); xm != nil {
			tk.t, _ = epochMs(xm["recordedAt"])
			tk.app = str(xm["application"])
		}
		tasks = append(tasks, tk)
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].id < tasks[j].id })
	for _, tk := range tasks {
		basis := timeline.TimeRecorded
		if tk.t.IsZero() {
			basis = timeline.TimeNone
		}
		detail := ""
		if tk.app != "" {
			detail = " application=" + tk.app
		}
		out.Event(timeline.Event{Time: tk.t, TimeBasis: basis, SessionID: tk.id, TurnType: timeline.System, SourceLine: rowid, RecordID: ownedTasksKey + ":" + tk.id + "#synced",
			Text: fmt.Sprintf("session synced: GitHub cloud agent task %s recorded by VS Code%s (from %s %s)", tk.id, detail, base(file), ownedTasksKey)})
		out.Event(timeline.Event{Time: tk.t, TimeBasis: basis, SessionID: tk.id, TurnType: timeline.System, SourceLine: rowid, RecordID: ownedTasksKey + ":" + tk.id + "#origin",
			Text: "session origin: remote GitHub cloud agent"})
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: tk.id}, Synced: "yes", Origin: "remote"})
	}
	return len(tasks)
}
