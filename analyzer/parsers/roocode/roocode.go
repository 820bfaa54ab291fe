package roocode

import (
	"context"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Roo Code.
const Agent = "roo-code"

var taskTargets = []string{"tasks", "cli-tasks"}

// Parsers returns the Roo Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "roo-code/ui-messages", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: taskTargets, Names: []string{"ui_messages.json"},
			Doc: "tasks/<id>/ui_messages.json through the Cline reader (first say text is the prompt; isAnswered tool asks as permission decision rows; a subtask opens with subagent <id> of <parent>)",
		}, parseUIMessages),
		parser.New(parser.Spec{
			ID: "roo-code/api-history", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: taskTargets, Names: []string{"api_conversation_history.json"},
			Doc: "tasks/<id>/api_conversation_history.json: the whole transcript when ui_messages.json is absent, else only the denial and approval JSON results as permission decision rows",
		}, parseAPIHistory),
		parser.New(parser.Spec{
			ID: "roo-code/task-index", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: taskTargets, Names: []string{"_index.json"},
			Doc: "tasks/_index.json: a system row for each listed task whose folder was not collected",
		}, parseIndex),
		parser.New(parser.Spec{
			ID: "roo-code/settings", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"settings", "cli-global-state", "cli-settings", "project"},
			Names:   []string{"mcp_settings.json", "mcp.json", "global-state.json", "cli-settings.json"},
			Doc:     "auto-approval keys and the Roo Code Cloud settings cache of the CLI's global-state.json, .roo/cli-settings.json, MCP alwaysAllow/disabled of settings/mcp_settings.json and a project's .roo/mcp.json, as permission setting rows (file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "roo-code/workspace-state", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"cli-workspace-state"}, Names: []string{"workspace-state.json"},
			Doc: "the CLI's .vscode-mock/workspace-storage/<hash>/workspace-state.json: the Roo Code Cloud retry queue (never its bearer token or bodies)",
		}, parseWorkspaceState),
		parser.New(parser.Spec{
			ID: "roo-code/cli-history", Agent: Agent, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "cli-history.json is text only (seed)"},
			Targets: []string{"cli-history"}, Names: []string{"cli-history.json"},
			Doc: "the CLI's .roo/cli-history.json typed prompts (secondary, no time or session)",
		}, parseCLIHistory),
	}
}

func parseUIMessages(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return clinetask.ParseUIMessages(ctx, in, out, Agent, clinetask.FlavorRoo)
}

// parseAPIHistory reads the whole API history when the folder's
// ui_messages.json was not collected; beside it, only the decisions (the
// JSON denial and approval results the UI messages do not show).
func parseAPIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir, _ := clinetask.TaskDir(in.Path)
	mode := clinetask.APIFull
	if clinetask.Collected(in, dir+"/ui_messages.json") {
		mode = clinetask.APIDecisions
	}
	return clinetask.ParseAPIHistory(ctx, in, out, Agent, clinetask.FlavorRoo, mode)
}

// parseIndex reads tasks/_index.json {version, updatedAt, entries:
// HistoryItem[]}.
func parseIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var idx struct {
		Version int             `json:"version"`
		Entries json.RawMessage `json:"entries"`
	}
	if err := json.NewDecoder(rc).Decode(&idx); err != nil {
		out.Problem(1, "not a task index object: "+parser.JSONError(err))
		return nil
	}
	tasks := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	res, err := clinetask.DecodeArray(ctx, strings.NewReader(string(idx.Entries)), func(n int64, raw json.RawMessage) error {
		return clinetask.IndexEntry(in, out, Agent, tasks, n, raw)
	})
	clinetask.ReportArray(out, res)
	if err != nil && len(idx.Entries) > 0 {
		out.Problem(1, "entries: "+err.Error())
	}
	return nil
}

// actions and PermKey are Roo's tool table and auto-approval keys, part of
// the Roo flavor of the Cline task format (clinetask.RooActions, RooPermKey).
var (
	actions = clinetask.RooActions
	PermKey = clinetask.RooPermKey
)

func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	switch in.Base() {
	case "mcp_settings.json":
		return clinetask.ParseMCPSettings(ctx, in, out, "alwaysAllow")
	case "mcp.json":
		if path.Base(path.Dir(p)) != ".roo" {
			return nil
		}
		return clinetask.ParseMCPSettings(ctx, in, out, "alwaysAllow")
	case "global-state.json":
		return parseGlobalState(in, out)
	case "cli-settings.json":
		if err := clinetask.ParseSettingsKeys(ctx, in, out, func(k string) bool {
			return k == "requireApproval" || k == "dangerouslySkipPermissions" || k == "mode"
		}); err != nil {
			return err
		}
		return modelSetting(in, out)
	}
	return nil
}

// parseGlobalState reads the CLI's global-state.json: the auto-approval
// settings and the Roo Code Cloud settings cache (see StateObject).
func parseGlobalState(in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	StateObject(in, out, 0, top, "")
	return nil
}

// modelSetting writes "model setting: <provider>/<model> (from
// cli-settings.json, file mtime)" for the CLI's default model.
func modelSetting(in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var s struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
	}
	if json.NewDecoder(io.LimitReader(rc, 16<<20)).Decode(&s) != nil || s.Model == "" {
		return nil
	}
	v := s.Model
	if s.Provider != "" {
		v = s.Provider + "/" + s.Model
	}
	basis := timeline.TimeFileMTime
	if in.MTime.IsZero() {
		basis = timeline.TimeNone
	}
	out.Event(timeline.Event{Time: in.MTime, TimeBasis: basis, TurnType: timeline.System,
		Text: fmt.Sprintf("model setting: %s (from %s, file mtime)", v, in.Base())})
	return nil
}

// parseCLIHistory reads .roo/cli-history.json {version, entries: [string]}:
// one secondary user row per entry, oldest first, no time or session.
func parseCLIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var h struct {
		Entries json.RawMessage `json:"entries"`
	}
	if err := json.NewDecoder(rc).Decode(&h); err != nil {
		out.Problem(1, "not a CLI history object: "+parser.JSONError(err))
		return nil
	}
	res, err := clinetask.DecodeArray(ctx, strings.NewReader(string(h.Entries)), func(n int64, raw json.RawMessage) error {
		var s string
		if json.Unmarshal(raw, &s) != nil || strings.TrimSpace(s) == "" {
			return nil
		}
		out.Event(timeline.Event{Time: time.Time{}, TimeBasis: timeline.TimeNone, TurnType: timeline.User, Text: s, SourceLine: n, Secondary: true})
		return nil
	})
	clinetask.ReportArray(out, res)
	if err != nil && len(h.Entries) > 0 {
		out.Problem(1, "entries: "+err.Error())
	}
	return nil
}
