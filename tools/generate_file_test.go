package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/precisiond/precisiond/internal/allocs"
	"github.com/precisiond/precisiond/internal/docgen"
	"github.com/precisiond/precisiond/internal/filestore"
)

// The shared test registry gets a real download store in a temporary directory,
// so generate_file's golden cases and examples run through the real store.
func init() {
	testDeps = func(t testing.TB) Deps {
		st, err := filestore.Open(filestore.Config{Dir: filepath.Join(testDataDir, "downloads")})
		if err != nil {
			t.Fatal(err)
		}
		return Deps{Files: st}
	}
}

func TestGenerateFileWithoutStore(t *testing.T) {
	_, err := generateFile(nil, nil).Execute(context.Background(), map[string]any{"content": "x", "filename": "output", "format": "html"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeStoreUnavailable || e.Reason != ReasonStoreNotConfigured {
		t.Fatalf("err %v, want store_unavailable not_configured", err)
	}
}

// TestGenerateFileStoreUnwritable: a store whose directory cannot be written
// (here removed and replaced by a regular file, which refuses writes for root
// too) gives store_unavailable (refused) naming the condition, not an
// internal error.
func TestGenerateFileStoreUnwritable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dl")
	st, err := filestore.Open(filestore.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = generateFile(st, nil).Execute(context.Background(), map[string]any{"content": "x", "filename": "output", "format": "txt"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeStoreUnavailable || e.Reason != ReasonStoreRefused || !strings.Contains(e.Message, "directory missing") {
		t.Fatalf("err %v, want store_unavailable refused (directory missing)", err)
	}
	if strings.Contains(e.Message, dir) {
		t.Errorf("message leaks the path: %s", e.Message)
	}
}

// TestGenerateFilePublicLink: with a public base URL the legacy text links
// the file absolutely; the facts (hashed into the envelope) stay relative.
func TestGenerateFilePublicLink(t *testing.T) {
	st, err := filestore.Open(filestore.Config{Dir: filepath.Join(t.TempDir(), "dl")})
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"content": "# x", "filename": "x", "format": "md"}
	rel, err := generateFile(st, nil).Execute(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := generateFile(st, func(name string) string { return "https://files.example/p/downloads/" + name }).Execute(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	name := rel.Facts["filename"].(string)
	if !reflect.DeepEqual(rel.Facts, abs.Facts) || abs.Facts["download_path"] != "/downloads/"+name {
		t.Errorf("facts depend on the base URL: %v vs %v", rel.Facts, abs.Facts)
	}
	if want := "\nDownload: https://files.example/p/downloads/" + name; !strings.HasSuffix(abs.Text, want) {
		t.Errorf("legacy %q, want it to end with %q", abs.Text, want)
	}
}

func TestGenerateFileEveryFormatThroughStore(t *testing.T) {
	st, err := filestore.Open(filestore.Config{Dir: filepath.Join(t.TempDir(), "dl"), MaxContentBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	tool := generateFile(st, nil)
	src := "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
	for _, f := range []string{"html", "md", "markdown", "txt", "text", "docx", "pptx", "ppt", "powerpoint", "pdf", "xlsx", "csv"} {
		args := map[string]any{"content": src, "filename": "Grüße.pdf", "format": f}
		out, err := tool.Execute(context.Background(), args)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		again, err := tool.Execute(context.Background(), args)
		if err != nil || again.Text != out.Text || !reflect.DeepEqual(again.Facts, out.Facts) {
			t.Fatalf("%s: second call differs: %v vs %v (%v)", f, again.Facts, out.Facts, err)
		}
		name := out.Facts["filename"].(string)
		canon, _ := docgen.ParseFormat(f)
		if out.Facts["format"] != string(canon) || out.Facts["media_type"] != filestore.MediaType(string(canon)) || out.Facts["download_path"] != "/downloads/"+name {
			t.Errorf("%s: facts %v", f, out.Facts)
		}
		data, e, err := st.ReadFile(context.Background(), name)
		if err != nil || e.SHA256 != out.Facts["sha256"] {
			t.Fatalf("%s: stored file %v %v", f, e, err)
		}
		want := "File generated: " + name + " (" + filestore.FormatKB(len(data)) + " KB)\nDownload: /downloads/" + name
		if out.Text != want {
			t.Errorf("%s: legacy %q, want %q", f, out.Text, want)
		}
		base := "Gruesse.pdf"
		if canon == docgen.PDF {
			base = "Gruesse" // a trailing .pdf is the format's own extension
		}
		if !strings.HasSuffix(name, "_"+base+"."+string(canon)) {
			t.Errorf("%s: name %q", f, name)
		}
	}
	// Content over the store's cap is refused before any rendering.
	_, err = tool.Execute(context.Background(), map[string]any{"content": strings.Repeat("x", 4097), "filename": "big", "format": "pdf"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeCostLimit || e.Reason != "content_too_large" {
		t.Fatalf("err %v", err)
	}
}

func TestMediaTypesAgree(t *testing.T) {
	for _, f := range docgen.Formats {
		if f.MediaType() == "" || f.MediaType() != filestore.MediaType(f.Ext()) {
			t.Errorf("%s: docgen %q, filestore %q", f, f.MediaType(), filestore.MediaType(f.Ext()))
		}
	}
	if len(docgen.Formats) != len(filestore.Extensions) {
		t.Errorf("docgen has %d formats, the store %d extensions", len(docgen.Formats), len(filestore.Extensions))
	}
}

// TestGenerateFileHostile sends the generate_file requests of issue 13 (they
// timed out at 5 s and then burned 20-50 s more CPU in goldmark, which cannot
// be interrupted) through the execution path: both are refused by the
// Markdown pre-scan before goldmark sees them, with a typed error.
func TestGenerateFileHostile(t *testing.T) {
	testRegistry(t) // built once for the package (every contract compiled): measure the calls, not that
	for _, tc := range []struct {
		name, content, format string
	}{
		{"*a ** x 100 000", strings.Repeat("*a **", 100_000), "html"},
		{"[a] references x 300 000", "[a]: http://x\n\n" + strings.Repeat("[a]", 300_000), "html"},
		{"[a] references x 300 000 as pdf", "[a]: http://x\n\n" + strings.Repeat("[a]", 300_000), "pdf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocs.Bytes(func() {
				_, err = invokeUnhurried(t, "generate_file", map[string]any{"content": tc.content, "format": tc.format})
			})
			wantToolError(t, err, CodeCostLimit, "markdown_too_complex")
			// The content itself (up to 1 MiB) is copied a few times on the way
			// in; rendering it allocated hundreds of MB.
			t.Logf("allocated %d bytes", alloc)
			if alloc > 16<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
		})
	}
}

// TestGenerateFileCSVWarning: neutralized formula cells are reported.
func TestGenerateFileCSVWarning(t *testing.T) {
	resp, err := invokeUnhurried(t, "generate_file", map[string]any{
		"content": "| a |\n|---|\n| =1+2 |\n| @x |\n| -3 |\n", "format": "csv"})
	if err != nil {
		t.Fatal(err)
	}
	ws := resp.Envelope.Warnings
	if len(ws) != 1 || ws[0].Code != "csv_formula_neutralized" || !strings.HasPrefix(ws[0].Message, "2 cell(s)") {
		t.Fatalf("warnings %v", ws)
	}
}

// TestGenerateFileLimitsDeclared: the pre-scan limits the contract declares
// are the ones docgen enforces.
func TestGenerateFileLimitsDeclared(t *testing.T) {
	if got := contractLimit("generate_file", "max_render_cost"); got != docgen.MaxRenderCost {
		t.Errorf("max_render_cost = %d, docgen %d", got, docgen.MaxRenderCost)
	}
	if got := contractLimit("generate_file", "max_render_memory_bytes"); got != docgen.MaxRenderMemory {
		t.Errorf("max_render_memory_bytes = %d, docgen %d", got, docgen.MaxRenderMemory)
	}
	if got := contractLimit("generate_file", "max_line_nesting"); got != docgen.MaxLineNesting {
		t.Errorf("max_line_nesting = %d, docgen %d", got, docgen.MaxLineNesting)
	}
	if got := contractLimit("generate_file", "max_nesting_depth"); got != docgen.MaxDepth {
		t.Errorf("max_nesting_depth = %d, docgen %d", got, docgen.MaxDepth)
	}
}
