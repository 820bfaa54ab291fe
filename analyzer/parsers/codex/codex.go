package codex

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"path"
	"regexp"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

const agentName = "codex-cli"

// Parsers returns the Codex CLI parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "codex-cli/rollout", Agent: agentName, Version: 1,
			Actions: actions,
			Targets: []string{"sessions"},
			Names:   []string{"rollout-*.jsonl", "rollout-*.jsonl.zst", "rollout-*.json"},
			Doc:     "Codex rollouts (sessions/ and archived_sessions/, also .jsonl.zst and the TypeScript CLI's .json): prompts, replies, reasoning summaries, tool calls and results, model and permission-mode changes",
		}, parseRollout),
		parser.New(parser.Spec{
			ID: "codex-cli/history", Agent: agentName, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "history.jsonl stamps a prompt (seconds) when it is submitted, the rollout the same moment"},
			Targets: []string{"history"},
			Names:   []string{"history.jsonl"},
			Doc:     "Codex history.jsonl: every prompt typed, with its session id (secondary source)",
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "codex-cli/config", Agent: agentName, Version: 1,
			Actions: actions,
			Targets: []string{"config"},
			Names:   []string{"config.toml", "*.rules"},
			Doc:     "Codex config.toml and rules/*.rules: standing permission settings (approval policy, sandbox, project trust, exec-policy rules)",
		}, parseConfig),
		parser.New(parser.Spec{
			ID: "codex-cli/state-db", Agent: agentName, Version: 1,
			Actions: actions,
			Secondary: &parser.Secondary{Window: time.Hour, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "a thread row is stamped at its creation and update (seconds), the first prompt up to a turn later"},
			Targets: []string{"state-db"},
			Names:   []string{"state_*.sqlite"},
			Doc:     "Codex state_<N>.sqlite threads table: one thread record and its first prompt per thread (secondary source)",
		}, parseStateDB),
	}
}

// openContent opens the input, decompressing a .zst file.
func openContent(in *parser.Input) (io.ReadCloser, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(strings.ToLower(in.Path), ".zst") {
		return rc, nil
	}
	dec, err := zstd.NewReader(rc, zstd.WithDecoderConcurrency(1))
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("zstd: %w", err)
	}
	return &zstdCloser{dec: dec, under: rc}, nil
}

type zstdCloser struct {
	dec   *zstd.Decoder
	under io.Closer
}

func (z *zstdCloser) Read(p []byte) (int, error) { return z.dec.Read(p) }
func (z *zstdCloser) Close() error {
	z.dec.Close()
	return z.under.Close()
}

// walkRecords calls fn for each JSON object of a JSON Lines input. A line
// cut short by a killed writer, with the next record glued on, gives the
// whole records it holds and lost=true.
// out (nil for a pre-scan) hears of NUL runs and over-long lines.
func walkRecords(ctx context.Context, in *parser.Input, out parser.Sink, fn func(n int64, rec []byte, lost bool)) error {
	rc, err := openContent(in)
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if len(objs) == 0 {
			fn(n, nil, true)
			return nil
		}
		for i, o := range objs {
			fn(n, o, lost && i == 0)
		}
		return nil
	})
}

// parseTime reads an RFC 3339 time (the rollouts' "%Y-%m-%dT%H:%M:%S.%3fZ").
func parseTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// hashText keys a text for duplicate detection (whitespace-trimmed).
func hashText(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(s)))
	return h.Sum64()
}

// compactJSON returns raw as compact JSON, or "" when it is empty/null.
func compactJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		q, _ := json.Marshal(string(raw))
		return string(q)
	}
	return b.String()
}

// jsonString returns raw decoded as a JSON string, and whether it was one.
func jsonString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// displayFile names a file relative to its .codex folder (config.toml,
// rules/default.rules), or by its base name.
func displayFile(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	parts := strings.Split(p, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == ".codex" || strings.HasPrefix(parts[i], ".codex-") {
			return strings.Join(parts[i+1:], "/")
		}
	}
	return path.Base(p)
}

var uuidRe = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// idFromName is the session uuid at the end of a rollout file name, used
// only when the file has no session_meta record.
func idFromName(p string) string {
	m := uuidRe.FindAllString(path.Base(strings.ReplaceAll(p, "\\", "/")), -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}
