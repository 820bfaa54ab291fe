package main

import (
	"fmt"
	"io"
	"os"

	"filippo.io/age"
	"github.com/doubleagent/doubleagent/bundle"
)

// recipients parses --encrypt-to before anything is created or collected:
// a recipient that does not parse, or a recipients file that is not a
// regular file (a link, a FIFO), stops the run with a usage error naming
// it. Each source is said on stderr with the number of recipients it gave.
func (c *CLI) recipients() ([]age.Recipient, error) {
	if len(c.EncryptTo) == 0 {
		return nil, nil
	}
	rs, sources, err := bundle.ParseRecipients(c.EncryptTo)
	if err != nil {
		return nil, usageError{fmt.Errorf("--encrypt-to: %w", err)}
	}
	for _, s := range sources {
		fmt.Fprintf(os.Stderr, "encrypt-to: %s\n", printable(s))
	}
	fmt.Fprintf(os.Stderr, "encrypt-to: the bundle is encrypted to %d recipients; its .sha256 sidecar hashes the ciphertext\n", len(rs))
	return rs, nil
}

// encryptLayer puts the age layer between the bundle writer and out when
// there are recipients: what reaches out (and the sidecar's hash) is the
// ciphertext, encrypted as it streams, never a plaintext copy. seal
// writes the last chunk; it must be called after the bundle is flushed.
func encryptLayer(out io.Writer, recips []age.Recipient) (io.Writer, func() error, error) {
	if recips == nil {
		return out, func() error { return nil }, nil
	}
	w, err := bundle.Encrypt(out, recips)
	if err != nil {
		return nil, nil, fmt.Errorf("--encrypt-to: %w", err)
	}
	return w, w.Close, nil
}
