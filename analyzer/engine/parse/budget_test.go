package parse

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/catalog"
)

// TestStoreBudget: a store's context ends at its record budget and at its
// time budget, with the cause said; other files get no budget.
func TestStoreBudget(t *testing.T) {
	store := &parser.File{Path: "/h/s.db", Kind: catalog.KindSQLite}
	ctx, b := newBudget(context.Background(), store, &Config{StoreRows: 3, StoreTime: time.Hour})
	for i := 0; i < 2; i++ {
		b.tick(store.Path)
	}
	if ctx.Err() != nil || b.exceeded() != "" {
		t.Fatal("stopped before its budget")
	}
	b.tick(store.Path)
	var be *budgetErr
	if !errors.As(context.Cause(ctx), &be) || b.exceeded() != "SQLite store /h/s.db: parsing stopped after 3 records (--store-rows): the rows read before are kept" {
		t.Fatalf("cause %v, exceeded %q", context.Cause(ctx), b.exceeded())
	}
	b.end()

	ctx, b = newBudget(context.Background(), store, &Config{StoreTime: 10 * time.Millisecond})
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
		t.Fatal("time budget never ended the context")
	}
	if b.exceeded() != "SQLite store /h/s.db: parsing stopped after 10ms (--store-time): the rows read before are kept" {
		t.Fatalf("exceeded %q", b.exceeded())
	}
	b.end()

	other := &parser.File{Path: "/h/t.jsonl", Kind: catalog.KindTranscript}
	parent := context.Background()
	if ctx, b := newBudget(parent, other, &Config{StoreRows: 1}); ctx != parent || b != nil {
		t.Fatal("a budget for a transcript")
	}
}
