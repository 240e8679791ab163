package test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// notGenerated are the JSON files under a testdata folder that no generator
// writes, so they carry no version record, and why.
var notGenerated = map[string]string{
	"evidence/testdata/canonical_shared.json":            "the product specification's shared vectors, copied",
	"internal/attest/testdata/crosscheck/go_signed.json": "written by the Go test it serves, for the Python verifier",
	"tools/testdata/decimal_finance/issue14.json":        "examples from the text of issue 14, written by hand",
	"tools/testdata/exact_probability/issue14.json":      "examples from the text of issue 14, written by hand",
	"tools/testdata/gcd_lcm/spec.json":                   "examples from the product specification, written by hand",
	"tools/testdata/oracle/semver/package.json":          "npm manifest pinning the semver oracle of gen_version.py, not vectors",
	"tools/testdata/oracle/semver/package-lock.json":     "npm lock file pinning the semver oracle of gen_version.py, not vectors",
	"tools/testdata/oracle/tiktoken/package.json":        "npm manifest pinning the js-tiktoken oracle of gen_vectors.mjs, not vectors",
	"tools/testdata/oracle/tiktoken/package-lock.json":   "npm lock file pinning the js-tiktoken oracle of gen_vectors.mjs, not vectors",
	"tools/testdata/timezone_convert/spec.json":          "examples from the product specification, written by hand",
}

// notGeneratedDirs hold third-party suites, copied with their SOURCE and LICENSE.
var notGeneratedDirs = []string{"internal/jmes/testdata/compliance/", "internal/intent/testdata/reference/", "deploy/testdata/mcp-registry/"}

// interpreterVersion is what a generator records: "python 3.x.y" or "node N.N.N".
var interpreterVersion = regexp.MustCompile(`^(python 3|node \d+)\.\d+\.\d+`)

// TestVectorFilesRecordVersions: every oracle vector file (JSON under a
// testdata folder, fuzz corpora aside) records the version of the Python or
// node interpreter that wrote it, at its top level or in a
// generator/oracle/versions object there.
func TestVectorFilesRecordVersions(t *testing.T) {
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "fuzz":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".json") || !strings.Contains(rel, "/testdata/") {
			return nil
		}
		if _, ok := notGenerated[rel]; ok {
			return nil
		}
		for _, dir := range notGeneratedDirs {
			if strings.HasPrefix(rel, dir) {
				return nil
			}
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(raw, &top); err != nil {
			t.Errorf("%s: not a JSON object with a version record: %v", rel, err)
			return nil
		}
		checked++
		if v := recordedInterpreter(top); !interpreterVersion.MatchString(v) {
			t.Errorf("%s: no Python or node version recorded (found %q)", rel, v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Fatalf("only %d vector files found", checked)
	}
	for rel := range notGenerated {
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Errorf("notGenerated lists %s: %v", rel, err)
		}
	}
}

// recordedInterpreter is "python V" or "node V" for the "python" or "node"
// value at the top level of a vector file or in one of its objects there
// (generator, oracle, versions).
func recordedInterpreter(top map[string]json.RawMessage) string {
	for _, name := range []string{"python", "node"} {
		var s string
		if json.Unmarshal(top[name], &s) == nil && s != "" {
			return name + " " + s
		}
		for k, raw := range top {
			if k == "cases" {
				continue
			}
			var obj map[string]any
			if json.Unmarshal(raw, &obj) == nil {
				if s, ok := obj[name].(string); ok {
					return name + " " + s
				}
			}
		}
	}
	return ""
}
