package codexhome

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/klauspost/compress/zstd"
)

// flavor is Codex or a fork of it that writes Codex's files under its own
// home folder: the catalog agent the rows belong to and the folder name
// that config rows name their files relative to.
type flavor struct {
	agent string // catalog agent name
	home  string // home folder name (".codex"); "<home>-<name>" homes too
}

// Flavor is Codex or a fork that keeps Codex's rollouts, history.jsonl,
// config.toml, rules, state_<N>.sqlite, thread_history_<N>.sqlite,
// logs_<N>.sqlite and memories under its own home folder, with catalog
// targets named as Codex's ("sessions", "history", "config", "state-db",
// "memories").
type Flavor struct {
	// Agent is the catalog agent name; parser IDs are "<Agent>/rollout",
	// "<Agent>/history", "<Agent>/config", "<Agent>/state-db",
	// "<Agent>/thread-history", "<Agent>/logs-db", "<Agent>/memory-summary".
	Agent string
	// Home is the home folder name (".codex", ".openinterpreter").
	Home string
	// Who names the agent in the parsers' descriptions ("Codex",
	// "Open Interpreter (Codex fork)").
	Who string
}

// Parsers returns the readers of the Codex home for one flavor: the same
// readers, rows, secondary windows and actions table under the flavor's
// agent name and home folder.
func Parsers(f Flavor) []parser.Parser {
	return flavor{agent: f.Agent, home: f.Home}.parsers(f.Who)
}

func (fl flavor) parsers(who string) []parser.Parser {
	ps := []parser.Parser{
		parser.New(parser.Spec{
			ID: fl.agent + "/rollout", Agent: fl.agent, Version: 8,
			Actions: Actions,
			Targets: []string{"sessions"},
			Names:   []string{"rollout-*.jsonl", "rollout-*.jsonl.zst", "rollout-*.json"},
			Doc:     who + " rollouts (sessions/ and archived_sessions/, also .jsonl.zst and the TypeScript CLI's .json): prompts, replies, reasoning summaries, tool calls and results, model and permission-mode changes",
		}, fl.parseRollout),
		parser.New(parser.Spec{
			ID: fl.agent + "/history", Agent: fl.agent, Version: 4, Trace: true,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "history.jsonl stamps a prompt (seconds) when it is submitted, the rollout the same moment"},
			Targets: []string{"history"},
			Names:   []string{"history.jsonl"},
			Doc:     who + " history.jsonl: every prompt typed, with its session id (secondary source)",
		}, parseHistory),
		parser.New(parser.Spec{
			ID: fl.agent + "/config", Agent: fl.agent, Version: 2,
			Actions: Actions,
			Targets: []string{"config"},
			Names:   []string{"config.toml", "*.rules"},
			Doc:     who + " config.toml and rules/*.rules: standing permission settings (approval policy, sandbox, project trust, exec-policy rules)",
		}, fl.parseConfig),
		parser.New(parser.Spec{
			ID: fl.agent + "/state-db", Agent: fl.agent, Version: 5, Trace: true,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: time.Hour, TurnTypes: []timeline.TurnType{timeline.User, timeline.System},
				Basis: "a thread row is stamped at its creation and update (seconds), the first prompt up to a turn later"},
			Targets: []string{"state-db"},
			Names:   []string{"state_*.sqlite"},
			Doc:     who + " state_<N>.sqlite threads table: one thread record and its first prompt per thread (secondary source); deleted threads carved from freed space and stale WAL frames (recovered)",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: fl.agent + "/thread-history", Agent: fl.agent, Version: 3,
			Actions: Actions,
			Secondary: &parser.Secondary{Window: time.Minute, TurnTypes: []timeline.TurnType{timeline.User, timeline.Assistant, timeline.Thinking, timeline.ToolUse, timeline.ToolResult, timeline.System},
				Basis: "thread_items are projected from the rollout lines as they are written (created_at_ms, milliseconds)"},
			Targets: []string{"state-db"},
			Names:   []string{"thread_history_*.sqlite"},
			Doc:     who + " thread_history_<N>.sqlite thread_turns and thread_items: the turns and items a thread's collected rollout does not hold (secondary source)",
		}, fl.parseThreadHistory),
		parser.New(parser.Spec{
			ID: fl.agent + "/logs-db", Agent: fl.agent, Version: 3,
			Actions: Actions,
			Targets: []string{"state-db"},
			Names:   []string{"logs_*.sqlite"},
			Doc:     who + " logs_<N>.sqlite: approvals given (ExecApproval, PatchApproval submissions and codex.tool_decision events) as permission decisions, and /feedback reports sent to Sentry",
		}, parseLogsDB),
		&underParser{Parser: parser.New(parser.Spec{
			ID: fl.agent + "/memory-summary", Agent: fl.agent, Version: 1,
			Actions: Actions,
			Targets: []string{"memories"},
			Names:   []string{"*.md"},
			Doc:     who + " memories/rollout_summaries/*.md: the memory pipeline's summary of a thread, one row each",
		}, parseMemorySummary), under: "/memories/rollout_summaries/"},
	}
	return ps
}

// underParser matches only files under a folder of the home (a path
// segment such as "/memories/rollout_summaries/").
type underParser struct {
	parser.Parser
	under string
}

func (p *underParser) Match(f *parser.File) bool {
	return p.Parser.Match(f) && strings.Contains(strings.ReplaceAll(f.Path, "\\", "/"), p.under)
}

// Spec returns the wrapped parser's spec (for the generated parser list).
func (p *underParser) Spec() parser.Spec { return p.Parser.(parser.Specced).Spec() }

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
// whole records it holds, the first with kept = their number (the caller
// words it parser.GluedProblem(kept, true)); kept is 0 otherwise, and rec
// is nil for a line with no whole record.
// out (nil for a pre-scan) hears of NUL runs and over-long lines.
func walkRecords(ctx context.Context, in *parser.Input, out parser.Sink, fn func(n int64, rec []byte, kept int)) error {
	rc, err := openContent(in)
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if len(objs) == 0 {
			fn(n, nil, 0)
			return nil
		}
		for i, o := range objs {
			kept := 0
			if lost && i == 0 {
				kept = len(objs)
			}
			fn(n, o, kept)
		}
		return nil
	})
}

// hashText keys a text for duplicate detection (whitespace-trimmed).
func hashText(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(s)))
	return h.Sum64()
}

// displayFile names a file relative to the flavor's home folder
// (config.toml, rules/default.rules), or by its base name.
func (fl flavor) displayFile(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	parts := strings.Split(p, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == fl.home || strings.HasPrefix(parts[i], fl.home+"-") {
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
