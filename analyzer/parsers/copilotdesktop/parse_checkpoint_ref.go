package copilotdesktop

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var commitHash = regexp.MustCompile(`^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?$`)

// parseCheckpointRef reads one git ref file
// .copilot/repos/<name>/.git/refs/copilot/checkpoints/<session id>/<seq>/<event id>
// whose content is the checkpoint commit: one "checkpoint ref <seq>:
// commit <hash> event <event id> (file mtime)" row at the file's
// modification time, session_id the session id from the path. The refs
// outlive a session deleted from the app.
func parseCheckpointRef(ctx context.Context, in *parser.Input, out parser.Sink) error {
	const marker = "/.git/refs/copilot/checkpoints/"
	i := strings.Index(in.Path, marker)
	if i < 0 {
		out.Problem(0, "not a checkpoint ref path")
		return nil
	}
	parts := strings.Split(in.Path[i+len(marker):], "/")
	if len(parts) != 3 {
		out.Problem(0, "checkpoint ref path is not <session>/<seq>/<event>")
		return nil
	}
	sid, seq, evID := parts[0], parts[1], parts[2]
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 4096))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	hash := strings.TrimSpace(string(b))
	if hash == "" {
		out.Problem(1, "empty ref")
		hash = "-"
	} else if !commitHash.MatchString(hash) {
		out.Problem(1, "ref content is not a commit hash")
	}
	e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: 1, RecordID: sid + "/checkpoint/" + seq,
		Text: fmt.Sprintf("checkpoint ref %s: commit %s event %s (file mtime)", seq, hash, evID)}
	if in.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
	} else {
		e.Time, e.TimeBasis = in.MTime.UTC(), timeline.TimeFileMTime
	}
	out.Event(e)
	return ctx.Err()
}
