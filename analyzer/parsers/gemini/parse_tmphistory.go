package gemini

import (
	"context"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseTmpHistory reads three secondary sources with no timestamp under
// tmp/<slug>/: shell_history (the shell-mode commands, oldest first, a
// line ending in an odd number of backslashes continued on the next),
// checkpoint-<tag>.json (/chat save: {history: Content[]} or a bare
// Content[]) and bug-report-history-<ms>.json (/bug: a bare Content[]),
// the last opened by a primary "bug report exported:" row at <ms>.
func parseTmpHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	project := newProjectResolver(in).Path("")
	name := base(in.Path)
	switch {
	case name == "shell_history":
		return parseShellHistory(ctx, rc, project, out)
	case strings.HasPrefix(name, "bug-report-history-"):
		// /bug (cli/ui/commands/bugCommand.ts) exports the chat history
		// (Content[], historyExportUtils.ts) as bug-report-history-<ms>.json,
		// <ms> the export time, and offers it for a public GitHub issue.
		e := timeline.Event{TurnType: timeline.System, ProjectPath: project, TimeBasis: timeline.TimeNone,
			Text: "bug report exported: " + in.Path + " (/bug chat history export)"}
		ms, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(name, "bug-report-history-"), ".json"), 10, 64)
		if t, ok := parser.Epoch(ms, 0); ok && err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		out.Event(e)
	}
	return parseCheckpoint(ctx, rc, project, out)
}

func parseShellHistory(ctx context.Context, r io.Reader, project string, out parser.Sink) error {
	var cur string
	var curLine int64
	flush := func() {
		if cur != "" {
			out.Event(timeline.Event{TimeBasis: timeline.TimeNone, ProjectPath: project, TurnType: timeline.User,
				Text: cur, SourceLine: curLine, Secondary: true})
		}
	}
	err := parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		s := string(line)
		trail := len(cur) - len(strings.TrimRight(cur, `\`))
		if cur != "" && trail%2 == 1 {
			cur = cur[:len(cur)-1] + " " + s
			return nil
		}
		flush()
		cur, curLine = s, n
		return nil
	})
	flush()
	return err
}

// content is one @google/genai Content of a saved chat.
type content struct {
	Role  string          `json:"role"`
	Parts json.RawMessage `json:"parts"`
}

func parseCheckpoint(ctx context.Context, r io.Reader, project string, out parser.Sink) error {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		out.Problem(0, "empty file")
		return nil
	}
	if err != nil {
		out.Problem(0, "not a checkpoint: "+err.Error())
		return nil
	}
	if tok == json.Delim('{') {
		// {history: Content[], authType?}: find the history member.
		found := false
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				out.Problem(0, "checkpoint cut short: "+err.Error())
				return nil
			}
			if kt == "history" {
				found = true
				tok, err = dec.Token()
				if err != nil {
					out.Problem(0, "checkpoint cut short: "+err.Error())
					return nil
				}
				break
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				out.Problem(0, "checkpoint cut short: "+parser.JSONError(err))
				return nil
			}
		}
		if !found {
			out.Problem(0, "checkpoint has no history")
			return nil
		}
	}
	if tok != json.Delim('[') {
		out.Problem(0, "checkpoint history is not an array")
		return nil
	}
	var idx int64
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		idx++
		var c content
		if err := dec.Decode(&c); err != nil {
			out.Problem(idx, "history entry cut short: "+parser.JSONError(err))
			return nil
		}
		emitContent(out, c, project, idx)
	}
	return nil
}

// emitContent turns one saved Content into secondary rows without time.
func emitContent(out parser.Sink, c content, project string, idx int64) {
	parts := ParseParts(c.Parts)
	rows := 0
	defer func() {
		if rows == 0 {
			out.Skip(idx, "no_evidence:empty_content")
		}
	}()
	ev := func(tt timeline.TurnType, e timeline.Event) {
		rows++
		e.TimeBasis, e.ProjectPath, e.TurnType, e.SourceLine, e.Secondary = timeline.TimeNone, project, tt, idx, true
		out.Event(e)
	}
	if th := PartsText(parts, true); strings.TrimSpace(th) != "" {
		ev(timeline.Thinking, timeline.Event{Text: th})
	}
	if text := PartsText(parts, false); strings.TrimSpace(text) != "" {
		tt := timeline.Assistant
		if c.Role == "user" {
			tt = timeline.User
			if injected(text) {
				tt = timeline.System
			}
		}
		ev(tt, timeline.Event{Text: text})
	}
	for _, p := range parts {
		if fc := p.FunctionCall; fc != nil {
			ev(timeline.ToolUse, timeline.Event{ToolName: fc.Name, ToolUseID: fc.ID, Text: callText(fc.Name, fc.Args, ""), ToolInput: parser.CompactJSON(fc.Args)})
		}
		if fr := p.FunctionResponse; fr != nil {
			text, isErr := responseText(fr.Response)
			ev(timeline.ToolResult, timeline.Event{ToolName: fr.Name, ToolUseID: fr.ID, Text: text, IsError: boolStr(isErr)})
		}
	}
}
