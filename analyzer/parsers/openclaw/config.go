package openclaw

import (
	"context"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// configFile is what is read of openclaw.json (JSON5 with comments
// allowed): the exec and elevated tool policy, the default model and
// workspace, each model provider's adapter and base URL, the channels
// configured (their names and enabled flag) and the config's version
// stamp. Keys, tokens and every other value are never read.
type configFile struct {
	Tools *struct {
		Exec     map[string]json.RawMessage `json:"exec"`
		Elevated map[string]json.RawMessage `json:"elevated"`
		Profile  string                     `json:"profile"`
		Allow    []string                   `json:"allow"`
		Deny     []string                   `json:"deny"`
	} `json:"tools"`
	Agents *struct {
		Defaults *struct {
			Model     json.RawMessage `json:"model"`
			Workspace string          `json:"workspace"`
		} `json:"defaults"`
	} `json:"agents"`
	Models *struct {
		Providers map[string]struct {
			BaseURL string `json:"baseUrl"`
			API     string `json:"api"`
		} `json:"providers"`
	} `json:"models"`
	Channels map[string]struct {
		Enabled *bool `json:"enabled"`
	} `json:"channels"`
	Meta *struct {
		LastTouchedVersion string `json:"lastTouchedVersion"`
		LastTouchedAt      string `json:"lastTouchedAt"`
	} `json:"meta"`
}

// execKeys are the tools.exec and tools.elevated settings read (scalar
// policy values; never env, which may hold secrets).
var execKeys = map[string]bool{"mode": true, "host": true, "security": true, "ask": true, "askFallback": true,
	"node": true, "strictInlineEval": true, "safeBins": true, "enabled": true, "allowFrom": true, "defaultLevel": true}

func parseConfig(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return err
	}
	var c configFile
	if err := json.Unmarshal(parser.StandardJSON(b), &c); err != nil {
		// A secret file's content is never quoted in a problem.
		out.Problem(1, parser.NotJSON("openclaw.json", nil))
		return nil
	}
	from := " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	rows := 0
	emit := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.Text, e.SourceLine = text+from, 1
		out.Event(e)
		rows++
	}
	if t := c.Tools; t != nil {
		for _, sec := range []struct {
			name string
			m    map[string]json.RawMessage
		}{{"tools.exec", t.Exec}, {"tools.elevated", t.Elevated}} {
			for _, k := range sortedKeys(sec.m) {
				if execKeys[k] {
					emit("permission setting: " + sec.name + "." + k + "=" + strings.Trim(redactJSON(sec.m[k]), `"`))
				}
			}
		}
		if t.Profile != "" {
			emit("permission setting: tools.profile=" + t.Profile)
		}
		for _, a := range t.Allow {
			emit("permission setting: tools.allow " + a)
		}
		for _, d := range t.Deny {
			emit("permission setting: tools.deny " + d)
		}
	}
	if a := c.Agents; a != nil && a.Defaults != nil {
		if len(a.Defaults.Model) > 0 {
			emit("model: default " + redactJSON(a.Defaults.Model))
		}
		if a.Defaults.Workspace != "" {
			emit("agent workspace: " + a.Defaults.Workspace)
		}
	}
	if m := c.Models; m != nil {
		for _, id := range sortedKeys(m.Providers) {
			p := m.Providers[id]
			emit("model provider: " + id + " api=" + p.API + " base_url=" + parser.RedactSecrets(p.BaseURL))
		}
	}
	for _, ch := range sortedKeys(c.Channels) {
		state := ""
		if e := c.Channels[ch].Enabled; e != nil && !*e {
			state = " (disabled)"
		}
		emit("channel configured: " + ch + state)
	}
	if rows == 0 {
		out.Skip(1, "no_evidence:config")
	}
	return nil
}
