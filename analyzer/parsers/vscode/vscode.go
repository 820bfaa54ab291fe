package vscode

import (
	"bytes"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of VS Code chat (GitHub Copilot Chat).
const Agent = "vscode"

// Parsers returns the VS Code chat parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "vscode/chat-session", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"chat-sessions", "global-chats"},
			Doc:     "chatSessions/*.json and the *.jsonl mutation log (replayed), emptyWindowChatSessions and transferredChatSessions: prompts, replies, thinking, tool calls and results, model switches, cancels and errors",
		}, parseChatSession),
		parser.New(parser.Spec{
			ID: "vscode/state-db", Agent: Agent, Version: 4,
			Actions: actions,
			Targets: []string{"state-db"}, Names: []string{"state.vscdb", "state.vscdb.backup"},
			Doc: "state.vscdb ItemTable: standing tool approvals (chat/autoconfirm*, permission setting:, file mtime), Copilot Chat's cloud agent tasks (github.copilot.cloudAgent.ownedTasks: session synced: and session origin: rows) and the repositories picked for them (userSelectedRepositories), the GitHub account's sign-in and usage records",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "vscode/copilot-transcript", Agent: Agent, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "no window: the transcript stamps each entry when it is written while the chat session file dates a request's response parts by the request; every row names its chat session, so rows pair within the session, one to one"},
			Targets: []string{"copilot-transcripts"}, Names: []string{"*.jsonl"},
			Doc: "workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<sessionId>.jsonl: Copilot Chat's session transcript (prompts, replies, reasoning, tool calls and results; secondary)",
		}, parseCopilotTranscript),
		parser.New(parser.Spec{
			ID: "vscode/settings", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"settings"}, Names: []string{"settings.json"},
			Doc: "User/settings.json and profiles/<id>/settings.json chat auto-approve, default permission and default model keys (permission setting:, file mtime)",
		}, parseSettings),
		parser.New(parser.Spec{
			ID: "vscode/cloud-sessions", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"cloud-sessions"}, Names: []string{"cloudSessions.json"},
			Doc: "globalStorage/github.copilot-chat/cloudSessions.json: one session synced: row per uploaded session (file mtime)",
		}, parseCloudSessions),
		parser.New(parser.Spec{
			ID: "vscode/chat-editing", Agent: Agent, Version: 2,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.System},
				Basis: "chat editing sessions stamp each edit as the request's response is written"},
			Targets: []string{"chat-editing"}, Names: []string{"state.json"},
			Doc: "chatEditingSessions/<id>/state.json: the accept or reject state of each file a chat edited (secondary, file mtime)",
		}, parseChatEditing),
	}
}

// maxSmall bounds whole-file reads of small JSON files (settings,
// workspace.json, cloudSessions.json, editing state).
const maxSmall = 64 << 20

func readAllLimited(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, maxSmall))
}

// decodeAny decodes JSON keeping numbers as json.Number.
func decodeAny(r io.Reader) (any, error) {
	d := json.NewDecoder(r)
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func decodeBytes(b []byte) (any, error) { return decodeAny(bytes.NewReader(b)) }

// obj returns v as an object (nil when it is not one).
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// arr returns v as an array (nil when it is not one).
func arr(v any) []any {
	a, _ := v.([]any)
	return a
}

// get walks object keys.
func get(v any, keys ...string) any {
	for _, k := range keys {
		m := obj(v)
		if m == nil {
			return nil
		}
		v = m[k]
	}
	return v
}

// str returns a string value, a number's text, or "".
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// text returns a string, or the value of a markdown-string object
// ({value: ...}), or "".
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if m := obj(v); m != nil {
		if s, ok := m["value"].(string); ok {
			return s
		}
	}
	return ""
}

// num returns a number value (number or numeric string).
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

func isTrue(v any) bool { b, _ := v.(bool); return b }

// compactString compacts a string holding JSON, or returns it trimmed.
func compactString(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) == nil {
		return b.String()
	}
	return strings.TrimSpace(s)
}

// epochMs converts an epoch-milliseconds value to UTC time.
func epochMs(v any) (time.Time, bool) {
	f, ok := num(v)
	if !ok || f <= 0 {
		return time.Time{}, false
	}
	switch {
	case f > 1e14: // microseconds
		return time.UnixMicro(int64(f)).UTC(), true
	case f > 1e11:
		return time.UnixMilli(int64(f)).UTC(), true
	default: // seconds
		return time.Unix(int64(f), 0).UTC(), true
	}
}

// fileTime is the input's mtime with its basis.
func fileTime(in *parser.Input) (time.Time, timeline.TimeBasis) {
	if in.MTime.IsZero() {
		return time.Time{}, timeline.TimeNone
	}
	return in.MTime.UTC(), timeline.TimeFileMTime
}

// uriPath renders a URI string (file:///c%3A/x, vscode-remote://...) as a
// path: a file URI gives its decoded path (a Windows drive path loses the
// leading slash), any other scheme the decoded URI.
func uriPath(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return s
	}
	if u.Scheme == "file" {
		p := u.Path
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:]
		}
		if u.Host != "" {
			return "//" + u.Host + p
		}
		return p
	}
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}

// uriValue renders a serialized URI (UriComponents {scheme, path, fsPath,
// external}, a Location {uri, range}, or a string) as a path.
func uriValue(v any) string {
	if s, ok := v.(string); ok {
		return uriPath(s)
	}
	m := obj(v)
	if m == nil {
		return ""
	}
	if u := m["uri"]; u != nil {
		return uriValue(u)
	}
	scheme := str(m["scheme"])
	if fs := str(m["fsPath"]); fs != "" && (scheme == "file" || scheme == "") {
		return fs
	}
	if p := str(m["path"]); p != "" {
		if scheme == "" || scheme == "file" {
			if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
				return p[1:]
			}
			return p
		}
		if ext := str(m["external"]); ext != "" {
			return uriPath(ext)
		}
		return scheme + "://" + str(m["authority"]) + p
	}
	if ext := str(m["external"]); ext != "" {
		return uriPath(ext)
	}
	return ""
}

// workspaceProject reads <dir>/workspace.json (a related file) and returns
// its folder (or workspace file) as a path.
func workspaceProject(in *parser.Input, dir string) string {
	rc, err := in.OpenRelated(dir + "/workspace.json")
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return ""
	}
	v, err := decodeBytes(b)
	if err != nil {
		return ""
	}
	for _, k := range []string{"folder", "workspace", "configuration"} {
		if s := uriValue(get(v, k)); s != "" {
			return s
		}
	}
	return ""
}

// storageDir returns the workspaceStorage/<hash> directory of a path under
// it, or "".
func storageDir(p string) string {
	i := strings.LastIndex(p, "/workspaceStorage/")
	if i < 0 {
		return ""
	}
	rest := p[i+len("/workspaceStorage/"):]
	j := strings.IndexByte(rest, '/')
	if j <= 0 {
		return ""
	}
	return p[:i+len("/workspaceStorage/")+j]
}

func base(p string) string { return path.Base(p) }
