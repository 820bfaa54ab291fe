package factorydroid

import (
	"bufio"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func readJSON(in *parser.Input, v any) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(parser.StandardJSON(b), v)
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// settingRow emits one standing-setting row (file mtime).
func settingRow(in *parser.Input, out parser.Sink, sid, text string, line int64) {
	e := parser.SettingEvent(&in.File)
	e.SessionID, e.SourceLine = sid, line
	e.Text = parser.RedactSecrets(text) + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	out.Event(e)
}

// permissionKeys are the settings.json keys that decide what droid may run.
var permissionKeys = []string{"commandAllowlist", "commandDenylist", "commandBlocklist", "autonomyLevel", "autonomyMode",
	"skipPermissionsUnsafe", "enableDroidShield", "allowSubagentsInScripts", "toolExecutionMode"}

// modelKeys are the model defaults.
var modelKeys = []string{"model", "reasoningEffort", "specModel", "specModeReasoningEffort", "subagentModel"}

// parseSettings reads ~/.factory/settings.json (or the legacy config.json):
// the permission keys (at the top level or under "general"), the model
// defaults and each custom model's id, provider and base URL. apiKey values
// are never read into a row.
func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "settings: "+err.Error())
		return nil
	}
	general, _ := doc["general"].(map[string]any)
	for _, k := range permissionKeys {
		for _, src := range []struct {
			m      map[string]any
			prefix string
		}{{doc, ""}, {general, "general."}} {
			if v, ok := src.m[k]; ok {
				settingRow(in, out, "", "permission setting: "+src.prefix+k+"="+scalar(v), 0)
			}
		}
	}
	for _, k := range modelKeys {
		if v, ok := doc[k]; ok {
			settingRow(in, out, "", "model setting: "+k+"="+scalar(v), 0)
		}
	}
	models, _ := doc["customModels"].([]any)
	for i, m := range models {
		cm, _ := m.(map[string]any)
		if cm == nil {
			continue
		}
		str := func(k string) string { s, _ := cm[k].(string); return s }
		// Sessions name it custom:<displayName, spaces as dashes>-<n>
		// (custom:Mock-Coder-0, custom:Mock-Coder-2-0).
		text := fmt.Sprintf("model setting: custom model displayName=%q model=%s provider=%s baseUrl=%s", str("displayName"), str("model"), str("provider"), str("baseUrl"))
		if _, ok := cm["apiKey"]; ok {
			text += " apiKey=(set, not shown)"
		}
		settingRow(in, out, "", text, int64(i+1))
	}
	return nil
}

// parseSessionSettings reads <id>.settings.json (and the .bak droid keeps of
// the previous write): model, autonomy, interaction mode, provider lock and
// the session's token usage.
func parseSessionSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "session settings: "+err.Error())
		return nil
	}
	base := path.Base(strings.ReplaceAll(in.Path, "\\", "/"))
	sid := strings.TrimSuffix(strings.TrimSuffix(base, ".bak"), ".settings.json")
	label := "session settings"
	if strings.HasSuffix(base, ".bak") {
		label = "session settings (backup copy)"
	}
	var parts []string
	for _, k := range []string{"model", "reasoningEffort", "interactionMode", "autonomyLevel", "autonomyMode", "toolExecutionMode",
		"allowSubagentsInScripts", "providerLock", "providerLockTimestamp", "assistantActiveTimeMs"} {
		if v, ok := doc[k]; ok {
			parts = append(parts, k+"="+scalar(v))
		}
	}
	if tu, ok := doc["tokenUsage"].(map[string]any); ok {
		parts = append(parts, fmt.Sprintf("tokens in=%s out=%s", scalar(tu["inputTokens"]), scalar(tu["outputTokens"])))
	}
	if tags, ok := doc["tags"].([]any); ok {
		var names []string
		for _, t := range tags {
			if m, ok := t.(map[string]any); ok {
				names = append(names, scalar(m["name"]))
			}
		}
		if len(names) > 0 {
			parts = append(parts, "tags="+strings.Join(names, ","))
		}
	}
	if len(parts) == 0 {
		out.Skip(0, "no_evidence:empty_settings")
		return nil
	}
	settingRow(in, out, sid, label+": "+strings.Join(parts, " "), 0)
	return nil
}

// parseHistory reads state/history.json, the TUI's prompt history: a JSON
// array of {command, timestamp, type, mode}. Each prompt is a secondary
// user row (no session recorded).
func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	var items []map[string]any
	if err := readJSON(in, &items); err != nil {
		out.Problem(0, "history: "+err.Error())
		return nil
	}
	for i, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		cmd, _ := it["command"].(string)
		if strings.TrimSpace(cmd) == "" {
			out.Skip(n, "empty_prompt")
			continue
		}
		e := timeline.Event{TurnType: timeline.User, Text: cmd, SourceLine: n, Secondary: true}
		if ty, _ := it["type"].(string); ty != "" && ty != "message" {
			// A slash command or a shell command typed in the TUI.
			e.TurnType, e.Text = timeline.System, "typed "+ty+": "+cmd
		}
		if ts, _ := it["timestamp"].(string); ts != "" {
			e.Time = parseTime(ts)
		}
		if e.Time.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

