package pi

import (
	"bufio"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parsePromptHistory reads little-coder's JSON array of up to 100 prompt
// strings, oldest first, token by token so a cut array keeps what came
// before the cut.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := json.NewDecoder(bufio.NewReader(rc))
	tok, err := dec.Token()
	if err != nil {
		if err.Error() != "EOF" {
			out.Problem(0, "prompt history: "+err.Error())
		}
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		out.Problem(1, parser.NotJSONArray("prompt history", nil))
		return nil
	}
	for i := int64(1); dec.More(); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			out.Problem(i, "prompt history cut: "+parser.JSONError(err))
			return nil
		}
		s, ok := v.(string)
		if !ok || strings.TrimSpace(s) == "" {
			out.Skip(i, "empty_prompt")
			continue
		}
		out.Event(timeline.Event{TimeBasis: timeline.TimeNone, TurnType: timeline.User, Text: s, SourceLine: i, Secondary: true})
	}
	return nil
}

var sessionFileRx = regexp.MustCompile(`_([^_/]+)\.jsonl$`)

// parseCheckpoints gives one row per checkpoint directory, emitted while
// parsing its alphabetically first file.
func parseCheckpoints(ctx context.Context, in *parser.Input, out parser.Sink) error {
	dir := path.Dir(in.Path)
	set := path.Base(dir)
	if in.Base() == "snapshots.json" && path.Base(path.Dir(dir)) == "checkpoints" {
		// the v0.0.x layout: <checkpoints>/<sid>/snapshots.json
		return parseLCSnapshots(ctx, in, out)
	}
	if set == "backups" && path.Base(path.Dir(path.Dir(dir))) == "checkpoints" {
		// a v0.0.x backup copy, <checkpoints>/<sid>/backups/<hash>@v<N>:
		// snapshots.json names it on its snapshot's row
		out.Skip(0, "named_by_snapshots_json")
		return nil
	}
	if path.Base(path.Dir(dir)) != "checkpoints" {
		out.Skip(0, "no_evidence:not_a_checkpoint_file")
		return nil // not <checkpoints>/<set>/<file>
	}
	var files []parser.File
	for _, f := range in.List(parser.GlobEscape(dir) + "/*") {
		if f.Base() != "snapshots.json" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		files = []parser.File{in.File}
	}
	if files[0].Path != in.Path {
		// listed on the row of the set's first file
		out.Skip(0, "listed_with_checkpoint_set")
		return nil
	}
	var first time.Time
	var names []string
	for _, f := range files {
		if !f.MTime.IsZero() && (first.IsZero() || f.MTime.Before(first)) {
			first = f.MTime
		}
		n := f.Base()
		if strings.HasSuffix(n, ".absent") {
			n = strings.TrimSuffix(n, ".absent") + " (did not exist)"
		}
		names = append(names, n)
	}
	e := timeline.Event{Time: first, TimeBasis: timeline.TimeFileMTime, TurnType: timeline.System}
	if first.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	what := "no session file (" + set + ")"
	note := ""
	if m := sessionFileRx.FindStringSubmatch(set); m != nil {
		e.SessionID = m[1]
		what = "pi session " + set
		note = ", session file not collected"
		if home := homeOf(in.Path); home != "" {
			for _, f := range in.List(parser.GlobEscape(home) + "/.pi/agent/sessions/*/" + parser.GlobEscape(set)) {
				if id, cwd, ok := sessionHeader(ctx, in, f.Path, out); ok {
					if id != "" {
						e.SessionID = id
					}
					e.ProjectPath, note = cwd, ""
					break
				}
			}
		}
	}
	e.Text = fmt.Sprintf("little-coder checkpoints for %s: %d pre-edit file(s)%s: %s", what, len(names), note, strings.Join(names, "; "))
	out.Event(e)
	return nil
}

// sessionHeader reads the id and cwd of a collected pi session file.
func sessionHeader(ctx context.Context, in *parser.Input, p string, sink parser.Sink) (id, cwd string, ok bool) {
	rc, err := in.OpenRelated(p)
	if err != nil {
		return "", "", false
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, nil, func(_ int64, line []byte) error {
		var h pisession.Header
		if json.Unmarshal(line, &h) == nil && h.Type == "session" {
			id, cwd, ok = h.ID, h.Cwd, true
		}
		return errDone
	})
	if err != nil && err != errDone && ctx.Err() == nil {
		sink.Problem(0, fmt.Sprintf("reading the header of %s: %v", p, err))
	}
	return id, cwd, ok
}

type doneErr struct{}

func (doneErr) Error() string { return "done" }

var errDone error = doneErr{}
