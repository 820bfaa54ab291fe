package parser

import (
	"github.com/doubleagent/doubleagent/bundle"
	"regexp"
	"sort"
	"strings"
)

// secretRe matches well-known credential shapes (bundle.SecretShapes: the
// one definition the collector's log shares).
var secretRe = bundle.SecretShapes

// RedactSecrets replaces credential-shaped substrings of s with
// "[redacted]", keeping an authorization scheme word, and the value given
// under a secret's name (TOKEN=..., X-Api-Key: ...) with "[redacted]",
// keeping the name. Settings rows pass
// their values through it, since a permission rule can embed a token
// (Bash(curl -H "Authorization: Bearer ...")). A value under a secret's
// name is replaced only when FindSecrets would report it: a literal, not
// code (token: string, api_key = os.environ[...]); values of 5
// characters or fewer are left as written.
func RedactSecrets(s string) string {
	s = secretRe.ReplaceAllStringFunc(s, func(m string) string {
		if sub := secretRe.FindStringSubmatch(m); sub != nil && sub[1] != "" {
			return sub[1] + "[redacted]"
		}
		return "[redacted]"
	})
	_, names := scanSecretWords(s)
	hits := namedSecretHits(s, names)
	if len(hits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, h := range hits {
		b.WriteString(s[last:h.value])
		b.WriteString("[redacted]")
		last = h.value + len(h.sec.Value)
	}
	b.WriteString(s[last:])
	return b.String()
}

// Secret is one credential-shaped value found in a text: Kind names its
// shape ("anthropic or openai key", "github token", "aws access key id",
// "slack token", "google api key", "authorization header", or
// "named:NAME" for a value given under a secret's name), Value is the
// value itself (callers fingerprint it; never print it).
type Secret struct {
	Kind, Value string
}

// FindSecrets returns the credential-shaped values of s, in order, as
// RedactSecrets would replace them.
func FindSecrets(s string) []Secret {
	var out []Secret
	shaped, names := scanSecretWords(s)
	if !shaped { // no literal every secretRe match holds: skip the regexp
		return namedSecrets(s, names)
	}
	for _, sub := range secretRe.FindAllStringSubmatch(s, -1) {
		m := sub[0]
		kind := ""
		switch l := strings.ToLower(m); {
		case sub[1] != "":
			kind, m = "authorization header", m[len(sub[1]):]
		case strings.HasPrefix(l, "sk-"):
			kind = "anthropic or openai key"
		case strings.HasPrefix(l, "gh") || strings.HasPrefix(l, "github_pat_"):
			kind = "github token"
		case strings.HasPrefix(l, "xox"):
			kind = "slack token"
		case strings.HasPrefix(m, "AKIA"):
			kind = "aws access key id"
		default:
			kind = "google api key"
		}
		out = append(out, Secret{kind, m})
	}
	out = append(out, namedSecrets(s, names)...)
	return out
}

// secretLiterals are the literals (lower case) one of which every
// secretRe match holds; secretNames are the words namedSecretRe's names
// hold. Both are found in one pass over the text (scanSecretWords).
var (
	secretLiterals = []string{"bearer", "basic", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "akia", "aiza"}
	secretNames    = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key",
		"privatekey", "private_key", "private-key", "credential"}
)

// wordsByFirst indexes both lists by first letter.
var wordsByFirst = func() (m [256][]secretWord) {
	for _, w := range secretLiterals {
		m[w[0]] = append(m[w[0]], secretWord{w, false})
	}
	for _, w := range secretNames {
		m[w[0]] = append(m[w[0]], secretWord{w, true})
	}
	return m
}()

type secretWord struct {
	w    string
	name bool
}

// secondByFirst says, by a word's first letter, which second letters
// (bit c-'a') any word of wordsByFirst has: most letters of a text start
// no word, and the test spares the loop over the candidates.
var secondByFirst = func() (m [256]uint32) {
	for c, ws := range wordsByFirst {
		for _, w := range ws {
			m[c] |= 1 << (w.w[1] - 'a') // every word's second byte is a lower-case letter (TestSecretWordsSecondLetter)
		}
	}
	return m
}()

// scanSecretWords reports whether s holds a secretRe literal at a word
// boundary (where a match could start), and where
// (offset, length) it holds a secret's name word, ASCII case folded, in
// one pass.
func scanSecretWords(s string) (shaped bool, names [][2]int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		mask := secondByFirst[c]
		if mask == 0 || i+1 >= len(s) {
			continue // every word is longer than one byte
		}
		if d := s[i+1] | 0x20; d < 'a' || d > 'z' || mask&(1<<(d-'a')) == 0 {
			continue // (| 0x20 lower-cases a letter, and makes no letter of anything else)
		}
		for _, w := range wordsByFirst[c] {
			if hasFoldPrefix(s[i:], w.w) {
				if w.name {
					names = append(names, [2]int{i, len(w.w)})
				} else if i == 0 || !isWordByte(s[i-1]) {
					// Every secretRe alternative opens with \b and its
					// literal (a letter): a literal inside a word (the
					// "sk-" of "task-") cannot start a match.
					shaped = true
				}
			}
		}
	}
	return shaped, names
}

// isWordByte reports whether c is an ASCII word character, as regexp's \b
// reads it (a byte of a multi-byte character is not one, nor is its rune).
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// hasFoldPrefix reports whether s starts with w (lower-case ASCII),
// ASCII letters of s compared without case.
func hasFoldPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for k := 1; k < len(w); k++ { // the first byte matched already
		c := s[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[k] {
			return false
		}
	}
	return true
}

