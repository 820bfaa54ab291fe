package report

// SetMaxProblems sets how many problem rows the report lists, for a test.
func SetMaxProblems(n int) (restore func()) {
	old := maxProblems
	maxProblems = n
	return func() { maxProblems = old }
}
