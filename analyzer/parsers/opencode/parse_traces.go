package opencode

import (
	"bufio"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// createdRe is opencode's log line for a new session (session/index.ts
// log.info("created", info)): "timestamp=<UTC> level=INFO ...
// message=created id=ses_... slug=... version=... projectID=...
// directory=...".
var createdRe = regexp.MustCompile(`^timestamp=(\S+) level=\S+ .*\bmessage=created id=(ses_[0-9A-Za-z]+)(.*)$`)

var logKVRe = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)

// traces gives the sessions that existed but are gone (issue 30,
// recovered trace): a session the store's own log folder
// (log/*.log beside the database) names as created, whose rows are
// neither in the store nor recovered from its freed space, is one system
// row "session existed: ..." at the log line's time, from the log line
// (its source file and line), and reads recovered trace in
// sessions.jsonl. known holds the sessions that gave rows.
func (r *dbReader) traces(known map[string]bool) {
	if r.secondary {
		return
	}
	logs := r.in.List(parser.GlobEscape(path.Dir(r.in.Path)) + "/log/*.log")
	seen := map[string]bool{}
	for _, f := range logs {
		if r.ctx.Err() != nil {
			return
		}
		rc, err := r.in.OpenRelated(f.Path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(rc)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		var n int64
		for sc.Scan() {
			n++
			if n%4096 == 0 && r.ctx.Err() != nil {
				break
			}
			m := createdRe.FindStringSubmatch(sc.Text())
			if m == nil || known[m[2]] || seen[m[2]] {
				continue
			}
			seen[m[2]] = true
			kv := map[string]string{}
			for _, p := range logKVRe.FindAllStringSubmatch(m[3], -1) {
				kv[p[1]] = strings.Trim(p[2], `"`)
			}
			t, err := time.Parse(time.RFC3339Nano, m[1])
			e := timeline.Event{SessionID: m[2], ProjectPath: kv["directory"], TurnType: timeline.System,
				SourceFile: f.Path, SourceLine: n, RecordID: m[2] + "#trace"}
			if err == nil {
				e.Time = t.UTC()
			} else {
				e.TimeBasis = timeline.TimeNone
			}
			var what []string
			for _, k := range []string{"slug", "version", "projectID"} {
				if v := kv[k]; v != "" {
					what = append(what, k+" "+v)
				}
			}
			e.Text = "session existed: created"
			if len(what) > 0 {
				e.Text += " (" + strings.Join(what, ", ") + ")"
			}
			e.Text += "; its rows are gone from " + path.Base(r.in.Path) + " (named by the opencode log)"
			r.out.Event(e)
			r.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: r.in.Agent, SessionID: m[2]}, Recovered: "trace"})
		}
		rc.Close()
	}
}
