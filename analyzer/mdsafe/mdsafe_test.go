package mdsafe_test

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
)

// TestText: exact escapes of the characters that make markup, and none
// of those that do not.
func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0.1.0 a-b c+d x=y 50% (p) {q} \"r\" 'ok' $HOME ^/", "0.1.0 a-b c+d x=y 50% (p) {q} \"r\" 'ok' $HOME ^/"},
		{"<img src=x>", `\<img src=x\>`},
		{"![a](b) [c]", `\!\[a\](b) \[c\]`},
		{"*a* _b_ `c` ~d~ a|b & c\\", "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~ a\\|b \\& c\\\\"},
		{"http://x.org www.y.org a@b.c", `http\://x.org www\.y.org a\@b.c`},
		{"# h", `\# h`}, {"- i", `\- i`}, {"+ i", `\+ i`}, {"1. i", `1\. i`}, {"12) i", `12\) i`}, {"1.", `1\.`}, {"=", `\=`},
		{"a\nb\rc\td\x00e\x7f", "a␊b␍c␉d␀e␡"},
		{"a\xffb", "a\ufffdb"},
	} {
		if got := mdsafe.Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCodeBlock: the fence outgrows the text's longest backtick run.
func TestCodeBlock(t *testing.T) {
	if got, want := mdsafe.CodeBlock("json", "a\n````\nb\r\nc\rd"), "`````json\na\n````\nb␍\nc␍d\n`````\n"; got != want {
		t.Errorf("CodeBlock = %q, want %q", got, want)
	}
	if got, want := mdsafe.Anchor("s-", "a-b", "c_d", "é"), "s-a_2d_b-c_5f_d-_e9_"; got != want {
		t.Errorf("Anchor = %q, want %q", got, want)
	}
}

// TestControlsShown: ESC, BEL, DEL, C1 controls and bidi overrides never
// reach report.md raw, in a code block or inline.
func TestControlsShown(t *testing.T) {
	in := "\x1b]0;t\x07\x1b[2J\x7f \u009b1m \u202eevil\u202c\ttab\nline"
	if got, want := mdsafe.CodeBlock("", in), "```\n\u241b]0;t\u2407\u241b[2J\u2421 <U+009B>1m <U+202E>evil<U+202C>\ttab\nline\n```\n"; got != want {
		t.Errorf("CodeBlock = %q, want %q", got, want)
	}
	if got, want := mdsafe.Text(in), "\u241b\\]0;t\u2407\u241b\\[2J\u2421 \\<U+009B\\>1m \\<U+202E\\>evil\\<U+202C\\>\u2409tab\u240aline"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}
