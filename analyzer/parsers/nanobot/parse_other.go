package nanobot

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// webuiRecord is one line of a WebUI display transcript (nanobot/webui/
// transcript.py): delta frames are never persisted; stream_end and
// reasoning_end carry the completed segment's text.
type webuiRecord struct {
	Event       string   `json:"event"`
	ChatID      string   `json:"chat_id"`
	Text        string   `json:"text"`
	CreatedAtMS *float64 `json:"created_at_ms"`
	MediaPaths  []string `json:"media_paths"`
	Media       []string `json:"media"`
	Path        string   `json:"path"`
	Tool        string   `json:"tool"`
}

func parseWebUI(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	p := slashPath(in.Path)
	stem := strings.TrimSuffix(base(p), ".jsonl")
	if d := path.Base(path.Dir(p)); strings.HasSuffix(d, ".segments") {
		stem = strings.TrimSuffix(d, ".segments")
	}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r webuiRecord
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		sid := "websocket:" + r.ChatID
		if r.ChatID == "" {
			sid = strings.Replace(stem, "_", ":", 1)
		}
		e := timeline.Event{SessionID: sid, SourceLine: n, Secondary: true, Text: r.Text}
		if r.CreatedAtMS != nil {
			setMS(&e, *r.CreatedAtMS)
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		media := append(r.MediaPaths, r.Media...)
		if len(media) > 0 {
			e.Text = strings.TrimSpace(e.Text + "\n[media: " + strings.Join(media, ", ") + "]")
		}
		switch r.Event {
		case "user":
			e.TurnType = timeline.User
		case "message", "stream_end":
			if strings.TrimSpace(e.Text) == "" {
				out.Skip(n, "no_evidence:"+r.Event)
				return nil
			}
			e.TurnType = timeline.Assistant
		case "reasoning_end":
			if strings.TrimSpace(r.Text) == "" {
				out.Skip(n, "no_evidence:reasoning_end")
				return nil
			}
			e.TurnType = timeline.Thinking
		case "file_edit":
			e.TurnType, e.Text = timeline.System, strings.TrimSpace("file edited: "+r.Path+" "+r.Tool)
		case "fork_marker":
			e.TurnType, e.Text = timeline.System, "session forked here (WebUI fork marker)"
		case "turn_end":
			out.Skip(n, "no_evidence:turn_end")
			return nil
		default:
			out.Skip(n, "no_evidence:"+r.Event)
			return nil
		}
		out.Event(e)
		return nil
	})
}

// parseWebUIIndex reads the sidebar cache {version, sessions: [{key,
// file, created_at, updated_at, title, preview}]}. A listed session whose
// file is not among the collected session files is said to be gone.
func parseWebUIIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "sidebar cache not read: "+err.Error())
		return nil
	}
	var idx struct {
		Version  any              `json:"version"`
		Sessions []map[string]any `json:"sessions"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		out.Problem(0, "not a WebUI session index: "+parser.JSONError(err))
		return nil
	}
	dir := path.Dir(slashPath(in.Path))
	for i, row := range idx.Sessions {
		n := int64(i + 1)
		key, _ := row["key"].(string)
		if key == "" {
			out.Report(n, parser.KindSkippedRecord, "index row without a key")
			continue
		}
		title, _ := row["title"].(string)
		preview, _ := row["preview"].(string)
		updated, _ := row["updated_at"].(string)
		text := "session listed in the WebUI sidebar: " + key
		if title != "" {
			text += "; title: " + title
		}
		if preview != "" {
			text += "; preview: " + preview
		}
		if in.ListFunc != nil && !sessionFileCollected(in, dir, key) {
			text += " (its session file is not among the collected files: deleted?)"
		}
		e := timeline.Event{SessionID: key, TurnType: timeline.System, Text: text, SourceLine: n, Secondary: true}
		setLocal(&e, updated)
		out.Event(e)
	}
	return nil
}

func sessionFileCollected(in *parser.Input, dir, key string) bool {
	for _, f := range in.List(parser.GlobEscape(dir) + "/*.jsonl") {
		if keyFromPath(f.Path) == key {
			return true
		}
	}
	return false
}

// parseMemoryHistory reads memory/history.jsonl (nanobot/agent/memory.py
// append_history): {cursor, timestamp "%Y-%m-%d %H:%M" host-local,
// content, session_key}: a consolidation summary of earlier turns.
func parseMemoryHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r struct {
			Cursor     json.RawMessage `json:"cursor"`
			Timestamp  string          `json:"timestamp"`
			Content    string          `json:"content"`
			SessionKey string          `json:"session_key"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		e := timeline.Event{SessionID: r.SessionKey, TurnType: timeline.System, SourceLine: n,
			Text: "memory summary (recorded to the minute): " + r.Content}
		if c := strings.TrimSpace(string(r.Cursor)); c != "" && c != "null" {
			e.RecordID = "memory:" + strings.Trim(c, `"`)
		}
		setLocal(&e, r.Timestamp)
		out.Event(e)
		return nil
	})
}

// parseCLIHistory reads prompt_toolkit's FileHistory (parser.FileHistory):
// one secondary user row per entry at its host-local time.
func parseCLIHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.FileHistory(ctx, rc, out, func(n int64, at, text string) {
		e := timeline.Event{TurnType: timeline.User, Text: text, SourceLine: n, Secondary: true}
		setLocal(&e, at)
		out.Event(e)
	})
}

