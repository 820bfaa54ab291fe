package opencode

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseSandbox reads Kilo's sandbox state under .local/state
// (packages/opencode/src/kilocode/sandbox/store.ts and preference.ts):
//
//	kilo-sandbox-policy/<sha256(session id)>/snapshot.json   {enabled, mode, version}
//	kilo-sandbox-policy/<sha256(session id)>/<sha256(dir)>.json  (the older per-directory form)
//	kilo-sandbox-preference/<sha256(project dir)>.json      true | false
//
// A policy snapshot is the confinement a session runs under (mode is the
// network rule, allow or deny); the preference is whether the user turned
// the sandbox on for a project. The names are hashes: a session id is
// recovered when the sha256 of one the collection names (Kilo's
// storage/**/ses_*.json files) matches.
func parseSandbox(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	base := path.Base(p)
	if strings.HasPrefix(base, ".") || !strings.HasSuffix(base, ".json") {
		out.Skip(1, "no_evidence:sandbox temporary file")
		return nil
	}
	b, err := parser.ReadWhole(in, 1<<20)
	if err != nil {
		return err
	}
	ev := parser.SettingEvent(&in.File)
	ev.SourceLine = 1
	from := " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	switch {
	case strings.Contains(p, "/kilo-sandbox-preference/"):
		var on bool
		if err := json.Unmarshal(bytes.TrimSpace(b), &on); err != nil {
			out.Problem(1, "sandbox preference is not true or false: "+parser.JSONError(err))
			return nil
		}
		ev.Text = "sandbox preference: enabled=" + strconv.FormatBool(on) + " for the project whose directory has sha256 " + strings.TrimSuffix(base, ".json") + from
	case strings.Contains(p, "/kilo-sandbox-policy/"):
		var v struct {
			Enabled *bool  `json:"enabled"`
			Mode    string `json:"mode"`
			Version *int64 `json:"version"`
		}
		if err := json.Unmarshal(b, &v); err != nil || v.Enabled == nil {
			out.Problem(1, "not a sandbox policy snapshot {enabled, mode, version}")
			return nil
		}
		hash := path.Base(path.Dir(p))
		ver := "?"
		if v.Version != nil {
			ver = strconv.FormatInt(*v.Version, 10)
		}
		ev.Text = "sandbox policy: enabled=" + strconv.FormatBool(*v.Enabled) + " network=" + v.Mode + " version=" + ver
		if sid := sessionOfHash(ctx, in, p, hash); sid != "" {
			ev.SessionID = sid
			ev.Text += " (session " + parser.Shown(sid) + ", matched by its sha256)"
		} else {
			ev.Text += " (for the session whose id has sha256 " + hash + ")"
		}
		if base != "snapshot.json" {
			ev.Text += " (per-directory form, directory sha256 " + strings.TrimSuffix(base, ".json") + ")"
		}
		ev.Text += from
	default:
		out.Skip(1, "no_evidence:sandbox file")
		return nil
	}
	out.Event(ev)
	return nil
}

// sessionOfHash finds the Kilo session id whose sha256 is hash among the
// session files collected for the same home.
func sessionOfHash(ctx context.Context, in *parser.Input, p, hash string) string {
	i := strings.Index(p, "/.local/state/")
	if i < 0 {
		return ""
	}
	home := p[:i]
	for _, f := range in.List(parser.GlobEscape(home) + "/.local/share/kilo/storage/**/ses_*.json") {
		if ctx.Err() != nil {
			return ""
		}
		id := strings.TrimSuffix(path.Base(f.Path), ".json")
		sum := sha256.Sum256([]byte(id))
		if hex.EncodeToString(sum[:]) == hash {
			return id
		}
	}
	return ""
}

