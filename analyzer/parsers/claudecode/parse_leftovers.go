package claudecode

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Todos returns the parser of the per-session todo lists,
// .claude/todos/<session>-agent-<agent>.json: what TodoWrite last wrote
// for one agent of a session (the objects of a transcript's
// toolUseResult.newTodos: content, status, activeForm). The file outlives
// its transcript (the 30-day cleanup and a deleted project folder leave
// it), so its rows name a session that existed: Spec.Trace.
func Todos() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/todos",
		Actions: Actions,
		Trace:   true,
		Agent:   Agent,
		Version: 1,
		Targets: []string{"todos"},
		Names:   []string{"*.json"},
		Doc:     "Claude Code todo lists (.claude/todos/<session>-agent-<agent>.json): the session's last TodoWrite list, naming sessions whose transcript may be gone (trace)",
	}, parseTodos)
}

// FileHistory returns the parser of the file backups Claude Code keeps
// per session before it edits a file, .claude/file-history/<session>/
// <backup>@v<N> (the backupFileName and version of a transcript's
// file-history-snapshot trackedFileBackups). Each names its session; the
// contents (the user's file as it was) are not printed. Spec.Trace.
func FileHistory() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/file-history",
		Actions: Actions,
		Trace:   true,
		Agent:   Agent,
		Version: 1,
		Targets: []string{"file-history"},
		Doc:     "Claude Code file backups (.claude/file-history/<session>/<backup>@v<N>): one row per backup naming its session (contents not printed), naming sessions whose transcript may be gone (trace)",
	}, parseFileHistory)
}

// todoName is a todo file's name: <session>-agent-<agent>.json.
var todoName = regexp.MustCompile(`^([0-9A-Za-z][0-9A-Za-z_.-]*?)-agent-([0-9A-Za-z][0-9A-Za-z_.-]*)\.json$`)

// todoItem is one entry of a todo list.
type todoItem struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
	ID         string `json:"id"`
}

// fileTime stamps e with the file's modification time: neither file
// records a time of its own.
func fileTime(in *parser.Input, e *timeline.Event) {
	if in.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
		return
	}
	e.Time, e.TimeBasis = in.MTime, timeline.TimeFileMTime
}

// parseTodos gives one system row "todo list of agent <agent>: N
// item(s)" (record id "<session>#todos-<agent>") and one "todo
// [<status>]: <content>" per item ("#todos-<agent>-<i>", i from 1), at the
// file's mtime. The list is the agent's plan, not what a person typed:
// system rows.
func parseTodos(ctx context.Context, in *parser.Input, out parser.Sink) error {
	m := todoName.FindStringSubmatch(in.Base())
	if m == nil {
		out.Report(0, parser.KindSkippedRecord, "todo file name "+in.Base()+" is not <session>-agent-<agent>.json: its session is unknown, not read")
		return nil
	}
	sid, agent := m[1], m[2]
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var items []todoItem
	if err := json.NewDecoder(rc).Decode(&items); err != nil {
		out.Problem(0, parser.NotJSONArray("the todo list", err))
		return nil
	}
	who := "agent " + agent
	if agent == sid {
		who = "the main agent"
	}
	head := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: 1, RecordID: sid + "#todos-" + agent,
		Text: fmt.Sprintf("todo list of %s: %d item(s)", who, len(items))}
	fileTime(in, &head)
	out.Event(head)
	for i, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := head
		e.SourceLine = int64(i + 1)
		e.RecordID = fmt.Sprintf("%s#todos-%s-%d", sid, agent, i+1)
		status := it.Status
		if status == "" {
			status = "no status"
		}
		e.Text = "todo [" + status + "]: " + strings.TrimSpace(it.Content)
		out.Event(e)
	}
	return nil
}

// backupName is a backup's name: <backup>@v<N>.
var backupName = regexp.MustCompile(`^(.+)@v([0-9]+)$`)

// parseFileHistory gives one system row per backup, "file backup:
// <backup> version <N> (<size> bytes)", record id "<session>#backup-
// <name>", at the file's mtime. The session is the folder's name.
func parseFileHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir, base := path.Split(in.Path)
	sid := path.Base(strings.TrimSuffix(dir, "/"))
	if sid == "" || sid == "file-history" || sid == "." || sid == "/" {
		out.Report(0, parser.KindSkippedRecord, "file backup "+base+" is not in a session folder: its session is unknown, not read")
		return nil
	}
	text := fmt.Sprintf("file backup: %s (%d bytes)", base, in.Size)
	if m := backupName.FindStringSubmatch(base); m != nil {
		text = fmt.Sprintf("file backup: %s version %s (%d bytes)", m[1], m[2], in.Size)
	}
	e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: 0, RecordID: sid + "#backup-" + base, Text: text}
	fileTime(in, &e)
	out.Event(e)
	return nil
}
