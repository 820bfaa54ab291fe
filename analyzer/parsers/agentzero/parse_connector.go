package agentzero

import (
	"context"
	"net/url"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// connectorKeys are the keys of the A0 CLI connector's ~/.agent-zero/.env
// (agent0ai/a0-connector src/agent_zero_cli/config.py) that are read; the
// computer-use restore token and every other key never are.
var connectorKeys = map[string]bool{
	"AGENT_ZERO_LAST_CONTEXT_ID":         true,
	"AGENT_ZERO_LAST_CONTEXT_HOST":       true,
	"AGENT_ZERO_COMPUTER_USE_ENABLED":    true,
	"AGENT_ZERO_COMPUTER_USE_TRUST_MODE": true,
}

// parseConnectorEnv reads the connector's .env (KEY=VALUE lines, "#"
// comments, values optionally quoted): the last chat it used and the
// instance it lives on give a row in that chat's session and its origin
// (local for a loopback host, remote otherwise); the computer-use switches
// are standing permission settings.
func parseConnectorEnv(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	vals := map[string]string{}
	lines := map[string]int64{}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		t := strings.TrimSpace(string(line))
		if strings.HasPrefix(t, "#") {
			out.Skip(n, "comment")
			return nil
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			out.Report(n, parser.KindSkippedRecord, "not a KEY=VALUE line")
			return nil
		}
		k = strings.TrimSpace(k)
		if !connectorKeys[k] {
			out.Skip(n, "setting_not_read")
			return nil
		}
		vals[k] = strings.Trim(strings.TrimSpace(v), `"'`)
		lines[k] = n
		return nil
	})
	if err != nil {
		return err
	}
	file := parser.DisplayFile(&in.File)
	if id := vals["AGENT_ZERO_LAST_CONTEXT_ID"]; id != "" {
		host := vals["AGENT_ZERO_LAST_CONTEXT_HOST"]
		origin := "remote"
		if isLoopback(host) {
			origin = "local"
		}
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.SourceLine = id, lines["AGENT_ZERO_LAST_CONTEXT_ID"]
		e.Text = "last chat used by the A0 CLI connector: " + parser.Shown(id) + " on " + orNone(host) + " (" + origin + " instance; from " + file + ", file mtime)"
		out.Event(e)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: agentName, SessionID: id}, Origin: origin})
	} else if n, ok := lines["AGENT_ZERO_LAST_CONTEXT_HOST"]; ok {
		out.Skip(n, "no_evidence:host_without_chat")
	}
	for _, k := range []string{"AGENT_ZERO_COMPUTER_USE_ENABLED", "AGENT_ZERO_COMPUTER_USE_TRUST_MODE"} {
		if v, ok := vals[k]; ok {
			e := parser.SettingEvent(&in.File)
			e.SourceLine = lines[k]
			e.Text = "permission setting: " + k + "=" + parser.RedactSecrets(v) + " (from " + file + ", file mtime)"
			out.Event(e)
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "an unrecorded host"
	}
	return s
}

// isLoopback reports whether an instance URL or host names this machine.
func isLoopback(h string) bool {
	host := h
	if u, err := url.Parse(h); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	switch strings.ToLower(host) {
	case "localhost", "127.0.0.1", "::1", "0.0.0.0", "host.docker.internal":
		return true
	}
	return strings.HasPrefix(host, "127.")
}
