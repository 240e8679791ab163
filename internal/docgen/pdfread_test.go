package docgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// A deliberately small PDF reader for tests: it checks the file structure our
// writer promises (header, xref offsets, trailer) and extracts text through the
// fonts' ToUnicode CMaps, the way a PDF viewer copies text.

type pdfObj struct {
	dict   string
	stream []byte // decoded
}

type parsedPDF struct {
	objs  map[int]pdfObj
	pages []int
}

var (
	objRe     = regexp.MustCompile(`(?s)(\d+) 0 obj\n(.*?)\nendobj\n`)
	lengthRe  = regexp.MustCompile(`/Length (\d+)`)
	refRe     = regexp.MustCompile(`(\d+) 0 R`)
	startxRe  = regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`)
	countRe   = regexp.MustCompile(`/Type /Pages /Kids \[([^\]]*)\] /Count (\d+)`)
	bfcharRe  = regexp.MustCompile(`<([0-9A-F]{4})> <([0-9A-F]+)>`)
	fontResRe = regexp.MustCompile(`/F(\d) (\d+) 0 R`)
	showRe    = regexp.MustCompile(`/F(\d) [0-9.]+ Tf [^<]*<([0-9A-F]*)> Tj`)
)

func parsePDF(t *testing.T, data []byte) *parsedPDF {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-1.7\n")) {
		t.Fatalf("no %%PDF-1.7 header: %q", data[:min(20, len(data))])
	}
	m := startxRe.FindSubmatch(data)
	if m == nil {
		t.Fatal("no startxref / EOF marker at the end")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(data[xref:], []byte("xref\n0 ")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	p := &parsedPDF{objs: map[int]pdfObj{}}
	// Check every xref entry points at its object.
	lines := strings.Split(string(data[xref:]), "\n")
	var n int
	fmt.Sscanf(lines[1], "0 %d", &n)
	for i := 1; i < n; i++ {
		off, err := strconv.Atoi(lines[2+i][:10])
		if err != nil {
			t.Fatalf("xref entry %d: %v", i, err)
		}
		want := fmt.Sprintf("%d 0 obj\n", i)
		if !bytes.HasPrefix(data[off:], []byte(want)) {
			t.Fatalf("xref entry %d points at %q", i, data[off:off+12])
		}
		rest := data[off+len(want):]
		end := bytes.Index(rest, []byte("\nendobj\n"))
		body := rest[:end]
		if k := bytes.Index(body, []byte(">>\nstream\n")); k >= 0 {
			dict := string(body[:k+2])
			lm := lengthRe.FindStringSubmatch(dict)
			if lm == nil {
				t.Fatalf("object %d: stream without /Length", i)
			}
			l, _ := strconv.Atoi(lm[1])
			raw := body[k+10:]
			if len(raw) != l+len("\nendstream") {
				t.Fatalf("object %d: /Length %d but stream has %d bytes", i, l, len(raw)-len("\nendstream"))
			}
			zr, err := zlib.NewReader(bytes.NewReader(raw[:l]))
			if err != nil {
				t.Fatalf("object %d: %v", i, err)
			}
			dec, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("object %d: %v", i, err)
			}
			p.objs[i] = pdfObj{dict: dict, stream: dec}
		} else {
			p.objs[i] = pdfObj{dict: string(body)}
		}
	}
	if len(objRe.FindAll(data, -1)) != n-1 {
		t.Fatalf("xref lists %d objects, file has %d", n-1, len(objRe.FindAll(data, -1)))
	}
	for _, o := range p.objs {
		if cm := countRe.FindStringSubmatch(o.dict); cm != nil {
			for _, r := range refRe.FindAllStringSubmatch(cm[1], -1) {
				id, _ := strconv.Atoi(r[1])
				p.pages = append(p.pages, id)
			}
			c, _ := strconv.Atoi(cm[2])
			if c != len(p.pages) {
				t.Fatalf("/Count %d but %d kids", c, len(p.pages))
			}
		}
	}
	for _, id := range p.pages {
		if !strings.HasPrefix(p.objs[id].dict, "<< /Type /Page ") {
			t.Fatalf("kid %d is not a page: %s", id, p.objs[id].dict)
		}
	}
	return p
}

// text extracts each page's text by mapping glyph ids back through ToUnicode.
func (p *parsedPDF) text(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, id := range p.pages {
		page := p.objs[id].dict
		maps := map[string]map[string]string{}
		for _, fm := range fontResRe.FindAllStringSubmatch(page, -1) {
			fid, _ := strconv.Atoi(fm[2])
			tu := regexp.MustCompile(`/ToUnicode (\d+) 0 R`).FindStringSubmatch(p.objs[fid].dict)
			if tu == nil {
				t.Fatalf("font %s has no ToUnicode", fm[1])
			}
			tid, _ := strconv.Atoi(tu[1])
			cmap := map[string]string{}
			for _, e := range bfcharRe.FindAllStringSubmatch(string(p.objs[tid].stream), -1) {
				var units []uint16
				for i := 0; i+4 <= len(e[2]); i += 4 {
					v, _ := strconv.ParseUint(e[2][i:i+4], 16, 16)
					units = append(units, uint16(v))
				}
				cmap[e[1]] = string(utf16.Decode(units))
			}
			maps[fm[1]] = cmap
		}
		cm := refRe.FindStringSubmatch(page[strings.Index(page, "/Contents"):])
		cid, _ := strconv.Atoi(cm[1])
		var b strings.Builder
		for _, s := range showRe.FindAllStringSubmatch(string(p.objs[cid].stream), -1) {
			for i := 0; i+4 <= len(s[2]); i += 4 {
				r, ok := maps[s[1]][s[2][i:i+4]]
				if !ok {
					r = "\uFFFD"
				}
				b.WriteString(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
