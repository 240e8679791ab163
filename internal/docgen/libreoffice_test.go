package docgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLibreOfficeOpens converts the generated DOCX, PPTX and XLSX to PDF with a
// headless LibreOffice: a file it cannot load produces no PDF. LibreOffice is a
// system package (libreoffice-writer-nogui, -impress-nogui, -calc-nogui); without
// it the test skips on a developer machine and FAILS under CI=true, so CI never
// counts a missing check as passed.
func TestLibreOfficeOpens(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: headless LibreOffice converts six documents; runs without -short")
	}
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
	edge, err := os.ReadFile("testdata/edge_cases.md")
	if err != nil {
		t.Fatal(err)
	}
	docs := []struct {
		name string
		src  []byte
	}{{"sample", sample(t)}, {"edge_cases", edge}}
	type job struct {
		f     Format
		input string
		pages int
	}
	var jobs []job
	var inputs []string
	for _, d := range docs {
		for _, f := range []Format{DOCX, PPTX, XLSX} {
			// Distinct base names: every input gets its own PDF.
			p := filepath.Join(dir, d.name+"-"+string(f)+"."+string(f))
			if err := os.WriteFile(p, render(t, f, d.src), 0o644); err != nil {
				t.Fatal(err)
			}
			pages := map[Format]int{DOCX: 1, PPTX: 7, XLSX: 1}[f]
			if d.name != "sample" {
				pages = 1
			}
			jobs = append(jobs, job{f, p, pages})
			inputs = append(inputs, p)
		}
	}
	// One LibreOffice start converts every file.
	out := filepath.Join(dir, "out")
	args := append([]string{"--headless", "--norestore", "-env:UserInstallation=file://" + filepath.Join(dir, "profile"),
		"--convert-to", "pdf", "--outdir", out}, inputs...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, log)
	}
	for _, j := range jobs {
		base := strings.TrimSuffix(filepath.Base(j.input), filepath.Ext(j.input))
		pdf, err := os.ReadFile(filepath.Join(out, base+".pdf"))
		if err != nil {
			t.Errorf("%s: LibreOffice could not load the file (no PDF written):\n%s", j.input, log)
			continue
		}
		m := regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)`).FindSubmatch(pdf)
		if m == nil {
			m = regexp.MustCompile(`/Count\s+(\d+)`).FindSubmatch(pdf)
		}
		if m == nil {
			t.Errorf("%s: converted PDF has no page count", j.input)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n < j.pages {
			t.Errorf("%s: %d pages, want at least %d", j.input, n, j.pages)
		}
	}
}
