// Package reporttest holds what the tests of the Markdown reports share:
// a timeline output folder whose every field is hostile evidence, and a
// check that renders Markdown with a real CommonMark library
// (github.com/yuin/goldmark with GFM tables, autolinks and raw HTML kept,
// as an ordinary Markdown viewer renders it) and reports anything that
// evidence made live.
package reporttest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	json "github.com/go-json-experiment/json/v1"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Hostile is evidence that tries every way into a Markdown document: raw
// HTML that runs or fetches (beacon is the URL it would fetch), links,
// images and autolinks, emphasis and code, table pipes, and a newline,
// carriage return or both followed by every line a block starts with.
func Hostile(beacon string) []string {
	lines := []string{"# forged heading", "> forged quote", "- forged item", "+ forged item", "* forged item", "1. forged item", "2) forged item",
		"| forged | table |", "|---|---|", "```", "~~~", "    forged code", "---", "===", "<div>forged</div>", "[forged]: " + beacon, "<!-- forged -->"}
	out := []string{
		`<img src=x onerror=alert(1)>`,
		`<iframe src=javascript:alert(1)></iframe>`,
		`<img src="` + beacon + `">`,
		`<script src="` + beacon + `"></script>`,
		`![forged](` + beacon + `)`,
		`[forged](` + beacon + `)`,
		`<` + beacon + `>`,
		beacon + ` www.example.com/x forged@example.com`,
		"`code` ``x`` *em* _em_ **strong** ~~del~~ &lt; &#60;img src=x&#62; \\<b> | pipe |",
		"\xff\xfe lone \xed\xa0\x80 surrogate",
		"\x1b]0;forged title\x07\x1b[2J\x1b[31mterminal escapes\x1b[0m",
		"bidi \u202eforged override\u202c and \u2066isolate\u2069",
		"C1 \u009b31m CSI and \u0085 NEL",
		"tags \U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065 and zero\u200bwidth",
	}
	for _, l := range lines {
		for _, nl := range []string{"\n", "\r", "\r\n"} {
			out = append(out, "x"+nl+l+nl+`<img src="`+beacon+`">`)
		}
	}
	return out
}

// WriteFolder writes a timeline output folder (timeline.jsonl,
// sessions.jsonl, inventory.json, problems.jsonl, run.json) in which
// every string field of every row, session, source, file and problem is
// one of Hostile(beacon), with two findings (returned for
// report.Options.Findings, as title, rule id, class and host strings).
func WriteFolder(dir, beacon string) error {
	h := Hostile(beacon)
	pick := func(i int) string { return h[i%len(h)] }
	var rows, sessions bytes.Buffer
	n := 0
	for i := range h {
		host, user, agent, sess := pick(i), pick(i+1), pick(i+2), pick(i+3)
		for j, tt := range []string{"user", "assistant", "tool_use", "tool_result", "system", "thinking"} {
			n++
			r := timeline.Row{TimestampUTC: fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", i%60, j), Host: host, User: user, Agent: agent, SessionID: sess,
				ProjectPath: pick(i + 4), TurnType: tt, Model: pick(i + 5), ToolName: pick(i + 6), ToolUseID: pick(i + 7), Text: pick(i + j),
				ToolInput: `{"command":` + string(timeline.AppendString(nil, pick(i+j+1))) + `}`, SourceFile: pick(i + 8), SourceLine: int64(j + 1),
				Parser: pick(i + 9), Action: pick(i + 10), RecordID: pick(i + 11), TimeBasis: pick(i + 12), Secondary: "true", Verified: "false", IsError: "true",
				Recovered: pick(i + 18), Provenance: pick(i + j + 19)}
			if tt == "system" && j%2 == 0 {
				r.Text = "permission " + r.Text
			}
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			rows.Write(append(b, '\n'))
		}
		s := timeline.Session{Host: host, User: user, Agent: agent, SessionID: sess, ProjectPath: pick(i + 4), FirstUTC: fmt.Sprintf("2026-01-01T00:%02d:00.000Z", i%60),
			LastUTC: fmt.Sprintf("2026-01-01T00:%02d:05.000Z", i%60), Models: []string{pick(i + 5)}, UserTurns: 1, ToolCalls: 1, Events: 6,
			Synced: pick(i + 13), Origin: pick(i + 14), Relayed: pick(i + 15), Recovered: pick(i + 16), ForkedFrom: pick(i + 17),
			RecoveredRows: 6, SourceFiles: []string{pick(i + 8), pick(i + 20)}}
		// every third session deleted and carved back, every third a
		// trace: the report's "Deleted and recovered" section shows their
		// hostile provenances, prompts and files
		switch i % 3 {
		case 0:
			s.Recovered = "yes"
		case 1:
			s.Recovered = "trace"
		}
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		sessions.Write(append(b, '\n'))
	}
	var inv analyze.Inventory
	for i := range h {
		inv.Sources = append(inv.Sources, analyze.InventorySource{Input: pick(i), Kind: pick(i + 1), Host: pick(i + 2), BundleID: pick(i + 3), Verified: pick(i + 4),
			SHA256: pick(i + 5), Case: pick(i + 6), Examiner: pick(i + 7), CollectorVersion: pick(i + 8), StartedUTC: pick(i + 9), EndedUTC: pick(i + 10),
			Complete: pick(i + 11), Incomplete: pick(i + 12), CollectorLog: &analyze.LogSummary{Lines: 1, Warnings: 1, Messages: []string{pick(i + 13), pick(i + 14)}}})
		inv.Files = append(inv.Files, analyze.InventoryFile{Host: pick(i + 2), BundleID: pick(i + 3), SourceFile: pick(i + 8), Agent: pick(i + 2), Parser: pick(i + 9), Verified: pick(i + 15)})
	}
	var problems bytes.Buffer
	for i := range h {
		b, err := json.Marshal(analyze.Problem{Kind: pick(i), SourceFile: pick(i + 1), Message: pick(i + 2)})
		if err != nil {
			return err
		}
		problems.Write(append(b, '\n'))
	}
	run := analyze.RunRecord{Tool: pick(0), ToolVersion: pick(1), SchemaVersion: pick(2), CommandLine: h, EndedUTC: pick(3)}
	ib, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	rb, err := json.Marshal(run)
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{analyze.TimelineJSONL: rows.Bytes(), analyze.SessionsJSONL: sessions.Bytes(), analyze.InventoryJSON: ib,
		analyze.ProblemsJSONL: problems.Bytes(), analyze.RunJSON: rb} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Render is md as an ordinary Markdown viewer shows it: CommonMark with
// GFM (tables, autolinks, strikethrough), heading ids, and raw HTML kept.
func Render(md []byte) ([]byte, error) {
	var b bytes.Buffer
	err := newMarkdown().Convert(md, &b)
	return b.Bytes(), err
}

func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithUnsafe()))
}