// parseRun reads one automation run record (nanobot/utils/run_records.py):
// a cron run {job_id, job_name, session_key, rendered_prompt, status,
// response, error} or a local trigger delivery {kind: local_trigger,
// trigger_id, trigger_name, content, session_key, channel, ...}, with
// run_id and updated_at_ms (UTC).
func parseRun(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "run record not read: "+err.Error())
		return nil
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(b, &r); err != nil {
		out.Problem(0, "not a run record: "+parser.JSONError(err))
		return nil
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(r[k], &s)
		return s
	}
	var ms float64
	_ = json.Unmarshal(r["updated_at_ms"], &ms)
	sid := str("session_key")
	what := "cron job " + strconv.Quote(str("job_name"))
	prompt := str("rendered_prompt")
	if str("kind") == "local_trigger" {
		what = "trigger " + strconv.Quote(str("trigger_name"))
		if c := str("channel"); c != "" {
			what += " from " + c
		}
		prompt = str("content")
	}
	text := fmt.Sprintf("automation run %s: %s status=%s", str("run_id"), what, str("status"))
	if e := str("error"); e != "" {
		text += " error=" + e
	}
	if prompt != "" {
		text += "; prompt: " + prompt
	}
	e := timeline.Event{SessionID: sid, TurnType: timeline.System, Text: text, SourceLine: 1, Secondary: true, RecordID: "run:" + str("run_id")}
	setMS(&e, ms)
	out.Event(e)
	if resp := str("response"); strings.TrimSpace(resp) != "" {
		a := e
		a.TurnType, a.Text, a.RecordID = timeline.Assistant, resp, "run:"+str("run_id")+"#response"
		out.Event(a)
	}
	return nil
}

// parseConfig reads config.json (a secret-kind file: it holds provider
// keys and channel tokens) for the permission keys only.
func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "config.json not read: "+err.Error())
		return nil
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		out.Problem(0, parser.NotJSONObject("config", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	emit := func(key string, v any) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineOf(data, key[strings.LastIndex(key, ".")+1:])
		e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, render(v), file)
		out.Event(e)
	}
	tools, _ := pick(cfg, "tools").(map[string]any)
	if v := pick(tools, "restrictToWorkspace", "restrict_to_workspace"); v != nil {
		emit("tools.restrictToWorkspace", v)
	}
	if ex, ok := pick(tools, "exec").(map[string]any); ok {
		for _, k := range [][2]string{{"enable", "enable"}, {"sandbox", "sandbox"}, {"sandboxRoBinds", "sandbox_ro_binds"}, {"sandboxRwBinds", "sandbox_rw_binds"}, {"allowPatterns", "allow_patterns"}, {"denyPatterns", "deny_patterns"}} {
			v := pick(ex, k[0], k[1])
			if list, ok := v.([]any); ok {
				for _, item := range list {
					emit("tools.exec."+k[0], item)
				}
				continue
			}
			if v != nil {
				emit("tools.exec."+k[0], v)
			}
		}
	}
	if chans, ok := pick(cfg, "channels").(map[string]any); ok {
		names := make([]string, 0, len(chans))
		for n := range chans {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			ch, ok := chans[name].(map[string]any)
			if !ok {
				continue
			}
			if list, ok := pick(ch, "allowFrom", "allow_from").([]any); ok {
				for _, item := range list {
					emit("channels."+name+".allowFrom", item)
				}
			}
		}
	}
	return nil
}

func pick(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

func render(v any) string {
	switch x := v.(type) {
	case string:
		return parser.RedactSecrets(x)
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return parser.RedactSecrets(string(b))
}

func lineOf(data []byte, key string) int64 {
	i := bytes.Index(data, []byte(strconv.Quote(key)))
	if i < 0 {
		return 0
	}
	return int64(bytes.Count(data[:i], []byte("\n")) + 1)
}

// parsePairing reads pairing.json (nanobot/pairing/store.py): {approved:
// {channel: [sender, ...]}, pending: {code: {channel, sender_id,
// created_at, expires_at}}}.
func parsePairing(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "pairing.json not read: "+err.Error())
		return nil
	}
	var p struct {
		Approved map[string][]string `json:"approved"`
		Pending  map[string]struct {
			Channel   string  `json:"channel"`
			SenderID  string  `json:"sender_id"`
			CreatedAt float64 `json:"created_at"`
			ExpiresAt float64 `json:"expires_at"`
		} `json:"pending"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		out.Problem(0, "not a pairing store: "+parser.JSONError(err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	chans := make([]string, 0, len(p.Approved))
	for c := range p.Approved {
		chans = append(chans, c)
	}
	sort.Strings(chans)
	for _, c := range chans {
		for _, s := range p.Approved[c] {
			e := parser.SettingEvent(&in.File)
			e.SourceLine = lineOf(data, s)
			e.Text = fmt.Sprintf("permission setting: approved sender %s on %s (from %s, file mtime)", s, c, file)
			out.Event(e)
		}
	}
	codes := make([]string, 0, len(p.Pending))
	for c := range p.Pending {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, code := range codes {
		pe := p.Pending[code]
		e := timeline.Event{TurnType: timeline.System, SourceLine: lineOf(data, code)}
		if pe.CreatedAt > 0 {
			e.Time = time.Unix(0, int64(pe.CreatedAt*1e9)).UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		exp := ""
		if pe.ExpiresAt > 0 {
			exp = ", expires " + time.Unix(0, int64(pe.ExpiresAt*1e9)).UTC().Format(time.RFC3339)
		}
		e.Text = fmt.Sprintf("permission setting: pending pairing request from sender %s on %s%s (from %s)", pe.SenderID, pe.Channel, exp, file)
		out.Event(e)
	}
	return nil
}
