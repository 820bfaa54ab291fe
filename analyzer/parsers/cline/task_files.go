package cline

import (
	"context"
	"regexp"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
)

// Cline's own files of the Cline task format (analyzer/parser/format/clinetask).

// clinePermKey selects the standing permission keys of globalState.json and
// global-settings.json (autoApprovalSettings.*, mode, yoloModeToggled,
// command permissions).
var clinePermKey = regexp.MustCompile(`(?i)^(autoApprov|yolo|mode$|planActSeparateModelsSetting|strictPlanMode|commandPermission|permission|allowedCommands|deniedCommands|autoApproveAll|cloudTaskTarget|enableCheckpoints)`)

func parseUIMessages(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return clinetask.ParseUIMessages(ctx, in, out, Agent, clinetask.FlavorCline)
}

func parseAPIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir, _ := clinetask.TaskDir(in.Path)
	if clinetask.Collected(in, dir+"/ui_messages.json") {
		return nil // ui_messages.json is preferred; its rows cover the task
	}
	return clinetask.ParseAPIHistory(ctx, in, out, Agent, clinetask.FlavorCline, clinetask.APIFull)
}

func parseTaskMetadata(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return clinetask.ParseTaskMetadata(ctx, in, out, Agent, clinetask.FlavorCline)
}

func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	switch in.Base() {
	case "cline_mcp_settings.json":
		return clinetask.ParseMCPSettings(ctx, in, out, "autoApprove")
	case "globalState.json":
		if err := clinetask.ParseSettingsKeys(ctx, in, out, clinePermKey.MatchString); err != nil {
			return err
		}
		if b, err := clinetask.ReadAll(in); err == nil {
			parseCloudStatuses(in, out, b)
		}
		return nil
	default:
		return clinetask.ParseSettingsKeys(ctx, in, out, clinePermKey.MatchString)
	}
}

func parseTaskHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return clinetask.ParseTaskHistory(ctx, in, out, Agent)
}

// The task format's helpers that Cline's SDK and CLI readers use too.
type num = clinetask.Num

const maxSmall = clinetask.MaxSmall

func msTime(ms float64) time.Time { return clinetask.MsTime(ms) }
func slash(p string) string       { return clinetask.Slash(p) }

func firstNonEmpty(ss ...string) string        { return clinetask.FirstNonEmpty(ss...) }
func oneLine(s string) string                  { return clinetask.OneLine(s) }
func readAll(in *parser.Input) ([]byte, error) { return clinetask.ReadAll(in) }
