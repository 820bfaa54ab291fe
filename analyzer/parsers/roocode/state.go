package roocode

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ExtensionID is Roo Code's VS Code extension id: the key of its global
// and workspace state rows in state.vscdb.
const ExtensionID = "RooVeterinaryInc.roo-cline"

// Global- and workspace-state keys of the Roo Code Cloud client
// (packages/cloud/src/CloudSettingsService.ts, WebAuthService.ts and
// retry-queue/RetryQueue.ts at cb836567180a3ff1da6d082f3178b90c3bd22a70;
// the cloud client shipped up to 3.53.0).
const (
	orgSettingsKey  = "organization-settings"
	userSettingsKey = "user-settings"
	authStateKey    = "clerk-auth-state"
	retryQueueKey   = "roo.retryQueue"
)

// StateExtension reads the RooVeterinaryInc.roo-cline row of a
// state.vscdb: in a global database its global state (the auto-approval
// settings, taskHistory entries whose task folder is gone, the Roo Code
// Cloud settings cache); in a workspace database its workspace state (the
// cloud client's retry queue).
func StateExtension() vscodestate.StateExtension {
	return vscodestate.StateExtension{
		Agent: Agent, Keys: []string{ExtensionID}, Actions: actions,
		Doc:  "RooVeterinaryInc.roo-cline row (global state: auto-approval settings, taskHistory entries whose folder is gone, the Roo Code Cloud settings cache; workspace state: the cloud retry queue, never its bearer token or bodies)",
		Read: readState,
	}
}

func readState(ctx context.Context, st *vscodestate.VSCodeState, present map[string]string, in *parser.Input, out parser.Sink) error {
	r, ok, err := st.Item(ctx, present[strings.ToLower(ExtensionID)])
	if err != nil || !ok {
		return err
	}
	var top map[string]json.RawMessage
	if err := r.JSON(&top); err != nil {
		out.Problem(r.Rowid, r.NotObject(err))
		return nil
	}
	n := StateObject(in, out, r.Rowid, top, ExtensionID+" row")
	if raw, ok := top["taskHistory"]; ok {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			out.Problem(r.Rowid, "taskHistory: not an array: "+parser.JSONError(err))
		} else {
			tasks := tasksDir(in.Path)
			for _, it := range items {
				n++
				if err := clinetask.IndexEntry(in, out, Agent, tasks, r.Rowid, it); err != nil {
					return err
				}
			}
		}
	}
	if n == 0 {
		out.Skip(r.Rowid, "no_evidence:roo-state-without-settings-tasks-or-cloud")
	}
	return nil
}

// tasksDir is the task folder of the editor a state.vscdb belongs to.
func tasksDir(p string) string {
	d := vscodestate.EditorDir(p)
	if d == "" {
		d = path.Dir(path.Dir(strings.ReplaceAll(p, "\\", "/")))
	}
	return d + "/globalStorage/rooveterinaryinc.roo-cline/tasks"
}

// StateObject writes the rows of a Roo Code state object (the
// extension's state row, the CLI's global-state.json or
// workspace-state.json): the auto-approval settings, the Roo Code Cloud
// settings cache and sign-in state, the retry queue. It returns the rows
// written.
func StateObject(in *parser.Input, out parser.Sink, line int64, top map[string]json.RawMessage, where string) int {
	n := clinetask.SettingsFromObject(in, out, line, top, PermKey.MatchString)
	n += cloudSettings(in, out, line, top, where)
	if raw, ok := top[retryQueueKey]; ok {
		n += retryQueue(out, line, raw, where)
	}
	return n
}

// The parts of the cached organization settings that say what the
// organization allows: cloudSettings (task recording and sharing),
// allowList (providers and models), defaultSettings (disabledTools and the
// terminal keys), hiddenMcps and hideMarketplaceMcps. providerProfiles
// (API keys) and the marketplace MCP definitions are never read.
var orgKeys = []string{"version", "cloudSettings", "allowList", "defaultSettings", "hiddenMcps", "hideMarketplaceMcps"}

