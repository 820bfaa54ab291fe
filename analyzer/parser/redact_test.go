package parser

import (
	"reflect"
	"strings"
	"testing"
)

func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`permission setting: permissions.allow=Bash(curl -H "Authorization: Bearer sk-ant-FAKE666abcdef")`: `permission setting: permissions.allow=Bash(curl -H "Authorization: Bearer [redacted]")`,
		"key sk-proj-ABCDEFGHIJKLMNOP and ghp_0123456789abcdefABCD":                                        "key [redacted] and [redacted]",
		"AKIAABCDEFGHIJKLMNOP x":                               "[redacted] x",
		"permission setting: permissions.allow=Bash(npm test)": "permission setting: permissions.allow=Bash(npm test)",
		"skill: sk-short":                                      "skill: sk-short",
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRedactNamedSecrets: a value under a secret's name is masked in a
// settings row, the name kept (the red-team trial printed these whole).
func TestRedactNamedSecrets(t *testing.T) {
	for in, want := range map[string]string{
		`permission setting: allow=Bash(export TOKEN=tok-9f8e7d6c5b) (from settings.json, file mtime)`: `permission setting: allow=Bash(export TOKEN=[redacted]) (from settings.json, file mtime)`,
		`permission setting: allow=WebFetch(header X-Api-Key: zz9-abcdef123)`:                          `permission setting: allow=WebFetch(header X-Api-Key: [redacted])`,
		`control surface: hook Stop: curl -d token=abc123def http://x`:                                 `control surface: hook Stop: curl -d token=[redacted] http://x`,
		`model setting: gpt-5 (from config.toml, file mtime)`:                                          `model setting: gpt-5 (from config.toml, file mtime)`,
		`permission setting: max_tokens=4096`:                                                          `permission setting: max_tokens=4096`,
		`permission setting: Authorization: Bearer abcdefgh12345`:                                      `permission setting: Authorization: Bearer [redacted]`,
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q)\n got  %q\n want %q", in, got, want)
		}
	}
}

