package parser

import "testing"

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
