package parser

import (
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`permission setting: permissions.allow=Bash(curl -H "Authorization: Bearer sk-ant-FAKE666abcdef")`: `permission setting: permissions.allow=Bash(curl -H "Authorization: Bearer [redacted]")`,
		"key sk-proj-ABCDEFGHIJKLMNOP and ghp_0123456789abcdefABCD":                                        "key [redacted] and [redacted]",
		"AKIAABCDEFGHIJKLMNOP x":                               "[redacted] x",
		"permission setting: permissions.allow=Bash(npm test)": "permission setting: permissions.allow=Bash(npm test)",
		"skill: sk-short":                                      "skill: sk-short",
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactNamedSecrets: a value under a secret's name is masked in a
// settings row, the name kept (the red-team trial printed these whole).
func TestRedactNamedSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`permission setting: allow=Bash(export TOKEN=tok-9f8e7d6c5b) (from settings.json, file mtime)`: `permission setting: allow=Bash(export TOKEN=[redacted]) (from settings.json, file mtime)`,
		`permission setting: allow=WebFetch(header X-Api-Key: zz9-abcdef123)`:                          `permission setting: allow=WebFetch(header X-Api-Key: [redacted])`,
		`control surface: hook Stop: curl -d token=abc123def http://x`:                                 `control surface: hook Stop: curl -d token=[redacted] http://x`,
		`model setting: gpt-5 (from config.toml, file mtime)`:                                          `model setting: gpt-5 (from config.toml, file mtime)`,
		`permission setting: max_tokens=4096`:                                                          `permission setting: max_tokens=4096`,
		`permission setting: Authorization: Bearer abcdefgh12345`:                                      `permission setting: Authorization: Bearer [redacted]`,
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q)\n got  %q\n want %q", in, got, want)
		}
	}
}

func TestFindSecrets(t *testing.T) {
	in := `Authorization: Bearer abcdefgh12345678 sk-ant-api03-XXXXXXXXXX ghp_ABCDEFGHIJKLMNOPQRSTUV AKIAABCDEFGHIJKLMNOP NPM_TOKEN=npm_abcdef max_tokens=4096 password=short`
	var got []string
	for _, s := range FindSecrets(in) {
		got = append(got, s.Kind+"="+s.Value)
	}
	want := "authorization header=abcdefgh12345678|anthropic or openai key=sk-ant-api03-XXXXXXXXXX|github token=ghp_ABCDEFGHIJKLMNOPQRSTUV|aws access key id=AKIAABCDEFGHIJKLMNOP|named:NPM_TOKEN=npm_abcdef"
	if strings.Join(got, "|") != want {
		t.Errorf("FindSecrets:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// Every value found is one RedactSecrets removes.
	red := RedactSecrets(in)
	for _, s := range FindSecrets(in) {
		if strings.Contains(red, s.Value) {
			t.Errorf("%s survives RedactSecrets: %s", s.Value, red)
		}
	}
}
