package vscodestate

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The editor's sign-ins. VS Code (and its forks: Cursor, Windsurf, ...)
// keeps, per account an authentication provider signed in, two ItemTable
// rows in the global state.vscdb (microsoft/vscode
// src/vs/workbench/services/authentication/browser/authenticationAccessService.ts
// at 2d77bf8faac5dc8cee43591b6f865bc74e5958ec and
// authenticationUsageService.ts at 153abe72bdee423327078a6513fb1fa94544fd59):
// "<provider>-<account>", the extensions allowed to use the account
// ([{id, name, allowed, lastUsed}]), and "<provider>-<account>-usages",
// each extension's last use ([{extensionId, extensionName, lastUsed,
// scopes}]). Neither holds a token (those are secret:// rows, never read).

// AuthAccount is one signed-in account of a provider.
type AuthAccount struct {
	Provider, Account string
	Allowed           []AllowedExtension
	AllowedRowid      int64 // 0 when the "<provider>-<account>" row is absent
	Usages            []AccountUsage
	UsagesRowid       int64 // 0 when the "-usages" row is absent
}

// AllowedExtension is one entry of an account's access list.
type AllowedExtension struct {
	ID, Name string
	Allowed  *bool // nil: listed without a choice (allowed, in VS Code's reading)
	LastUsed time.Time
}

// AccountUsage is one extension's use of an account.
type AccountUsage struct {
	ExtensionID, ExtensionName string
	LastUsed                   time.Time
	Scopes                     []string
}

// LastUsed returns the account's latest recorded use (zero when none).
func (a *AuthAccount) LastUsed() time.Time {
	var t time.Time
	for _, u := range a.Usages {
		if u.LastUsed.After(t) {
			t = u.LastUsed
		}
	}
	for _, x := range a.Allowed {
		if x.LastUsed.After(t) {
			t = x.LastUsed
		}
	}
	return t
}

// Rowid returns the rowid the account's rows cite: the usages row, else
// the access list's.
func (a *AuthAccount) Rowid() int64 {
	if a.UsagesRowid != 0 {
		return a.UsagesRowid
	}
	return a.AllowedRowid
}

// AuthAccounts reads the accounts of provider (e.g. "github") from the
// ItemTable. A key of a longer provider sharing the prefix (github-enterprise
// for github) is left to that provider; a row whose value is not the list
// described above is not an account row and is not read.
func (s *VSCodeState) AuthAccounts(ctx context.Context, provider string, others ...string) ([]*AuthAccount, error) {
	prefix := provider + "-"
	byName := map[string]*AuthAccount{}
	var order []string
	keep := func(k string) bool {
		for _, o := range others {
			if strings.HasPrefix(k, o+"-") && len(o) > len(provider) {
				return false
			}
		}
		return len(k) > len(prefix) && !strings.ContainsAny(k[len(prefix):], "./:")
	}
	err := s.ItemsMatching(ctx, prefix, keep, func(r StateRow) error {
		rest := strings.TrimPrefix(r.Key, prefix)
		usages := strings.HasSuffix(rest, "-usages")
		name := strings.TrimSuffix(rest, "-usages")
		if name == "" || r.TooLarge {
			return nil
		}
		var list []map[string]json.RawMessage
		if r.JSON(&list) != nil {
			return nil
		}
		a := byName[name]
		if a == nil {
			a = &AuthAccount{Provider: provider, Account: name}
		}
		ok := false
		for _, m := range list {
			if usages {
				var u AccountUsage
				_ = json.Unmarshal(m["extensionId"], &u.ExtensionID)
				_ = json.Unmarshal(m["extensionName"], &u.ExtensionName)
				_ = json.Unmarshal(m["scopes"], &u.Scopes)
				u.LastUsed = epochMS(m["lastUsed"])
				if u.ExtensionID == "" {
					continue
				}
				a.Usages = append(a.Usages, u)
				ok = true
				continue
			}
			var x AllowedExtension
			_ = json.Unmarshal(m["id"], &x.ID)
			_ = json.Unmarshal(m["name"], &x.Name)
			if raw, has := m["allowed"]; has {
				var b bool
				if json.Unmarshal(raw, &b) == nil {
					x.Allowed = &b
				}
			}
			x.LastUsed = epochMS(m["lastUsed"])
			if x.ID == "" {
				continue
			}
			a.Allowed = append(a.Allowed, x)
			ok = true
		}
		if !ok && len(list) > 0 {
			return nil // a list of something else
		}
		if usages {
			a.UsagesRowid = r.Rowid
		} else {
			a.AllowedRowid = r.Rowid
		}
		if byName[name] == nil {
			byName[name] = a
			order = append(order, name)
		}
		return nil
	})
	sort.Strings(order)
	out := make([]*AuthAccount, 0, len(order))
	for _, n := range order {
		out = append(out, byName[n])
	}
	return out, err
}

// AccountRows writes an account's rows: "source host: <provider> account
// <account>" at its last recorded use (the file's mtime when none is
// recorded); "<provider> account <account> used by <name> (<id>)
// [scopes=...]" per usage at its lastUsed; "permission setting:
// <provider> account <account> access for <id>=<allowed|denied>
// (from <file>, file mtime)" per access-list entry. Record ids are
// "<provider>-<account>#source", "#usage:<id>" and "#access:<id>".
func AccountRows(in *parser.Input, out parser.Sink, a *AuthAccount) {
	label := a.Provider + " account " + a.Account
	rid := a.Provider + "-" + a.Account
	e := timeline.Event{TurnType: timeline.System, SourceLine: a.Rowid(), RecordID: rid + "#source", Text: "source host: " + label}
	if t := a.LastUsed(); !t.IsZero() {
		e.Time = t
	} else {
		f := parser.SettingEvent(&in.File)
		e.Time, e.TimeBasis = f.Time, f.TimeBasis
		e.Text += " (file mtime)"
	}
	out.Event(e)
	for _, u := range a.Usages {
		r := timeline.Event{TurnType: timeline.System, SourceLine: a.UsagesRowid, RecordID: rid + "#usage:" + u.ExtensionID,
			Text: label + " used by " + firstNonBlank(u.ExtensionName, u.ExtensionID) + " (" + u.ExtensionID + ")"}
		if len(u.Scopes) > 0 {
			r.Text += " scopes=" + strings.Join(u.Scopes, ",")
		}
		if u.LastUsed.IsZero() {
			r.TimeBasis = timeline.TimeNone
		} else {
			r.Time = u.LastUsed
		}
		out.Event(r)
	}
	for _, x := range a.Allowed {
		v := "allowed"
		if x.Allowed != nil && !*x.Allowed {
			v = "denied"
		}
		r := parser.SettingEvent(&in.File)
		r.SourceLine, r.RecordID = a.AllowedRowid, rid+"#access:"+x.ID
		r.Text = "permission setting: " + label + " access for " + x.ID + "=" + v + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
		out.Event(r)
	}
}

func firstNonBlank(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// epochMS reads a JSON number (or numeric string) of epoch milliseconds.
func epochMS(raw json.RawMessage) time.Time {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	if s == "" || s == "null" {
		return time.Time{}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(f)).UTC()
}
