package parser

// KindDoc is one problem kind and what it means to an examiner.
type KindDoc struct {
	Kind, Doc string
}

// Kinds is the closed list of the kinds of problems.jsonl rows, whoever
// writes them (a parser through Sink.Report, the engine, the bundle
// reader). The table of analyzer/docs/output.md is generated from it, and
// analyzer/parsers/kinds_test.go fails on a kind written anywhere in the
// analyzer or the bundle reader that is not here, and on one here that
// nothing writes. Adding a kind is one line below, in its group.
var Kinds = []KindDoc{
	// Parsers (Sink.Problem is KindParse; the constants in parser.go).
	{KindParse, "a record or file that could not be read (bad JSON, an unknown schema, a failing table); the message says which and why"},
	{KindSkippedRecord, "a readable record of a shape the parser does not know, counted rather than dropped"},
	{KindNULRun, "NUL bytes (crash or preallocation padding) dropped from a line-oriented file"},
	{KindInvalidUTF8, "lines of a line-oriented file holding bytes that are not valid UTF-8: one problem per file, counting the lines (the first named by source_line); their text in the rows has each such byte replaced with U+FFFD"},
	{KindLineTooLong, "a line over `--max-line`, not parsed"},
	{KindGlued, "records that shared one line, split and read"},
	{KindOrphanRecord, "a record whose parent record is gone"},
	{KindDuplicateID, "one record id with two contents: both rows are kept, the problem names each content and its place"},
	{"carve", "the SQLite carver could not read part of a store's freed space or WAL (a corrupt page, a limit reached)"},
	{"wal_state", "a WAL holding frames that are not the database now (older salts, uncommitted or superseded frames): described, and carved"},
	{"orphan_sidecar", "the -wal or -journal of a SQLite store that is not there: its pages are the store's records, but SQLite discards it without its database, so none is read as a row; the file is named and kept"},
	{KindEmptyStore, "a SQLite store with no table at all (an empty file, or a database never written or whose every table was dropped): one problem, not one per table it lacks; nothing is read from it"},
	{KindUndatedRows, "rows of a file that records no times which no dated record of the session's other files identifies (by a tool call id or an exact prompt text): left undated, time_basis none, counted per file by turn type"},
	{KindStateConflict, "two values for one session's state (synced, origin, relayed, parent, fork): the first is kept"},
	// The engine.
	{"unusable_input", "an input given, or an entry of a folder given named or shaped like evidence, that could not be read (damaged, empty, encrypted without --identity, a sidecar without its bundle): the message says why"},
	{"wrong_key", "an age-encrypted bundle whose header is sound but none of the `--identity` keys given is one of its recipients: the key does not open it, not read (counted among the unusable inputs; the message gives how many identities were tried, never a key)"},
	{"shared_path", "a bundle's manifest row naming one agent's target for a path two agents' targets match, which the catalog gives the other (catalog/shared.go; a collector before catalog 2026.12.03.4 named such a path by the first agent by name): the file is read as the owner's, and the message names both"},
	{"duplicate_input", "the same input (path, link to it, or the same bytes) given twice: read once"},
	{"bad_hostname", "a host name (etc/hostname, bundle.json) that is not one line of printable text: kept escaped; or none recorded: the host is unnamed:<bundle id>"},
	{"implausible_time", "rows whose own times lie outside the plausible window (1990 to a day after collection): kept as recorded, time_basis implausible, never lent to later rows"},
	{"not_sqlite", "a file the catalog names as SQLite that is not a SQLite database: not parsed"},
	{"sidecar", "the bundle's `FILE.sha256` side file exists but could not be read"},
	{"sidecar_mismatch", "the bundle's `FILE.sha256` side file names another hash than the bundle's, or is not a regular file"},
	{"undated_dropped", "undated rows left out by `--since`/`--until`, counted per source file"},
	{"store_budget", "a SQLite store's parse stopped at `--store-rows` or `--store-time`"},
	{"unsafe_path", "a link, a FIFO, a device or a socket where the evidence should hold a file or a folder: not read"},
	{"link_outside_homes", "a link that the link policy followed (its target owned by the home's owner) to a folder outside every home and container volume folder, in a tree read in place or (its manifest row outside_homes) in a bundle or extracted collection: its files are read, and named as the home's"},
	// The bundle reader (bundle.Problem*).
	{"checksum_mismatch", "a member whose SHA-256 differs from its manifest row"},
	{"missing_member", "a manifest row listed as collected whose member is absent"},
	{"unlisted_member", "a member the manifest does not list"},
	{"truncated", "an archive or member cut short"},
	{"no_manifest", "no manifest.json: nothing can be verified"},
	{"unsafe_member", "a member that is not a regular file, or whose name is unsafe: skipped, never written"},
	{"size_limit", "a member or manifest over a size or row limit: the rest is not read"},
	{"bad_manifest", "a manifest that does not decode, or a row it cannot read"},
	{"incomplete_collection", "the collector recorded that it did not finish"},
	{"duplicate_member", "a member name that appears more than once in the bundle"},
	{"trailing_data", "data after the end of a bundle's archive, such as a second bundle appended: not read"},
	{"pax_mismatch", "a member's PAX records contradict its manifest row: the manifest's values are used"},
	{"manifest_contradiction", "a row not collected whose member is present, two rows for one member, a summary not last or repeated"},
	{"bad_header", "a bundle.json that lacks what every bundle has (an empty `bundle_id`)"},
	{"changed_during_copy", "the collector recorded that the file kept changing while it copied it"},
	{"skipped_size", "a file the collector saw and did not collect because it was over its size limit (`--max-file-size`): the message gives its size and the limit; nothing of it is read"},
	{"skipped_secret", "a file holding secrets the collector saw and did not collect (`--no-secrets`): nothing of it is read"},
	{"row_error", "an error the collector recorded for a path (unreadable, a short read padded with zeros)"},
}
