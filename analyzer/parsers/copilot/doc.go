// Package copilot reads the GitHub Copilot language server's token store,
// the one file of the "copilot" catalog entry that says something about
// use: github-copilot/apps.json (current: keys "<host>:<OAuth app id>") and
// hosts.json (older: keys "<host>"), under ~/.config (Linux, macOS) or
// %LOCALAPPDATA% (Windows), written by every editor plugin that embeds the
// language server (Copilot for Vim/Neovim, JetBrains, Xcode, Visual Studio,
// Zed). No conversation is kept there: Copilot Chat's history belongs to
// the editor (collected as vscode for VS Code).
//
// # copilot/account (targets "tokens", "tokens-windows"; secret kind)
//
// One system row per account at the file's mtime: "copilot account:
// user=<login> host=<host> app=<githubAppId> (an OAuth token is stored;
// not read)". Only user and githubAppId are decoded; the oauth_token member
// is noted as present, its value never decoded into a string or row. An
// entry that is not an object is a problem naming its key.
//
// # Evidence
//
//   - The store's shape as the language server writes it and public
//     plugins read it (github/copilot.vim autoload/copilot.vim and the
//     vendored language server dist: apps.json {"github.com:<app id>":
//     {user, oauth_token, githubAppId}}, hosts.json {"github.com": {user,
//     oauth_token}}), as in the catalog's EvidenceNote; synthetic fixture
//     (testdata/home; the tokens are fake).
//
// # Not read, and why
//
//   - The rest of github-copilot/ (targets "store", "store-windows":
//     versions.json, the language server's caches and logs): collected, no
//     account or conversation in them that the seed lists.
package copilot
