package parser

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type histSink struct{ got []string }

func (s *histSink) Event(timeline.Event)          {}
func (s *histSink) Session(timeline.SessionState) {}
func (s *histSink) Problem(l int64, m string) {
	s.got = append(s.got, fmt.Sprintf("problem %d %s", l, m))
}
func (s *histSink) Report(l int64, k, m string) {
	s.got = append(s.got, fmt.Sprintf("report %d %s %s", l, k, m))
}
func (s *histSink) Skip(l int64, r string) { s.got = append(s.got, fmt.Sprintf("skip %d %s", l, r)) }

func TestFileHistory(t *testing.T) {
	in := "+headless first\n\n# 2026-08-05 08:55:10.123456\n+deploy\n\n# 2026-08-05 08:56:00\n+write a haiku\n+about disks\nstray\n"
	s := &histSink{}
	err := FileHistory(context.Background(), strings.NewReader(in), s, func(line int64, at, text string) {
		s.got = append(s.got, fmt.Sprintf("entry %d %q %q", line, at, text))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`entry 1 "" "headless first"`,
		`skip 4 continuation`,
		`entry 3 "2026-08-05 08:55:10.123456" "deploy"`,
		`skip 7 continuation`,
		`skip 8 continuation`,
		`report 9 skipped_record not a prompt history line`,
		`entry 6 "2026-08-05 08:56:00" "write a haiku\nabout disks"`,
	}
	if strings.Join(s.got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s", strings.Join(s.got, "\n"))
	}
}
