package openclaw

import (
	"bytes"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

// Agent is OpenClaw's catalog name.
const Agent = "openclaw"

// trajectoryWindow pairs the runtime trajectory's prompt, tool call and
// tool result rows with the transcript's: both are written by the same
// process during the same turn (seen within one second in real-agents-4).
const trajectoryWindow = time.Minute

// archiveWindow pairs the entries of a published reset or deleted archive,
// a compaction checkpoint or a repair backup with the transcript's: the
// copies keep the entries' own timestamps.
const archiveWindow = time.Second

// Parsers returns the OpenClaw parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "openclaw/agent-db", Agent: Agent, Version: 4, Actions: actions,
			Targets: []string{"agent-db"}, Names: []string{"openclaw-agent.sqlite"},
			Doc: "agents/<id>/agent/openclaw-agent.sqlite: transcripts (transcript_events, pi session entries, zstd rows), session windows and nodes (settings, relay, subagents), pending inputs, lost entries kept by the search index, channel deliveries, archives, memory tombstones and the runtime trajectory (secondary)",
			Secondary: &parser.Secondary{Window: trajectoryWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "OpenClaw source: trajectory_runtime_events and the search index's session_transcript_fts_content are written by the process that writes the transcript, in the same turn (within 1 s in real-agents-4)"},
		}, parseAgentDB),
		parser.New(parser.Spec{
			ID: "openclaw/state-db", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"state-db"}, Names: []string{"openclaw.sqlite"},
			Doc: "state/openclaw.sqlite: exec approvals (never the socket token), operator approvals and standing grants, channel pairing and ingress, GitHub publication requests, backups, subagent runs and config writes",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "openclaw/quarantine-db", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"quarantine-db"}, Names: []string{"openclaw-quarantine.sqlite"},
			Doc: "state/openclaw-quarantine.sqlite: quarantined databases and agent database integrity checks",
		}, parseQuarantineDB),
		parser.New(parser.Spec{
			ID: "openclaw/session", Agent: Agent, Version: 2, Actions: actions,
			Targets: []string{"sessions"}, Names: []string{"*.jsonl", "*.jsonl.zst", "*.jsonl.reset.*", "*.jsonl.deleted.*", "*.checkpoint.*.jsonl", "*.jsonl.pre-doctor-*-repair-*.bak"},
			Doc: "legacy agents/<id>/sessions/<id>.jsonl transcripts and sessions/cold/*.jsonl.zst; reset and deleted archives, compaction checkpoints and pre-doctor repair backups as secondary sources",
			Secondary: &parser.Secondary{Window: archiveWindow, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.ToolUse, timeline.ToolResult, timeline.Thinking, timeline.System},
				Basis: "OpenClaw source: archives, checkpoints and repair backups copy transcript entries with their own timestamps"},
		}, parseSessionFile),
		parser.New(parser.Spec{
			ID: "openclaw/config", Agent: Agent, Version: 1, Actions: actions, ReadsSecretKind: true,
			Targets: []string{"config"},
			Doc:     "openclaw.json (and its .bak copies): tools.exec and approvals settings, default model, workspace, model providers' base URLs, channels configured (named keys only; never a key or token)",
		}, parseConfig),
	}
}

// maxBlob bounds a decompressed transcript row or archive.
const maxBlob = 256 << 20

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// unzstd decompresses b when it is a zstd frame (bounded), else returns it.
func unzstd(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, zstdMagic) {
		return b, nil
	}
	d, err := zstd.NewReader(bytes.NewReader(b), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBlob))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	out, err := io.ReadAll(io.LimitReader(d, maxBlob+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxBlob {
		return nil, fmt.Errorf("decompressed over %d MiB", maxBlob>>20)
	}
	return out, nil
}

// msTime reads epoch milliseconds from a SQLite integer column.
func msTime(v any) time.Time {
	switch x := v.(type) {
	case int64:
		if x > 0 {
			return time.UnixMilli(x).UTC()
		}
	case float64:
		if x > 0 {
			return time.UnixMilli(int64(x)).UTC()
		}
	}
	return time.Time{}
}

// at stamps e with t, or says no time was recorded.
func at(e *timeline.Event, t time.Time) {
	e.Time = t
	if t.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
}

// secretKey reports a JSON key that may hold a credential.
func secretKey(k string) bool {
	l := strings.ToLower(k)
	if l == "key" || l == "auth" {
		return true
	}
	for _, w := range []string{"token", "secret", "password", "passwd", "apikey", "api_key", "privatekey", "private_key", "credential", "cookie", "hmac", "authorization"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// redactJSON renders a JSON value compactly with every credential-named
// key's value replaced by "[redacted]" and credential-shaped strings
// masked.
func redactJSON(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return parser.RedactSecrets(string(raw))
	}
	b, _ := json.Marshal(redactValue(v))
	return parser.RedactSecrets(string(b))
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if secretKey(k) {
				if _, isObj := e.(map[string]any); !isObj {
					out[k] = "[redacted]"
					continue
				}
			}
			out[k] = redactValue(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
		return x
	}
	return v
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