// cloudSettings writes the Roo Code Cloud settings cache as "permission
// setting: <key>.<leaf>=<value> (from <file> <where>, cached cloud
// settings, file mtime)" rows, and the sign-in state as "roo code cloud
// sign-in state: <state>".
func cloudSettings(in *parser.Input, out parser.Sink, line int64, top map[string]json.RawMessage, where string) int {
	n := 0
	from := in.Base()
	if where != "" {
		from += " " + where
	}
	row := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine, e.Text = line, text
		out.Event(e)
		n++
	}
	if raw, ok := top[orgSettingsKey]; ok && string(raw) != "null" {
		var org map[string]json.RawMessage
		if err := json.Unmarshal(raw, &org); err != nil {
			out.Problem(line, orgSettingsKey+": not an object: "+parser.JSONError(err))
		} else {
			for _, k := range orgKeys {
				if v, ok := org[k]; ok {
					clinetask.Flatten(orgSettingsKey+"."+k, v, func(key, value string) {
						row("permission setting: " + key + "=" + value + " (from " + from + ", cached cloud settings, file mtime)")
					})
				}
			}
		}
	}
	if raw, ok := top[userSettingsKey]; ok && string(raw) != "null" {
		var us struct {
			Settings json.RawMessage `json:"settings"`
			Version  json.RawMessage `json:"version"`
		}
		if err := json.Unmarshal(raw, &us); err != nil {
			out.Problem(line, userSettingsKey+": not an object: "+parser.JSONError(err))
		} else {
			if len(us.Version) > 0 {
				clinetask.Flatten(userSettingsKey+".version", us.Version, func(key, value string) {
					row("permission setting: " + key + "=" + value + " (from " + from + ", cached cloud settings, file mtime)")
				})
			}
			if len(us.Settings) > 0 {
				clinetask.Flatten(userSettingsKey+".settings", us.Settings, func(key, value string) {
					row("permission setting: " + key + "=" + value + " (from " + from + ", cached cloud settings, file mtime)")
				})
			}
		}
	}
	if raw, ok := top[authStateKey]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			row("roo code cloud sign-in state: " + s + " (from " + from + ", file mtime)")
		}
	}
	return n
}

// retryQueue writes the cloud client's queue of requests it could not
// send (RetryQueue.QueuedRequest: id, url, options, timestamp, retryCount,
// type, operation, lastError): "cloud request queued: <type> <method>
// <url> [operation=<op>] retries=<n> [last error: <error>]" at timestamp.
// The request's headers (the bearer token) and body are never read.
func retryQueue(out parser.Sink, line int64, raw json.RawMessage, where string) int {
	var list []struct {
		ID      string `json:"id"`
		URL     string `json:"url"`
		Options struct {
			Method string `json:"method"`
		} `json:"options"`
		Timestamp  float64 `json:"timestamp"`
		RetryCount int     `json:"retryCount"`
		Type       string  `json:"type"`
		Operation  string  `json:"operation"`
		LastError  string  `json:"lastError"`
	}
	if string(raw) == "null" {
		return 0
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		out.Problem(line, retryQueueKey+": not a list of queued requests: "+parser.JSONError(err))
		return 0
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Timestamp < list[j].Timestamp })
	n := 0
	for _, q := range list {
		method := q.Options.Method
		if method == "" {
			method = "GET"
		}
		text := "cloud request queued: " + q.Type + " " + method + " " + stripQuery(q.URL)
		if q.Operation != "" {
			text += " operation=" + q.Operation
		}
		text += " retries=" + strconv.Itoa(q.RetryCount)
		if q.LastError != "" {
			text += " last error: " + q.LastError
		}
		if where != "" {
			text += " (" + where + ")"
		}
		e := timeline.Event{TurnType: timeline.System, SourceLine: line, Text: text}
		if q.ID != "" {
			e.RecordID = retryQueueKey + ":" + q.ID
		}
		if q.Timestamp > 0 {
			e.Time = time.UnixMilli(int64(q.Timestamp)).UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		n++
	}
	return n
}

// stripQuery drops a URL's user information and query.
func stripQuery(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// parseWorkspaceState reads the CLI's
// .vscode-mock/workspace-storage/<hash>/workspace-state.json (the
// workspace state as a JSON object): the retry queue.
func parseWorkspaceState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	if raw, ok := top[retryQueueKey]; ok {
		if retryQueue(out, 0, raw, "") == 0 {
			out.Skip(0, "no_content")
		}
	}
	return nil
}
