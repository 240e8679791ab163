package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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
