package crewai

import (
	"context"
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
			ID: "crewai/task-outputs", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"task-outputs"}, Names: []string{"latest_kickoff_task_outputs.db"},
			Doc: "latest_kickoff_task_outputs.db: the latest kickoff's inputs and each task's description, agent, final output and LLM messages (replays marked)",
		}, parseTaskOutputs),
		parser.New(parser.Spec{
			ID: "crewai/flow-states", Agent: agentName, Version: 1, Actions: actions,
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
	if ok, err := parser.HasTable(ctx, db, "latest_kickoff_task_outputs"); err != nil {
		return err
	} else if !ok {
		out.Problem(0, "no latest_kickoff_task_outputs table: not a CrewAI task outputs database")
		return nil
	}
	sess := session(in)
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
			out.Problem(r.Rowid, "output of task "+id+" not read: "+err.Error())
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
	if ok, err := parser.HasTable(ctx, db, "flow_states"); err != nil {
		return err
	} else if !ok {
		out.Problem(0, "no flow_states table: not a CrewAI flow states database")
		return nil
	}
	err = parser.EachTableRow(ctx, db, "flow_states", func(r parser.Row) error {
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
	if err != nil {
		return fmt.Errorf("flow_states: %w", err)
	}
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
}
