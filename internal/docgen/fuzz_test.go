package docgen

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzRender: any Markdown, any format: no panic, no hang, only typed errors;
// md is the input, html never carries a script tag, zip formats are valid
// archives of well-formed XML, PDFs are complete.
func FuzzRender(f *testing.F) {
	f.Add(string(sample(f)), uint8(0))
	if edge, err := os.ReadFile("testdata/edge_cases.md"); err == nil {
		for i := range Formats {
			f.Add(string(edge), uint8(i))
		}
	}
	for i, s := range []string{
		"", "#", "| a |\n|---|\n| 1 |", "- a\n  - b\n    - c", "> > > q", "```\ncode\n```", "<script>x</script>",
		"[x](javascript:alert(1))", "**bold *both***", "1. a\n2. b\n\n3) c", "a  \nb", "\x00\xff\xfe", "中文 한국어 äöü",
		"| a | b |\n|:-|-:|\n| 1 |", "- [x] t\n- [ ] u", "&amp; &#0; &#xD800; &bogus;", strings.Repeat("# h\n", 50),
		"|" + strings.Repeat("x|", 70) + "\n|" + strings.Repeat("-|", 70),
		// Shapes the pre-scan charges (issue 13), at sizes it accepts.
		strings.Repeat("*a **", 50), "[a]: u\n\n" + strings.Repeat("[a]", 50), strings.Repeat("[a](b", 30),
		strings.Repeat("*a_ ", 40), strings.Repeat("> - ", 20) + "a", "[l1]: u\n[l2]: v\n[l3]: w\n",
		strings.Repeat("www.a.com <b> ", 20), "e`e``e```", "- - - -\n* * *",
	} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, src string, which uint8) {
		format := Formats[int(which)%len(Formats)]
		out, err := Render(context.Background(), format, []byte(src), "fuzz")
		if err != nil {
			var le *LimitError
			var ie *InputError
			if !errors.As(err, &le) && !errors.As(err, &ie) {
				t.Fatalf("%s: untyped error %v", format, err)
			}
			return
		}
		switch format {
		case MD:
			if !bytes.Equal(out, []byte(src)) {
				t.Fatal("md is not the input")
			}
		case HTML:
			if bytes.Contains(bytes.ToLower(out), []byte("<script")) {
				t.Fatalf("script tag in html: %q", out)
			}
		case DOCX, PPTX, XLSX:
			zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
			if err != nil {
				t.Fatal(err)
			}
			for _, zf := range zr.File {
				rc, err := zf.Open()
				if err != nil {
					t.Fatal(err)
				}
				d := xml.NewDecoder(rc)
				for {
					_, err := d.Token()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatalf("%s %s: %v", format, zf.Name, err)
					}
				}
				rc.Close()
			}
		case PDF:
			if !bytes.HasPrefix(out, []byte("%PDF-1.7\n")) || !bytes.HasSuffix(out, []byte("%%EOF\n")) {
				t.Fatal("incomplete pdf")
			}
		}
	})
}

// FuzzParseTTF: the font parser and subsetter never panic on damaged fonts.
func FuzzParseTTF(f *testing.F) {
	f.Add(fontMono[:4096])
	f.Add(fontMono)
	f.Add([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x10"))
	f.Fuzz(func(t *testing.T, data []byte) {
		font, err := parseTTF("fuzz", data)
		if err != nil {
			return
		}
		gs := newGlyphSet()
		for _, r := range "Aä中" {
			if g, ok := font.glyph(r); ok {
				gs.cid(g, r)
				_ = font.advance(g)
			}
		}
		_ = font.subset(gs)
	})
}
