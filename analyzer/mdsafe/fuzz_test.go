package mdsafe_test

import (
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
	"github.com/doubleagent/doubleagent/analyzer/report/reporttest"
)

// FuzzMarkdown: any text, put in a heading, a table cell, a list item and
// a code block the way the reports put evidence, renders (goldmark, GFM,
// raw HTML kept) with nothing live and no forged line.
func FuzzMarkdown(f *testing.F) {
	for _, s := range reporttest.Hostile("http://127.0.0.1:9/b.png") {
		f.Add(s)
	}
	f.Add("```\n~~~\n" + strings.Repeat("`", 9))
	f.Fuzz(func(t *testing.T, s string) {
		t1 := mdsafe.Text(s)
		if strings.ContainsAny(t1, "\r\n") {
			t.Fatalf("Text(%q) holds a line ending", s)
		}
		md := "## h " + t1 + "\n\n| a | b |\n|---|---|\n| " + t1 + " | x |\n\n- item " + t1 + "\n\nlabel " + t1 + "\n\n" + mdsafe.CodeBlock("json", s) + "\nafter\n"
		for _, b := range reporttest.Check([]byte(md)) {
			t.Fatalf("%q: %s\n%s", s, b, md)
		}
		if !strings.HasSuffix(md, mdsafe.Fence(s)+"\n\nafter\n") && !strings.Contains(md, "\nafter\n") {
			t.Fatalf("the code block is not closed")
		}
	})
}
