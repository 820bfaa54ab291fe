package poolside

import (
	"context"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "poolside"

// Parsers returns the Poolside parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "poolside/trajectory", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"trajectories"}, Names: []string{"trajectory-*.ndjson"},
			Doc: "trajectories/trajectory-<type>_<id>.ndjson events: session start, typed inputs, thoughts, replies, tool calls and results with errors, the model of each inference, exit and errors",
		}, parseTrajectory),
	}
}

type evt struct {
	ID        string `json:"id"`
	StepID    string `json:"step_id"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Start     *struct {
		Workspace string   `json:"workspace"`
		Dirs      []string `json:"working_directories"`
		Prompt    string   `json:"prompt"`
	} `json:"session_start"`
	Input *struct {
		ID     string `json:"id"`
		Prompt string `json:"prompt"`
		Mode   string `json:"mode"`
	} `json:"session_input"`
	MsgEnd *struct {
		Text string `json:"assistant_message"`
	} `json:"assistant_message_end"`
	Parsed *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"tool_call_parsed"`
	Result *struct {
		ID          string `json:"id"`
		ToolName    string `json:"tool_name"`
		Observation string `json:"observation"`
		IsError     bool   `json:"is_error"`
		ErrorKind   string `json:"execution_error_kind"`
		LatencyMS   int64  `json:"execution_latency"`
	} `json:"tool_call_result"`
	Thought *struct {
		Thought string `json:"thought"`
	} `json:"thought_end"`
	InferStart *struct {
		Req *struct {
			Model string `json:"model"`
		} `json:"chat_completion_request"`
	} `json:"tool_call_inference_start"`
	Exit *struct {
		Reason string `json:"reason"`
	} `json:"session_exit"`
	Error *struct {
		Error string `json:"error"`
	} `json:"session_error"`
}

func parseTrajectory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid := strings.TrimSuffix(strings.TrimPrefix(path.Base(in.Path), "trajectory-"), ".ndjson")
	var proj, model string
	models := map[string]string{} // step_id -> model of its inference
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var ev evt
		if err := json.Unmarshal(line, &ev); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		e := timeline.Event{SessionID: sid, ProjectPath: proj, SourceLine: n, RecordID: ev.ID, TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(ev.Timestamp); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		emit := func(tt timeline.TurnType, text string) {
			e.TurnType, e.Text = tt, text
			out.Event(e)
		}
		missing := func() { out.Report(n, parser.KindSkippedRecord, "a "+ev.Type+" event without its payload") }
		switch ev.Type {
		case "session.start":
			if ev.Start == nil {
				missing()
				return nil
			}
			if len(ev.Start.Dirs) > 0 {
				proj = ev.Start.Dirs[0]
			} else {
				proj = ev.Start.Workspace
			}
			e.ProjectPath = proj
			text := "poolside session " + sid + " started"
			if ev.Start.Workspace != "" {
				text += "; workspace " + ev.Start.Workspace
			}
			if len(ev.Start.Dirs) > 0 {
				text += "; working directories " + strings.Join(ev.Start.Dirs, ", ")
			}
			if ev.Start.Prompt != "" {
				text += "; start prompt " + strconv.Quote(ev.Start.Prompt)
			}
			emit(timeline.System, text)
		case "session.input":
			if ev.Input == nil {
				missing()
				return nil
			}
			emit(timeline.User, ev.Input.Prompt)
			if ev.Input.Mode != "" {
				e.RecordID = ev.ID + "#mode"
				emit(timeline.System, "input mode: "+ev.Input.Mode)
			}
		case "assistant_message.end":
			if ev.MsgEnd == nil {
				missing()
				return nil
			}
			e.Model = model
			if m := models[ev.StepID]; m != "" {
				e.Model = m
			}
			emit(timeline.Assistant, ev.MsgEnd.Text)
		case "thought.end":
			if ev.Thought == nil {
				missing()
				return nil
			}
			e.Model = model
			emit(timeline.Thinking, ev.Thought.Thought)
		case "tool_call.parsed":
			if ev.Parsed == nil {
				missing()
				return nil
			}
			e.ToolName, e.ToolUseID, e.ToolInput, e.Model = ev.Parsed.Name, ev.Parsed.ID, parser.CompactJSON(ev.Parsed.Args), model
			emit(timeline.ToolUse, headline(ev.Parsed.Args, ev.Parsed.Name))
		case "tool_call.result":
			if ev.Result == nil {
				missing()
				return nil
			}
			r := ev.Result
			e.ToolName, e.ToolUseID, e.IsError = r.ToolName, r.ID, strconv.FormatBool(r.IsError || r.ErrorKind != "")
			text := r.Observation
			if r.ErrorKind != "" {
				text = "execution error " + r.ErrorKind + ": " + text
			}
			emit(timeline.ToolResult, text)
		case "tool_call.inference.start":
			if ev.InferStart != nil && ev.InferStart.Req != nil {
				if m := ev.InferStart.Req.Model; m != "" && m != model {
					model = m
					models[ev.StepID] = m
					e.Model = m
					emit(timeline.System, "model: "+m)
					return nil
				}
				models[ev.StepID] = ev.InferStart.Req.Model
			}
			out.Skip(n, "state_only:inference start of the same model")
		case "session.exit":
			reason := ""
			if ev.Exit != nil {
				reason = ev.Exit.Reason
			}
			emit(timeline.System, "session exit: "+reason)
		case "session.error":
			msg := ""
			if ev.Error != nil {
				msg = ev.Error.Error
			}
			emit(timeline.System, "session error: "+msg)
		case "assistant_message.start", "thought.start", "tool_call.inference.end":
			out.Skip(n, "state_only:"+ev.Type)
		default:
			out.Report(n, parser.KindSkippedRecord, "an event "+strconv.Quote(ev.Type)+", not known")
		}
		return nil
	})
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "cmd", "command", "path", "file_path", "pattern", "query", "url")
}
