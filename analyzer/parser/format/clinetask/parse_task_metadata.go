package clinetask

import (
	"context"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ParseTaskMetadata reads tasks/<id>/task_metadata.json: one system row
// "file in context: <path> <event> (record_state=<s> source=<src>)" per
// recorded read or edit date of files_in_context (cline_read_date,
// cline_edit_date, user_edit_date), and "model usage: <provider>/<model>
// mode=<mode>" per model_usage entry at its ts.
func ParseTaskMetadata(_ context.Context, in *parser.Input, out parser.Sink, agent string, fl Flavor) error {
	task := LoadTask(in, fl)
	b, err := ReadAll(in)
	if err != nil {
		return err
	}
	var md struct {
		Files []struct {
			Path   string `json:"path"`
			State  string `json:"record_state"`
			Source string `json:"record_source"`
			Read   Num    `json:"cline_read_date"`
			Edit   Num    `json:"cline_edit_date"`
			User   Num    `json:"user_edit_date"`
		} `json:"files_in_context"`
		Models []struct {
			TS       Num    `json:"ts"`
			Model    string `json:"model_id"`
			Provider string `json:"model_provider_id"`
			Mode     string `json:"mode"`
		} `json:"model_usage"`
	}
	if err := json.Unmarshal(b, &md); err != nil {
		out.Problem(0, "not a task metadata object: "+parser.JSONError(err))
		return nil
	}
	type row struct {
		t    time.Time
		n    int64
		text string
		m    string
	}
	var rows []row
	for i, f := range md.Files {
		for _, d := range []struct {
			v    Num
			what string
		}{{f.Read, "read by the agent"}, {f.Edit, "edited by the agent"}, {f.User, "edited by the user"}} {
			if t := MsTime(float64(d.v)); !t.IsZero() {
				rows = append(rows, row{t, int64(i + 1), "file in context: " + f.Path + " " + d.what + " (record_state=" + f.State + " source=" + f.Source + ")", ""})
			}
		}
	}
	for i, m := range md.Models {
		s := "model usage: " + m.Model
		if m.Provider != "" {
			s = "model usage: " + m.Provider + "/" + m.Model
		}
		if m.Mode != "" {
			s += " mode=" + m.Mode
		}
		rows = append(rows, row{MsTime(float64(m.TS)), int64(len(md.Files) + i + 1), s, m.Model})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].t.Before(rows[j].t) })
	for _, r := range rows {
		basis := timeline.TimeRecorded
		if r.t.IsZero() {
			basis = timeline.TimeNone
		}
		out.Event(timeline.Event{Time: r.t, TimeBasis: basis, Agent: agent, SessionID: task.ID, ProjectPath: task.Project,
			TurnType: timeline.System, Model: r.m, Text: r.text, SourceLine: r.n})
	}
	return nil
}
