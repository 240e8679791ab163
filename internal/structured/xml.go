package structured

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

// XIncludeNS is the XInclude namespace; elements in it are refused.
const XIncludeNS = "http://www.w3.org/2001/XInclude"

// validateXML checks one XML document with encoding/xml in strict mode and no
// entity map, so nothing is ever expanded or fetched. Findings: xml_dtd_refused
// (any <!...> directive, e.g. <!DOCTYPE>), xml_entity_refused (an entity
// reference other than the five predefined ones and character references),
// xinclude_refused, depth_limit, node_limit (elements + attributes, namespace
// declarations excluded), xml_syntax (including a missing, repeated or
// trailing-text root element).
func validateXML(ctx context.Context, src string, lim Limits) (Stats, *Finding, error) {
	// A UTF-8 byte order mark is allowed before the document (as expat and
	// ElementTree accept it); positions still count it.
	skip := 0
	if strings.HasPrefix(src, "\ufeff") {
		skip = len("\ufeff")
	}
	d := xml.NewDecoder(strings.NewReader(src[skip:]))
	d.Strict = true
	d.Entity = nil
	d.CharsetReader = nil // non-UTF-8 encodings are refused as syntax errors
	var stats Stats
	var stack []string
	roots := 0
	var scopes []map[string]bool // namespace URIs declared on the open elements
	at := func(off int64, code, msg string) *Finding {
		l, c := LineCol(src, int(off)+skip)
		f := &Finding{Code: code, Message: msg, Line: &l, Column: &c}
		if len(stack) > 0 {
			f.Path = ptr("/" + strings.Join(stack, "/"))
		}
		return f
	}
	for n := 0; ; n++ {
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return Stats{}, nil, err
			}
		}
		start := d.InputOffset()
		tok, err := d.Token()
		if err == nil {
			if _, isEnd := tok.(xml.EndElement); isEnd && len(scopes) > 0 {
				scopes = scopes[:len(scopes)-1]
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return Stats{}, xmlError(src, skip, d, err, stack), nil
		}
		switch t := tok.(type) {
		case xml.Directive:
			return Stats{}, at(start, CodeXMLDTDRefused, "DTDs and other <!...> declarations are refused"), nil
		case xml.ProcInst:
			if t.Target == "xml" && start != 0 {
				// Only the BOM may precede the declaration.
				return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: the XML declaration must come first"), nil
			}
			if t.Target != "xml" && strings.EqualFold(t.Target, "xml") {
				return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: reserved processing instruction target"), nil
			}
			if t.Target == "xml" {
				if enc := procInstAttr(string(t.Inst), "encoding"); enc != "" && !strings.EqualFold(enc, "utf-8") {
					return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: only UTF-8 documents are accepted"), nil
				}
			}
		case xml.StartElement:
			if len(stack) == 0 {
				roots++
				if roots > 1 {
					return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: junk after document element"), nil
				}
			}
			if len(stack)+1 > lim.MaxDepth {
				return Stats{}, at(start, CodeDepthLimit, "nesting deeper than "+strconv.Itoa(lim.MaxDepth)+" levels"), nil
			}
			stack = append(stack, t.Name.Local)
			declared := map[string]bool{}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					declared[a.Value] = true
				}
			}
			scopes = append(scopes, declared)
			if unboundPrefix(t, scopes) {
				return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: unbound namespace prefix"), nil
			}
			if len(stack) > stats.Depth {
				stats.Depth = len(stack)
			}
			if t.Name.Space == XIncludeNS {
				return Stats{}, at(start, CodeXIncludeRefused, "XInclude elements are refused"), nil
			}
			stats.Nodes++
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				stats.Nodes++
			}
			if stats.Nodes > lim.MaxNodes {
				return Stats{}, at(start, CodeNodeLimit, "document has more than "+strconv.Itoa(lim.MaxNodes)+" elements and attributes"), nil
			}
			if hasDuplicateAttr(t.Attr) {
				return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: duplicate attribute"), nil
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 && len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return Stats{}, at(start, CodeXMLSyntax, "XML syntax error: text outside the document element"), nil
			}
		}
	}
	if roots == 0 {
		return Stats{}, at(int64(len(src)-skip), CodeXMLSyntax, "XML syntax error: no element found"), nil
	}
	return stats, nil, nil
}

