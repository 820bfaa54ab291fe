package timeline

import "testing"

func TestReveal(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                             "plain",
		"a\u202eb\u202cc":                   "a<U+202E>b<U+202C>c",
		"\u2066iso\u2069":                   "<U+2066>iso<U+2069>",
		"csi \u009b31m nel \u0085":          "csi <U+009B>31m nel <U+0085>",
		"zero\u200bwidth\u2060j":            "zero<U+200B>width<U+2060>j",
		"tag \U000E0041":                    "tag <U+E0041>",
		"family \U0001F468\u200D\U0001F469": "family \U0001F468\u200D\U0001F469",
		"ascii a\u200Db":                    "ascii a<U+200D>b",
		"lead \u200D\U0001F469":             "lead <U+200D>\U0001F469",
		"end \U0001F468\u200D":              "end \U0001F468<U+200D>",
		"esc \x1b stays for the caller":     "esc \x1b stays for the caller",
		"bom \ufeff kept":                   "bom \ufeff kept",
	} {
		if got := Reveal(in); got != want {
			t.Errorf("Reveal(%q) = %q, want %q", in, got, want)
		}
	}
}