func TestFindSecrets(t *testing.T) {
	in := `Authorization: Bearer abcdefgh12345678 sk-ant-api03-XXXXXXXXXX ghp_ABCDEFGHIJKLMNOPQRSTUV AKIAABCDEFGHIJKLMNOP NPM_TOKEN=npm_abcdef max_tokens=4096 password=short`
	var got []string
	for _, s := range FindSecrets(in) {
		got = append(got, s.Kind+"="+s.Value)
	}
	want := "authorization header=abcdefgh12345678|anthropic or openai key=sk-ant-api03-XXXXXXXXXX|github token=ghp_ABCDEFGHIJKLMNOPQRSTUV|aws access key id=AKIAABCDEFGHIJKLMNOP|named:NPM_TOKEN=npm_abcdef"
	if strings.Join(got, "|") != want {
		t.Errorf("FindSecrets:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// Every value found is one RedactSecrets removes.
	red := RedactSecrets(in)
	for _, s := range FindSecrets(in) {
		if strings.Contains(red, s.Value) {
			t.Errorf("%s survives RedactSecrets: %s", s.Value, red)
		}
	}
}

// TestFindSecretsLiteralsNotCode: a secret's value is a literal. Code that
// names a secret and gives it a variable, a reference, an expression, a
// type or another name is no secret value; real-looking keys, and literal
// values under a secret's name, are.
// literalsNotCode are texts and the secrets FindSecrets finds in them
// (kind=value, |-joined; "" for none).
var literalsNotCode = []struct{ in, want string }{
	// Real-looking keys, wherever they stand.
	{`export OPENAI_API_KEY=sk-proj-4fJ8kLm2Qx9ZtR7w`, "anthropic or openai key=sk-proj-4fJ8kLm2Qx9ZtR7w"},
	{`api_key = "sk-ant-api03-9xYzAbCdEf"`, "anthropic or openai key=sk-ant-api03-9xYzAbCdEf"},
	{`token: ghp_16C7e42F292c6912E7710c838347Ae178B4a`, "github token=ghp_16C7e42F292c6912E7710c838347Ae178B4a"},
	{`aws_access_key_id = AKIAIOSFODNN7EXAMPLE`, "aws access key id=AKIAIOSFODNN7EXAMPLE"},
	{`SLACK_BOT_TOKEN=xoxb-123456789012-abcdefABCDEF`, "slack token=xoxb-123456789012-abcdefABCDEF"},
	{`curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"`, "authorization header=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"},
	// Literal values under a secret's name.
	{`NPM_TOKEN=npm_abcdef`, "named:NPM_TOKEN=npm_abcdef"},
	{`NPM_TOKEN=npm_doubleagentFIXTUREnotAtoken`, "named:NPM_TOKEN=npm_doubleagentFIXTUREnotAtoken"}, // fixtures/roots/s1ngularity
	{`token=AbCdEfGhIjKlMnOpQrStUvWx`, "named:token=AbCdEfGhIjKlMnOpQrStUvWx"},                       // random case, not words
	{`password: hunter42`, "named:password=hunter42"},
	{`"client_secret": "Zm9vYmFyYmF6cXV4"`, "named:client_secret=Zm9vYmFyYmF6cXV4"},
	{`db_password = "correcthorse"`, "named:db_password=correcthorse"},
	{`X-Api-Key: zz9-abcdef123`, "named:X-Api-Key=zz9-abcdef123"},
	{`JWT_TOKEN=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl`, "named:JWT_TOKEN=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"},
	{`api_key = "self.key"`, "named:api_key=self.key"}, // quoted: a literal, whatever it reads like
	// Code: variables and references.
	{`my $x_token = $o->{clock};`, ""},
	{`TOKEN=$GITHUB_TOKEN`, ""},
	{`token = "${API_TOKEN}"`, ""},
	{`set API_KEY=%OPENAI_API_KEY%`, ""},
	{`token: {{ secrets.DEPLOY_TOKEN }}`, ""},
	{`api_key: "<your-api-key>"`, ""},
	// Code: expressions.
	{`api_key = self.key`, ""},
	{`token = os.environ["GITHUB_TOKEN"]`, ""},
	{`secret = getSecret()`, ""},
	{`password = cfg[password_field]`, ""},
	{`access_key = Config::get`, ""},
	{`const token = process.env.NPM_TOKEN;`, ""},
	// Code: types and other names.
	{`token: string;`, ""},
	{`def login(password: str = None):`, ""},
	{`api_key: Optional[str]`, ""},
	{`client_secret: SecretStr`, ""},
	{`api_key = apiKey`, ""},
	{`password = PasswordField`, ""},
	{`secret = mySecretValue`, ""},
	{`token = GITHUB_TOKEN`, ""},
	// Code in a real Cline transcript (agent-samples cline/agentlogs/crud): a
	// generic type, a keyword, an elided placeholder, a value that is its
	// own name.
	{`export type UnifiedTokenUsage = z.infer<typeof unifiedTokenUsageSchema>;`, ""},
	{"const totalTokens =\n  typeof totalTokensSource === \"number\"", ""},
	{`#   GITHUB_CLIENT_SECRET=...\n#   BETTER_AUTH_SECRET=...`, ""},
	{`preferredKey: "last_token_usage" | "total_token_usage" = "total_token_usage",`, ""},
	{`GITHUB_CLIENT_SECRET=...abcdef12`, ""},
	{`password: Zm9v<bar>baz`, ""},
	{`password: "Zm9v<bar>baz"`, "named:password=Zm9v<bar>baz"}, // quoted: a literal
	{`password = user_password`, ""},
	{`private_key=undefined`, ""},
	// Counts and short values stay as they were: no secret.
	{`max_tokens=4096`, ""},
	{`password=short`, ""},
}

func TestFindSecretsLiteralsNotCode(t *testing.T) {
	for _, c := range literalsNotCode {
		var got []string
		for _, s := range FindSecrets(c.in) {
			got = append(got, s.Kind+"="+s.Value)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("FindSecrets(%q) = %q, want %q", c.in, g, c.want)
		}
	}
}

// TestRedactSecretsMasksWhatFindSecretsFinds: RedactSecrets replaces
// exactly the values FindSecrets reports, so code (token: string) is left
// as written in rows and reports.
func TestRedactSecretsMasksWhatFindSecretsFinds(t *testing.T) {
	for _, c := range literalsNotCode {
		want := c.in
		for _, s := range FindSecrets(c.in) {
			want = strings.Replace(want, s.Value, "[redacted]", 1)
		}
		if got := RedactSecrets(c.in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", c.in, got, want)
		}
	}
	for in, want := range map[string]string{
		`interface Creds { token: string; password: string }`:                         `interface Creds { token: string; password: string }`,
		`TOKEN=abcdefgh1 other_token=$X`:                                              `TOKEN=[redacted] other_token=$X`,
		`curl -H "Authorization: Bearer abcdefgh12345" -H "X-Api-Key: zz9-abcdef123"`: `curl -H "Authorization: Bearer [redacted]" -H "X-Api-Key: [redacted]"`,
	} {
		if got := RedactSecrets(in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScanSecretWordsBoundary: the prefilter passes every text secretRe
// matches (a literal at a word boundary), and stops a literal inside a
// word, which no alternative can match (each opens with \b).
func TestScanSecretWordsBoundary(t *testing.T) {
	for _, c := range []struct {
		s      string
		shaped bool
	}{
		{"run task-abcdefghijkl now", false},
		{"mask-ant-abcdefghijkl", false},
		{"x_sk-abcdefghijkl", false},
		{"9AKIAABCDEFGHIJKLMNOP", false},
		{"sk-abcdefghijkl", true},
		{"key=sk-abcdefghijkl", true},
		{"ésk-abcdefghijkl", true}, // a non-ASCII letter is no word character to \b
		{"Authorization: Bearer abcdefghijkl", true},
		{"-SK-ant-abcdefghijkl", true},
	} {
		shaped, _ := scanSecretWords(c.s)
		if shaped != c.shaped {
			t.Errorf("scanSecretWords(%q) shaped = %v, want %v", c.s, shaped, c.shaped)
		}
		if m := secretRe.MatchString(c.s); m && !shaped {
			t.Errorf("%q: secretRe matches but the prefilter stops it", c.s)
		}
	}
	// Every text over a small alphabet around the literals: a match is
	// never filtered out.
	alpha := []string{"sk-", "ta", "é", " ", "_", "ghp_", "AKIA", "0123456789", "abcdefgh", "Bearer ", "xoxb-", "AIza", "-"}
	var walk func(s string, depth int)
	n := 0
	walk = func(s string, depth int) {
		if depth == 0 {
			n++
			shaped, _ := scanSecretWords(s)
			if secretRe.MatchString(s) && !shaped {
				t.Fatalf("%q: secretRe matches but the prefilter stops it", s)
			}
			return
		}
		for _, a := range alpha {
			walk(s+a, depth-1)
		}
	}
	walk("", 4)
	if n != 28561 {
		t.Fatalf("walked %d texts, want 13^4", n)
	}
}

// scanSecretWordsRef is scanSecretWords without the second-letter test.
func scanSecretWordsRef(s string) (shaped bool, names [][2]int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		for _, w := range wordsByFirst[c] {
			if hasFoldPrefix(s[i:], w.w) {
				if w.name {
					names = append(names, [2]int{i, len(w.w)})
				} else if i == 0 || !isWordByte(s[i-1]) {
					shaped = true
				}
			}
		}
	}
	return shaped, names
}

// TestSecretWordsSecondLetter: secondByFirst's test holds for every word
// (its second byte a lower-case letter), and scanSecretWords finds what
// the loop over every candidate finds.
func TestSecretWordsSecondLetter(t *testing.T) {
	for _, w := range append(append([]string{}, secretLiterals...), secretNames...) {
		if len(w) < 2 || w[1] < 'a' || w[1] > 'z' {
			t.Errorf("word %q: its second byte is not a lower-case letter", w)
		}
	}
	for _, s := range []string{"", "t", "TOKEN=abc", "my_Api_Key: x", "Bearer abc", "xoxb-1", "task-sk-1", "AKIA1234", "s", "sK-", "gh", "Ghp_x", "tOkEn",
		"password passwd privatekey private-key credential accesskey access_key", "a\xffpassword", "PASSWORD"} {
		gs, gn := scanSecretWords(s)
		ws, wn := scanSecretWordsRef(s)
		if gs != ws || !reflect.DeepEqual(gn, wn) {
			t.Errorf("scanSecretWords(%q) = %v %v, want %v %v", s, gs, gn, ws, wn)
		}
	}
}

func FuzzScanSecretWords(f *testing.F) {
	f.Add("Bearer TOKEN=x api_KEY sk-1")
	f.Fuzz(func(t *testing.T, s string) {
		gs, gn := scanSecretWords(s)
		ws, wn := scanSecretWordsRef(s)
		if gs != ws || !reflect.DeepEqual(gn, wn) {
			t.Fatalf("scanSecretWords(%q) = %v %v, want %v %v", s, gs, gn, ws, wn)
		}
	})
}
