package test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsPointInward holds the layout the README describes: the packages
// below the surfaces (the tools, plans, contracts, evidence and everything in
// internal/) never import the surfaces (api, mcpserver) or the command (cmd),
// so a tool never knows how it is served; and the MCP surface never imports
// api, which mounts it and lends it the access control (mcpserver.Access).
// Test files count too: a test that needs a surface belongs beside the
// surface.
func TestImportsPointInward(t *testing.T) {
	const module = "github.com/precisiond/precisiond/"
	surfaces := []string{module + "api", module + "cmd", module + "mcpserver"}
	files := 0
	for _, dir := range []string{"internal", "tools", "plans", "contracts", "evidence", "mcpserver"} {
		forbidden := surfaces
		if dir == "mcpserver" {
			forbidden = surfaces[:2]
		}
		err := filepath.WalkDir(filepath.Join("..", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			files++
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if p == bad || strings.HasPrefix(p, bad+"/") {
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
	if files < 200 {
		t.Fatalf("read only %d Go files: is the test running from test/?", files)
	}
}
