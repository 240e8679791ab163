package api

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsPointInward: the layout the README describes. Nothing below
// api imports api or cmd (mcpserver reaches the server's access control
// through mcpserver.Access, not by importing api), and nothing below
// mcpserver imports it. Test files are included: a test that imports
// upwards would hide a cycle the build could not have.
func TestImportsPointInward(t *testing.T) {
	const mod = "github.com/precisiond/precisiond/"
	forbidden := map[string][]string{
		"mcpserver": {"api", "cmd/"},
		"internal":  {"api", "cmd/", "mcpserver"},
		"tools":     {"api", "cmd/", "mcpserver"},
		"plans":     {"api", "cmd/", "mcpserver"},
		"contracts": {"api", "cmd/", "mcpserver"},
		"evidence":  {"api", "cmd/", "mcpserver"},
	}
	checked := 0
	for dir, bad := range forbidden {
		err := filepath.WalkDir(filepath.Join("..", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked++
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				rel, ok := strings.CutPrefix(p, mod)
				if !ok {
					continue
				}
				for _, b := range bad {
					if rel == strings.TrimSuffix(b, "/") || (strings.HasSuffix(b, "/") && strings.HasPrefix(rel, b)) {
						t.Errorf("%s imports %s", path, p)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: is the tree where the test expects it?", checked)
	}
}
