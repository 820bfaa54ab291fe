//go:build windows

package collect

import "golang.org/x/sys/windows/registry"

const profileListKey = `SOFTWARE\Microsoft\Windows NT\CurrentVersion\ProfileList`

// profileListHomes returns the ProfileImagePath of every SID under
// HKLM\...\ProfileList, environment variables expanded.
func profileListHomes() []string {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, profileListKey, registry.ENUMERATE_SUB_KEYS)
	if err != nil {
		return nil
	}
	defer k.Close()
	sids, err := k.ReadSubKeyNames(-1)
	if err != nil {
		return nil
	}
	var out []string
	for _, sid := range sids {
		sk, err := registry.OpenKey(k, sid, registry.QUERY_VALUE)
		if err != nil {
			continue
		}
		p, _, err := sk.GetStringValue("ProfileImagePath")
		sk.Close()
		if err != nil || p == "" {
			continue
		}
		if x, err := registry.ExpandString(p); err == nil {
			p = x
		}
		out = append(out, p)
	}
	return out
}
