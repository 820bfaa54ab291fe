package copilot

import (
	"context"
	"fmt"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

const agentName = "copilot"

// maxStore bounds the token store read (a few entries).
const maxStore = 1 << 20

// Parsers returns the Copilot language server parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/account", Agent: agentName, Version: 1, ReadsSecretKind: true,
			Targets: []string{"tokens", "tokens-windows"}, Names: []string{"apps.json", "hosts.json"},
			Doc: "github-copilot/apps.json and hosts.json (the language server's token store): one system row per signed-in account (user, host, OAuth app id), never the token, at the file's mtime",
		}, parseAccounts),
	}
}

// account is one entry of the token store, keyed "<host>" (hosts.json) or
// "<host>:<app id>" (apps.json). Only these members are decoded: the
// oauth_token is never read into a value.
type account struct {
	User        string `json:"user"`
	GithubAppID string `json:"githubAppId"`
	HasToken    bool   `json:"-"`
}

func parseAccounts(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxStore)
	if err != nil {
		out.Problem(0, "token store not read: "+err.Error())
		return nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(b, &entries); err != nil {
		out.Problem(0, "not a Copilot token store (a JSON object of accounts): "+parser.JSONError(err))
		return nil
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		var a account
		var members map[string]json.RawMessage
		if json.Unmarshal(entries[k], &members) != nil || json.Unmarshal(entries[k], &a) != nil {
			out.Problem(int64(i+1), fmt.Sprintf("account entry %q is not an object: not read", k))
			continue
		}
		_, a.HasToken = members["oauth_token"]
		host, app, _ := strings.Cut(k, ":")
		if a.GithubAppID != "" {
			app = a.GithubAppID
		}
		text := "copilot account: user=" + orDash(a.User) + " host=" + orDash(host)
		if app != "" {
			text += " app=" + app
		}
		if a.HasToken {
			text += " (an OAuth token is stored; not read)"
		}
		e := parser.SettingEvent(&in.File)
		e.Text = text + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
		e.SourceLine = int64(i + 1)
		out.Event(e)
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
