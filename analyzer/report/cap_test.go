package report

import "testing"

// TestRowCap: the cap is the largest per-session row count that keeps the
// sum within the budget, small sessions whole; none when all rows fit or
// there is one session; never under 5.
func TestRowCap(t *testing.T) {
	for _, c := range []struct {
		rows   []int
		budget int
		want   int
	}{
		{[]int{10, 20, 30}, 60, 0},
		{[]int{10, 20, 30}, 59, 29},
		{[]int{10, 20, 30}, 40, 15},
		{[]int{1, 1, 1000, 1000}, 102, 50},
		{[]int{100, 100, 100}, 3, 5},
		{[]int{50000}, 20000, 0},
		{nil, 10, 0},
	} {
		if got := rowCap(c.rows, c.budget); got != c.want {
			t.Errorf("rowCap(%v, %d) = %d, want %d", c.rows, c.budget, got, c.want)
		}
	}
}
