package bundle_test

import (
	"bytes"
	"io"
	"os"
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

// FuzzEncrypted: arbitrary bytes read as an encrypted bundle (a mutated
// age header or payload), and arbitrary bytes encrypted and then read
// through the age layer, must never panic or hang, and the sealed frozen
// sample's plaintext must read.
func FuzzEncrypted(f *testing.F) {
	sample, err := os.ReadFile("testdata/age/fake-home.tar.zst.age")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	f.Add([]byte(bundle.AgeMagic + "-> X25519 AAAA\n--- AAAA\n"))
	f.Add(bundletest.Build(f, []bundletest.File{{Path: "/h/a", Data: []byte("{\"x\":1}\n")}}))
	ids, err := bundle.ReadIdentities([]string{testIdentity})
	if err != nil {
		f.Fatal(err)
	}
	rs, _, err := bundle.ParseRecipients([]string{testRecipient})
	if err != nil {
		f.Fatal(err)
	}
	opts := &bundle.Options{MaxTotalSize: 8 << 20, MaxMemberSize: 4 << 20, Identities: ids}
	read := func(data []byte) {
		r, err := bundle.Open(bytes.NewReader(data), opts)
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
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		read(data)
		var buf bytes.Buffer
		w, err := bundle.Encrypt(&buf, rs)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		w.Close()
		read(buf.Bytes())
	})
}
