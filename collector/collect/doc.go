// Package collect is the collector's core: Run walks every catalog target
// under every home of a live host or a mounted image (--root), and writes a
// bundle (see bundle/docs/format.md) with one manifest row per path seen.
//
// Forensic rules it keeps: a link on a catalog path is followed only under
// the link policy (links.go, usage.md Links: resolved inside the root, never
// into /proc, /sys or /dev, owned by the home's owner or root, no loop),
// every other link is recorded with why it was not followed; relocated
// agent folders (relocate.go: CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_*, read
// from start files and process environments) are walked under the same
// rule; every catalog folder that exists gets a row; FIFOs,
// sockets and devices are recorded, never opened; files are opened
// read-only with O_NOATIME where allowed and O_NOFOLLOW|O_NONBLOCK, one
// folder at a time from the root (openat, O_NOFOLLOW: a folder swapped for
// a link since the walk is never read through, see open_unix.go); MACB
// times are read before copying; every artifact is hashed as it is written;
// a file that keeps changing is re-read a bounded number of times and
// flagged changed_during_copy; SQLite stores travel with their -wal, -shm
// and -journal files; nothing is written but the output.
package collect
