package parser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestTokenWalker: members and elements are handed over one at a time,
// in order, with 1-based indexes; a cut key, a cut closing bracket and a
// failing callback are told apart; a skipped value is consumed whole.
func TestTokenWalker(t *testing.T) {
	walk := func(doc string) (string, error) {
		dec := json.NewDecoder(strings.NewReader(doc))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return "", fmt.Errorf("open: %v %v", tok, err)
		}
		var got []string
		err := EachMember(context.Background(), dec, func(key string) error {
			switch key {
			case "list":
				if _, err := dec.Token(); err != nil {
					return err
				}
				_, err := EachElement(context.Background(), dec, func(i int64) error {
					var v int
					if err := dec.Decode(&v); err != nil {
						return fmt.Errorf("element %d: %w", i, err)
					}
					got = append(got, fmt.Sprintf("%d=%d", i, v))
					return nil
				})
				return err
			case "skip":
				tok, err := dec.Token()
				if err != nil {
					return err
				}
				got = append(got, "skip "+JSONTokenKind(tok))
				return SkipJSONValue(context.Background(), dec, tok)
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			got = append(got, key+":"+string(raw))
			return nil
		})
		return strings.Join(got, " "), err
	}
	got, err := walk(`{"a":1,"skip":{"x":[1,{"y":2}]},"list":[10,20,30],"b":"z"}`)
	if got != `a:1 skip object 1=10 2=20 3=30 b:"z"` || err != nil {
		t.Fatalf("whole: %q %v", got, err)
	}
	var te *TokenError
	got, err = walk(`{"a":1,"list":[10,20`)
	if got != "a:1 1=10 2=20" || !errors.As(err, &te) || te.Stage != TokenEnd {
		t.Fatalf("cut in the list: %q %#v", got, err)
	}
	got, err = walk(`{"a":1,`)
	if got != "a:1" || !errors.As(err, &te) || te.Stage != TokenKey {
		t.Fatalf("cut before a key: %q %#v", got, err)
	}
	got, err = walk(`{"list":[1,"two",3]}`)
	if got != "1=1" || errors.As(err, &te) || err == nil || !strings.HasPrefix(err.Error(), "element 2: ") {
		t.Fatalf("a failing element: %q %v", got, err)
	}
	got, err = walk(`{"a":1}`)
	if got != "a:1" || err != nil {
		t.Fatalf("one member: %q %v", got, err)
	}
	got, err = walk(`{"a":1`)
	if got != "a:1" || !errors.As(err, &te) || te.Stage != TokenEnd {
		t.Fatalf("no closing brace: %q %#v", got, err)
	}
}
