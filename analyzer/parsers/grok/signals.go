package grok

import (
	"bytes"
	"context"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseSignals reads signals.json, Grok Build's per-session counters
// (turns, errors, tool failures, cancellations, reverts, compactions,
// context tokens, lines added and removed by the agent and the person,
// commits and pull requests, models and tools used, latency): one system
// row at the file's mtime (the file records no time). Every member that
// says something (a number other than 0, true, a non-empty string or
// list) is named with its value, in name order; the rest are counted as
// "N other members 0, false, empty or null", so nothing is left unsaid.
func parseSignals(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return members(in, out, "signals.json", "session signals", "primaryModelId", "no_evidence:empty_signals")
}

// parsePromptContext reads prompt_context.json the same way: its
// is_non_interactive (a headless run, agentsview's session kind
// "non-interactive") and whatever else it holds, named.
func parsePromptContext(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return members(in, out, "prompt_context.json", "prompt context", "", "no_evidence:empty_prompt_context")
}

// members is one system row at the file's mtime naming every member of a
// JSON object that says something, in name order, and counting the rest.
func members(in *parser.Input, out parser.Sink, file, label, modelKey, emptySkip string) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, file+" not read: "+err.Error())
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSONObject(file, err))
		return nil
	}
	if len(m) == 0 {
		out.Skip(1, emptySkip)
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var said []string
	quiet := 0
	for _, k := range keys {
		v := bytes.TrimSpace(m[k])
		switch s := string(v); {
		case s == "null" || s == "false" || s == "[]" || s == "{}" || s == `""`:
			quiet++
		case isZero(s):
			quiet++
		default:
			said = append(said, k+" "+parser.CompactJSON(v))
		}
	}
	sid, project := where(in.Path)
	e := parser.SettingEvent(&in.File)
	e.SessionID, e.ProjectPath, e.SourceLine = sid, project, 1
	e.TurnType = timeline.System
	if raw, ok := m[modelKey]; ok && modelKey != "" {
		_ = json.Unmarshal(raw, &e.Model)
	}
	text := label + " (" + file + ")"
	if len(said) > 0 {
		text += ": " + strings.Join(said, ", ")
	}
	if quiet > 0 {
		text += "; " + strconv.Itoa(quiet) + " other members 0, false, empty or null"
	}
	e.Text = text
	out.Event(e)
	return nil
}

// isZero reports whether a JSON number is zero (0, 0.0, -0, 0e5).
func isZero(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f == 0
}
