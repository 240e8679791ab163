package docgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestLibreOfficeOpens converts the generated DOCX, PPTX and XLSX to PDF with a
// headless LibreOffice: a file it cannot load produces no PDF. LibreOffice is a
// system package (libreoffice-writer-nogui, -impress-nogui, -calc-nogui); without
// it the test skips on a developer machine and FAILS under CI=true, so CI never
// counts a missing check as passed.
func TestLibreOfficeOpens(t *testing.T) {
	bin, err := exec.LookPath("soffice")
	if err != nil {
		bin, err = exec.LookPath("libreoffice")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("LibreOffice (soffice) is not installed; CI must install libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui")
		}
		t.Skip("LibreOffice not installed (apt-get install libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui)")
	}
	dir := t.TempDir()
	src := sample(t)
	var inputs []string
	for _, f := range []Format{DOCX, PPTX, XLSX} {
		p := filepath.Join(dir, "sample."+string(f))
		if err := os.WriteFile(p, render(t, f, src), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	minPages := map[Format]int{DOCX: 1, PPTX: 7, XLSX: 1}
	for i, f := range []Format{DOCX, PPTX, XLSX} {
		out := filepath.Join(dir, string(f))
		cmd := exec.Command(bin, "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
			"--convert-to", "pdf", "--outdir", out, inputs[i])
		cmd.Env = append(os.Environ(), "HOME="+dir)
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: soffice: %v\n%s", f, err, b)
		}
		pdf, err := os.ReadFile(filepath.Join(out, "sample.pdf"))
		if err != nil {
			t.Fatalf("%s: LibreOffice could not load the file (no PDF written):\n%s", f, b)
		}
		m := regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)`).FindSubmatch(pdf)
		if m == nil {
			m = regexp.MustCompile(`/Count\s+(\d+)`).FindSubmatch(pdf)
		}
		if m == nil {
			t.Fatalf("%s: converted PDF has no page count", f)
		}
		if n, _ := strconv.Atoi(string(m[1])); n < minPages[f] {
			t.Errorf("%s: %d pages, want at least %d", f, n, minPages[f])
		}
	}
}
