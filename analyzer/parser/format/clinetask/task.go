package clinetask

import (
	"bytes"
	"context"
	"errors"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Flavor names the extension that wrote a task folder. Cline and its forks
// share the task file format; they differ in how the first prompt is
// recorded, where the task index lives and how a tool decision is written.
type Flavor int

const (
	// FlavorCline is Cline (saoudrizwan.claude-dev, ~/.cline/data): the
	// prompt is say "task"; the index is state/taskHistory.json.
	FlavorCline Flavor = iota
	// FlavorRoo is Roo Code and the Roo forks (Kilo Code's pre-migration
	// extension, PearAI's roo-cline): the prompt is the first say "text";
	// the index is tasks/<id>/history_item.json and tasks/_index.json
	// (older: the taskHistory key of the global state); an approved tool
	// ask carries isAnswered; tool decisions are JSON in the API history.
	FlavorRoo
)

// Task is what the files around one task folder say about the task.
type Task struct {
	ID      string    // the task folder name (the agent's task id)
	Dir     string    // the task folder's original path
	Start   time.Time // the id as epoch ms, else the index entry's ts (its last activity)
	Project string    // cwdOnTaskInitialization (Cline) or workspace (Roo)
	Model   string    // the index entry's modelId (Cline)
	Parent  string    // parentTaskId (Roo subtasks)
	Mode    string    // mode (Roo)
	Task    string    // the index entry's task text
}

// historyItem is one entry of a task index (Cline HistoryItem, Roo
// HistoryItem); unknown keys are ignored.
type historyItem struct {
	ID           string `json:"id"`
	TS           Num    `json:"ts"`
	Task         string `json:"task"`
	Cwd          string `json:"cwdOnTaskInitialization"`
	Workspace    string `json:"workspace"`
	ModelID      string `json:"modelId"`
	ParentTaskID string `json:"parentTaskId"`
	RootTaskID   string `json:"rootTaskId"`
	Mode         string `json:"mode"`
	Status       string `json:"status"`
	Number       Num    `json:"number"`
	APIConfig    string `json:"apiConfigName"`
}

func (h *historyItem) project() string {
	if h.Cwd != "" {
		return h.Cwd
	}
	return h.Workspace
}

var errFound = errors.New("found")

// findInArray returns the element of a JSON array (raw) whose id is id.
func findInArray(raw []byte, id string) (historyItem, bool) {
	var hit historyItem
	found := false
	_, _ = DecodeArray(context.Background(), bytes.NewReader(raw), func(_ int64, el json.RawMessage) error {
		var h historyItem
		if json.Unmarshal(el, &h) == nil && h.ID == id {
			hit, found = h, true
			return errFound
		}
		return nil
	})
	return hit, found
}

// LoadTask reads what the sibling files of a task file (tasks/<id>/<name>)
// say about its task: Cline's <storage>/state/taskHistory.json; Roo's
// tasks/<id>/history_item.json, tasks/_index.json and the CLI's
// global-state.json taskHistory. Missing files are not an error.
func LoadTask(in *parser.Input, fl Flavor) Task {
	dir, id := TaskDir(in.Path)
	t := Task{ID: id, Dir: dir}
	storage := path.Dir(path.Dir(dir)) // <storage>/tasks/<id>
	var h historyItem
	found := false
	if fl == FlavorRoo {
		if b, ok := in.ReadRelated(dir+"/history_item.json", MaxSmall); ok {
			if json.Unmarshal(b, &h) == nil && (h.ID == "" || h.ID == id) {
				found = true
			}
		}
		if !found {
			if b, ok := in.ReadRelated(storage+"/tasks/_index.json", MaxSmall); ok {
				var idx struct {
					Entries json.RawMessage `json:"entries"`
				}
				if json.Unmarshal(b, &idx) == nil && len(idx.Entries) > 0 {
					h, found = findInArray(idx.Entries, id)
				}
			}
		}
		if !found {
			if b, ok := in.ReadRelated(storage+"/global-state.json", MaxSmall); ok {
				var gs struct {
					TaskHistory json.RawMessage `json:"taskHistory"`
				}
				if json.Unmarshal(b, &gs) == nil && len(gs.TaskHistory) > 0 {
					h, found = findInArray(gs.TaskHistory, id)
				}
			}
		}
	} else if b, ok := in.ReadRelated(storage+"/state/taskHistory.json", MaxSmall); ok {
		h, found = findInArray(b, id)
	}
	if found {
		t.Project, t.Model, t.Parent, t.Mode, t.Task = h.project(), h.ModelID, h.ParentTaskID, h.Mode, h.Task
		t.Start = MsTime(float64(h.TS))
	}
	if st := TaskIDTime(id); !st.IsZero() {
		t.Start = st
	}
	return t
}

// cwdRe finds the working directory in an <environment_details> block
// ("# Current Working Directory (/path) Files", Roo: "Current Workspace
// Directory (/path) Files").
var cwdRe = regexp.MustCompile(`# Current (?:Working|Workspace) Directory \(([^)\n]+)\) Files`)

func findCwd(s string) string {
	if m := cwdRe.FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// emitter writes the rows of one task file.
type emitter struct {
	out     parser.Sink
	agent   string
	task    Task
	model   string // current model
	started bool   // the subagent row was written
	last    time.Time
}

func (e *emitter) ev(t time.Time, basis timeline.TimeBasis, line int64, turn timeline.TurnType, text string) timeline.Event {
	if t.IsZero() && basis == timeline.TimeRecorded {
		basis = timeline.TimeNone
	}
	return timeline.Event{Time: t, TimeBasis: basis, Agent: e.agent, SessionID: e.task.ID, ProjectPath: e.task.Project,
		TurnType: turn, Text: text, SourceLine: line}
}

// open writes the rows that open a task (a subtask's "subagent <id> of
// <parent>") at the first record's time.
func (e *emitter) open(t time.Time, basis timeline.TimeBasis, line int64) {
	if e.started {
		return
	}
	e.started = true
	if e.task.Parent != "" {
		e.out.Event(e.ev(t, basis, line, timeline.System, "subagent "+e.task.ID+" of "+e.task.Parent))
	}
}

// setModel records the model of the following rows, writing "model: <id>"
// or "model: <old> -> <new>" when it changes.
func (e *emitter) setModel(t time.Time, basis timeline.TimeBasis, line int64, m string) {
	if m == "" || m == e.model {
		return
	}
	text := "model: " + m
	if e.model != "" {
		text = "model: " + e.model + " -> " + m
	}
	e.model = m
	e.out.Event(e.ev(t, basis, line, timeline.System, text))
}

// modelRow returns the model for an assistant, thinking or tool_use row,
// falling back to the index's modelId (and writing its model row once).
func (e *emitter) modelRow(t time.Time, basis timeline.TimeBasis, line int64) string {
	if e.model == "" && e.task.Model != "" {
		e.setModel(t, basis, line, e.task.Model)
	}
	return e.model
}
