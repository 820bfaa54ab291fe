package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// ContentHash hashes an artifact's bytes as they are read, holding back
// the run of zeros they end with, so that once they are all read it gives
// both the SHA-256 of the whole content (Sum) and, for a copy the
// collection's interruption cut (a manifest row with interrupted_at: the
// file's first bytes, then zero padding to the member's declared size), the
// SHA-256 of the first k bytes when every byte after them is zero (SumAt):
// one pass, whatever k the manifest, read last, names. Held-back zeros
// are hashed when a non-zero byte follows them, so it costs what SHA-256
// costs, plus a scan for the last non-zero byte of each chunk.
type ContentHash struct {
	h     hash.Hash // the bytes up to the last non-zero one seen
	zeros int64     // zeros read after it, not yet hashed
	n     int64     // bytes read
}

// NewContentHash returns an empty ContentHash.
func NewContentHash() *ContentHash { return &ContentHash{h: sha256.New()} }

// Write takes the next bytes of the content; it never fails.
func (c *ContentHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	i := lastNonZero(p)
	if i < 0 {
		c.zeros += int64(len(p))
		return len(p), nil
	}
	writeZeros(c.h, c.zeros)
	c.h.Write(p[:i+1])
	c.zeros = int64(len(p) - i - 1)
	return len(p), nil
}

// Size is the number of bytes written.
func (c *ContentHash) Size() int64 { return c.n }

// Sum is the hex SHA-256 of every byte written.
func (c *ContentHash) Sum() string {
	s, _ := c.SumAt(c.n)
	return s
}

// SumAt is the hex SHA-256 of the first k bytes written, when every byte
// after them is zero; ok is false when one is not (or k is out of range).
func (c *ContentHash) SumAt(k int64) (sum string, ok bool) {
	prefix := c.n - c.zeros
	if k < prefix || k > c.n {
		return "", false
	}
	if k == prefix {
		// No zeros to add (a member that does not end with zeros):
		// Sum leaves the state as it is.
		return hex.EncodeToString(c.h.Sum(nil)), true
	}
	h := c.h.(hash.Cloner)
	cl, err := h.Clone()
	if err != nil {
		return "", false
	}
	writeZeros(cl, k-prefix)
	return hex.EncodeToString(cl.Sum(nil)), true
}

// Check compares the content written with its manifest row e: its size and
// SHA-256, or, for a row whose copy the collection's interruption cut
// (InterruptedAt), the SHA-256 of the first InterruptedAt bytes and zeros
// after them. It returns "" when they agree, else the checksum_mismatch
// message.
func (c *ContentHash) Check(e Entry) string {
	if e.InterruptedAt == nil {
		if sum := c.Sum(); sum != e.SHA256 || c.n != e.Size {
			return fmt.Sprintf("manifest sha256 %s (%d bytes), content %s (%d bytes)", e.SHA256, e.Size, sum, c.n)
		}
		return ""
	}
	k := *e.InterruptedAt
	if c.n != e.Size {
		return fmt.Sprintf("manifest: %d bytes, the first %d copied before the collection was interrupted; content %d bytes", e.Size, k, c.n)
	}
	sum, ok := c.SumAt(k)
	switch {
	case !ok:
		return fmt.Sprintf("manifest: the first %d of %d bytes copied before the collection was interrupted, then zero padding; content: a non-zero byte after %d bytes", k, e.Size, max(k, 0))
	case sum != e.SHA256:
		return fmt.Sprintf("manifest sha256 %s of the first %d of %d bytes (copied before the collection was interrupted), content %s", e.SHA256, k, e.Size, sum)
	}
	return ""
}

var zeroChunk [64 << 10]byte

// writeZeros writes n zeros into h.
func writeZeros(h hash.Hash, n int64) {
	for n > 0 {
		k := min(n, int64(len(zeroChunk)))
		h.Write(zeroChunk[:k])
		n -= k
	}
}

// lastNonZero is the index of the last non-zero byte of p, -1 when every
// byte is zero. It compares blocks from the end with zeros (bytes.Equal,
// in assembly), then reads the block that is not all zeros eight bytes at
// a time from its end.
func lastNonZero(p []byte) int {
	end := len(p)
	for end > 0 {
		start := max(end-len(zeroChunk), 0)
		if !bytes.Equal(p[start:end], zeroChunk[:end-start]) {
			break
		}
		end = start
	}
	i := end
	for i >= 8 {
		if binary.LittleEndian.Uint64(p[i-8:i]) != 0 {
			break
		}
		i -= 8
	}
	for i > 0 {
		if p[i-1] != 0 {
			return i - 1
		}
		i--
	}
	return -1
}
