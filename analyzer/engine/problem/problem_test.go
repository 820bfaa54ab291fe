package problem

import "testing"

// TestNamedOnce: a message that begins with its own source_file says the
// path once; one that only looks like it (a longer name, no ": ", nothing
// after the path, no source_file) is kept as it was.
func TestNamedOnce(t *testing.T) {
	for _, c := range []struct{ sf, msg, want string }{
		{"manifest.jsonl", "manifest.jsonl: is a FIFO, not a regular file: not read: files cannot be verified or attributed", "is a FIFO, not a regular file: not read: files cannot be verified or attributed"},
		{"/home/a/.claude/x.jsonl", "/home/a/.claude/x.jsonl: /home/a/.claude/x.jsonl: permission denied", "permission denied"},
		{"manifest.jsonl", "manifest.jsonl.bak: is a FIFO", "manifest.jsonl.bak: is a FIFO"},
		{"manifest.jsonl", "manifest.jsonl is a FIFO", "manifest.jsonl is a FIFO"},
		{"manifest.jsonl", "manifest.jsonl: ", "manifest.jsonl: "},
		{"", ": x", ": x"},
		{"bundle.json", "cannot check bundle.json: gone", "cannot check bundle.json: gone"},
	} {
		if got := (Problem{SourceFile: c.sf, Message: c.msg}).NamedOnce().Message; got != c.want {
			t.Errorf("%q %q: got %q, want %q", c.sf, c.msg, got, c.want)
		}
	}
}