const xmlNamespaceURI = "http://www.w3.org/XML/1998/namespace"

// unboundPrefix reports an element or attribute prefix that no enclosing
// xmlns:prefix declares. encoding/xml leaves an unbound prefix untranslated, so
// a name space that is not a URI declared in scope is unbound (namespace
// well-formedness, as expat and ElementTree enforce it).
func unboundPrefix(t xml.StartElement, scopes []map[string]bool) bool {
	bound := func(space string) bool {
		if space == "" || space == xmlNamespaceURI {
			return true
		}
		for i := len(scopes) - 1; i >= 0; i-- {
			if scopes[i][space] {
				return true
			}
		}
		return false
	}
	if !bound(t.Name.Space) {
		return true
	}
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		if !bound(a.Name.Space) {
			return true
		}
	}
	return false
}

// hasDuplicateAttr reports a repeated attribute name (after namespace
// resolution), which XML forbids and encoding/xml lets through.
func hasDuplicateAttr(attrs []xml.Attr) bool {
	if len(attrs) < 2 {
		return false
	}
	seen := make(map[xml.Name]bool, len(attrs))
	for _, a := range attrs {
		if seen[a.Name] {
			return true
		}
		seen[a.Name] = true
	}
	return false
}

// procInstAttr reads a pseudo-attribute of the XML declaration.
func procInstAttr(inst, name string) string {
	i := strings.Index(inst, name)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(inst[i+len(name):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	end := strings.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return ""
	}
	return rest[1 : 1+end]
}

// xmlError turns a decoder error into a finding, separating refused entity
// references from plain syntax errors.
func xmlError(src string, skip int, d *xml.Decoder, err error, stack []string) *Finding {
	off := int(d.InputOffset()) + skip
	f := &Finding{Code: CodeXMLSyntax, Message: "XML syntax error"}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg := se.Msg
		if strings.HasPrefix(msg, "invalid character entity &") && !strings.HasPrefix(msg, "invalid character entity &#") {
			f.Code = CodeXMLEntityRefused
			f.Message = "entity references other than &lt; &gt; &amp; &quot; &apos; are refused"
			// The decoder stops after the reference; point at its '&'.
			if amp := strings.LastIndexByte(src[:min(off, len(src))], '&'); amp >= 0 {
				off = amp
			}
		} else {
			f.Message = "XML syntax error: " + xmlSyntaxReason(msg)
		}
	}
	l, c := LineCol(src, off)
	f.Line, f.Column = &l, &c
	if len(stack) > 0 {
		f.Path = ptr("/" + strings.Join(stack, "/"))
	}
	return f
}

// safeXMLMessages are decoder messages that cannot quote the payload.
var safeXMLMessages = map[string]bool{
	"unexpected EOF": true, "expected element name after </": true, "expected target name after <?": true,
	"invalid sequence <!- not part of <!--": true, "invalid <![ sequence": true, "expected element name after <": true,
	"expected /> in element": true, "expected attribute name in element": true,
	"attribute name without = in element": true, "unquoted or missing attribute value in element": true,
	"unexpected EOF in CDATA section": true, "unescaped ]]> not in CDATA section": true,
	"unescaped < inside quoted string": true, "invalid UTF-8": true,
}

// xmlSyntaxReason maps a decoder message to one that never quotes the payload.
func xmlSyntaxReason(msg string) string {
	switch {
	case safeXMLMessages[msg]:
		return msg
	case strings.HasPrefix(msg, "illegal character code U+"):
		return msg
	case strings.HasPrefix(msg, "unexpected end element"):
		return "unexpected end tag"
	case strings.HasPrefix(msg, "element <"):
		return "mismatched end tag"
	case strings.HasPrefix(msg, "invalid XML name"):
		return "invalid XML name"
	case strings.HasPrefix(msg, "invalid character entity"):
		return "invalid character reference"
	case strings.Contains(msg, "version"):
		return "unsupported XML version"
	case strings.Contains(msg, "encoding"):
		return "only UTF-8 documents are accepted"
	}
	return "malformed markup"
}
