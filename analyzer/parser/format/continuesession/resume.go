package continuesession

import (
	"bufio"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// ResumeMsg is what cn logs when --resume loads a session
// (extensions/cli/src/commands/chat.ts initializeChatHistory). The line
// names no session: --resume takes the session file written last
// (session.ts loadSession, by mtime).
const ResumeMsg = "Resuming previous session..."

// maxLogScan bounds what is read of each related cn log for resume lines.
const maxLogScan = 64 << 20

// resumeLine is one "Resuming previous session..." line: its time (host
// local, read as UTC, as every cn.log time) and where it is.
type resumeLine struct {
	At   time.Time
	File string
	Line int64
}

// ContinueDir returns the .continue directory of a file under it
// (sessions/<id>.json, logs/cn.log).
func ContinueDir(p string) string {
	return path.Dir(path.Dir(strings.ReplaceAll(p, "\\", "/")))
}

// resumeLines reads the resume lines of every collected cn log of the
// .continue directory dir (logs/cn.log and the rotated cn<N>.log).
func resumeLines(in *parser.Input, dir string) []resumeLine {
	var out []resumeLine
	files := in.List(dir + "/logs/cn*.log")
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		rc, err := in.OpenRelated(f.Path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(io.LimitReader(rc, maxLogScan))
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		var n int64
		for sc.Scan() {
			n++
			if t, ok := resumeTime(sc.Text()); ok {
				out = append(out, resumeLine{At: t, File: f.Path, Line: n})
			}
		}
		rc.Close()
	}
	return out
}

// resumeTime reads the time of a resume line.
func resumeTime(line string) (time.Time, bool) {
	m := LogLine.FindStringSubmatch(line)
	if m == nil || strings.TrimSpace(ANSI.ReplaceAllString(m[4], "")) != ResumeMsg {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02 15:04:05.999", m[1])
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// SessionSpan is a session file's known bounds: created (sessions.json
// dateCreated) and its last write (the file's mtime).
type SessionSpan struct {
	ID               string
	Created, Written time.Time
}

// SessionSpans lists the collected session files of the .continue
// directory dir with their bounds (an unknown bound is zero).
func SessionSpans(in *parser.Input, dir string) []SessionSpan {
	created := map[string]time.Time{}
	if rc, err := in.OpenRelated(dir + "/sessions/sessions.json"); err == nil {
		entries, _ := readIndex(rc)
		rc.Close()
		for _, e := range entries {
			if t, ok := e.created(); ok {
				created[e.id()] = t
			}
		}
	}
	var out []SessionSpan
	for _, f := range in.List(dir + "/sessions/*.json") {
		if f.Base() == "sessions.json" {
			continue
		}
		id := strings.TrimSuffix(f.Base(), ".json")
		out = append(out, SessionSpan{ID: id, Created: created[id], Written: f.MTime.UTC()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// AttributeResume names the session a resume at t resumed: the one session
// created before t and written at or after it (a resumed session is saved
// by the resumed run). It returns "" and the number of candidates when
// none or several qualify (a host clock zone other than UTC shifts every
// cn.log time, which this check then rejects).
func AttributeResume(spans []SessionSpan, t time.Time) (string, int) {
	var cands []string
	for _, s := range spans {
		if s.Created.IsZero() || s.Written.IsZero() {
			continue
		}
		if s.Created.Before(t) && !s.Written.Before(t) {
			cands = append(cands, s.ID)
		}
	}
	if len(cands) == 1 {
		return cands[0], 1
	}
	return "", len(cands)
}

// sessionResumes returns the times of the resumes cn.log pins to session
// id (see AttributeResume), after created, sorted.
func sessionResumes(in *parser.Input, id string, created time.Time) []time.Time {
	dir := ContinueDir(in.Path)
	spans := SessionSpans(in, dir)
	var out []time.Time
	for _, r := range resumeLines(in, dir) {
		if sid, _ := AttributeResume(spans, r.At); sid == id && r.At.After(created) {
			out = append(out, r.At)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	return out
}

// LogLine is the winston format of extensions/cli/src/util/logger.ts:
// "YYYY-MM-DD HH:mm:ss.SSS [<process tag>] [<level>]: <message>[ <meta JSON>]",
// the time in the host's local zone.
var LogLine = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) \[([^\]]*)\] \[([a-z]+)\]: (.*)$`)

// ANSI matches the chalk colour codes some messages carry.
var ANSI = regexp.MustCompile("\x1b\\[[0-9;]*m")
