//go:build unix

package collect

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestPasswdLongFirstLine: a 70 KB first line in /etc/passwd (bufio.Scanner's
// 64 KiB trap) does not end the scan: the account after it, whose home is
// outside /home, is walked; a line that is not seven fields is logged.
func TestPasswdLongFirstLine(t *testing.T) {
	root := t.TempDir()
	put(t, root, "srv/svc/.claude/history.jsonl", "{}\n")
	long := "junk:" + strings.Repeat("A", 70<<10) + ":0:0::/nonexistent:/bin/false"
	put(t, root, "etc/passwd", long+"\nnot a passwd line\nsvc:x:998:998::/srv/svc:/bin/sh\n")
	var logs bytes.Buffer
	b, res, err := run(t, t.Context(), Options{Root: root, LogWriter: &logs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Homes) != 1 || res.Homes[0].User != "svc" || res.Homes[0].Orig != "/srv/svc" || res.Homes[0].Source != "passwd" {
		t.Fatalf("homes %+v", res.Homes)
	}
	_, vr := verify(t, b)
	if e := rowOf(t, byPath(vr.Manifest), "/srv/svc/.claude/history.jsonl"); e.Status != "collected" || e.User != "svc" {
		t.Fatalf("row %+v", e)
	}
	if !strings.Contains(logs.String(), `{"level":"warn","line":2,"fields":1,"time":`) || !strings.Contains(logs.String(), `"message":"/etc/passwd line is not name:password:uid:gid:gecos:home:shell: skipped"}`) {
		t.Fatalf("log:\n%s", logs.String())
	}
}

func TestScanLinesHasNoLengthTrap(t *testing.T) {
	in := "a\r\n" + strings.Repeat("x", 300) + "\n\nlast"
	var got []string
	err := scanLines(strings.NewReader(in), 100, func(n int, line []byte, tooLong bool) {
		got = append(got, fmt.Sprintf("%d:%d:%v:%.3s", n, len(line), tooLong, line))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1:1:false:a 2:100:true:xxx 3:0:false: 4:4:false:las"; strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
	got = nil
	scanLines(strings.NewReader(strings.Repeat("y", 100)+"\n"), 100, func(n int, line []byte, tooLong bool) {
		got = append(got, fmt.Sprintf("%d:%d:%v", n, len(line), tooLong))
	})
	if strings.Join(got, " ") != "1:100:false" {
		t.Fatalf("a line of exactly the limit: %v", got)
	}
}
