package continuedev

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// devEvent holds the fields of the dev_data schemas 0.1.0 and 0.2.0
// (packages/config-yaml/src/schemas/data). userId (the IDE's user token)
// is deliberately not decoded.
type devEvent struct {
	EventName     string          `json:"eventName"`
	Timestamp     string          `json:"timestamp"`
	ModelTitle    string          `json:"modelTitle"`
	ModelName     string          `json:"modelName"`
	ModelProvider string          `json:"modelProvider"`
	Prompt        string          `json:"prompt"`
	Completion    string          `json:"completion"`
	SessionID     string          `json:"sessionId"`
	Tools         []string        `json:"tools"`
	Feedback      *bool           `json:"feedback"`
	Filepath      string          `json:"filepath"`
	Accepted      *bool           `json:"accepted"`
	Succeeded     *bool           `json:"succeeded"`
	ToolCallID    string          `json:"toolCallId"`
	FunctionName  string          `json:"functionName"`
	ToolCallArgs  json.RawMessage `json:"toolCallArgs"`
	Output        []struct {
		Content string `json:"content"`
	} `json:"output"`
	PreviousCodeLines *int `json:"previousCodeLines"`
	NewCodeLines      *int `json:"newCodeLines"`
	LineChange        *int `json:"lineChange"`
}

func (d *devEvent) model() string {
	if d.ModelTitle != "" {
		return d.ModelTitle
	}
	return d.ModelName
}

// parseDevData reads one dev_data event file. Every row is secondary: the
// session files are the primary record of chats.
func parseDevData(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	fileEvent := strings.TrimSuffix(in.Base(), ".jsonl")
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, parser.BadJSONLine(nil))
			} else {
				out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
			}
		}
		for _, obj := range objs {
			var d devEvent
			if err := json.Unmarshal(obj, &d); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			devRows(&d, fileEvent, n, out)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

func devRows(d *devEvent, fileEvent string, n int64, out parser.Sink) {
	base := timeline.Event{SourceLine: n, Secondary: true, SessionID: d.SessionID}
	if t, ok := epochMillis(mustQuote(d.Timestamp)); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	name := d.EventName
	if name == "" {
		name = fileEvent
	}
	emit := func(tt timeline.TurnType, text string, mod func(*timeline.Event)) {
		e := base
		e.TurnType, e.Text = tt, text
		if mod != nil {
			mod(&e)
		}
		out.Event(e)
	}
	model := d.model()
	switch name {
	case "chatInteraction":
		// prompt is the whole compiled prompt, not what was typed: named
		// only by a system row.
		t := "chat interaction: model=" + model
		if d.ModelProvider != "" {
			t += " provider=" + d.ModelProvider
		}
		if len(d.Tools) > 0 {
			t += " tools=" + strings.Join(d.Tools, ",")
		}
		emit(timeline.System, t, func(e *timeline.Event) { e.Model = model })
		if strings.TrimSpace(d.Completion) != "" {
			emit(timeline.Assistant, d.Completion, func(e *timeline.Event) { e.Model = model })
		}
	case "toolUsage":
		input, args := argsJSON(d.ToolCallArgs)
		emit(timeline.ToolUse, identifying(args), func(e *timeline.Event) {
			e.ToolName, e.ToolUseID, e.ToolInput = d.FunctionName, d.ToolCallID, input
		})
		var parts []string
		for _, o := range d.Output {
			if o.Content != "" {
				parts = append(parts, o.Content)
			}
		}
		isErr := "false"
		if d.Succeeded != nil && !*d.Succeeded {
			isErr = "true"
		}
		emit(timeline.ToolResult, strings.Join(parts, "\n"), func(e *timeline.Event) {
			e.ToolName, e.ToolUseID, e.IsError = d.FunctionName, d.ToolCallID, isErr
		})
		if d.Accepted != nil && !*d.Accepted {
			emit(timeline.System, "permission decision: denied source=user", func(e *timeline.Event) {
				e.ToolName, e.ToolUseID = d.FunctionName, d.ToolCallID
			})
		}
	case "editInteraction":
		if strings.TrimSpace(d.Prompt) != "" {
			emit(timeline.User, d.Prompt, nil)
		}
		emit(timeline.System, fmt.Sprintf("edit interaction: %s model=%s", d.Filepath, model), func(e *timeline.Event) { e.Model = model })
	case "editOutcome":
		verdict := "rejected"
		if d.Accepted != nil && *d.Accepted {
			verdict = "accepted"
		}
		t := fmt.Sprintf("edit outcome: %s %s", verdict, d.Filepath)
		if d.PreviousCodeLines != nil && d.NewCodeLines != nil {
			t += fmt.Sprintf(" lines %d -> %d", *d.PreviousCodeLines, *d.NewCodeLines)
		}
		if model != "" {
			t += " model=" + model
		}
		emit(timeline.System, t, func(e *timeline.Event) { e.Model = model })
	case "chatFeedback":
		verdict := "none"
		if d.Feedback != nil {
			verdict = "unhelpful"
			if *d.Feedback {
				verdict = "helpful"
			}
		}
		emit(timeline.System, fmt.Sprintf("chat feedback: %s model=%s", verdict, model), func(e *timeline.Event) { e.Model = model })
	default:
		emit(timeline.System, "dev data event: "+name, nil)
	}
}

func mustQuote(s string) json.RawMessage {
	q, _ := json.Marshal(s)
	return q
}
