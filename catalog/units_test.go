package catalog

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnitEnv: a unit file and its drop-in, read as systemd reads them:
// only [Service]; quoted and bare assignments, several on one line; a
// backslash-joined line; an empty Environment= resetting what came
// before; EnvironmentFile= with its "-" prefix; User=; comments and
// other sections ignored; only the wanted variables kept.
func TestUnitEnv(t *testing.T) {
	want := map[string]bool{"OLLAMA_MODELS": true, "CODEX_HOME": true}
	var u UnitEnv
	u.Read(strings.NewReader(`[Unit]
Description=Ollama Service
Environment=OLLAMA_MODELS=/unit/section/ignored
[Service]
ExecStart=/usr/local/bin/ollama serve
User=ollama
# Environment=OLLAMA_MODELS=/commented
Environment="PATH=/usr/bin" OLLAMA_MODELS=/first
`), "/usr/lib/systemd/system/ollama.service", want)
	u.Read(strings.NewReader(`[Service]
Environment=
Environment="OLLAMA_HOST=0.0.0.0" \
  "OLLAMA_MODELS=/srv/ollama models" 'CODEX_HOME=/srv/codex'
EnvironmentFile=-/etc/default/ollama
User=svc-ollama
[Install]
User=not-this
`), "/etc/systemd/system/ollama.service.d/override.conf", want)
	var got []string
	for _, s := range u.Settings {
		got = append(got, fmt.Sprintf("%s=%s @%s %v", s.Name, s.Value, s.Where, s.Systemd))
	}
	for _, s := range u.EnvFiles {
		got = append(got, fmt.Sprintf("file %s @%s", s.Value, s.Where))
	}
	got = append(got, "user "+u.User)
	if g, w := strings.Join(got, "\n"), `OLLAMA_MODELS=/srv/ollama models @/etc/systemd/system/ollama.service.d/override.conf:3 true
CODEX_HOME=/srv/codex @/etc/systemd/system/ollama.service.d/override.conf:3 true
file /etc/default/ollama @/etc/systemd/system/ollama.service.d/override.conf:5
user svc-ollama`; g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

// TestUnitSources: the unit file of the highest-precedence folder, then
// every drop-in by file name, a drop-in name in /etc hiding the same name
// in /usr/lib; a unit with only drop-ins is listed; other files are not.
func TestUnitSources(t *testing.T) {
	fs := map[string][]string{
		"/etc/systemd/system":                      {"ollama.service", "ollama.service.d", "multi-user.target.wants", "x.timer", "only.service.d"},
		"/etc/systemd/system/ollama.service.d":     {"override.conf", "notes.txt"},
		"/etc/systemd/system/only.service.d":       {"a.conf"},
		"/usr/lib/systemd/system":                  {"ollama.service", "ollama.service.d", "cron.service"},
		"/usr/lib/systemd/system/ollama.service.d": {"override.conf", "10-vendor.conf"},
	}
	var got []string
	for _, s := range UnitSources([]string{"/etc/systemd/system", "/usr/lib/systemd/system"}, func(d string) []string { return fs[d] }) {
		got = append(got, s.Name+": "+strings.Join(s.Files, " "))
	}
	if g, w := strings.Join(got, "\n"), `cron.service: /usr/lib/systemd/system/cron.service
ollama.service: /etc/systemd/system/ollama.service /usr/lib/systemd/system/ollama.service.d/10-vendor.conf /etc/systemd/system/ollama.service.d/override.conf
only.service: /etc/systemd/system/only.service.d/a.conf`; g != w {
		t.Errorf("got\n%s\nwant\n%s", g, w)
	}
}

// TestExpandUnitValue: %h and %% expand, $ stays literal, any other
// specifier is refused.
func TestExpandUnitValue(t *testing.T) {
	for _, c := range []struct {
		in, out string
		ok      bool
	}{
		{"/srv/models", "/srv/models", true},
		{"%h/models", "/usr/share/ollama/models", true},
		{"/srv/100%%/m", "/srv/100%/m", true},
		{"$HOME/models", "$HOME/models", true},
		{"/srv/%u/m", "/srv/%u/m", false},
		{"/srv/%", "/srv/%", false},
	} {
		if got, ok := ExpandUnitValue(c.in, "/usr/share/ollama"); got != c.out || ok != c.ok {
			t.Errorf("%q: %q %v, want %q %v", c.in, got, ok, c.out, c.ok)
		}
	}
}
