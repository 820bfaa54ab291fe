package codex

import (
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/codexhome"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseAutomation reads automations/<id>/automation.toml, a scheduled task
// of the ChatGPT desktop app's Codex mode (version, id, name, prompt,
// status ACTIVE|PAUSED, rrule, model, reasoning_effort, cwds,
// target_thread_id; the shapes public tools read and write, no source of
// the closed app): one "scheduled task: <name> (id=.. status=..
// rrule=.. model=.. effort=.. cwds=[..] thread=..) prompt: <prompt>" row,
// in the target thread's session, at created_at / updated_at when the
// file records one (epoch s or ms, or RFC 3339), else the file's mtime.
func parseAutomation(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, codexhome.MaxConfigBytes)
	if err != nil {
		out.Problem(0, "automation not read: "+err.Error())
		return nil
	}
	var a map[string]any
	if _, err := toml.Decode(string(b), &a); err != nil {
		out.Problem(0, "not valid TOML: "+parser.JSONError(err))
		return nil
	}
	str := func(k string) string {
		if v, ok := a[k]; ok {
			return codexhome.RenderValue(v)
		}
		return ""
	}
	name := str("name")
	if name == "" {
		name = str("id")
	}
	var kv []string
	for _, k := range []string{"id", "kind", "status", "rrule", "model", "reasoning_effort", "cwds", "target_thread_id"} {
		if v := str(k); v != "" {
			label := map[string]string{"reasoning_effort": "effort", "target_thread_id": "thread"}[k]
			if label == "" {
				label = k
			}
			kv = append(kv, label+"="+v)
		}
	}
	text := "scheduled task: " + orDash(name)
	if len(kv) > 0 {
		text += " (" + strings.Join(kv, " ") + ")"
	}
	if p := str("prompt"); p != "" {
		text += " prompt: " + p
	}
	e := parser.SettingEvent(&in.File)
	e.Text, e.SessionID, e.SourceLine = text, str("target_thread_id"), 1
	if id := str("id"); id != "" {
		e.RecordID = "automation:" + id
	}
	for _, k := range []string{"created_at", "updated_at"} {
		if t, ok := anyTime(a[k]); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
			break
		}
	}
	out.Event(e)
	return nil
}

// anyTime reads a TOML time: a datetime, epoch seconds or milliseconds,
// or RFC 3339 text.
func anyTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case int64:
		return parser.Epoch(x, 1e12)
	case string:
		return parser.ParseTime(x)
	case time.Time:
		return x.UTC(), !x.IsZero()
	}
	return time.Time{}, false
}

