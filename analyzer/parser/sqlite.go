package parser

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// HasTable reports whether the database has a table or view called name.
func HasTable(ctx context.Context, db *sql.DB, name string) bool {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = ?", name).Scan(&n)
	return err == nil && n > 0
}

// EachRow runs the query q and calls fn with each row as a map from
// column name to value, so a parser reads columns by name and tolerates
// the ones a schema version lacks. ctx is checked every row.
func EachRow(ctx context.Context, db *sql.DB, q string, fn func(map[string]any)) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		m := make(map[string]any, len(cols))
		for i, c := range cols {
			m[c] = vals[i]
		}
		fn(m)
	}
	return rows.Err()
}

// SQLText renders a SQLite value as text: "" for NULL, text and blobs as
// they are, numbers in decimal, times in RFC 3339 UTC.
func SQLText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}