// parseRetention reads .local/share/kilo/retention/state.json, the result
// of Kilo's last session-retention pass (kilocode/session/retention.ts
// State: {at, scanned, deleted, skippedActive, failed, durationMs}): the
// pass deleted the sessions older than retention.maxAgeDays, so this row
// says sessions were removed from the store, and when.
func parseRetention(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 1<<20)
	if err != nil {
		return err
	}
	var v struct {
		At            *num `json:"at"`
		Scanned       num  `json:"scanned"`
		Deleted       num  `json:"deleted"`
		SkippedActive num  `json:"skippedActive"`
		Failed        num  `json:"failed"`
		DurationMs    num  `json:"durationMs"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.At == nil {
		out.Problem(1, "not a retention state {at, scanned, deleted, ...}")
		return nil
	}
	ev := timeline.Event{TurnType: timeline.System, SourceLine: 1}
	if t := msTime(int64(*v.At)); !t.IsZero() {
		ev.Time = t
	} else {
		ev = parser.SettingEvent(&in.File)
		ev.SourceLine = 1
	}
	ev.Text = fmt.Sprintf("session retention: a pass deleted %d of %d session(s) (%d skipped as active, %d failed, %d ms; from %s)",
		v.Deleted, v.Scanned, v.SkippedActive, v.Failed, v.DurationMs, parser.DisplayFile(&in.File))
	out.Event(ev)
	return nil
}

// kiloLogRe is one line of an OpenCode / Kilo log (util/log.ts):
// "LEVEL  2026-11-29T18:14:32 +4410ms service=<svc> key=value ... message",
// the time in UTC to the second.
var kiloLogRe = regexp.MustCompile(`^(DEBUG|INFO|WARN|ERROR)\s+(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\s+\+\d+ms\s+(.*)$`)

var kiloKVRe = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.]*)=(\S*)$`)

// parseKiloLog reads the remote control lines of Kilo's
// .local/share/kilo/log/*.log (kilo-sessions/kilo-sessions.ts and
// remote-ws.ts, service kilo-sessions): the connection to Kilo's cloud
// relay enabled, connecting, connected, disabled or refused, each a
// "remote control: <message> [<key=value> ...]" row at the line's time.
// A URL's token query value is masked by Kilo itself and again here; no
// other line is read (each is counted as a skip).
func parseKiloLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		m := kiloLogRe.FindSubmatch(bytes.TrimRight(line, "\r"))
		if m == nil {
			out.Skip(n, "no_evidence:log line")
			return nil
		}
		fields := strings.Fields(string(m[3]))
		var kv []string
		service, session := "", ""
		i := 0
		for ; i < len(fields); i++ {
			f := kiloKVRe.FindStringSubmatch(fields[i])
			if f == nil {
				break
			}
			switch f[1] {
			case "service":
				service = f[2]
				continue
			case "sessionID", "sessionId", "session_id":
				session = f[2]
			}
			kv = append(kv, fields[i])
		}
		msg := strings.Join(fields[i:], " ")
		if !isRemoteControl(service, msg) {
			out.Skip(n, "no_evidence:log line")
			return nil
		}
		t, err := time.Parse("2006-01-02T15:04:05", string(m[2]))
		if err != nil {
			out.Problem(n, "log time: "+err.Error())
			return nil
		}
		text := "remote control: " + msg
		if len(kv) > 0 {
			text += " [" + strings.Join(kv, " ") + "]"
		}
		text += " (" + strings.ToLower(string(m[1])) + ", service " + service + ")"
		out.Event(timeline.Event{Time: t.UTC(), SessionID: session, TurnType: timeline.System, SourceLine: n,
			Text: maskToken(parser.RedactSecrets(text))})
		return nil
	})
}

// isRemoteControl tells the lines of Kilo's remote connection: the
// kilo-sessions service's remote messages and the relay socket's
// remote-ws messages.
func isRemoteControl(service, msg string) bool {
	return strings.HasPrefix(msg, "remote-ws ") || service == "kilo-sessions" && strings.Contains(msg, "remote")
}

var tokenRe = regexp.MustCompile(`(?i)(token=)[^&\s"\]]+`)

// maskToken hides a token query value (Kilo writes "token=***" itself).
func maskToken(s string) string {
	return tokenRe.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasSuffix(m, "=***") {
			return m
		}
		return m[:strings.Index(m, "=")+1] + "***"
	})
}
