package buildinfo

import (
	"runtime/debug"
	"testing"
)

// TestOf: the version is the build-time setting, else the module
// version, else the VCS revision (12 digits, -dirty when modified), else
// "devel".
func TestOf(t *testing.T) {
	parse := func(s string) *debug.BuildInfo {
		bi, err := debug.ParseBuildInfo(s)
		if err != nil {
			t.Fatal(err)
		}
		bi.GoVersion = "go1.26.8" // ParseBuildInfo leaves it to the runtime
		return bi
	}
	const head = "path\tgithub.com/precisiond/precisiond/cmd/precisiond\n"
	devel := parse(head + "mod\tgithub.com/precisiond/precisiond\t(devel)\t\n")
	clean := parse(head + "mod\tgithub.com/precisiond/precisiond\t(devel)\t\n" +
		"build\tvcs=git\nbuild\tvcs.revision=47e178f5c63a19705c7acdd55cc4cd102419860c\nbuild\tvcs.time=2026-12-01T00:45:00Z\nbuild\tvcs.modified=false\n")
	dirty := parse(head + "mod\tgithub.com/precisiond/precisiond\t(devel)\t\n" +
		"build\tvcs=git\nbuild\tvcs.revision=47e178f5c63a19705c7acdd55cc4cd102419860c\nbuild\tvcs.modified=true\n")
	installed := parse(head + "mod\tgithub.com/precisiond/precisiond\tv1.4.0\th1:abc=\n")
	// go build in a git checkout (Go 1.24+) stamps a pseudo-version.
	checkout := parse(head + "mod\tgithub.com/precisiond/precisiond\tv0.0.0-20261201014112-1003499fdd7a+dirty\t\n" +
		"build\tvcs=git\nbuild\tvcs.revision=1003499fdd7a5c63a19705c7acdd55cc4cd10241\nbuild\tvcs.modified=true\n")
	for _, c := range []struct {
		set  string
		bi   *debug.BuildInfo
		want string
	}{
		{"", nil, "devel"},
		{"", devel, "devel"},
		{"", clean, "devel-47e178f5c63a"},
		{"", dirty, "devel-47e178f5c63a-dirty"},
		{"", installed, "v1.4.0"},
		{"", checkout, "v0.0.0-20261201014112-1003499fdd7a+dirty"},
		{"v2.0.0", dirty, "v2.0.0"},
	} {
		if got := Of(c.set, c.bi).Version; got != c.want {
			t.Errorf("Of(%q, …) = %q, want %q", c.set, got, c.want)
		}
	}
	v := Of("", clean)
	if v.VCSRevision != "47e178f5c63a19705c7acdd55cc4cd102419860c" || v.VCSTime != "2026-12-01T00:45:00Z" ||
		v.VCSModified == nil || *v.VCSModified || v.Go != "go1.26.8" || v.ModuleVersion != "(devel)" {
		t.Errorf("build information %+v", v)
	}
}