// parseGlobalState reads the ChatGPT desktop app's .codex-global-state.json
// (its Electron app state, closed source; the keys below are those public
// tools read and write), a secondary source: what it keeps of a thread
// outlives the thread. Rows, all secondary, in the thread's session where
// a key names one:
//   - prompt-history (under electron-persisted-atom-state, or at the top):
//     the composer's history, a list (no thread) or an object of lists by
//     thread id: one user row per prompt, undated (the file records no
//     time);
//   - heartbeat-thread-permissions-by-id: a thread's standing permissions
//     "permission setting: thread approval=.. reviewer=.. sandbox=..
//     network=.. writable_roots=[..] profile=.. (from
//     .codex-global-state.json, file mtime)"; agent-mode-by-host-id:
//     "permission setting: agent mode <mode> on host <host> (..)";
//   - thread-descriptions-v1: "thread description: <text>";
//   - the thread references the sidebar keeps (projectless-thread-ids,
//     pinned-thread-ids, thread-workspace-root-hints,
//     thread-project-assignments, thread-projectless-output-directories):
//     one "thread listed in the desktop app: workspace=.. project=..
//     pinned=yes projectless=yes output_dir=.." row per thread, the
//     marker that a deleted thread existed;
//   - queued-follow-ups: "queued follow-up (not sent): <text>".
//
// Rows other than prompts carry the file's mtime. SourceLine numbers the
// records in the order above.
func parseGlobalState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 64<<20)
	if err != nil {
		out.Problem(0, "global state not read: "+err.Error())
		return nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	var atoms map[string]json.RawMessage
	_ = json.Unmarshal(top["electron-persisted-atom-state"], &atoms)
	get := func(k string) json.RawMessage {
		if v, ok := atoms[k]; ok {
			return v
		}
		return top[k]
	}
	file := ".codex-global-state.json"
	var n int64
	emit := func(e timeline.Event) {
		n++
		e.SourceLine, e.Secondary = n, true
		out.Event(e)
	}
	setting := func(sid, text string) timeline.Event {
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.Text = sid, text
		return e
	}
	threadKey := func(k string) string {
		if uuidRe.MatchString(k) && len(k) == 36 {
			return k
		}
		if i := strings.LastIndex(k, ":"); i >= 0 && uuidRe.MatchString(k[i+1:]) {
			return k[i+1:] // "local:<thread>"
		}
		return ""
	}
	// prompt history
	if raw := get("prompt-history"); len(raw) > 0 {
		var list []string
		var byKey map[string][]string
		switch {
		case json.Unmarshal(raw, &list) == nil:
			for _, p := range list {
				emit(timeline.Event{TurnType: timeline.User, Text: p, TimeBasis: timeline.TimeNone})
			}
		case json.Unmarshal(raw, &byKey) == nil:
			for _, k := range sortedStrings(byKey) {
				for _, p := range byKey[k] {
					emit(timeline.Event{SessionID: threadKey(k), TurnType: timeline.User, Text: p, TimeBasis: timeline.TimeNone})
				}
			}
		default:
			out.Report(0, parser.KindSkippedRecord, "prompt-history of an unknown shape: not read")
		}
	}
	// standing permissions
	var perms map[string]json.RawMessage
	if json.Unmarshal(get("heartbeat-thread-permissions-by-id"), &perms) == nil {
		for _, tid := range sortedStrings(perms) {
			emit(setting(threadKey(tid), "permission setting: thread "+threadPermissions(perms[tid])+" (from "+file+", file mtime)"))
		}
	}
	var modes map[string]json.RawMessage
	if json.Unmarshal(get("agent-mode-by-host-id"), &modes) == nil {
		for _, host := range sortedStrings(modes) {
			emit(setting("", "permission setting: agent mode "+parser.JSONText(modes[host])+" on host "+host+" (from "+file+", file mtime)"))
		}
	}
	// thread descriptions
	var descs map[string]json.RawMessage
	if json.Unmarshal(get("thread-descriptions-v1"), &descs) == nil {
		for _, tid := range sortedStrings(descs) {
			d := parser.JSONText(descs[tid])
			var obj struct {
				Description string `json:"description"`
				Text        string `json:"text"`
			}
			if json.Unmarshal(descs[tid], &obj) == nil {
				d = obj.Description + obj.Text
			}
			emit(setting(threadKey(tid), "thread description: "+d))
		}
	}
	// thread references
	refs := map[string][]string{}
	var order []string
	ref := func(tid, kv string) {
		if tid = threadKey(tid); tid == "" {
			return
		}
		if _, ok := refs[tid]; !ok {
			order = append(order, tid)
		}
		refs[tid] = append(refs[tid], kv)
	}
	var hints, outdirs map[string]string
	_ = json.Unmarshal(top["thread-workspace-root-hints"], &hints)
	for _, tid := range sortedStrings(hints) {
		ref(tid, "workspace="+hints[tid])
	}
	var assign map[string]struct {
		ProjectKind string `json:"projectKind"`
		ProjectID   string `json:"projectId"`
	}
	_ = json.Unmarshal(top["thread-project-assignments"], &assign)
	for _, tid := range sortedStrings(assign) {
		ref(tid, "project="+assign[tid].ProjectKind+":"+assign[tid].ProjectID)
	}
	for _, k := range []string{"pinned-thread-ids", "projectless-thread-ids"} {
		var ids []string
		_ = json.Unmarshal(top[k], &ids)
		for _, tid := range ids {
			ref(tid, strings.TrimSuffix(k, "-thread-ids")+"=yes")
		}
	}
	_ = json.Unmarshal(top["thread-projectless-output-directories"], &outdirs)
	for _, tid := range sortedStrings(outdirs) {
		ref(tid, "output_dir="+outdirs[tid])
	}
	sort.Strings(order)
	for _, tid := range order {
		emit(setting(tid, "thread listed in the desktop app: "+strings.Join(refs[tid], " ")))
	}
	var queued []string
	if json.Unmarshal(get("queued-follow-ups"), &queued) == nil {
		for _, q := range queued {
			emit(setting("", "queued follow-up (not sent): "+q))
		}
	}
	return nil
}

// threadPermissions renders a heartbeat-thread-permissions-by-id entry:
// an object {approvalPolicy, approvalsReviewer, sandboxPolicy{type,
// networkAccess, writableRoots}, activePermissionProfile{id}} or a word.
func threadPermissions(raw json.RawMessage) string {
	if s, ok := parser.JSONString(raw); ok {
		return "permission=" + s
	}
	var p struct {
		ApprovalPolicy    json.RawMessage `json:"approvalPolicy"`
		ApprovalsReviewer string          `json:"approvalsReviewer"`
		SandboxPolicy     struct {
			Type          string   `json:"type"`
			NetworkAccess *bool    `json:"networkAccess"`
			WritableRoots []string `json:"writableRoots"`
		} `json:"sandboxPolicy"`
		Profile struct {
			ID string `json:"id"`
		} `json:"activePermissionProfile"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return parser.CompactJSON(raw)
	}
	var kv []string
	if a := codexhome.PolicyName(p.ApprovalPolicy); a != "" {
		kv = append(kv, "approval="+a)
	}
	if p.ApprovalsReviewer != "" {
		kv = append(kv, "reviewer="+p.ApprovalsReviewer)
	}
	if p.SandboxPolicy.Type != "" {
		kv = append(kv, "sandbox="+p.SandboxPolicy.Type)
	}
	if p.SandboxPolicy.NetworkAccess != nil {
		kv = append(kv, "network="+strconv.FormatBool(*p.SandboxPolicy.NetworkAccess))
	}
	if len(p.SandboxPolicy.WritableRoots) > 0 {
		b, _ := json.Marshal(p.SandboxPolicy.WritableRoots)
		kv = append(kv, "writable_roots="+string(b))
	}
	if p.Profile.ID != "" {
		kv = append(kv, "profile="+p.Profile.ID)
	}
	if len(kv) == 0 {
		return parser.CompactJSON(raw)
	}
	return strings.Join(kv, " ")
}

func sortedStrings[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// uuidRe matches a thread uuid.
var uuidRe = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// orDash returns s, or "-" when it is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
