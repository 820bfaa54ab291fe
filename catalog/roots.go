package catalog

// Root names a base directory, defined once per OS in rootDirs.
type Root string

// The named roots. Their directories are glob patterns relative to a home
// directory (a Linux or macOS home, or a Windows profile such as
// C:\Users\<name>, also seen from WSL as /mnt/c/Users/<name>).
const (
	RootHome            Root = "home"
	RootXDGConfig       Root = "xdg-config"       // $XDG_CONFIG_HOME, default .config
	RootXDGData         Root = "xdg-data"         // $XDG_DATA_HOME, default .local/share
	RootXDGState        Root = "xdg-state"        // $XDG_STATE_HOME, default .local/state
	RootXDGCache        Root = "xdg-cache"        // $XDG_CACHE_HOME, default .cache
	RootAppSupport      Root = "app-support"      // macOS Library/Application Support
	RootGroupContainers Root = "group-containers" // macOS Library/Group Containers
	RootAppData         Root = "appdata"          // Windows %APPDATA% (Roaming)
	RootLocalAppData    Root = "localappdata"     // Windows %LOCALAPPDATA%
	RootMSIXCache       Root = "msix-localcache"  // Windows packaged apps' LocalCache
	RootVSCodeUser      Root = "vscode-user"      // User dir of VS Code and its forks, and remote layouts
	RootFlatpakData     Root = "flatpak-data"     // .var/app/<id>/data
	RootFlatpakConfig   Root = "flatpak-config"   // .var/app/<id>/config
	// RootAppConfig is the per-user application configuration directory as
	// Electron (app.getPath("appData")), Tauri (app_config_dir) and Go's
	// os.UserConfigDir define it: .config, Library/Application Support,
	// %APPDATA%.
	RootAppConfig Root = "app-config"
	// RootUserData is platformdirs' and env-paths' user data directory:
	// .local/share, Library/Application Support, %LOCALAPPDATA%.
	RootUserData Root = "user-data"
	// RootVSCodeEditorUser is the User directory of VS Code itself and the
	// forks that have no agent entry of their own (VSCodeEditors), with the
	// remote-server and Flatpak layouts. Cursor, Windsurf, Kiro and PearAI keep
	// their own editor state under their own agents.
	RootVSCodeEditorUser Root = "vscode-editor-user"
)

// VSCodeForks are the product folder names of VS Code and the forks whose
// User directory is RootVSCodeUser.
var VSCodeForks = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf", "Positron", "Trae", "Kiro", "PearAI", "Antigravity"}

// VSCodeEditors are the product folder names of VS Code and the forks whose
// editor state (state.vscdb, chatSessions, workspace.json) belongs to the
// vscode agent.
var VSCodeEditors = []string{"Code", "Code - Insiders", "VSCodium", "Positron", "Trae"}

func forkDirs(prefix string) []string { return userDirs(prefix, VSCodeForks) }

func userDirs(prefix string, products []string) []string {
	out := make([]string, 0, len(products))
	for _, f := range products {
		out = append(out, prefix+f+"/User")
	}
	return out
}

var rootDirs = map[Root]map[OS][]string{
	RootHome: {Linux: {"."}, Darwin: {"."}, Windows: {"."}},
	// XDG defaults; several agents use them on macOS too.
	RootXDGConfig: {Linux: {".config"}, Darwin: {".config"}},
	RootXDGData:   {Linux: {".local/share"}, Darwin: {".local/share"}},
	RootXDGState:  {Linux: {".local/state"}, Darwin: {".local/state"}},
	RootXDGCache:  {Linux: {".cache"}, Darwin: {".cache", "Library/Caches"}},
	RootAppSupport: {
		Darwin: {"Library/Application Support"},
	},
	RootGroupContainers: {Darwin: {"Library/Group Containers"}},
	RootAppData:         {Windows: {"AppData/Roaming"}},
	RootLocalAppData:    {Windows: {"AppData/Local"}},
	RootMSIXCache:       {Windows: {"AppData/Local/Packages/*/LocalCache"}},
	RootVSCodeUser: {
		Linux:   append(forkDirs(".config/"), ".vscode-server*/data/User", ".vscode-remote/data/User", ".cursor-server/data/User", ".windsurf-server/data/User", ".var/app/*/config/*/User"),
		Darwin:  forkDirs("Library/Application Support/"),
		Windows: forkDirs("AppData/Roaming/"),
	},
	RootFlatpakData:   {Linux: {".var/app/*/data"}},
	RootFlatpakConfig: {Linux: {".var/app/*/config"}},
	RootAppConfig:     {Linux: {".config"}, Darwin: {"Library/Application Support"}, Windows: {"AppData/Roaming"}},
	RootUserData:      {Linux: {".local/share"}, Darwin: {"Library/Application Support"}, Windows: {"AppData/Local"}},
	RootVSCodeEditorUser: {
		Linux:   append(userDirs(".config/", VSCodeEditors), ".vscode-server*/data/User", ".vscode-remote/data/User", ".var/app/{com.visualstudio.code*,com.vscodium.codium*}/config/*/User"),
		Darwin:  userDirs("Library/Application Support/", VSCodeEditors),
		Windows: userDirs("AppData/Roaming/", VSCodeEditors),
	},
}

// RootDirs returns the directory patterns (relative to a home, '/'
// separated, possibly with glob characters) of root r on os, and whether r
// is defined there.
func RootDirs(r Root, os OS) ([]string, bool) {
	m, ok := rootDirs[r]
	if !ok {
		return nil, false
	}
	d, ok := m[os]
	return d, ok && len(d) > 0
}

// Roots lists every named root.
func Roots() []Root {
	return []Root{RootHome, RootXDGConfig, RootXDGData, RootXDGState, RootXDGCache, RootAppSupport, RootGroupContainers, RootAppData, RootLocalAppData, RootMSIXCache, RootVSCodeUser, RootFlatpakData, RootFlatpakConfig, RootAppConfig, RootUserData, RootVSCodeEditorUser}
}

// VolumeDirs are the host-level directories holding Docker and Podman named
// volumes, relative to the filesystem root; each volume's content is
// <dir>/<volume name>/_data. Rootless Podman keeps its volumes under each
// home at .local/share/containers/storage/volumes.
var VolumeDirs = []string{"var/lib/docker/volumes", "var/lib/containers/storage/volumes"}

// HomeVolumeDir is the rootless Podman volume directory relative to a home.
const HomeVolumeDir = ".local/share/containers/storage/volumes"
