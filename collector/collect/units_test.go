//go:build unix

package collect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/catalog"
)

func scanPaths(m catalog.ProjectRef, data string, chunk int) []string {
	s := newProjectScanner(m)
	for len(data) > 0 {
		n := min(chunk, len(data))
		s.Write([]byte(data[:n]))
		data = data[n:]
	}
	return s.Paths()
}

func TestProjectScanner(t *testing.T) {
	for _, c := range []struct {
		m    catalog.ProjectRef
		data string
		want string
	}{
		{catalog.ProjectsJSONLCwd, `{"cwd":"/home/a/p1"}` + "\n" + `{"x":1,"cwd":"/home/a/p\"2"}` + "\n" + `{"cwd":"C:\\Users\\c\\w"}`, `/home/a/p"2 /home/a/p1 C:/Users/c/w`},
		{catalog.ProjectsJSONKeys, `{"projects":{"/home/a/x":{},"/home/a/y":{}}}`, "/home/a/x /home/a/y"},
		{catalog.ProjectsJSONKeys, `{"/home/a/g":"g"}`, "/home/a/g"},
		{catalog.ProjectsFileContent, "/home/a/root\n", "/home/a/root"},
		{catalog.ProjectsWorkspaceJSON, `{"folder":"file:///c%3A/Users/c/my%20proj"}`, "c:/Users/c/my proj"},
		// json-paths: keys and string values anywhere, file:// URIs, JSON lines
		// with a bad line, a relative path and a URL ignored.
		{catalog.ProjectsJSONPaths, `{"a":{"cwd":"/srv/w1"},"trusted":{"/srv/w2":true},"u":"https://x/y","r":"rel/dir","l":["file:///srv/w3"]}`, "/srv/w1 /srv/w2 /srv/w3"},
		{catalog.ProjectsJSONPaths, `{"directory":"/p/1"}` + "\n" + `{bad` + "\n" + `{"workspace":"D:\\code\\x"}` + "\n", "/p/1 D:/code/x"},
		{catalog.ProjectsJSONPaths, `{"cwd":"/p/cut","more":"/p/neverclos`, "/p/cut"},
		{catalog.ProjectsYAMLCwd, "id: 1\ncwd: /home/a/y1\ngit_root: \"/home/a/y 2\"\n  cwd: /nested/ignored\nsummary: x\n", "/home/a/y 2 /home/a/y1"},
		{catalog.ProjectsYAMLCwd, "cwd: '/home/a/it''s' # comment\n", "/home/a/it's"},
		// Written by a Windows editor: a UTF-8 BOM and CRLF line ends.
		{catalog.ProjectsJSONKeys, "\xef\xbb\xbf{\r\n  \"projects\": {\r\n    \"/home/a/x\": {}\r\n  }\r\n}\r\n", "/home/a/x"},
		{catalog.ProjectsJSONPaths, "\xef\xbb\xbf{\"cwd\":\"/srv/w1\"}\r\n{\"cwd\":\"/srv/w2\"}\r\n", "/srv/w1 /srv/w2"},
		{catalog.ProjectsWorkspaceJSON, "\xef\xbb\xbf{\r\n  \"folder\": \"file:///srv/ws\"\r\n}", "/srv/ws"},
		{catalog.ProjectsYAMLCwd, "\xef\xbb\xbfcwd: /home/a/y1\r\nsummary: x\r\n", "/home/a/y1"},
		{catalog.ProjectsJSONLCwd, "\xef\xbb\xbf{\"cwd\":\"/home/a/p1\"}\r\n", "/home/a/p1"},
	} {
		for _, chunk := range []int{1, 7, 1 << 20} {
			got := strings.Join(scanPaths(c.m, c.data, chunk), " ")
			if got != c.want {
				t.Errorf("%s %q (chunks of %d): %q, want %q", c.m, c.data, chunk, got, c.want)
			}
		}
	}
	// Every method the catalog uses is implemented.
	for _, m := range catalog.ProjectRefs {
		if len(scanPaths(m, map[catalog.ProjectRef]string{
			catalog.ProjectsJSONLCwd: `{"cwd":"/x"}`, catalog.ProjectsJSONKeys: `{"projects":{"/x":1}}`, catalog.ProjectsFileContent: "/x",
			catalog.ProjectsWorkspaceJSON: `{"folder":"file:///x"}`, catalog.ProjectsJSONPaths: `{"cwd":"/x"}`, catalog.ProjectsYAMLCwd: "cwd: /x\n",
		}[m], 1<<20)) != 1 {
			t.Errorf("project method %s not implemented by the collector", m)
		}
	}
}

func TestLimitedBuffer(t *testing.T) {
	b := &limitedBuffer{max: 200}
	line := `{"level":"info","message":"0123456789"}` + "\n"
	for i := 0; i < 10; i++ {
		b.Write([]byte(line))
	}
	out := b.Bytes()
	if len(out) > 200 {
		t.Errorf("kept %d bytes over the 200-byte bound", len(out))
	}
	if !bytes.HasSuffix(out, []byte(logTruncated)) {
		t.Errorf("no truncation line at the end: %q", out)
	}
	// A short line after a dropped one is not kept (no gap in the log).
	b.Write([]byte("{}\n"))
	if !bytes.HasSuffix(b.Bytes(), []byte(logTruncated)) {
		t.Error("a line was kept after the log was truncated")
	}
	sc := bufio.NewScanner(bytes.NewReader(b.Bytes()))
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Errorf("log line not JSON: %q", sc.Text())
		}
	}
}

func TestInventory(t *testing.T) {
	root, _ := fakeRoot(t)
	var out bytes.Buffer
	if err := Inventory(&out, Options{Root: root, Users: []string{"alice", "bob"}}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var host InventoryHost
	if err := json.Unmarshal([]byte(lines[0]), &host); err != nil || host.Record != "host" || host.Host != "imagehost" || host.Users != 2 {
		t.Fatalf("host line %q: %v", lines[0], err)
	}
	rows := map[string]InventoryRow{}
	for _, l := range lines[1:] {
		var r InventoryRow
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Record != "agent" {
			t.Fatalf("agent line %q: %v", l, err)
		}
		rows[r.User+"/"+r.Agent] = r
	}
	cc := rows["alice/claude-code"]
	if cc.Files < 5 || cc.Bytes == 0 || cc.FirstMTime == "" || strings.Join(cc.Projects, ",") != "/home/alice/proj" {
		t.Errorf("alice/claude-code: %+v", cc)
	}
	if rows["bob/n8n"].Files != 3 || rows["bob/codex-cli"].Files != 1 {
		t.Errorf("bob: %+v", rows)
	}
	for k := range rows {
		if !strings.HasPrefix(k, "alice/") && !strings.HasPrefix(k, "bob/") {
			t.Errorf("--users alice,bob listed %s", k)
		}
	}
}
