package bundle

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"filippo.io/age"
)

// An encrypted bundle is a whole bundle file (the zstd tar stream, byte
// for byte) inside one age v1 file (https://age-encryption.org/v1, binary,
// not armored), named <name>.tar.zst.age by the collector. Its .sha256
// sidecar hashes the ciphertext, so it is checked without the key. The
// tar, manifest and hashes inside are unchanged: decrypting it with the
// age tool gives a bundle any reader takes. See docs/format.md,
// "Encrypted bundles".

// AgeMagic is how every age v1 file begins (its header's first line).
const AgeMagic = "age-encryption.org/v1\n"

// SniffLen is how many leading bytes Sniff needs to tell a bundle, plain
// or encrypted.
const SniffLen = len(AgeMagic)

// ErrEncrypted is returned by Open and Verify for an age-encrypted bundle
// when Options.Identities is empty.
var ErrEncrypted = errors.New("bundle: age-encrypted bundle and no identity given (--identity FILE): not read")

// ErrDecrypt is returned by Open and Verify when an encrypted bundle's
// header cannot be opened: no given identity is one of its recipients, or
// the header is corrupt.
var ErrDecrypt = errors.New("bundle: cannot decrypt")

// ErrNotRecipient is returned (wrapped with ErrDecrypt: errors.Is finds
// both) when the bundle's header is sound but none of the given
// identities is one of its recipients: a wrong key, told from a corrupt
// header.
var ErrNotRecipient = errors.New("bundle: no given identity is a recipient")

// notRecipientError is ErrDecrypt and ErrNotRecipient, with the count of
// identities tried.
type notRecipientError struct{ n int }

func (e notRecipientError) Error() string {
	return fmt.Sprintf("%v: none of the %d given identities is a recipient of this bundle", ErrDecrypt, e.n)
}

func (e notRecipientError) Is(target error) bool {
	return target == ErrDecrypt || target == ErrNotRecipient
}

// IsEncrypted reports whether b (a file's first bytes, at least SniffLen
// of them) begin an age file.
func IsEncrypted(b []byte) bool {
	return len(b) >= len(AgeMagic) && string(b[:len(AgeMagic)]) == AgeMagic
}

// decryptLayer is Open's only hook for encryption: given the buffered
// input, it returns the input unchanged when it is not an age file, the
// plaintext stream (decrypted as it is read, never spooled) when it is and
// an identity opens it, and ErrEncrypted or ErrDecrypt otherwise.
func decryptLayer(src *bufio.Reader, ids []age.Identity) (*bufio.Reader, bool, error) {
	head, _ := src.Peek(len(AgeMagic))
	if !IsEncrypted(head) {
		return src, false, nil
	}
	if len(ids) == 0 {
		return nil, true, ErrEncrypted
	}
	pr, err := age.Decrypt(src, ids...)
	if err != nil {
		var nm *age.NoIdentityMatchError
		if errors.As(err, &nm) {
			return nil, true, notRecipientError{len(ids)}
		}
		// The file begins as an age file, but its header does not parse:
		// cut short or damaged there. It is a damaged encrypted bundle (a
		// cut, as a plain bundle cut inside bundle.json), not a file of
		// another kind nor a key that does not open it.
		return nil, true, headerCut(fmt.Errorf("%w: %v", ErrCiphertext, err), "encrypted bundle cut short or corrupt in its age header (before the first chunk, which holds %s: nothing can be read): %v", HeaderName, err)
	}
	return bufio.NewReaderSize(ageErrs{pr}, 1<<20), true, nil
}

// ErrCiphertext marks a read of an encrypted bundle that failed in the age
// layer: a chunk that does not authenticate (changed bytes), a stream cut
// short, or data after its last chunk.
var ErrCiphertext = errors.New("bundle: encrypted stream corrupt, cut short or with data after its end")

// ageErrs marks the age layer's read errors with ErrCiphertext.
type ageErrs struct{ r io.Reader }

func (a ageErrs) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: %v", ErrCiphertext, err)
	}
	return n, err
}

// Encrypt returns a writer that encrypts what is written to it for the
// recipients and writes the age file to dst; Close writes the last chunk
// (it does not close dst). A bundle written through it is an encrypted
// bundle.
func Encrypt(dst io.Writer, recipients []age.Recipient) (io.WriteCloser, error) {
	if len(recipients) == 0 {
		return nil, errors.New("bundle: no recipient to encrypt to")
	}
	return age.Encrypt(dst, recipients...)
}

// ParseRecipients reads each argument as an age recipient (age1..., or
// age1pq1... for a hybrid post-quantum one) or, when it is not one, as a
// file of recipients (one a line, # comments), opened by the evidence
// rule: a regular file only, never through a link, never a FIFO. The
// error names the argument that failed; sources says, per argument,
// "recipient" or the file and how many recipients it gave.
func ParseRecipients(args []string) (recips []age.Recipient, sources []string, err error) {
	for _, a := range args {
		a = strings.TrimSpace(a)
		if strings.HasPrefix(strings.ToUpper(a), "AGE-SECRET-KEY-") {
			// Never echoed: it is a private key, given by mistake.
			return nil, nil, errors.New("an age identity (a private key, AGE-SECRET-KEY-...) was given where a recipient (age1...) belongs: give its public key")
		}
		if strings.HasPrefix(a, "age1") && !strings.ContainsAny(a, `/\`) {
			rs, err := age.ParseRecipients(strings.NewReader(a))
			if err != nil {
				return nil, nil, fmt.Errorf("recipient %q: %v", a, err)
			}
			recips = append(recips, rs...)
			sources = append(sources, "recipient "+a)
			continue
		}
		f, err := OpenRegular(a)
		if err != nil {
			return nil, nil, fmt.Errorf("recipients file %s: %w", a, pathless(err))
		}
		rs, err := age.ParseRecipients(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("recipients file %s: %v", a, err)
		}
		recips = append(recips, rs...)
		sources = append(sources, fmt.Sprintf("recipients file %s: %d recipients", a, len(rs)))
	}
	if len(recips) == 0 {
		return nil, nil, errors.New("no recipient given")
	}
	return recips, sources, nil
}

// pathless drops the path OpenRegular's errors start with (the caller
// names the file once).
func pathless(err error) error {
	var pe *os.PathError
	switch {
	case errors.Is(err, ErrNotRegular):
		return ErrNotRegular
	case errors.Is(err, os.ErrNotExist):
		return errors.New("does not exist")
	case errors.As(err, &pe):
		return pe.Err
	}
	return err
}

// ReadIdentities reads age identity files (AGE-SECRET-KEY-1... lines, #
// comments), each opened by the evidence rule (a regular file only, never
// through a link, never a FIFO). Key material never appears in an error.
func ReadIdentities(paths []string) ([]age.Identity, error) {
	var ids []age.Identity
	for _, p := range paths {
		f, err := OpenRegular(p)
		if err != nil {
			return nil, fmt.Errorf("identity file %s: %w", p, pathless(err))
		}
		got, err := age.ParseIdentities(f)
		f.Close()
		if err != nil {
			// age's parse errors never quote the line (it may be a key).
			return nil, fmt.Errorf("identity file %s: %v", p, err)
		}
		ids = append(ids, got...)
	}
	return ids, nil
}

// Sniff reports whether b (the first bytes of a file) start a zstd frame,
// or, given SniffLen bytes, an age file (an encrypted bundle).
func Sniff(b []byte) bool {
	return len(b) >= 4 && bytes.Equal(b[:4], []byte{0x28, 0xB5, 0x2F, 0xFD}) || IsEncrypted(b)
}
