// Package sqlitecarve recovers deleted records from a SQLite database and
// its write-ahead log, for the parsers of agents whose stores are SQLite
// (analyzer/parser.Carve runs it on the engine's private copy of a store;
// it only reads).
//
// Evidence, by where it survives in a store written with secure_delete off
// (SQLite's default build):
//
//   - Freeblocks of live table leaf pages: a deleted cell becomes a
//     freeblock whose first 4 bytes (next-freeblock offset, size) overwrite
//     the cell's payload-length and rowid varints and sometimes the record
//     header's length byte and first serial type. The carver tries each
//     layout of the lost varints (the record header starting 2 to 12 bytes
//     in); where the header length or the first serial type was lost it
//     rebuilds them from the table's column count and the freeblock size,
//     and marks the record partial. The rowid is lost unless it lay past
//     byte 4, and with it an INTEGER PRIMARY KEY column. Adjacent freed
//     cells merge into one freeblock; the cells after the first are whole.
//   - The unallocated gap between a leaf page's cell pointers and its cell
//     content (cells a defragmentation left behind).
//   - Freelist trunk pages (past the leaf list) and leaf pages (whole old
//     page images), and pages no b-tree and no freelist names.
//   - The WAL: frames up to the last valid commit (salts of the header, an
//     unbroken checksum chain) are the database as it is now and are read
//     as such (SQLite itself reads them when the parser opens the store);
//     every other frame is an older page image and is carved: a committed
//     frame a later frame of the page superseded, frames after the last
//     commit, frames of an earlier WAL generation (other salts), frames
//     past a broken checksum. So is the database file's own page that a
//     committed frame replaces.
//   - A WAL whose database file is gone (CarveOrphanWAL): the database
//     image is rebuilt from its frames (each page from its last frame of
//     the header's salts, zeros for the pages only the file held; page 1
//     must be there), the records of its committed frames are returned
//     as SrcWALOrphan and the other frames are carved as above; each
//     b-tree page the WAL lacks is a Problem. The schema is the caller's.
//
// Records are decoded against the table's own schema (the columns
// sqlite_schema and table_info give): the record header's serial types,
// each value's type against the column's affinity, text as valid UTF-8 (or
// UTF-16 by the header's encoding), payload length equal to header plus
// body, overflow chains followed where they survive (a broken chain gives
// a partial record). A carved record whose content equals a live record
// (or one carved before) is counted as a copy, not returned. The carve is
// bounded (Options: records, payload bytes, pages read), checks its
// context every page, and reports a corrupt page as a Problem, never a
// panic (FuzzCarve).
//
// Sources studied (no code copied): SQLite's file format document
// (https://www.sqlite.org/fileformat2.html, sections 1.5 to 1.6 on
// b-tree pages, cells, freeblocks and overflow, 2.1 on records and serial
// types, 4 on the WAL and its checksums); the DFRWS literature on carving
// SQLite (Jeon et al., "A recovery method of deleted record for SQLite
// database", 2012; Ramisch and Rieger, "Recovery of SQLite data using
// expired indexes", 2015; Meng and Baier, "bring2lite: a structural
// concept and tool for forensic data analysis and recovery of deleted
// data in SQLite database files", DFRWS EU 2019), on the freeblock header
// overwriting the first four bytes of a cell and schema-driven
// reconstruction; and the tools bring2lite
// (github.com/bring2lite/bring2lite at e876bf28c1ba03fc598d92832374f72794760ca1:
// freeblock, freelist and WAL frame parsing), undark
// (github.com/inflex/undark at 2e0bd78bcb92597362c1fd93d0e392afe1adcbaa:
// scanning whole pages for cells by varint plausibility) and
// SQLite-Deleted-Records-Parser
// (github.com/mdegrazia/SQLite-Deleted-Records-Parser at
// 4ce67cadc813264a959a71d9f0da5a749dfb4e0f: freeblocks and unallocated
// space of table leaves).
package sqlitecarve
