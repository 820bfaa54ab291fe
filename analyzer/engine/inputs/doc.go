// Package inputs is the engine's first stage: it finds and opens the
// evidence, by one rule for every path the analyzer opens from a tree (an
// extracted collection, a loose tree or image, a folder of bundles).
//
// The evidence rule (evidence.go, OpenIn): a path is taken relative to its
// tree's root, no component may be a link, the last must be a regular
// file, opened O_NOFOLLOW|O_NONBLOCK, so a FIFO, a device or a link
// planted in evidence is never opened or followed. On unix every folder
// on the way is opened openat(O_NOFOLLOW|O_DIRECTORY) from the one before,
// and a DirCache holds the folders of one tree so each is opened once.
// Refusals wrap ErrUnsafePath and become problem rows.
//
// The link policy (links.go, ResolveInTree, ResolveMember) is the
// collector's (collector/docs/usage.md, Links) applied inside a tree's
// own root: a link on a catalog path is followed only when it resolves
// inside the tree, in at most 40 links, round no loop; the files behind
// it are then opened at their real path by the evidence rule.
//
// The input expansion (inputs.go, Expand): every input given is a Unit to
// read (a bundle, an extracted collection, a loose tree or file; a folder
// of evidence gives its entries) or an InputStatus saying why it is not
// read (unusable, duplicate: the same path, file or bytes as another,
// sidecar), each set-aside one also a problem row; Account lists them all
// with what became of each unit read.
//
// Opening a unit as a source (open.go, Open): a bundle is streamed, the
// members some parser may read spooled into one private spool file, and
// the manifest read at the end decides what each member is (source.go,
// openBundle); an extracted collection's files are each hashed against
// its manifest (openExtracted); a loose tree or image is walked with the
// catalog, its homes inferred, its catalog folders recorded, its links
// followed by the link policy, its relocated agent folders read from the
// start files (loose.go, loose_links.go, loose_reloc.go). A Source gives its Files (each a
// parse.File for the parse stage), the problem rows of opening it, and
// its Facts (host, bundle, header, verification, every manifest row
// seen) for the inventory and detect. See analyzer/docs/architecture.md.
package inputs
