package sqlitecarve

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Schema reads the b-trees of an open database from sqlite_schema: the
// schema table itself (page 1, so dropped tables' definitions are carved
// too), every table with its columns (table_info) and every index (its
// pages are in use, not carved). Virtual tables have no b-tree.
func Schema(ctx context.Context, db *sql.DB) ([]Table, error) {
	out := []Table{{Name: "sqlite_schema", RootPage: 1, Columns: []Column{
		{Name: "type", Type: "text"}, {Name: "name", Type: "text"}, {Name: "tbl_name", Type: "text"},
		{Name: "rootpage", Type: "int"}, {Name: "sql", Type: "text"}}}}
	rows, err := db.QueryContext(ctx, "SELECT type, name, rootpage, coalesce(sql, '') FROM sqlite_master WHERE type IN ('table', 'index') AND rootpage > 0 ORDER BY rootpage")
	if err != nil {
		return nil, fmt.Errorf("read the schema: %w", err)
	}
	var tabs []Table
	for rows.Next() {
		var typ, name, q string
		var root int64
		if err := rows.Scan(&typ, &name, &root, &q); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read the schema: %w", err)
		}
		if root <= 0 || root > 1<<32-1 {
			continue
		}
		t := Table{Name: name, RootPage: uint32(root), Index: typ == "index"}
		u := strings.ToUpper(strings.Join(strings.Fields(q), " "))
		t.WithoutRowid = typ == "table" && strings.HasSuffix(strings.TrimRight(u, "; )"), "WITHOUT ROWID")
		tabs = append(tabs, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the schema: %w", err)
	}
	for i := range tabs {
		t := &tabs[i]
		if t.Index {
			continue
		}
		rows, err := db.QueryContext(ctx, "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", t.Name)
		if err != nil {
			return nil, fmt.Errorf("read the columns of %s: %w", t.Name, err)
		}
		pks := 0
		for rows.Next() {
			var c Column
			var pk int
			if err := rows.Scan(&c.Name, &c.Type, &pk); err != nil {
				rows.Close()
				return nil, fmt.Errorf("read the columns of %s: %w", t.Name, err)
			}
			if pk > 0 {
				pks++
				c.IntegerPrimaryKey = strings.EqualFold(strings.TrimSpace(c.Type), "INTEGER")
			}
			t.Columns = append(t.Columns, c)
		}
		rows.Close()
		if pks != 1 || t.WithoutRowid {
			for j := range t.Columns {
				t.Columns[j].IntegerPrimaryKey = false
			}
		}
	}
	return append(out, tabs...), nil
}
