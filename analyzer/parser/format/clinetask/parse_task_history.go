package clinetask

import (
	"context"
	"errors"
	json "github.com/go-json-experiment/json/v1"
	"path"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ParseTaskHistory reads a taskHistory.json index (a HistoryItem array) whose
// task folders sit in ../tasks beside its state folder: IndexEntry for each
// entry, the array's cut or bad elements as problems.
func ParseTaskHistory(ctx context.Context, in *parser.Input, out parser.Sink, agent string) error {
	tasks := path.Dir(path.Dir(Slash(in.Path))) + "/tasks"
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	res, err := DecodeArray(ctx, rc, func(idx int64, raw json.RawMessage) error {
		return IndexEntry(in, out, agent, tasks, idx, raw)
	})
	ReportArray(out, res)
	if errors.Is(err, errNotArray) {
		out.Problem(1, parser.NotJSONArray("taskHistory.json", nil))
		return nil
	}
	return err
}

// IndexEntry reads one task index entry (a HistoryItem of Cline's
// taskHistory.json, Roo's _index.json or global-state taskHistory) and, when
// no file of its folder tasksDir/<id>/ was collected, writes a system row
// "task <id> is listed in <index> but its folder is gone: <task>" at the
// entry's ts (its last activity), with its project and model. A listed task
// whose folder is present gives no row: its own files give them.
func IndexEntry(in *parser.Input, out parser.Sink, agent, tasksDir string, idx int64, raw json.RawMessage) error {
	var h historyItem
	if err := json.Unmarshal(raw, &h); err != nil || h.ID == "" {
		out.Problem(idx, "not a task history item")
		return nil
	}
	if len(in.List(parser.GlobEscape(tasksDir+"/"+h.ID)+"/*")) > 0 {
		out.Skip(idx, "state_only") // the task's own files give its rows
		return nil
	}
	t := MsTime(float64(h.TS))
	basis := timeline.TimeRecorded
	if t.IsZero() {
		basis = timeline.TimeNone
	}
	text := "task " + h.ID + " is listed in " + path.Base(Slash(in.Path)) + " but its folder is gone"
	if h.Task != "" {
		text += ": " + h.Task
	}
	out.Event(timeline.Event{Time: t, TimeBasis: basis, Agent: agent, SessionID: h.ID, ProjectPath: h.project(),
		TurnType: timeline.System, Model: h.ModelID, Text: text, SourceLine: idx})
	return nil
}
