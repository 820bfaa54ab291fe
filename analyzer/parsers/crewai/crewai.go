package crewai

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "crewai"

// Parsers returns the CrewAI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "crewai/task-outputs", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"task-outputs"}, Names: []string{"latest_kickoff_task_outputs.db"},
			Doc: "latest_kickoff_task_outputs.db: the latest kickoff's inputs and each task's description, agent, final output and LLM messages (replays marked)",
		}, parseTaskOutputs),
		parser.New(parser.Spec{
			ID: "crewai/flow-states", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"task-outputs"}, Names: []string{"flow_states.db"},
			Doc: "flow_states.db: each persisted flow method's completion with the flow state, and flows paused for human feedback",
		}, parseFlowStates),
	}
}

// session names the kickoff: the run data directory is named after the
// project folder (crewai/utilities/paths.py db_storage_path), and the table
// keeps only the latest kickoff.
func session(in *parser.Input) string {
	dir := path.Base(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")))
	return "kickoff:" + dir
}

// taskOutput is TaskOutput.model_dump() (crewai/tasks/task_output.py).
type taskOutput struct {
	Description string `json:"description"`
	Name        string `json:"name"`
	Agent       string `json:"agent"`
	Raw         string `json:"raw"`
	Messages    []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func parseTaskOutputs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, taskOutputsStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "latest_kickoff_task_outputs", Read: func() error {
		return taskOutputs(ctx, db, session(in), out)
	}})
}

// taskOutputsStore is the one table of latest_kickoff_task_outputs.db
// (kickoff_task_outputs_storage.py), with the columns a row needs.
var taskOutputsStore = parser.SQLiteStore{Name: "a CrewAI task outputs", Tables: parser.SQLiteSchema{
	"latest_kickoff_task_outputs": {"task_id", "output"},
}}

// flowStatesStore is the tables of flow_states.db (flow/persistence/
// sqlite.py), with the columns a row needs.
var flowStatesStore = parser.SQLiteStore{Name: "a CrewAI flow states", Tables: parser.SQLiteSchema{
	"flow_states":      {"flow_uuid", "method_name", "state_json"},
	"pending_feedback": {"flow_uuid", "context_json"},
}, Optional: map[string]string{
	"pending_feedback": "releases before human-in-the-loop flows (crewAI c73b36a4c, #4143)",
}}

func taskOutputs(ctx context.Context, db *sql.DB, sess string, out parser.Sink) error {
	inputsShown := false
	return parser.EachTableRow(ctx, db, "latest_kickoff_task_outputs", func(r parser.Row) error {
		base := timeline.Event{SessionID: sess, SourceLine: r.Rowid}
		if t, ok := parser.SQLTime(r.Vals["timestamp"]); ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		id := r.Get("task_id")
		if in := r.Get("inputs"); !inputsShown && in != "" && in != "{}" && in != "null" {
			inputsShown = true
			e := base
			e.TurnType, e.RecordID = timeline.System, "kickoff-inputs"
			e.Text = "kickoff inputs: " + parser.RedactSecrets(parser.CompactJSON([]byte(in)))
			out.Event(e)
		}
		var o taskOutput
		if err := json.Unmarshal([]byte(r.Get("output")), &o); err != nil {
			out.Problem(r.Rowid, "output of task "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			return nil
		}
		e := base
		e.TurnType, e.RecordID = timeline.System, "task:"+id
		e.Text = fmt.Sprintf("task %s (%s): %s", r.Get("task_index"), o.Agent, o.Description)
		if r.Get("was_replayed") == "1" {
			e.Text += " (replayed: crewai replay re-ran it from this task)"
		}
		out.Event(e)
		for k, m := range o.Messages {
			x := base
			x.RecordID = "task:" + id + "#message" + strconv.Itoa(k)
			x.Text = parser.JSONText(m.Content)
			switch m.Role {
			case "assistant":
				x.TurnType, x.Text = timeline.Assistant, o.Agent+": "+x.Text
			case "tool":
				x.TurnType = timeline.ToolResult
			default:
				// system and user messages are the prompts CrewAI builds
				// from the agent's role and the task, not typed by a person
				x.TurnType, x.Text = timeline.System, "prompt ("+m.Role+") to "+o.Agent+": "+x.Text
			}
			if strings.TrimSpace(parser.JSONText(m.Content)) != "" {
				out.Event(x)
			}
		}
		if strings.TrimSpace(o.Raw) != "" {
			x := base
			x.TurnType, x.RecordID, x.Text = timeline.Assistant, "task:"+id+"#output", o.Agent+" (final output): "+o.Raw
			out.Event(x)
		}
		return nil
	})
}

func parseFlowStates(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, flowStatesStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "flow_states", Read: func() error {
			return parser.EachTableRow(ctx, db, "flow_states", func(r parser.Row) error {
				e := timeline.Event{SessionID: r.Get("flow_uuid"), TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "flow_states:" + r.Get("id")}
				if t, ok := parser.SQLTime(r.Vals["timestamp"]); ok {
					e.Time = t
				} else {
					e.TimeBasis = timeline.TimeNone
				}
				e.Text = "flow method " + r.Get("method_name") + " completed; state: " + parser.RedactSecrets(parser.CompactJSON([]byte(r.Get("state_json"))))
				out.Event(e)
				return nil
			})
		}},
		parser.TableRead{Table: "pending_feedback", Read: func() error {
			return parser.EachTableRow(ctx, db, "pending_feedback", func(r parser.Row) error {
				e := timeline.Event{SessionID: r.Get("flow_uuid"), TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "pending_feedback:" + r.Get("id")}
				if t, ok := parser.SQLTime(r.Vals["created_at"]); ok {
					e.Time = t
				} else {
					e.TimeBasis = timeline.TimeNone
				}
				e.Text = "flow paused waiting for human feedback: " + parser.RedactSecrets(parser.CompactJSON([]byte(r.Get("context_json"))))
				out.Event(e)
				return nil
			})
		}})
}
