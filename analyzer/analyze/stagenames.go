package analyze

import (
	"os"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
)

// The inputs stage's names, kept here so callers of the engine name them
// as before (the stage is analyzer/engine/inputs).

// ErrUnsafePath is wrapped by the evidence rule's refusals: a link, a
// FIFO, a device, a socket or a folder where a file was expected, or a
// path that climbs.
var ErrUnsafePath = inputs.ErrUnsafePath

// OpenIn opens rel inside root by the evidence rule, for the passes that
// read evidence after the engine (analyzer/surface reads an extracted
// collection's manifest and a loose tree's file times through it).
func OpenIn(root, rel string) (*os.File, error) { return inputs.OpenIn(root, rel) }
