package opencode

import (
	"bufio"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// createdRe is opencode's log line for a new session (session/index.ts
// log.info("created", info)): "timestamp=<UTC> level=INFO ...
// message=created id=ses_... slug=... version=... projectID=...
// directory=... parentID=... title=...".
var createdRe = regexp.MustCompile(`^timestamp=(\S+) level=\S+ .*\bmessage=created id=(ses_[0-9A-Za-z]+)(.*)$`)

// mentionRe is any other log line naming a session: the session loop,
// stream and processor lines carry "session.id=ses_...", others
// "sessionID=ses_...".
var mentionRe = regexp.MustCompile(`^timestamp=(\S+) .*?\bsession(?:\.id|ID)=(ses_[0-9A-Za-z]+)`)

var logKVRe = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)

var logMessageRe = regexp.MustCompile(`\bmessage=(\S+)`)

// maxTraceSessions bounds the gone sessions one store's logs can name (a
// log naming more is cut: a carve-style problem says so).
const maxTraceSessions = 100000

// logTrace is what the log says of one gone session: the line that first
// names it (its created line when the log kept it), the latest line that
// names it, and how many lines do.
type logTrace struct {
	id          string
	first, last logMention
	created     map[string]string // the created line's fields, nil without one
	lines       int64
}

type logMention struct {
	file string
	line int64
	time time.Time
	ok   bool // time parsed
	msg  string
}

// traces gives the sessions that existed but are gone (issue 30,
// recovered trace): a session the store's own log folder (log/*.log
// beside the database) names, by its created line or by any line of its
// session loop, whose rows are neither in the store nor recovered from its
// freed space. Its first row "session existed: ..." is at the created
// line (else the first line naming it), from that line, with the
// project, parent and title the created line records; a second row
// "session last named by the opencode log ..." is at the latest line
// naming it, so the session's span is what the log saw. It reads recovered
// trace in sessions.jsonl. known holds the sessions that gave rows.
func (r *dbReader) traces(known map[string]bool) {
	if r.secondary {
		return
	}
	logs := r.in.List(parser.GlobEscape(path.Dir(r.in.Path)) + "/log/*.log")
	byID := map[string]*logTrace{}
	var order []*logTrace
	dropped := 0
	for _, f := range logs {
		if r.ctx.Err() != nil {
			return
		}
		rc, err := r.in.OpenRelated(f.Path)
		if err != nil {
			r.out.Problem(0, fmt.Sprintf("opencode log %s not read for gone sessions: %v", f.Path, err))
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
			text := sc.Text()
			var ts, id string
			var created map[string]string
			if m := createdRe.FindStringSubmatch(text); m != nil {
				ts, id = m[1], m[2]
				created = map[string]string{}
				for _, p := range logKVRe.FindAllStringSubmatch(m[3], -1) {
					created[p[1]] = unquoteLog(p[2])
				}
			} else if m := mentionRe.FindStringSubmatch(text); m != nil {
				ts, id = m[1], m[2]
			} else {
				continue
			}
			if known[id] {
				continue
			}
			mt := logMention{file: f.Path, line: n}
			if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				mt.time, mt.ok = t.UTC(), true
			}
			if created != nil {
				mt.msg = "created"
			} else if mm := logMessageRe.FindStringSubmatch(text); mm != nil {
				mt.msg = mm[1]
			}
			tr := byID[id]
			if tr == nil {
				if len(order) == maxTraceSessions {
					dropped++
					continue
				}
				tr = &logTrace{id: id, first: mt, last: mt}
				byID[id] = tr
				order = append(order, tr)
			}
			tr.lines++
			if created != nil && tr.created == nil {
				tr.created, tr.first = created, mt
			}
			if mt.ok && (!tr.last.ok || !mt.time.Before(tr.last.time)) {
				tr.last = mt
			}
		}
		if err := sc.Err(); err != nil {
			r.out.Problem(n+1, fmt.Sprintf("opencode log %s read for gone sessions up to line %d: %v", f.Path, n, err))
		}
		rc.Close()
	}
	if dropped > 0 {
		r.out.Problem(0, fmt.Sprintf("the opencode log names more than %d gone sessions: %d line(s) naming others not read", maxTraceSessions, dropped))
	}
	db := path.Base(r.in.Path)
	for _, tr := range order {
		r.traceRows(tr, db)
	}
}

// traceRows writes the rows of one gone session.
func (r *dbReader) traceRows(tr *logTrace, db string) {
	at := func(e *timeline.Event, m logMention) {
		e.SourceFile, e.SourceLine = m.file, m.line
		if m.ok {
			e.Time = m.time
		} else {
			e.TimeBasis = timeline.TimeNone
		}
	}
	e := timeline.Event{SessionID: tr.id, TurnType: timeline.System, RecordID: tr.id + "#trace"}
	at(&e, tr.first)
	if kv := tr.created; kv != nil {
		e.ProjectPath = kv["directory"]
		if p := kv["parentID"]; strings.HasPrefix(p, "ses_") {
			e.ParentSessionID = p
		}
		var what []string
		for _, k := range []string{"slug", "version", "projectID"} {
			if v := kv[k]; v != "" {
				what = append(what, k+" "+v)
			}
		}
		if v := kv["title"]; v != "" {
			what = append(what, "title "+strconv.Quote(v))
		}
		e.Text = "session existed: created"
		if len(what) > 0 {
			e.Text += " (" + strings.Join(what, ", ") + ")"
		}
	} else {
		e.Text = "session existed: named by the opencode log (message " + tr.first.msg + "), its created line not kept"
	}
	e.Text += "; its rows are gone from " + db + " (named by the opencode log)"
	r.out.Event(e)
	if tr.lines > 1 && (tr.last.file != tr.first.file || tr.last.line != tr.first.line) {
		l := timeline.Event{SessionID: tr.id, ProjectPath: e.ProjectPath, TurnType: timeline.System, RecordID: tr.id + "#trace-last",
			Text: fmt.Sprintf("session last named by the opencode log (message %s): %d line(s) name it", tr.last.msg, tr.lines)}
		at(&l, tr.last)
		r.out.Event(l)
	}
	r.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: r.in.Agent, SessionID: tr.id}, Recovered: "trace"})
}

// unquoteLog reads a log value: a quoted one ("New session - ...") as the
// string it quotes, "undefined" as empty.
func unquoteLog(v string) string {
	if strings.HasPrefix(v, `"`) {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
		return strings.Trim(v, `"`)
	}
	if v == "undefined" {
		return ""
	}
	return v
}
