//go:build unix

package collect

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/doubleagent/doubleagent/bundle"
)

// TestServiceUnitRelocation: OLLAMA_MODELS set where Ollama's Linux
// installer and documentation set it, in a drop-in of
// /etc/systemd/system/ollama.service (User=ollama, home /usr/share/ollama),
// moves the ollama user's models folder, and the collector walks it, each
// row's found_via naming the drop-in, its line, the unit and its user. A
// unit without User= reaches root's home; a user unit below a home
// reaches that home, %h expanded; the same unit's value does not reach
// another user. An EnvironmentFile= is read by the host-file rule: a
// regular file's settings count, a FIFO or /dev/zero is logged, never
// opened for reading. A masked unit (a link to /dev/null) and a FIFO unit
// file are not read, and nothing hangs on a FIFO.
func TestServiceUnitRelocation(t *testing.T) {
	root := t.TempDir()
	put(t, root, "etc/passwd", "root:x:0:0::/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/bash\nollama:x:998:998::/usr/share/ollama:/bin/false\n")
	put(t, root, "usr/share/ollama/.ollama/id_ed25519.pub", "ssh-ed25519 AAAA ollama\n")
	put(t, root, "root/.profile", "# root\n")
	put(t, root, "etc/systemd/system/ollama.service", "[Unit]\nDescription=Ollama Service\n\n[Service]\nExecStart=/usr/local/bin/ollama serve\nUser=ollama\nGroup=ollama\nEnvironment=\"PATH=/usr/local/bin:/usr/bin\"\n")
	put(t, root, "etc/systemd/system/ollama.service.d/override.conf", "[Service]\nEnvironment=\"OLLAMA_MODELS=/data/ollama\"\n")
	put(t, root, "data/ollama/manifests/registry.ollama.ai/library/gpt-oss/20b", "{}")
	put(t, root, "data/ollama/blobs/sha256-00", "weights")
	put(t, root, "usr/lib/systemd/system/rootsvc.service", "[Service]\nExecStart=/usr/bin/codex-worker\nEnvironment=CODEX_HOME=/srv/codex\n")
	put(t, root, "srv/codex/sessions/2026/11/30/rollout-1.jsonl", `{"type":"session_meta"}`+"\n")
	put(t, root, "home/alice/.config/systemd/user/ollama.service", "[Service]\nExecStart=/usr/local/bin/ollama serve\nEnvironment=OLLAMA_MODELS=%h/models\n")
	put(t, root, "home/alice/models/manifests/registry.ollama.ai/library/qwen3/8b", "{}")
	put(t, root, "etc/systemd/system/agents.service", "[Service]\nUser=alice\nEnvironmentFile=-/etc/agents.env\nEnvironmentFile=/srv/env.fifo\nEnvironmentFile=/dev/zero\n")
	put(t, root, "etc/agents.env", "# agents\nCODEX_HOME=/srv/alice-codex\n")
	put(t, root, "srv/alice-codex/sessions/2026/12/01/rollout-2.jsonl", `{"type":"session_meta"}`+"\n")
	if err := syscall.Mkfifo(filepath.Join(root, "srv/env.fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/null", filepath.Join(root, "etc/systemd/system/masked.service")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "etc/systemd/system/fifo.service"), 0o644); err != nil {
		t.Fatal(err)
	}

	b, _, err := run(t, t.Context(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	_, vr := verify(t, b, bundle.ProblemRowError)
	checkRows(t, root, vr.Manifest)
	m := byPath(vr.Manifest)
	for _, w := range []struct{ path, user, agent, target, status, via string }{
		{"/data/ollama/manifests/registry.ollama.ai/library/gpt-oss/20b", "ollama", "ollama", "manifests", "collected",
			"OLLAMA_MODELS=/data/ollama in /etc/systemd/system/ollama.service.d/override.conf:2 (ollama.service, User=ollama)"},
		{"/srv/codex/sessions/2026/11/30/rollout-1.jsonl", "root", "codex-cli", "sessions", "collected",
			"CODEX_HOME=/srv/codex in /usr/lib/systemd/system/rootsvc.service:3 (rootsvc.service)"},
		{"/srv/alice-codex/sessions/2026/12/01/rollout-2.jsonl", "alice", "codex-cli", "sessions", "collected",
			"CODEX_HOME=/srv/alice-codex in /etc/agents.env:2 (EnvironmentFile= of /etc/systemd/system/agents.service:3) (agents.service, User=alice)"},
		{"/home/alice/models/manifests/registry.ollama.ai/library/qwen3/8b", "alice", "ollama", "manifests", "collected",
			"OLLAMA_MODELS=%h/models in /home/alice/.config/systemd/user/ollama.service:3 (ollama.service)"},
	} {
		e := rowOf(t, m, w.path)
		if e.User != w.user || e.Agent != w.agent || e.Target != w.target || e.Status != w.status || e.FoundVia != w.via {
			t.Errorf("%s:\n got user=%s agent=%s target=%s status=%s found_via=%q\nwant user=%s agent=%s target=%s status=%s found_via=%q", w.path, e.User, e.Agent, e.Target, e.Status, e.FoundVia, w.user, w.agent, w.target, w.status, w.via)
		}
	}
	if _, ok := m["/data/ollama/blobs/sha256-00"]; ok {
		t.Error("a model blob under OLLAMA_MODELS was collected")
	}
	var units, envFiles []string
	for _, l := range logLines(t, vr.Log) {
		if l["message"] == "service unit's EnvironmentFile= not read: relocated agent folders it sets are not found" {
			envFiles = append(envFiles, l["file"].(string))
		}
		if l["message"] == "relocation variables read from a service unit" {
			units = append(units, l["unit"].(string)+" "+l["unit_user"].(string))
		}
		if l["message"] == "walking a relocated agent folder" && strings.HasPrefix(l["folder"].(string), "/data/ollama") && l["user"] != "ollama" {
			t.Errorf("ollama.service's folder walked for %v", l["user"])
		}
	}
	if got, want := strings.Join(units, "\n"), "agents.service alice\nollama.service ollama\nrootsvc.service \nollama.service "; got != want {
		t.Errorf("units read:\n%s\nwant\n%s", got, want)
	}
	if got, want := strings.Join(envFiles, " "), "/srv/env.fifo /dev/zero"; got != want {
		t.Errorf("EnvironmentFile= not read: %q, want %q", got, want)
	}
}
