package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/bundle"
)

// identityHelp is the --identity flag's help, one text for every command.
const identityHelp = "age identity file (AGE-SECRET-KEY-1... lines; repeatable) that opens encrypted bundles (.tar.zst.age); without it an encrypted bundle is an unusable input."

// bundleLimits returns the bundle reader's options for a command: the
// analyzer's limits and the identities of the --identity files, each
// opened by the evidence rule (a regular file only: never a link, a FIFO
// or a folder), counted on stderr. Key material is never printed.
func bundleLimits(paths []string) (*bundle.Options, error) {
	lim := analyze.DefaultLimits()
	if len(paths) == 0 {
		return lim, nil
	}
	ids, err := bundle.ReadIdentities(paths)
	if err != nil {
		return nil, &exitError{exitUnusable, "--identity: " + clean(err.Error())}
	}
	lim.Identities = ids
	fmt.Fprintf(os.Stderr, "identity: %d identities loaded from %d files\n", len(ids), len(paths))
	return lim, nil
}

// encryptedVerdict prints verify's verdict for an encrypted bundle that
// was not opened (err is ErrEncrypted or ErrDecrypt) and reports whether
// it did (done) and whether the input counts as unusable (failed). Without
// a key that opens it (none given, or identities none of which is a
// recipient: idFiles names them) only the outer hash can be checked: a
// matching sidecar is said to vouch for the ciphertext alone, and the
// members are said to be unverified; with no sidecar nothing was verified
// and the input is unusable, with the reason. A wrong key is said plainly,
// never treated worse than no key. A header that cannot be read at all is
// unusable.
func encryptedVerdict(p string, err error, sc bundle.SidecarResult, sidecarOK bool, idFiles []string) (done, failed bool) {
	var why string
	switch {
	case errors.Is(err, bundle.ErrEncrypted):
		why = "age-encrypted and no --identity given"
	case errors.Is(err, bundle.ErrNotRecipient):
		why = "age-encrypted and no identity in " + clean(strings.Join(idFiles, ", ")) + " opens this bundle (none is one of its recipients)"
	case errors.Is(err, bundle.ErrDecrypt):
		fmt.Printf("%s: unusable: %s\n", p, clean(err.Error()))
		return true, true
	default:
		return false, false
	}
	if sc.Present && sc.OK && sidecarOK {
		fmt.Printf("%s: OK (ciphertext only): the sidecar matches the encrypted file; its members were not verified: %s\n", p, why)
		return true, false
	}
	if !sc.Present {
		fmt.Printf("%s: unusable: %s, and no .sha256 sidecar: nothing verified\n", p, why)
	} else {
		fmt.Printf("%s: unusable: %s: members not verified\n", p, why)
	}
	return true, true
}
