package claudetranscript

import (
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	json "github.com/go-json-experiment/json/v1"
)

// TestMembersJSONMatchesMapEncoding: the attachment detail rendered from
// spans is what encoding the decoded map gave (sorted keys, compact, null
// kept).
func TestMembersJSONMatchesMapEncoding(t *testing.T) {
	raw := []byte(`{"type":"x", "z": [1, 2], "a": null, "m": {"k" : "v"}, "s":"é\u00e9"}`)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "type")
	want, _ := json.Marshal(m)
	spans, ok := parser.TopMap(raw)
	if !ok {
		t.Fatal("TopMap")
	}
	if got := membersJSON(spans, "type"); got != string(want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
