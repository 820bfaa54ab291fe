package claudedesktop

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// SessionRecord returns the parser of the session records
// {local-agent-mode-sessions,claude-code-sessions}/<acct>/<org>/[agent/]local_<uuid>.json.
func SessionRecord() parser.Parser {
	return newFiltered(parser.Spec{
		ID:      "claude-desktop/session-record",
		Actions: claudetranscript.Actions,
		Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
			Basis: "the session record's first prompt has no time"},
		Agent:   Agent,
		Version: 4,
		Targets: recordTargets,
		Names:   []string{"local_*.json"},
		Doc:     "Claude desktop session records local_<uuid>.json: the session row, Remote Control state, permission grants, the first prompt, session errors",
	}, parseRecord, func(p string) bool { return storeKind(p) != "" && !strings.Contains(p, "/.claude/") })
}

// promptKeys are the record keys that may hold the first prompt (not seen
// in a sample; the first that holds a string is used).
var promptKeys = []string{"initialMessage", "firstPrompt", "initialPrompt", "firstUserMessage", "prompt", "message"}

// grantLists are the Cowork grant lists, one permission grant: row per entry.
var grantLists = []string{"approvedToolNames", "webFetchAllowedUrls", "egressAllowedDomains", "userApprovedFileAccessPaths", "enabledMcpTools", "fileDeleteApprovedMounts"}

func parseRecord(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	rec, err := readRecord(rc)
	if err != nil {
		out.Problem(1, parser.NotJSONObject("session record", err))
		return nil
	}
	p := slash(in.Path)
	kind := storeKind(p)
	localID := rec.str("sessionId")
	if localID == "" {
		localID = strings.TrimSuffix(baseOf(p), ".json")
	}
	cli := rec.str("cliSessionId")
	sid := cli
	if sid == "" {
		sid = localID
	}
	created := rawTime(rec["createdAt"])
	last := rawTime(rec["lastActivityAt"])
	if last.IsZero() {
		last = created
	}
	base := timeline.Event{SessionID: sid, ProjectPath: rec.project(), TurnType: timeline.System, SourceLine: 1}
	// RecordID: the record's own sessionId (local_<uuid>), "#<word>" for
	// the rows derived from it.
	at := func(t time.Time, suffix string) timeline.Event {
		e := base
		e.RecordID = localID + suffix
		e.Time = t
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		return e
	}

	// The session row.
	var parts []string
	parts = append(parts, "session record: "+localID, map[string]string{"cowork": "cowork", "code": "code-tab"}[kind])
	parts = append(parts, "title="+orDash(rec.str("title")), "cli_session="+orDash(cli))
	if f := rec.folders(); len(f) > 0 {
		parts = append(parts, "folders="+strings.Join(f, ";"))
	}
	if c := rec.str("cwd"); c != "" {
		parts = append(parts, "cwd="+c)
	}
	parts = append(parts, "model="+orDash(rec.str("model")), "archived="+boolText(rec["isArchived"]))
	if kind == "code" {
		parts = append(parts, remoteControl(rec))
	}
	parts = append(parts, "permission_mode="+orDash(rec.str("permissionMode")), "effort="+orDash(rec.str("effort")))
	e := at(created, "")
	e.Text = strings.Join(parts, " ")
	out.Event(e)

	if kind == "code" {
		var q map[string]json.RawMessage
		if json.Unmarshal(rec["remoteControlLiveAtUpdateQuit"], &q) == nil {
			if t := rawTime(q["at"]); !t.IsZero() {
				e := at(t, "#remote-control-quit")
				e.Text = "remote control live at update quit"
				out.Event(e)
			}
		}
	}

	// Standing grants, at the last activity.
	grants := 0
	grant := func(key, val string) {
		e := at(last, "#grant"+strconv.Itoa(grants))
		grants++
		e.Text = "permission grant: " + key + "=" + val
		out.Event(e)
	}
	for _, v := range list(rec["alwaysAllowedReasons"]) {
		grant("alwaysAllowedReasons", parser.JSONText(v))
	}
	for _, v := range list(rec["sessionPermissionUpdates"]) {
		grant("sessionPermissionUpdates", permissionUpdate(v))
	}
	if s := parser.JSONText(rec["chromePermissionMode"]); s != "" {
		grant("chromePermissionMode", s)
	}
	for _, v := range list(rec["chromeAllowedDomains"]) {
		grant("chromeAllowedDomains", parser.JSONText(v))
	}
	for _, v := range list(rec["cuAllowedApps"]) {
		grant("cuAllowedApps", cuApp(v))
	}
	var flags map[string]json.RawMessage
	if json.Unmarshal(rec["cuGrantFlags"], &flags) == nil {
		for _, k := range sortedKeys(flags) {
			grant("cuGrantFlags."+k, parser.JSONText(flags[k]))
		}
	} else {
		for _, v := range list(rec["cuGrantFlags"]) {
			grant("cuGrantFlags", parser.JSONText(v))
		}
	}
	if raw := bytes.TrimSpace(rec["cuFlagsGrantedAt"]); len(raw) > 0 && string(raw) != "null" {
		v := parser.JSONText(raw)
		if t := rawTime(raw); !t.IsZero() {
			v = timeText(t)
		}
		grant("cuFlagsGrantedAt", v)
	}
	for _, k := range grantLists {
		raw := bytes.TrimSpace(rec[k])
		if len(raw) > 0 && raw[0] == '{' {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(raw, &m)
			for _, name := range sortedKeys(m) {
				if string(bytes.TrimSpace(m[name])) == "false" {
					continue // listed but switched off
				}
				grant(k, name)
			}
			continue
		}
		for _, v := range list(raw) {
			grant(k, parser.JSONText(v))
		}
	}

	// The session's error.
	if msg := errorText(rec["error"]); msg != "" {
		t := rawTime(rec["errorAt"])
		if t.IsZero() {
			t = last
		}
		e := at(t, "#error")
		e.Text = "session error: " + msg
		out.Event(e)
	}

	// The first prompt: secondary, undated.
	prompt := ""
	for _, k := range promptKeys {
		if s := rec.str(k); strings.TrimSpace(s) != "" {
			prompt = s
			break
		}
	}
	if prompt != "" && wantPrompt(ctx, in, out, kind, p, localID, cli, prompt) {
		out.Event(timeline.Event{SessionID: sid, ProjectPath: base.ProjectPath, TurnType: timeline.User,
			Text: prompt, SourceLine: 1, Secondary: true, TimeBasis: timeline.TimeNone, RecordID: localID + "#prompt"})
	}
	return nil
}

