package findings

import (
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxHiddenText is the length of the decoded hidden text a finding shows.
const maxHiddenText = 1000

// IsHidden reports whether r is a character a reader of the text does not
// see (timeline.IsHidden: tag characters, zero-width characters, bidi
// controls). These are the characters the hidden-Unicode rule matches.
func IsHidden(r rune) bool { return timeline.IsHidden(r) }

// HiddenText decodes the hidden characters of s, in order: a run of tag
// characters as the ASCII it spells (U+E0041 is "A"; the tag cancel
// U+E007F and tags outside the printable range as <U+XXXXX>), every other
// hidden character as <U+XXXX>, and runs from different places separated
// by " | " (a run seen before is not repeated: a control-surface entry
// holds a file's first line both as its description and in its content).
// Credential-shaped text in the decoded result is redacted
// (parser.RedactSecrets): the hidden text is shown, a secret in it is not.
// It returns "" when s has none, and cuts the result at 1,000 characters.
func HiddenText(s string) string {
	var segs []string
	seen := map[string]bool{}
	var cur strings.Builder
	n := 0
	flush := func() {
		if cur.Len() > 0 && !seen[cur.String()] {
			seen[cur.String()] = true
			segs = append(segs, cur.String())
			n += cur.Len()
		}
		cur.Reset()
	}
	for _, r := range s {
		if !IsHidden(r) {
			flush()
			if n > 4*maxHiddenText {
				break
			}
			continue
		}
		switch {
		case r >= 0xE0020 && r <= 0xE007E:
			cur.WriteRune(r - 0xE0000)
		default:
			fmt.Fprintf(&cur, "<U+%04X>", r)
		}
	}
	flush()
	if len(segs) == 0 {
		return ""
	}
	return excerptN(parser.RedactSecrets(strings.Join(segs, " | ")), maxHiddenText)
}
