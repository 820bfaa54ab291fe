package ollama

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "ollama"

const maxWhole = 16 << 20

// Parsers returns the Ollama parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "ollama/app-db", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"app-db"}, Names: []string{"db.sqlite"},
			Doc: "desktop app db.sqlite (schema 16-19): chats, messages (prompts, replies, thinking, model and switches), tool_calls paired with the tool messages after them, attachment names and sizes (never their bytes)",
		}, parseAppDB),
		parser.New(parser.Spec{
			ID: "ollama/history", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"history"}, Names: []string{"history"},
			Doc: "ollama run prompt history: one undated user row per line (slash commands as system rows), the last 100 entries only",
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "ollama/config", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"config"}, Names: []string{"config.json"},
			Doc: ".ollama/config.json: each launch integration's automode (permission setting) and models, last_model (model settings), at the file's mtime",
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "ollama/claude-profile", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"claude-profile"}, Names: []string{"*.json"},
			Doc: "the Claude Desktop (Claude-3p) profile ollama launch writes: its autoModeEnabled key only (permission setting, file mtime)",
		}, parseClaudeProfile),
		parser.New(parser.Spec{
			ID: "ollama/manifest", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"manifests"}, Names: []string{"*"},
			Doc: "models/manifests/<host>/<namespace>/<model>/<tag>: one system row per pulled or created model (its name as model, each layer's kind, digest and size), at the file's mtime",
		}, parseManifest),
	}
}

func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	count := 0
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		t := strings.TrimSpace(string(line))
		count++
		e := timeline.Event{TimeBasis: timeline.TimeNone, TurnType: timeline.User, Text: t, SourceLine: n}
		if strings.HasPrefix(t, "/") {
			e.TurnType, e.Text = timeline.System, "command: "+t
		}
		out.Event(e)
		return nil
	})
	if err != nil {
		return err
	}
	if e := parser.SettingEvent(&in.File); e.TimeBasis == timeline.TimeFileMTime && count > 0 {
		e.Text = fmt.Sprintf("prompt history last written (file mtime): %d line(s); ollama run rewrites the file on every entry and keeps the last 100, with no time or session per entry", count)
		out.Event(e)
	}
	return nil
}

// lineOf is the 1-based line of the first `"key"` at or after offset
// from, or 0.
func lineOf(data []byte, key string, from int) int64 {
	if from < 0 || from > len(data) {
		from = 0
	}
	i := bytes.Index(data[from:], []byte(strconv.Quote(key)))
	if i < 0 {
		return 0
	}
	return int64(bytes.Count(data[:from+i], []byte("\n")) + 1)
}

// launchConfig is ~/.ollama/config.json (cmd/config/config.go): the
// models each `ollama launch` integration uses and, from 0.40, its
// automode switch.
type launchConfig struct {
	Integrations map[string]map[string]json.RawMessage `json:"integrations"`
	LastModel    string                                `json:"last_model"`
}

func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "config.json not read: "+err.Error())
		return nil
	}
	var c launchConfig
	if err := json.Unmarshal(data, &c); err != nil {
		out.Problem(0, "not a launch config: "+parser.JSONError(err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	emit := func(line int64, text string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine, e.Text = line, text+" (from "+file+", file mtime)"
		out.Event(e)
	}
	names := make([]string, 0, len(c.Integrations))
	for n := range c.Integrations {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		at := bytes.Index(data, []byte(strconv.Quote(name)))
		ig := c.Integrations[name]
		if raw, ok := ig["automode"]; ok {
			emit(lineOf(data, "automode", at), fmt.Sprintf("permission setting: integrations.%s.automode=%s", name, parser.RedactSecrets(parser.CompactJSON(raw))))
		}
		var models []string
		if json.Unmarshal(ig["models"], &models) == nil && len(models) > 0 {
			emit(lineOf(data, "models", at), fmt.Sprintf("model setting: integrations.%s.models=%s", name, strings.Join(models, ",")))
		}
	}
	if c.LastModel != "" {
		emit(lineOf(data, "last_model", 0), "model setting: last_model="+c.LastModel)
	}
	return nil
}

func parseClaudeProfile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "profile not read: "+err.Error())
		return nil
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(data, &p); err != nil {
		out.Problem(0, parser.NotJSONObject("profile", err))
		return nil
	}
	raw, ok := p["autoModeEnabled"]
	if !ok {
		out.Skip(0, "no_evidence:no_autoModeEnabled")
		return nil
	}
	e := parser.SettingEvent(&in.File)
	e.SourceLine = lineOf(data, "autoModeEnabled", 0)
	e.Text = "permission setting: Claude Desktop autoModeEnabled=" + parser.RedactSecrets(parser.CompactJSON(raw)) + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	out.Event(e)
	return nil
}

func jsonUnmarshal(s string, v any) bool { return json.Unmarshal([]byte(s), v) == nil }
