package parse

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/catalog"
)

// Budgets of one SQLite store from evidence. A store shaped by an attacker
// (a table of a billion rows, a query a parser makes that never ends) must
// not hold the run: its parser is stopped after StoreRows records (rows,
// skips and problems it gave) or StoreTime, and a store_budget problem row
// says which, naming the store. What was read before stays.
const (
	DefaultStoreRows = 50_000_000
	DefaultStoreTime = 30 * time.Minute
)

// KindStoreBudget is the problem kind for a store whose parse was stopped
// by its budget.
const KindStoreBudget = "store_budget"

type budgetErr struct{ msg string }

func (e *budgetErr) Error() string { return e.msg }

// budget counts one store's records and ends its parse at the limits.
type budget struct {
	limit  int64
	n      int64
	cancel context.CancelCauseFunc
	timer  *time.Timer
	hit    atomic.Pointer[budgetErr]
}

// newBudget returns the context to parse f with: for a SQLite store, one
// its budget cancels; for any other file, ctx itself and a nil budget.
func newBudget(ctx context.Context, f *parser.File, o *Config) (context.Context, *budget) {
	if f.Kind != catalog.KindSQLite {
		return ctx, nil
	}
	rows, d := o.StoreRows, o.StoreTime
	if rows <= 0 {
		rows = DefaultStoreRows
	}
	if d <= 0 {
		d = DefaultStoreTime
	}
	ctx, cancel := context.WithCancelCause(ctx)
	b := &budget{limit: rows, cancel: cancel}
	b.timer = time.AfterFunc(d, func() {
		b.stop(&budgetErr{fmt.Sprintf("SQLite store %s: parsing stopped after %s (--store-time): the rows read before are kept", f.Path, d)})
	})
	return ctx, b
}

func (b *budget) stop(e *budgetErr) {
	if b.hit.CompareAndSwap(nil, e) {
		b.cancel(e)
	}
}

// tick counts one record the store's parser gave.
func (b *budget) tick(path string) {
	if b == nil {
		return
	}
	if b.n++; b.n == b.limit {
		b.stop(&budgetErr{fmt.Sprintf("SQLite store %s: parsing stopped after %d records (--store-rows): the rows read before are kept", path, b.limit)})
	}
}

// exceeded is the budget's problem message once it stopped the parse.
func (b *budget) exceeded() string {
	if b == nil {
		return ""
	}
	if e := b.hit.Load(); e != nil {
		return e.msg
	}
	return ""
}

// end releases the budget's timer and context.
func (b *budget) end() {
	if b == nil {
		return
	}
	b.timer.Stop()
	b.cancel(errors.New("parse finished"))
}
