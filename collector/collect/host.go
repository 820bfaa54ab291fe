package collect

import (
	"bytes"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/google/uuid"
)

func newBundleID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// unknownHost is the host name recorded when none is known.
const unknownHost = bundle.UnknownHost

// hostFacts gathers what bundle.json records about the host. In root mode
// the facts come from the image (its /etc/hostname, /etc/os-release,
// /etc/timezone); facts only a running system has (kernel, boot time) are
// left empty there.
func hostFacts(o Options) bundle.Host {
	h := bundle.Host{CommandLine: o.CommandLine, Case: o.Case, Examiner: o.Examiner}
	if h.CommandLine == nil {
		h.CommandLine = []string{}
	}
	if u, err := user.Current(); err == nil {
		h.User, h.UID = u.Username, u.Uid
	}
	h.Privileged = os.Geteuid() == 0
	root := o.Root
	live := isLive(root)
	switch {
	case o.Host != "":
		h.Hostname = o.Host
	case live:
		h.Hostname, _ = os.Hostname()
	default:
		if b, err := readSmall(root, "/etc/hostname", 4096); err == nil {
			h.Hostname = strings.TrimSpace(string(b))
		}
	}
	if h.Hostname == "" {
		h.Hostname = unknownHost
	}
	h.OS, h.OSVersion = detectOS(root, live)
	h.Timezone = timezoneName(root, live)
	if live {
		h.Arch = runtime.GOARCH
		h.Kernel = kernelRelease()
		h.BootTimeUTC = bootTime()
		_, off := time.Now().Zone()
		h.UTCOffset = formatOffset(off)
	} else if h.Timezone != "" {
		if loc, err := time.LoadLocation(h.Timezone); err == nil {
			_, off := time.Now().In(loc).Zone()
			h.UTCOffset = formatOffset(off)
		}
	}
	return h
}

func formatOffset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return sign + pad2(sec/3600) + ":" + pad2(sec%3600/60)
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func detectOS(root string, live bool) (string, string) {
	if b, err := readSmall(root, "/etc/os-release", 64<<10); err == nil {
		name := ""
		scanLines(bytes.NewReader(b), maxHostLine, func(_ int, line []byte, _ bool) {
			if v, ok := strings.CutPrefix(string(line), "PRETTY_NAME="); ok && name == "" {
				name = strings.Trim(v, `"`)
			}
		})
		return "linux", name
	}
	if _, err := os.Stat(joinRoot(root, "/System/Library/CoreServices/SystemVersion.plist")); err == nil {
		return "darwin", ""
	}
	if _, err := os.Stat(joinRoot(root, "/Windows/System32")); err == nil {
		return "windows", ""
	}
	if live {
		return runtime.GOOS, ""
	}
	if _, err := os.Stat(joinRoot(root, "/Users")); err == nil {
		return "", ""
	}
	return "", ""
}

func timezoneName(root string, live bool) string {
	if live {
		if tz := os.Getenv("TZ"); tz != "" {
			return strings.TrimPrefix(tz, ":")
		}
	}
	if b, err := readSmall(root, "/etc/timezone", 4096); err == nil {
		if s := strings.TrimSpace(string(b)); s != "" {
			return s
		}
	}
	if t, err := os.Readlink(joinRoot(root, "/etc/localtime")); err == nil {
		t = filepath.ToSlash(t)
		if i := strings.Index(t, "zoneinfo/"); i >= 0 {
			return t[i+len("zoneinfo/"):]
		}
	}
	if live {
		return time.Local.String()
	}
	return ""
}

func bootTime() string {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "btime "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return bundle.FormatTimeMillis(time.Unix(n, 0))
			}
		}
	}
	return ""
}
