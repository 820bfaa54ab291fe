// Package localdeepresearch reads Local Deep Research's data directory
// (platformdirs user data dir local-deep-research; LDR_DATA_DIR moves it).
// Research history and chat live in per-user SQLCipher databases keyed
// from the login password: they cannot be read without it, and each one
// is named as such.
//
// # local-deep-research/databases (target "databases")
//
//   - A file without the SQLite header (encrypted_databases/ldr_user_*.db
//     and their backups: SQLCipher encrypts from the first byte) is one
//     system row "encrypted database (SQLCipher, keyed from the login
//     password), not read: <file>, <size> bytes" at the file mtime; it is
//     never opened. An empty file is a Skip "no_evidence:empty_file".
//   - ldr_auth.db, the account list (database/auth_db.py: "only stores
//     usernames"): "account: <username> (created), last login <time>" per
//     users row at created_at.
//   - The pre-1.0 unencrypted ldr.db: research_history per row, SessionID
//     "research:<id>": the query as a user row (typed in the web UI) and a
//     system row "research <id> (<mode>): <status>, completed <time>, <n>
//     s, report <path>".
//   - Any other SQLite file is one parse problem.
//
// Columns are read by name. Times with no zone are read as UTC, as the
// SQLAlchemy models write them.
//
// # local-deep-research/reports (target "outputs")
//
// research_outputs/ files: "research report: <file>, <size> bytes (file
// mtime): <title line>" (the first non-empty line of a Markdown or text
// report, within its first 4 KiB).
//
// # Validated against
//
// Source, through the code index: the timothybrush/local-deep-research
// fork of LearningCircuit/local-deep-research (the upstream repository
// cannot be fetched here), src/local_deep_research/database/auth_db.py
// @d0a0e28 and encrypted_db.py @36f3aac; the pre-1.0 research_history
// columns and the auth users columns are from the research notes, not
// seen in source here. Synthetic fixtures; LDR was not run here.
//
// # Not read yet
//
// logs/ and Documents/LocalDeepResearch (collected).
package localdeepresearch
