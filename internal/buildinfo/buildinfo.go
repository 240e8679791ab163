// Package buildinfo is the version of the binary: a release set at build
// time, else what Go recorded of the module and the VCS.
package buildinfo

import "runtime/debug"

// Info is the build information of the binary, as `precisiond version
// --json` prints it.
type Info struct {
	Version       string `json:"version"`
	Module        string `json:"module"`
	ModuleVersion string `json:"module_version"`
	Go            string `json:"go"`
	VCSRevision   string `json:"vcs_revision,omitempty"`
	VCSTime       string `json:"vcs_time,omitempty"`
	VCSModified   *bool  `json:"vcs_modified,omitempty"`
}

// Current is Of the running binary's build information.
func Current(set string) Info {
	bi, _ := debug.ReadBuildInfo()
	return Of(set, bi)
}

// Of reads the version from the build-time setting (set; empty: none) and
// the build information (nil when the binary has none): the setting, else
// the module version Go recorded, else "devel-" and 12 digits of the VCS
// revision ("-dirty" with uncommitted changes), else "devel".
func Of(set string, bi *debug.BuildInfo) Info {
	v := Info{Module: "github.com/precisiond/precisiond"}
	if bi != nil {
		v.Module, v.ModuleVersion, v.Go = bi.Main.Path, bi.Main.Version, bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.VCSRevision = s.Value
			case "vcs.time":
				v.VCSTime = s.Value
			case "vcs.modified":
				m := s.Value == "true"
				v.VCSModified = &m
			}
		}
	}
	switch {
	case set != "":
		v.Version = set
	case v.ModuleVersion != "" && v.ModuleVersion != "(devel)":
		v.Version = v.ModuleVersion
	case v.VCSRevision != "":
		v.Version = "devel-" + v.VCSRevision[:min(12, len(v.VCSRevision))]
		if v.VCSModified != nil && *v.VCSModified {
			v.Version += "-dirty"
		}
	default:
		v.Version = "devel"
	}
	return v
}
