package timeline

import "sort"

func sortStable(s []string, less func(a, b string) bool) {
	sort.SliceStable(s, func(i, j int) bool { return less(s[i], s[j]) })
}

func sortStrings(s []string) { sort.Strings(s) }

func sortStable2(s []Session, less func(a, b *Session) bool) {
	sort.SliceStable(s, func(i, j int) bool { return less(&s[i], &s[j]) })
}