// wantPrompt says whether the record's first prompt is emitted: on a
// Cowork record unless the session's audit log has it (the engine drops it
// where the transcript has it); on a Code-tab record only when no
// .claude/projects transcript of its cliSessionId was collected.
func wantPrompt(ctx context.Context, in *parser.Input, out parser.Sink, kind, p, localID, cli, prompt string) bool {
	if kind == "code" {
		if cli == "" {
			return true
		}
		return len(in.List("**/.claude/projects/*/"+parser.GlobEscape(cli)+".jsonl")) == 0
	}
	related := dirOf(p) + "/" + localID + "/audit.jsonl"
	rc, err := in.OpenRelated(related)
	if err != nil {
		return true
	}
	defer rc.Close()
	found := false
	want := strings.TrimSpace(prompt)
	err = parser.Lines(ctx, rc, nil, func(n int64, line []byte) error {
		var l auditLine
		if json.Unmarshal(line, &l) != nil || l.Type != "user" {
			return nil
		}
		for _, t := range userTexts(l.Message) {
			if strings.TrimSpace(t) == want {
				found = true
			}
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		out.Problem(0, fmt.Sprintf("reading %s for the first prompt: %v", related, err))
	}
	return !found
}

// remoteControl renders a Code-tab record's persisted Remote Control state.
func remoteControl(rec record) string {
	rcOn := false
	for _, k := range []string{"remoteControl", "remoteControlEnabled", "remoteControlActive"} {
		if string(bytes.TrimSpace(rec[k])) == "true" {
			rcOn = true
		}
	}
	bridges := len(list(rec["bridgeSessionIds"]))
	spawned := nonEmpty(rec["remoteControlSpawn"]) || string(bytes.TrimSpace(rec["spawnedRemotely"])) == "true"
	steered := string(bytes.TrimSpace(rec["steeredRemotely"])) == "true" || string(bytes.TrimSpace(rec["remoteSteered"])) == "true"
	return "remote_control=" + strconv.FormatBool(rcOn) + " bridges=" + strconv.Itoa(bridges) +
		" spawned_remotely=" + strconv.FormatBool(spawned) + " steered_remotely=" + strconv.FormatBool(steered)
}

// nonEmpty reports a value that is not null, false, "", [] or {}.
func nonEmpty(raw json.RawMessage) bool {
	s := string(bytes.TrimSpace(raw))
	switch s {
	case "", "null", "false", `""`, "[]", "{}":
		return false
	}
	return true
}

func boolText(raw json.RawMessage) string {
	if string(bytes.TrimSpace(raw)) == "true" {
		return "true"
	}
	return "false"
}

// list decodes a JSON array (nil otherwise).
func list(raw json.RawMessage) []json.RawMessage {
	var l []json.RawMessage
	if json.Unmarshal(raw, &l) != nil {
		return nil
	}
	return l
}

// permissionUpdate renders one sessionPermissionUpdates entry, e.g.
// "addRules behavior=allow destination=session rules=Bash(git push:*)".
func permissionUpdate(raw json.RawMessage) string {
	var u struct {
		Type        string `json:"type"`
		Behavior    string `json:"behavior"`
		Mode        string `json:"mode"`
		Destination string `json:"destination"`
		Rules       []struct {
			ToolName    string `json:"toolName"`
			RuleContent string `json:"ruleContent"`
		} `json:"rules"`
		Directories []string `json:"directories"`
	}
	if json.Unmarshal(raw, &u) != nil || u.Type == "" {
		return parser.CompactJSON(raw)
	}
	parts := []string{u.Type}
	if u.Behavior != "" {
		parts = append(parts, "behavior="+u.Behavior)
	}
	if u.Mode != "" {
		parts = append(parts, "mode="+u.Mode)
	}
	if u.Destination != "" {
		parts = append(parts, "destination="+u.Destination)
	}
	if len(u.Rules) > 0 {
		var rs []string
		for _, r := range u.Rules {
			s := r.ToolName
			if r.RuleContent != "" {
				s += "(" + r.RuleContent + ")"
			}
			rs = append(rs, s)
		}
		parts = append(parts, "rules="+strings.Join(rs, ","))
	}
	if len(u.Directories) > 0 {
		parts = append(parts, "directories="+strings.Join(u.Directories, ";"))
	}
	return strings.Join(parts, " ")
}

// cuApp renders one computer-use app grant: a name, or
// "<bundleId> (<displayName>) tier=<tier> grantedAt=<time>".
func cuApp(raw json.RawMessage) string {
	if s := parser.StringValue(raw); s != "" {
		return s
	}
	var a map[string]json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return parser.CompactJSON(raw)
	}
	id := parser.StringValue(a["bundleId"])
	if id == "" {
		id = parser.StringValue(a["appId"])
	}
	s := orDash(id)
	if d := parser.StringValue(a["displayName"]); d != "" {
		s += " (" + d + ")"
	}
	if t := parser.StringValue(a["tier"]); t != "" {
		s += " tier=" + t
	}
	if t := rawTime(a["grantedAt"]); !t.IsZero() {
		s += " grantedAt=" + timeText(t)
	}
	return s
}

// errorText renders a record's error: a string, or an object's message
// (else its JSON).
func errorText(raw json.RawMessage) string {
	if !nonEmpty(raw) {
		return ""
	}
	if s := parser.StringValue(raw); s != "" {
		return s
	}
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) == nil {
		for _, k := range []string{"message", "error", "type"} {
			if s := parser.StringValue(o[k]); s != "" {
				if t := parser.StringValue(o["type"]); t != "" && k == "message" {
					return t + ": " + s
				}
				return s
			}
		}
	}
	return parser.CompactJSON(raw)
}
