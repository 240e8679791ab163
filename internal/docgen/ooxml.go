package docgen

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// zipEpoch is the modification time of every zip entry (the earliest MS-DOS date),
// so that archives do not depend on the clock.
var zipEpoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// zipPart is one entry of an Office Open XML package.
type zipPart struct {
	name string
	data string
}

// writeZip writes the parts in the given order ([Content_Types].xml first, as
// Office expects) with deflate compression and fixed timestamps.
func writeZip(parts []zipPart) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: zipEpoch})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(p.data)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// esc escapes text for XML character data and attribute values; characters that
// XML 1.0 forbids become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

const xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

func corePropsXML(title string) string {
	return xmlHeader + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
		`<dc:title>` + esc(title) + `</dc:title><dc:creator>precisiond</dc:creator><cp:lastModifiedBy>precisiond</cp:lastModifiedBy>` +
		`<dcterms:created xsi:type="dcterms:W3CDTF">` + fixedTimestamp + `</dcterms:created>` +
		`<dcterms:modified xsi:type="dcterms:W3CDTF">` + fixedTimestamp + `</dcterms:modified></cp:coreProperties>`
}

func appPropsXML() string {
	return xmlHeader + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Application>precisiond</Application></Properties>`
}

const rootRels = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="%s"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>` +
	`</Relationships>`

// hyperlinks are the external hyperlink relationships of one OOXML part: one
// relationship per distinct URL, numbered after the part's fixed ones.
type hyperlinks struct {
	first int               // the number of the first hyperlink's rId
	ids   map[string]string // URL -> rId
	rels  []string          // <Relationship> elements, in order of first use
}

func newHyperlinks(first int) hyperlinks {
	return hyperlinks{first: first, ids: map[string]string{}}
}

// id returns the relationship id of url, adding the relationship on first use.
func (h *hyperlinks) id(url string) string {
	if id, ok := h.ids[url]; ok {
		return id
	}
	id := fmt.Sprintf("rId%d", h.first+len(h.rels))
	h.ids[url] = id
	h.rels = append(h.rels, `<Relationship Id="`+id+`" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="`+esc(url)+`" TargetMode="External"/>`)
	return id
}

// relsXML returns the part's relationships document: the fixed relationships,
// then the hyperlinks.
func (h *hyperlinks) relsXML(fixed ...string) string {
	var b strings.Builder
	b.WriteString(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for _, r := range fixed {
		b.WriteString(r)
	}
	for _, r := range h.rels {
		b.WriteString(r)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// externalLink reports whether a link can be a hyperlink relationship of an OOXML
// document (absolute http, https or mailto URL).
func externalLink(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "mailto:")
}
