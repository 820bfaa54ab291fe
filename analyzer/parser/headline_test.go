package parser

import "testing"

// TestArgHeadline: the first key with a non-empty string, in the caller's
// order; the tool's name for arguments that are not a JSON object or hold
// none of the keys.
func TestArgHeadline(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{"path":"a.go","command":"ls"}`, "ls"},
		{`{"command":"","path":"a.go"}`, "a.go"},
		{`{"command":3,"query":"q"}`, "q"},
		{`{"other":"x"}`, "Bash"},
		{`not json`, "Bash"},
		{`["ls"]`, "Bash"},
		{``, "Bash"},
	} {
		if got := ArgHeadline([]byte(c.args), "Bash", "command", "path", "query"); got != c.want {
			t.Errorf("ArgHeadline(%s) = %q, want %q", c.args, got, c.want)
		}
	}
}
