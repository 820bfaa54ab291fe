package analyze

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// sessionFilter is --session: each value is a session id or an
// unambiguous start of one, as git takes a commit's. Rows are kept while
// they are read when their session id starts with a value; each value
// records the distinct ids it matched, and check, once every input is
// read, fails for a value that matched two ids or more (naming them) or
// none (naming the nearest ids), so a prefix never silently selects two
// sessions, and a typo never gives 0 rows without a word.
type sessionFilter struct {
	mu       sync.Mutex
	prefixes []string
	matched  []map[string]bool
	all      map[string]bool // every session id seen (for the hint)
}

func newSessionFilter(prefixes []string) *sessionFilter {
	if len(prefixes) == 0 {
		return nil
	}
	f := &sessionFilter{prefixes: prefixes, all: map[string]bool{}}
	for range prefixes {
		f.matched = append(f.matched, map[string]bool{})
	}
	return f
}

// match reports whether id is kept, and records it.
func (f *sessionFilter) match(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "" {
		f.all[id] = true
	}
	ok := false
	for i, p := range f.prefixes {
		if p != "" && id != "" && strings.HasPrefix(id, p) {
			f.matched[i][id] = true
			ok = true
		}
	}
	return ok
}

// maxCandidates bounds the ids an error names.
const maxCandidates = 10

// check fails for a value that matched no session or more than one.
func (f *sessionFilter) check() error {
	if f == nil {
		return nil
	}
	for i, p := range f.prefixes {
		if p == "" {
			return fmt.Errorf("--session: an empty id matches nothing")
		}
		ids := keys(f.matched[i])
		switch {
		case len(ids) > 1:
			return fmt.Errorf("--session %s is ambiguous: %d sessions start with it: %s (give more of the id)", p, len(ids), listSome(ids))
		case len(ids) == 0:
			msg := fmt.Sprintf("--session %s: no session id starts with it (the input, as the other filters keep it, holds %d sessions", p, len(f.all))
			if near := nearest(p, keys(f.all)); len(near) > 0 {
				msg += "; nearest: " + listSome(near)
			}
			return fmt.Errorf("%s)", msg)
		}
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func listSome(ids []string) string {
	if len(ids) <= maxCandidates {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:maxCandidates], ", ") + fmt.Sprintf(" and %d more", len(ids)-maxCandidates)
}

// nearest are the ids sharing the longest start with p (at least one
// character; at most three).
func nearest(p string, ids []string) []string {
	best, n := []string(nil), 0
	for _, id := range ids {
		k := 0
		for k < len(p) && k < len(id) && p[k] == id[k] {
			k++
		}
		switch {
		case k == 0 || k < n:
		case k > n:
			best, n = []string{id}, k
		default:
			best = append(best, id)
		}
	}
	if len(best) > 3 {
		best = best[:3]
	}
	return best
}
