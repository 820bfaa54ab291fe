package crush

import (
	"bufio"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxConfigBytes bounds the JSON files read whole.
const maxConfigBytes = 4 << 20

// parseProjects reads projects.json ({"projects":[{path, data_dir,
// last_accessed}]}, internal/projects/projects.go): one "project: <path>
// data_dir=<dir>" row per entry at its last access; SourceLine is the
// 1-based position in the array.
func parseProjects(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var doc struct {
		Projects []struct {
			Path         string `json:"path"`
			DataDir      string `json:"data_dir"`
			LastAccessed string `json:"last_accessed"`
		} `json:"projects"`
	}
	if err := json.NewDecoder(io.LimitReader(rc, maxConfigBytes)).Decode(&doc); err != nil {
		out.Problem(0, "not a projects.json object: "+parser.JSONError(err))
		return nil
	}
	for i, p := range doc.Projects {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := timeline.Event{TurnType: timeline.System, ProjectPath: p.Path, SourceLine: int64(i + 1)}
		e.Text = "project: " + p.Path
		if p.DataDir != "" {
			e.Text += " data_dir=" + p.DataDir
		}
		if t, err := time.Parse(time.RFC3339Nano, p.LastAccessed); err == nil && !t.IsZero() {
			e.Time = t.UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

// parseConfig gives the standing permission entries of a crush.json scope
// or a crushrc script, one "permission setting: <key>=<tool> (from <file>,
// file mtime)" row per tool: permissions.allowed_tools (tools that skip the
// prompt) and options.disabled_tools (tools hidden from the agent). Nothing
// else is read, so provider keys never reach the timeline.
func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	base := in.Base()
	if base == "crushrc" || base == ".crushrc" {
		return parseCrushrc(ctx, in, rc, out)
	}
	data, err := io.ReadAll(io.LimitReader(rc, maxConfigBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > maxConfigBytes {
		out.Problem(0, "larger than 4 MiB: not read")
		return nil
	}
	var cfg struct {
		Permissions struct {
			AllowedTools []string `json:"allowed_tools"`
		} `json:"permissions"`
		Options struct {
			DisabledTools []string `json:"disabled_tools"`
		} `json:"options"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	lines := strings.Split(string(data), "\n")
	file := parser.DisplayFile(&in.File)
	emit := func(key, tool string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineOf(lines, key, tool)
		e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, tool, file)
		out.Event(e)
	}
	for _, t := range cfg.Permissions.AllowedTools {
		emit("permissions.allowed_tools", t)
	}
	for _, t := range cfg.Options.DisabledTools {
		emit("options.disabled_tools", t)
	}
	return nil
}

// lineOf finds the 1-based line of a list entry: the first line after the
// key's last segment that holds the quoted value; 0 when not found.
func lineOf(lines []string, key, value string) int64 {
	seg := `"` + key[strings.LastIndexByte(key, '.')+1:] + `"`
	q, _ := json.Marshal(value)
	start := -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, seg) {
			start = i
		}
		if start >= 0 && strings.Contains(l[min(len(l), idxAfter(l, seg, i == start)):], string(q)) {
			return int64(i + 1)
		}
	}
	return 0
}

func idxAfter(l, seg string, first bool) int {
	if !first {
		return 0
	}
	return strings.Index(l, seg) + len(seg)
}

var permLineRe = regexp.MustCompile(`^\s*permissions\s+(allow|deny)\s+(.*)$`)

// parseCrushrc reads the permissions builtin lines of a crushrc script
// ("permissions allow <tool>..." and "permissions deny <tool>...",
// internal/shellconfig/permissions.go); the rest of the script is not
// interpreted.
func parseCrushrc(ctx context.Context, in *parser.Input, r io.Reader, out parser.Sink) error {
	file := parser.DisplayFile(&in.File)
	return parser.Lines(ctx, bufio.NewReader(r), out, func(n int64, line []byte) error {
		m := permLineRe.FindStringSubmatch(string(line))
		if m == nil {
			return nil
		}
		key := "permissions.allowed_tools"
		if m[1] == "deny" {
			key = "options.disabled_tools"
		}
		rest := m[2]
		if i := strings.IndexAny(rest, "#;&|"); i >= 0 {
			rest = rest[:i]
		}
		for _, t := range strings.Fields(rest) {
			t = strings.Trim(t, `"'`)
			if t == "" {
				continue
			}
			e := parser.SettingEvent(&in.File)
			e.SourceLine = n
			e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, t, file)
			out.Event(e)
		}
		return nil
	})
}
