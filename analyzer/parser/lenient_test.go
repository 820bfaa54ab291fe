package parser

import (
	"fmt"
	"testing"
)

func TestDecodeLenient(t *testing.T) {
	type msg struct {
		Content string `json:"content"`
		Parts   []int  `json:"parts"`
	}
	type rec struct {
		Timestamp string `json:"timestamp"`
		Message   *msg   `json:"message"`
		Meta      bool   `json:"isMeta"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"timestamp":"t","message":{"content":"x"}}`, `[] <nil> {t x [] false}`},
		{`{"timestamp":1777777777,"message":{"content":"typed"}}`, `[timestamp] <nil> { typed [] false}`},
		{`{"timestamp":"t","message":{"content":5,"parts":[1,"a",3]},"isMeta":"yes"}`, `[message.content isMeta message.parts.1] <nil> {t  [1 0 3] false}`},
		{`[1,2]`, `[] json: cannot unmarshal array into Go value of type parser.rec {  [] false}`},
		{`{"timestamp":`, `[] unexpected end of JSON input {  [] false}`},
	} {
		var r rec
		dropped, err := DecodeLenient([]byte(c.in), &r)
		m := msg{}
		if r.Message != nil {
			m = *r.Message
		}
		got := fmt.Sprintf("%v %v {%s %s %v %v}", fmt.Sprint(dropped), err, r.Timestamp, m.Content, m.Parts, r.Meta)
		if dropped == nil {
			got = fmt.Sprintf("[] %v {%s %s %v %v}", err, r.Timestamp, m.Content, m.Parts, r.Meta)
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