// ownHTML is the only raw HTML the Markdown reports write: an empty
// anchor with a plain id.
// liveAttr is an attribute in a rendered tag that runs or fetches, or a
// link out of the document.
var liveAttr = regexp.MustCompile(`<[a-z][^>]*\s(on[a-z]+|src|srcset|action|formaction|style|href\s*=\s*"[^#])[^>]*>`)

var ownHTML = regexp.MustCompile(`^(<a id="[A-Za-z0-9_-]+">|</a>)$`)

// Check parses md as Render does and returns every place where evidence
// became markup: raw HTML other than the reports' own anchors, a link
// that leaves the document, an image or autolink, a heading, block
// quote, list, thematic break or code block that forged (a heading,
// table cell, list item or paragraph holding "forged" as markup), and
// rendered output naming an element that runs or fetches.
func Check(md []byte) []string {
	var bad []string
	src := md
	doc := newMarkdown().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.RawHTML:
			var s strings.Builder
			for i := 0; i < v.Segments.Len(); i++ {
				seg := v.Segments.At(i)
				s.Write(seg.Value(src))
			}
			if !ownHTML.MatchString(s.String()) {
				bad = append(bad, "raw HTML: "+s.String())
			}
		case *ast.HTMLBlock:
			var s strings.Builder
			for i := 0; i < v.Lines().Len(); i++ {
				seg := v.Lines().At(i)
				s.Write(seg.Value(src))
			}
			bad = append(bad, "HTML block: "+s.String())
		case *ast.Link:
			if !bytes.HasPrefix(v.Destination, []byte("#")) {
				bad = append(bad, "link to "+string(v.Destination))
			}
		case *ast.Image:
			bad = append(bad, "image "+string(v.Destination))
		case *ast.AutoLink:
			bad = append(bad, "autolink "+string(v.URL(src)))
		case *ast.Blockquote, *ast.ThematicBreak:
			bad = append(bad, "forged "+n.Kind().String())
		case *ast.CodeBlock:
			bad = append(bad, "indented code block (a forged line)")
		case *ast.Heading, *ast.ListItem:
			if t := strings.TrimSpace(string(nodeText(n, src))); strings.HasPrefix(t, "forged") {
				bad = append(bad, "forged "+n.Kind().String()+": "+string(nodeText(n, src)))
			}
		case *ast.Emphasis:
			if t := string(nodeText(n, src)); t == "em" || t == "strong" {
				bad = append(bad, "emphasis from evidence: "+t)
			}
		case *ast.CodeSpan:
			if t := string(nodeText(n, src)); t == "code" || t == "x" {
				bad = append(bad, "code span from evidence: "+t)
			}
		case *ast.LinkReferenceDefinition:
			bad = append(bad, "link reference definition")
		}
		if n.Kind().String() == "Strikethrough" {
			bad = append(bad, "strikethrough from evidence: "+string(nodeText(n, src)))
		}
		return ast.WalkContinue, nil
	})
	bad = append(bad, RawControls(md)...)
	out, err := Render(md)
	if err != nil {
		return append(bad, err.Error())
	}
	low := strings.ToLower(string(out))
	for _, m := range liveAttr.FindAllString(low, -1) {
		bad = append(bad, "rendered attribute: "+m)
	}
	for _, tag := range []string{"<img", "<iframe", "<script", "<object", "<embed", "<svg", "<div", "<details", "<!--", "<style", "<link", "<meta", "<form", "<base"} {
		if strings.Contains(low, tag) {
			i := strings.Index(low, tag)
			bad = append(bad, fmt.Sprintf("rendered %s: %q", tag, out[max(0, i-60):min(len(out), i+80)]))
		}
	}
	return bad
}

func nodeText(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// RawControls names every character of b a terminal or a reader would
// not see as written: a C0 control but newline and tab, DEL, a C1
// control, or a hidden character (timeline.IsHidden: bidi controls,
// zero-width and tag characters) other than a zero-width joiner between
// two non-ASCII characters (an emoji sequence). A report must show each
// of these as a picture or as <U+XXXX>, never raw.
func RawControls(b []byte) []string {
	var bad []string
	s := string(b)
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			bad = append(bad, fmt.Sprintf("raw control U+%04X at byte %d", r, i))
		case r == 0x200D && i > 0 && i+3 < len(s) && s[i-1] >= 0x80 && s[i+3] >= 0x80:
		case timeline.IsHidden(r):
			bad = append(bad, fmt.Sprintf("raw hidden character U+%04X at byte %d", r, i))
		}
	}
	return bad
}
