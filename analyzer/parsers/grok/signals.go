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
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "signals.json not read: "+err.Error())
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSONObject("signals.json", err))
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
	var model string
	if raw, ok := m["primaryModelId"]; ok {
		_ = json.Unmarshal(raw, &model)
	}
	e.Model = model
	text := "session signals (signals.json)"
	if len(said) > 0 {
		text += ": " + strings.Join(said, ", ")
	}
	if quiet > 0 {
		text += "; " + strconv.Itoa(quiet) + " other members 0, false, empty or null"
	}
	if len(keys) == 0 {
		out.Skip(1, "no_evidence:empty_signals")
		return nil
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
