package parser

import "testing"

// TestIsUnrecorded: a declared unrecorded input matches exactly, after
// trimming spaces; anything else (another command, arguments, a nil
// Secondary) does not.
func TestIsUnrecorded(t *testing.T) {
	s := &Secondary{Unrecorded: []string{"/exit", "/quit"}}
	for text, want := range map[string]bool{"/exit": true, " /quit\n": true, "/exit now": false, "/quit --delete": false, "/EXIT": false, "": false, "exit": false} {
		if got := s.IsUnrecorded(text); got != want {
			t.Errorf("IsUnrecorded(%q) = %v, want %v", text, got, want)
		}
	}
	var none *Secondary
	if none.IsUnrecorded("/exit") {
		t.Error("nil Secondary: unrecorded")
	}
}
