package collect

import (
	"bytes"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/catalog"
)

// projectScanner reads project directories out of agent state as it is
// copied (an io.Writer fed by a TeeReader), so no file is read twice.
// JSONL cwd fields are found by scanning for `"cwd":"`; other files
// (project keys, file content, JSON paths, YAML cwd) are kept whole up to
// 4 MiB and decoded at the end; a JSON document cut at that bound still
// yields the paths before the cut.
type projectScanner struct {
	method catalog.ProjectRef
	tail   []byte
	whole  bytes.Buffer
	paths  map[string]bool
}

func newProjectScanner(m catalog.ProjectRef) *projectScanner {
	return &projectScanner{method: m, paths: map[string]bool{}}
}

var cwdKey = []byte(`"cwd":"`)

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\xef\xbb\xbf"

func (s *projectScanner) Write(p []byte) (int, error) {
	switch s.method {
	case catalog.ProjectsJSONLCwd:
		buf := p
		if len(s.tail) > 0 {
			buf = append(s.tail, p...)
		}
		i := 0
		for {
			j := bytes.Index(buf[i:], cwdKey)
			if j < 0 {
				break
			}
			start := i + j + len(cwdKey)
			end := start
			for end < len(buf) && buf[end] != '"' {
				if buf[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(buf) {
				if end-start > 4096 {
					i = start
					continue
				}
				// Incomplete: keep it for the next write.
				s.tail = append([]byte(nil), buf[i+j:]...)
				return len(p), nil
			}
			var v string
			if err := json.Unmarshal(buf[start-1:end+1], &v); err == nil {
				s.add(v)
			}
			i = end + 1
		}
		keep := len(cwdKey)
		if len(buf) < keep {
			keep = len(buf)
		}
		s.tail = append(s.tail[:0], buf[len(buf)-keep:]...)
	default:
		if s.whole.Len()+len(p) <= 4<<20 {
			s.whole.Write(p)
		}
	}
	return len(p), nil
}

func (s *projectScanner) add(p string) {
	p = strings.ReplaceAll(p, "\\", "/")
	if len(p) >= 2 && p[1] == ':' {
		p = p[:2] + path.Clean("/"+p[2:])
	} else if strings.HasPrefix(p, "/") {
		p = path.Clean(p)
	} else {
		return
	}
	if p == "/" || len(p) > 4096 {
		return
	}
	s.paths[p] = true
}

// Paths returns the project directories found, sorted. The text is read
// as the agents read it: a leading UTF-8 byte order mark (a file saved by
// a Windows editor) is skipped, and CRLF line ends read like LF.
func (s *projectScanner) Paths() []string {
	if b := s.whole.Bytes(); bytes.HasPrefix(b, []byte(utf8BOM)) {
		s.whole.Next(len(utf8BOM))
	}
	switch s.method {
	case catalog.ProjectsJSONKeys:
		var obj struct {
			Projects map[string]json.RawMessage `json:"projects"`
		}
		if json.Unmarshal(s.whole.Bytes(), &obj) == nil {
			for k := range obj.Projects {
				s.add(k)
			}
		}
		// ~/.gemini/projects.json maps path -> name at the top level too.
		var flat map[string]json.RawMessage
		if obj.Projects == nil && json.Unmarshal(s.whole.Bytes(), &flat) == nil {
			for k := range flat {
				s.add(k)
			}
		}
	case catalog.ProjectsFileContent:
		s.add(strings.TrimSpace(s.whole.String()))
	case catalog.ProjectsJSONPaths:
		jsonPaths(s.whole.Bytes(), s.addURIOrPath)
	case catalog.ProjectsYAMLCwd:
		// Every line of the 4 MiB kept (bufio.Scanner stopped at its
		// first line over 1 MiB).
		scanLines(bytes.NewReader(s.whole.Bytes()), 4<<20, func(_ int, b []byte, _ bool) {
			line := string(b)
			for _, k := range []string{"cwd:", "git_root:"} {
				if v, ok := strings.CutPrefix(line, k); ok {
					s.add(yamlScalar(v))
				}
			}
		})
	case catalog.ProjectsWorkspaceJSON:
		var obj struct {
			Folder string `json:"folder"`
		}
		if json.Unmarshal(s.whole.Bytes(), &obj) == nil && strings.HasPrefix(obj.Folder, "file://") {
			p := strings.TrimPrefix(obj.Folder, "file://")
			if un, err := unescapeURIPath(p); err == nil {
				s.add(un)
			}
		}
	}
	out := make([]string, 0, len(s.paths))
	for p := range s.paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func unescapeURIPath(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			var v byte
			for _, c := range []byte(p[i+1 : i+3]) {
				v <<= 4
				switch {
				case c >= '0' && c <= '9':
					v |= c - '0'
				case c >= 'a' && c <= 'f':
					v |= c - 'a' + 10
				case c >= 'A' && c <= 'F':
					v |= c - 'A' + 10
				}
			}
			b.WriteByte(v)
			i += 2
			continue
		}
		b.WriteByte(p[i])
	}
	s := b.String()
	// file:///c:/Users -> c:/Users
	if len(s) >= 3 && s[0] == '/' && s[2] == ':' {
		s = s[1:]
	}
	return s, nil
}

// addURIOrPath adds v when it is an absolute path or a file:// URI.
func (s *projectScanner) addURIOrPath(v string) {
	if p, ok := strings.CutPrefix(v, "file://"); ok {
		if un, err := unescapeURIPath(p); err == nil {
			s.add(un)
		}
		return
	}
	if strings.HasPrefix(v, "/") || (len(v) >= 3 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') && isASCIILetter(v[0])) {
		s.add(v)
	}
}

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// jsonPaths calls fn with every object key and string value of a JSON
// document or of JSON lines, stopping quietly where the data is cut or
// malformed (a bad line is skipped).
func jsonPaths(b []byte, fn func(string)) {
	for len(b) > 0 {
		dec := json.NewDecoder(bytes.NewReader(b))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if v, ok := tok.(string); ok {
				fn(v)
			}
		}
		// Go on after the line that stopped the decoder (JSON lines with a
		// bad or cut record).
		off := int(dec.InputOffset())
		i := bytes.IndexByte(b[min(off, len(b)):], '\n')
		if i < 0 {
			return
		}
		b = b[min(off, len(b))+i+1:]
	}
}

// yamlScalar unquotes a plain, single- or double-quoted YAML scalar,
// dropping a trailing comment.
func yamlScalar(v string) string {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, `"`):
		for i := 1; i < len(v); i++ {
			if v[i] == '\\' {
				i++
				continue
			}
			if v[i] == '"' {
				var out string
				if json.Unmarshal([]byte(v[:i+1]), &out) == nil {
					return out
				}
				return v[1:i]
			}
		}
		return ""
	case strings.HasPrefix(v, "'"):
		var b strings.Builder
		for i := 1; i < len(v); i++ {
			if v[i] == '\'' {
				if i+1 < len(v) && v[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				return b.String()
			}
			b.WriteByte(v[i])
		}
		return ""
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}
