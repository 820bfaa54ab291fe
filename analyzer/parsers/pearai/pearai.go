package pearai

import (
	"context"
	"fmt"
	"path"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/continuesession"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of PearAI.
const Agent = "pearai"

// ExtensionID is PearAI's Roo Code fork: its state row key and its
// globalStorage folder.
const ExtensionID = "pearai.pearai-roo-cline"

// Parsers returns PearAI's parsers; its state row is read through
// StateExtension.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "pearai/sessions", Agent: Agent, Version: 2, Actions: clinetask.RooActions,
			Targets: []string{"sessions"}, Names: []string{"*.json"},
			Doc: ".pearai/sessions/<sessionId>.json through the Continue reader (history and PearAI's perplexityHistory), timed from sessions.json dateCreated; sessions.json entries whose session file is gone",
		}, continuesession.ParseSessionFile),
		parser.New(parser.Spec{
			ID: "pearai/ui-messages", Agent: Agent, Version: 1, Actions: clinetask.RooActions,
			Targets: []string{"tasks"}, Names: []string{"ui_messages.json"},
			Doc: "pearai-roo-cline tasks/<id>/ui_messages.json through the Cline reader, Roo flavour (prompts, replies, tool asks and their approvals)",
		}, func(ctx context.Context, in *parser.Input, out parser.Sink) error {
			return clinetask.ParseUIMessages(ctx, in, out, Agent, clinetask.FlavorRoo)
		}),
		parser.New(parser.Spec{
			ID: "pearai/api-history", Agent: Agent, Version: 2, Actions: clinetask.RooActions,
			Targets: []string{"tasks"}, Names: []string{"api_conversation_history.json"},
			Doc: "pearai-roo-cline tasks/<id>/api_conversation_history.json (XML tool calls): the whole transcript without ui_messages.json, else only the denial and approval results as permission decisions",
		}, parseAPIHistory),
		parser.New(parser.Spec{
			ID: "pearai/dev-data", Agent: Agent, Version: 2, Actions: clinetask.RooActions,
			Targets: []string{"dev-data"}, Names: []string{"chat.jsonl", "tokens_generated.jsonl"},
			Doc: ".pearai/dev_data/chat.jsonl (rated chat requests: prompt, reply, model, feedback, session; secondary, no time) and tokens_generated.jsonl (the model and token counts of each request, no time)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.Assistant, timeline.System},
				Basis: "dev_data lines carry no time (pearai-submodule core/util/devdata.ts logDevData): rows pair on session and text alone"},
		}, parseDevData),
	}
}

func parseAPIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir, _ := clinetask.TaskDir(in.Path)
	mode := clinetask.APIFull
	if clinetask.Collected(in, dir+"/ui_messages.json") {
		mode = clinetask.APIDecisions
	}
	return clinetask.ParseAPIHistory(ctx, in, out, Agent, clinetask.FlavorRoo, mode)
}

// StateExtension reads the pearai.pearai-roo-cline row of a state.vscdb
// (PearAI's own editor state): taskHistory and the auto-approval settings.
func StateExtension() vscodestate.StateExtension {
	return vscodestate.StateExtension{
		Agent: Agent, Keys: []string{ExtensionID}, Actions: clinetask.RooActions,
		Doc:  "pearai.pearai-roo-cline row (taskHistory entries whose task folder is gone; auto-approval settings as permission setting rows)",
		Read: readState,
	}
}

func readState(ctx context.Context, st *vscodestate.VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error {
	r, ok, err := st.Item(ctx, present[ExtensionID])
	if err != nil || !ok {
		return err
	}
	var top map[string]json.RawMessage
	if err := r.JSON(&top); err != nil {
		out.Problem(r.Rowid, r.NotObject(err))
		return nil
	}
	n := clinetask.SettingsFromObject(in, out, r.Rowid, top, clinetask.RooPermKey.MatchString)
	if raw, ok := top["taskHistory"]; ok {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			out.Problem(r.Rowid, "taskHistory: not an array: "+parser.JSONError(err))
		} else {
			tasks := tasksDir(in.Path)
			for _, it := range items {
				n++
				if err := clinetask.IndexEntry(in, out, Agent, tasks, r.Rowid, it); err != nil {
					return err
				}
			}
		}
	}
	if n == 0 {
		out.Skip(r.Rowid, "no_evidence:pearai-state-without-tasks-or-settings")
	}
	return nil
}

// tasksDir is the task folder of the editor a state.vscdb belongs to.
func tasksDir(p string) string {
	d := vscodestate.EditorDir(p)
	if d == "" {
		d = path.Dir(path.Dir(strings.ReplaceAll(p, "\\", "/")))
	}
	return d + "/globalStorage/" + ExtensionID + "/tasks"
}

// parseDevData reads dev_data/chat.jsonl ({...PromptLog, feedback,
// sessionId}: modelTitle, completionOptions, prompt, completion) and
// tokens_generated.jsonl ({model, provider, promptTokens,
// generatedTokens}).
func parseDevData(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	tokens := in.Base() == "tokens_generated.jsonl"
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var d struct {
			ModelTitle      string   `json:"modelTitle"`
			Prompt          string   `json:"prompt"`
			Completion      string   `json:"completion"`
			Feedback        *bool    `json:"feedback"`
			SessionID       string   `json:"sessionId"`
			Model           string   `json:"model"`
			Provider        string   `json:"provider"`
			PromptTokens    *float64 `json:"promptTokens"`
			GeneratedTokens *float64 `json:"generatedTokens"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		base := timeline.Event{SourceLine: n, TimeBasis: timeline.TimeNone, SessionID: d.SessionID}
		if tokens {
			if d.Model == "" {
				out.Report(n, parser.KindSkippedRecord, "tokens_generated line without a model")
				return nil
			}
			e := base
			e.TurnType, e.Model = timeline.System, d.Model
			e.Text = fmt.Sprintf("model used: %s provider=%s prompt_tokens=%s generated_tokens=%s", d.Model, d.Provider, num(d.PromptTokens), num(d.GeneratedTokens))
			out.Event(e)
			return nil
		}
		base.Secondary, base.Model = true, d.ModelTitle
		rows := 0
		if d.Prompt != "" {
			e := base
			e.TurnType, e.Text = timeline.System, "chat request prompt (as sent to "+d.ModelTitle+"):\n"+d.Prompt
			out.Event(e)
			rows++
		}
		if d.Completion != "" {
			e := base
			e.TurnType, e.Text = timeline.Assistant, d.Completion
			out.Event(e)
			rows++
		}
		if d.Feedback != nil {
			e := base
			e.TurnType = timeline.System
			e.Text = "reply rated: thumbs down"
			if *d.Feedback {
				e.Text = "reply rated: thumbs up"
			}
			out.Event(e)
			rows++
		}
		if rows == 0 {
			out.Report(n, parser.KindSkippedRecord, "chat line without prompt, completion or feedback")
		}
		return nil
	})
}

func num(f *float64) string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf("%.0f", *f)
}