// parseDiscoveryIndex reads cache/session-discovery-index.json (droid's
// index of session files) and writes a row for each session whose
// transcript is not among the collected files: the title (the first
// prompt), cwd and message count are all that is left of it.
func parseDiscoveryIndex(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc struct {
		Entries map[string]struct {
			ID             string      `json:"id"`
			SessionPath    string      `json:"sessionPath"`
			Title          string      `json:"title"`
			Owner          string      `json:"owner"`
			MessageCount   json.Number `json:"messageCount"`
			CreatedTimeMs  json.Number `json:"createdTimeMs"`
			ModifiedTimeMs json.Number `json:"modifiedTimeMs"`
			Cwd            string      `json:"cwd"`
		} `json:"entries"`
	}
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "session discovery index: "+err.Error())
		return nil
	}
	collected := map[string]bool{}
	for _, f := range in.List("**/.factory/sessions/**/*.jsonl") {
		collected[sessionIDFromPath(f.Path)] = true
	}
	ids := make([]string, 0, len(doc.Entries))
	for id := range doc.Entries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for i, id := range ids {
		en := doc.Entries[id]
		n := int64(i + 1)
		if en.ID != "" {
			id = en.ID
		}
		if collected[id] {
			out.Skip(n, "indexed_session_collected")
			continue
		}
		e := timeline.Event{TurnType: timeline.System, SessionID: id, ProjectPath: en.Cwd, SourceLine: n, Secondary: true,
			RecordID: id + "#index",
			Text:     fmt.Sprintf("session listed in the discovery index, transcript not collected: title=%q messages=%s path=%s", en.Title, en.MessageCount, en.SessionPath)}
		if ms, err := en.CreatedTimeMs.Int64(); err == nil && ms > 0 {
			e.Time = time.UnixMilli(ms).UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

var frontKV = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):\s*(.*)$`)

// parseDroid reads a custom droid (a subagent definition): its YAML front
// matter's name, description, model and tools.
func parseDroid(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sc := bufio.NewScanner(io.LimitReader(rc, 1<<20))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	kv := map[string]string{}
	inFront := false
	folded := "" // the key of a block scalar (">-", "|") being read
	for n := 0; sc.Scan(); n++ {
		l := strings.TrimRight(sc.Text(), "\r")
		if n == 0 && l == "---" {
			inFront = true
			continue
		}
		if !inFront {
			break
		}
		if l == "---" {
			break
		}
		if folded != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) {
			kv[folded] = strings.TrimSpace(kv[folded] + " " + strings.TrimSpace(l))
			continue
		}
		folded = ""
		if m := frontKV.FindStringSubmatch(l); m != nil {
			v := strings.Trim(m[2], `"'`)
			if strings.HasPrefix(v, ">") || strings.HasPrefix(v, "|") {
				folded, v = m[1], ""
			}
			kv[m[1]] = v
		}
	}
	name := kv["name"]
	if name == "" {
		name = strings.TrimSuffix(path.Base(in.Path), ".md")
	}
	text := "custom droid: " + name
	for _, k := range []string{"model", "reasoningEffort", "tools"} {
		if v := kv[k]; v != "" {
			text += " " + k + "=" + v
		}
	}
	if d := kv["description"]; d != "" {
		if len(d) > 200 {
			d = d[:200] + "..."
		}
		text += " description=" + d
	}
	settingRow(in, out, "", text, 0)
	return nil
}

// parseState reads the state/*.json stores: background processes and
// tasks droid started and the task (subagent) invocations, one row per
// entry; an empty store gives no row.
func parseState(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "state: "+err.Error())
		return nil
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := int64(0)
	for _, k := range keys {
		arr, ok := doc[k].([]any)
		if !ok {
			continue
		}
		for _, it := range arr {
			n++
			b, _ := json.Marshal(it)
			e := parser.SettingEvent(&in.File)
			e.SourceLine = n
			if m, ok := it.(map[string]any); ok {
				if s, ok := m["sessionId"].(string); ok {
					e.SessionID = s
				}
				for _, tk := range []string{"startedAt", "createdAt", "timestamp"} {
					if t := parseTime(scalar(m[tk])); !t.IsZero() {
						e.Time, e.TimeBasis = t, timeline.TimeRecorded
						break
					}
				}
			}
			e.Text = parser.RedactSecrets("state " + k + ": " + string(b))
			out.Event(e)
		}
	}
	if n == 0 {
		out.Skip(0, "no_evidence:empty_state")
	}
	return nil
}

var logLine = regexp.MustCompile(`^\[(\d{4}-\d\d-\d\dT[0-9:.]+Z)\] ([A-Z]+): (.*)$`)
var logSession = regexp.MustCompile(`"sessionId":"([^"]+)"`)

// parseLog reads droid-log-single.log: "[<UTC time>] LEVEL: message |
// Context: {json}" records, continued by stack lines. ERROR records become
// system rows (with the session id their context names); the other levels
// (startup, telemetry, credential warnings) are counted as skipped.
func parseLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var cur *timeline.Event
	var body strings.Builder
	flush := func() {
		if cur == nil {
			return
		}
		msg := body.String()
		if m := logSession.FindStringSubmatch(msg); m != nil {
			cur.SessionID = m[1]
		}
		if i := strings.Index(msg, " | Context: "); i >= 0 {
			msg = msg[:i]
		}
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		cur.Text = parser.RedactSecrets("log ERROR: " + msg)
		out.Event(*cur)
		cur = nil
		body.Reset()
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		m := logLine.FindSubmatch(line)
		if m == nil {
			if cur != nil {
				body.WriteString("\n")
				body.Write(line)
			} else {
				out.Skip(n, "log_continuation")
			}
			return nil
		}
		flush()
		if string(m[2]) != "ERROR" {
			out.Skip(n, "log_"+strings.ToLower(string(m[2])))
			return nil
		}
		t, _ := time.Parse(time.RFC3339Nano, string(m[1]))
		cur = &timeline.Event{TurnType: timeline.System, Time: t.UTC(), SourceLine: n}
		body.Write(m[3])
		return nil
	})
	flush()
	return err
}