// namedValueRe is what follows a secret's name: the separator and the
// value, as namedSecretRe has them.
var namedValueRe = regexp.MustCompile(`^["']?\s*[=:]\s*(["']?)([^\s"',;&)}\]]*[A-Za-z][^\s"',;&)}\]]*)`)

// A secret's value is a literal. What follows a secret's name in code is
// often not one: a variable or an environment reference ($x, ${X}, %X%,
// {{ secrets.X }}), a placeholder (<your-key>), an expression (a call, an
// index, a member: getToken(), $o->{clock}, cfg[key], self.key,
// os.environ), a type (token: string) or another name (api_key = apiKey,
// token = GITHUB_TOKEN). codeValue says so for v; quoted is the quote
// that opened it ("" when none): a quoted value is a literal unless it is a
// reference or a placeholder.
var (
	identPathRe = regexp.MustCompile(`^[A-Za-z_]+(\.[A-Za-z_]+)+$`) // self.key, os.environ: no digit
	identRe     = regexp.MustCompile(`^[A-Za-z_]+$`)
	camelRe     = regexp.MustCompile(`^[a-z]{2,}([A-Z][a-z]{2,})+$|^([A-Z][a-z]{2,}){2,}$`) // apiKey, SecretStr: words, not random case
	wordSplitRe = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+`)
	upperSnake  = regexp.MustCompile(`^[A-Z][A-Z_]*$`)
	// codeWords are type names and keywords that stand where a value
	// would (token: string, password = None, key = await ...).
	codeWords = map[string]bool{"string": true, "str": true, "bytes": true, "int": true, "integer": true, "bool": true, "boolean": true,
		"number": true, "any": true, "object": true, "unknown": true, "none": true, "null": true, "nil": true, "undefined": true,
		"true": true, "false": true, "self": true, "this": true, "await": true, "new": true, "function": true, "lambda": true,
		"func": true, "return": true, "optional": true, "secretstr": true, "required": true, "env": true, "environ": true,
		"process": true, "config": true, "settings": true, "options": true, "opts": true, "params": true, "args": true,
		"typeof": true, "keyof": true, "instanceof": true, "readonly": true}
)

func codeValue(v, quoted string) bool {
	switch {
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "{{"), strings.HasPrefix(v, "<"),
		strings.HasPrefix(v, "..."), strings.HasPrefix(v, "…"),
		len(v) > 2 && v[0] == '%' && strings.IndexByte(v[1:], '%') > 0:
		return true // $x, ${X}, {{ secrets.X }}, <your-key>, %API_KEY%, SECRET=... (elided)
	case quoted != "":
		return false
	case strings.Contains(v, "->"), strings.Contains(v, "::"), strings.ContainsAny(v, "([{<"):
		return true // a call, an index, a member of a map, a generic type (z.infer<typeof X>)
	case identPathRe.MatchString(v):
		return true
	case identRe.MatchString(v):
		if codeWords[strings.ToLower(v)] || camelRe.MatchString(v) || upperSnake.MatchString(v) {
			return true
		}
		for _, w := range wordSplitRe.FindAllString(v, -1) {
			switch strings.ToLower(w) {
			case "token", "tokens", "secret", "secrets", "password", "passwd", "pwd", "key", "apikey", "credential", "credentials":
				return true // api_key = api_key, token = my_token: another name
			}
		}
	}
	return false
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// namedSecretHit is one value under a secret's name: start is the
// name's offset, value the value's offset in the text.
type namedSecretHit struct {
	start, value int
	sec          Secret
}

// namedSecrets returns the values namedSecretHits finds.
func namedSecrets(s string, at [][2]int) []Secret {
	hits := namedSecretHits(s, at)
	out := make([]Secret, len(hits))
	for i, h := range hits {
		out[i] = h.sec
	}
	return out
}

// namedSecretHits finds the literal values given under a secret's name,
// in order and without overlap, in linear time: from each name word
// scanSecretWords found (at: offset, length), the name widened over name
// characters, then the separator and value (a regexp with a leading
// [A-Za-z0-9_-]* retried at every position was quadratic on long texts).
func namedSecretHits(s string, at [][2]int) []namedSecretHit {
	var hits []namedSecretHit
	done := map[int]bool{}
	for _, nw := range at {
		a, b := nw[0], nw[0]+nw[1]
		for a > 0 && nameChar(s[a-1]) {
			a--
		}
		for b < len(s) && nameChar(s[b]) {
			b++
		}
		if done[a] {
			continue
		}
		done[a] = true
		rest := s[b:]
		if len(rest) > 4096 {
			rest = rest[:4096]
		}
		m := namedValueRe.FindStringSubmatchIndex(rest)
		if m == nil {
			continue
		}
		v, quoted := rest[m[4]:m[5]], rest[m[2]:m[3]]
		// a value that is its own name ("total_token_usage" = "total_token_usage",
		// API_KEY: "API_KEY") is a key or an enum member, not a secret
		if len(v) < 6 || strings.HasPrefix(v, "[redacted") || strings.HasPrefix(v, "***") || secretRe.MatchString(v) || codeValue(v, quoted) ||
			v == strings.TrimLeft(s[a:b], "-") {
			continue
		}
		hits = append(hits, namedSecretHit{a, b + m[4], Secret{"named:" + strings.TrimLeft(s[a:b], "-"), v}})
	}
	sort.Slice(hits, func(x, y int) bool { return hits[x].start < hits[y].start })
	// a name inside an earlier hit's value (TOKEN=my_secret_value) is not
	// a second hit
	out := hits[:0]
	end := -1
	for _, h := range hits {
		if h.start < end {
			continue
		}
		out = append(out, h)
		end = h.value + len(h.sec.Value)
	}
	return out
}
