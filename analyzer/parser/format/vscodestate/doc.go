// Package vscodestate reads the VS Code state database, state.vscdb, that
// VS Code and every fork write: the SQLite tables ItemTable and (Cursor)
// cursorDiskKV, both (key, value), read by key or prefix (VSCodeState);
// the extension global-state rows an agent's extension keeps under its id
// (StateExtension, ExtensionStateParsers, StateOwners); and the editor's
// sign-ins (AuthAccount, AccountRows). It is a format package, not an
// agent's: vscode, cursor, trae, cody, pearai, roo-code, tabby and twinny
// read through it, and the registry (analyzer/parsers/all.go) builds the
// extension state parsers from it. Its store is declared as a
// parser.SQLiteStore (VSCodeStore), so an unknown schema is named by table.
// Its causes have one wording each, whichever parser reports them: a
// database that cannot be opened (NotReadable), a row over the value bound
// (StateRow.Unread), a value that is not the JSON expected (StateRow's
// NotJSON, NotObject, NotArray: table and key named); parsers'
// TestOneWordingPerStateCause keeps every user on them.
//
// Sources: microsoft/vscode src/vs/platform/storage (storage.ts creates
// ItemTable), and authenticationAccessService.ts at
// 2d77bf8faac5dc8cee43591b6f865bc74e5958ec and authenticationUsageService.ts
// at 153abe72bdee423327078a6513fb1fa94544fd59 (accounts.go). state_test.go
// builds its own databases; the agents' goldens are in their packages.
package vscodestate
