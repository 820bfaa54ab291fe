package codexhome

import (
	"bufio"
	"bytes"
	"context"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseMemorySummary reads memories/rollout_summaries/<stem>.md, the
// summary Codex's memory pipeline writes of one thread
// (codex-rs/memories write_rollout_summary_for_thread @30bdfec59ddf and
// earlier): header lines "thread_id: <id>", "updated_at: <RFC 3339>",
// "rollout_path: ..", "cwd: ..", "git_branch: .." (some versions name the
// file by the thread id, a fork writes "process_id:"), a blank line, then
// the summary the model wrote. One system row "memory summary: <text>" in
// the thread's session at updated_at (ProjectPath the cwd, RecordID
// "<thread>#memory_summary"); a file without the header is one row in the
// session the file name gives, at the file's mtime.
func parseMemorySummary(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxConfigBytes)
	if err != nil {
		out.Problem(0, "memory summary not read: "+err.Error())
		return nil
	}
	head := map[string]string{}
	rest := b
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, maxConfigBytes)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		n += len(line) + 1
		if strings.TrimSpace(line) == "" {
			rest = b[min(n, len(b)):]
			break
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok || strings.ContainsAny(k, " \t#") {
			head = map[string]string{}
			rest = b
			break
		}
		head[k] = strings.TrimSpace(v)
	}
	sid := head["thread_id"]
	if sid == "" {
		sid = head["process_id"]
	}
	if sid == "" {
		sid = idFromName(in.Path)
	}
	e := timeline.Event{SessionID: sid, ProjectPath: head["cwd"], TurnType: timeline.System, SourceLine: 1,
		Text: "memory summary: " + strings.TrimSpace(string(rest))}
	if sid != "" {
		e.RecordID = sid + "#memory_summary"
	}
	if t, ok := parser.ParseTime(head["updated_at"]); ok {
		e.Time = t
	} else if !in.MTime.IsZero() {
		e.Time, e.TimeBasis = in.MTime, timeline.TimeFileMTime
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
	return nil
}
