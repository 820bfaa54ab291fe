package main

import (
	"io"
	"sync"
	"time"

	"github.com/doubleagent/doubleagent/collector/collect"
)

// term shares stderr, a terminal, between the progress line and the log:
// a log line first erases the progress line ("\r\x1b[K"), is written on a
// line of its own, and the progress line is drawn again below it, so the
// two never run into each other. finish ends the progress line with a
// newline before the summary.
type term struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	last  time.Time
	line  string // the progress line as last drawn ("" when none)
	p     *collect.Progress
}

func newTerm(w io.Writer) *term { return &term{w: w, start: time.Now()} }

// logWriter is the writer the log goes through (each zerolog event is
// one Write).
func (t *term) logWriter() io.Writer { return termLog{t} }

type termLog struct{ t *term }

func (l termLog) Write(p []byte) (int, error) {
	t := l.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.line != "" {
		if _, err := io.WriteString(t.w, "\r\x1b[K"); err != nil {
			return 0, err
		}
	}
	n, err := t.w.Write(p)
	if err == nil && t.line != "" {
		_, err = io.WriteString(t.w, t.line)
	}
	return n, err
}

// progress draws the progress line, at most five times a second.
func (t *term) progress(p collect.Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p = &p
	now := time.Now()
	if now.Sub(t.last) < 200*time.Millisecond {
		return
	}
	t.last = now
	t.line = formatProgress(p, now.Sub(t.start))
	io.WriteString(t.w, "\r\x1b[K"+t.line)
}

// finish draws the progress line with the final counts and ends it, so
// what follows starts on a line of its own.
func (t *term) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.p != nil {
		io.WriteString(t.w, "\r\x1b[K"+formatProgress(*t.p, time.Since(t.start))+"\n")
	}
	t.line, t.p = "", nil
}
