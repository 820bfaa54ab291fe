// Package mdsafe writes evidence into Markdown so that no CommonMark
// renderer (GitHub's cmark-gfm, goldmark with GFM and raw HTML kept,
// markdown-it, pandoc) reads it as markup: no raw HTML, no link, image or
// autolink, no emphasis, and no Markdown line that evidence starts.
//
// Two forms cover every place evidence goes:
//
//   - Text, for inline places (table cells, headings, list items, the
//     line after a label): an ASCII punctuation character is escaped
//     with a backslash (CommonMark 0.31, "Backslash escapes") where it
//     could make markup: `<`, `[`, `]`, `!`, `*`, `_`, `|`, `&`, `~`,
//     backtick and backslash anywhere, ":" before "/", "@" and "." after
//     "www" (which stop http://, www. and e-mail autolinks), and a leading
//     `#`, `>`, `-`, `+`, `=` or "1." / "1)"; line endings and other control
//     characters become the Unicode control pictures (U+2400 to U+241F,
//     U+2421 for DEL), so a newline in a field cannot end the line; C1
//     controls and hidden characters (bidi overrides, zero-width and tag
//     characters) are written as <U+XXXX> (timeline.Reveal), so a
//     right-to-left override cannot reorder what the examiner reads.
//   - CodeBlock, for multi-line text: a fenced code block whose backtick
//     fence is longer than any backtick run in the text, so no line of the
//     text can close it.
//
// Both first make the text valid UTF-8 as the JSONL timeline does (each
// invalid byte becomes U+FFFD; timeline.ValidUTF8).
package mdsafe

import (
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Text is s for an inline place of a Markdown document (see the package
// doc): literal under any CommonMark renderer, one line.
func Text(s string) string {
	s = timeline.Reveal(timeline.ValidUTF8(s))
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i, r := range s {
		switch {
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		case r < 0x80 && escape(s, i):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escape says whether the ASCII character at s[i] must be escaped: those
// that open or close inline markup anywhere (\ ` * _ [ ] < > & | ~ !),
// those that make an autolink (":" before "/", "@", "." after "www"),
// and at the start of the text those that start a block (# > - + = and a
// number's "." or ")"), for a caller that puts it first on a line.
func escape(s string, i int) bool {
	switch c := s[i]; c {
	case '\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '!', '@':
		return true
	case ':':
		return i+1 < len(s) && s[i+1] == '/'
	case '.':
		return i >= 3 && strings.EqualFold(s[i-3:i], "www") || listNumber(s, i)
	case ')':
		return listNumber(s, i)
	case '#', '-', '+', '=':
		return i == 0
	}
	return false
}

// listNumber says whether s[:i+1] is an ordered list item's marker
// when s starts a line: one to nine digits, then the "." or ")" at i,
// then a space, a tab or the end.
func listNumber(s string, i int) bool {
	if i == 0 || i > 9 || i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
		return false
	}
	for j := 0; j < i; j++ {
		if s[j] < '0' || s[j] > '9' {
			return false
		}
	}
	return true
}

// Fence is a backtick code fence longer than any backtick run in s (at
// least three).
func Fence(s string) string {
	n, run := 3, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", n)
}

// CodeBlock is s as a fenced code block (info, when given, is a plain
// word such as "json"), ending in a newline. Carriage returns, which
// CommonMark takes as line endings, are shown as U+240D so a CR-only
// text keeps its lines as written; every other control character but
// newline and tab (ESC, which a terminal that prints report.md would
// run, among them) becomes its control picture, and C1 controls and
// hidden characters (bidi overrides, zero-width and tag characters) are
// written as <U+XXXX> (timeline.Reveal).
func CodeBlock(info, s string) string {
	s = timeline.Reveal(timeline.ValidUTF8(s))
	s = strings.ReplaceAll(s, "\r\n", "\u240d\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return 0x2421
		}
		return r
	}, s)
	f := Fence(s)
	return f + info + "\n" + s + "\n" + f + "\n"
}

// Anchor is an HTML id of only [A-Za-z0-9_-] made from parts joined by
// "-": any other character is written as _<hex>_, so different parts give
// different ids. Its "<a id>" is the one piece of raw HTML the Markdown
// reports write (an anchor that works in report.md as in report.html).
func Anchor(prefix string, parts ...string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('-')
		}
		for _, c := range timeline.ValidUTF8(p) {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				b.WriteRune(c)
			} else {
				b.WriteString("_")
				b.WriteString(strconv.FormatInt(int64(c), 16))
				b.WriteString("_")
			}
		}
	}
	return b.String()
}

// Target is an empty anchor element for id (made by Anchor).
func Target(id string) string { return `<a id="` + id + `"></a>` }
