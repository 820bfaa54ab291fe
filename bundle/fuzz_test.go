package bundle_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/doubleagent/doubleagent/bundle/bundletest"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic or
// hang, whatever the input.
func FuzzReader(f *testing.F) {
	f.Add(bundletest.Build(f, []bundletest.File{{Path: "/h/a", Data: []byte("{\"x\":1}\n")}}))
	f.Add([]byte{0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0})
	f.Add([]byte("not a bundle"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := bundle.Open(bytes.NewReader(data), &bundle.Options{MaxTotalSize: 8 << 20, MaxMemberSize: 4 << 20})
		if err != nil {
			return
		}
		for i := 0; i < 1000; i++ {
			m, err := r.Next()
			if err != nil {
				break
			}
			if _, err := io.Copy(io.Discard, m); err != nil {
				break
			}
		}
		_ = r.Result()
	})
}
