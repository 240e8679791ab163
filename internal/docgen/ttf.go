package docgen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// ttFont is a parsed TrueType font (glyf outlines): just enough to measure text,
// map runes to glyphs and write a glyph subset for PDF embedding.
type ttFont struct {
	name        string // PostScript-style name used in the PDF
	data        []byte
	tables      map[string][]byte
	unitsPerEm  int
	numGlyphs   int
	numHMetrics int
	locaLong    bool
	ascent      int
	descent     int
	capHeight   int
	bbox        [4]int
	fixedPitch  bool
	cmap        map[rune]uint16
	hmtx        []byte // tables["hmtx"], looked up once: advance runs per character
}

var errBadFont = errors.New("malformed TrueType font")

func u16(b []byte, off int) (int, error) {
	if off < 0 || off+2 > len(b) {
		return 0, errBadFont
	}
	return int(binary.BigEndian.Uint16(b[off:])), nil
}

func i16(b []byte, off int) (int, error) {
	v, err := u16(b, off)
	return int(int16(uint16(v))), err
}

func u32(b []byte, off int) (int, error) {
	if off < 0 || off+4 > len(b) {
		return 0, errBadFont
	}
	return int(binary.BigEndian.Uint32(b[off:])), nil
}

// parseTTF parses a TrueType font file or the first font of a TrueType collection
// (glyf outlines; CFF outlines are not supported).
func parseTTF(name string, data []byte) (*ttFont, error) {
	f := &ttFont{name: name, data: data, tables: map[string][]byte{}}
	base := 0
	if len(data) >= 16 && string(data[:4]) == "ttcf" {
		// A TrueType collection: use its first font (table offsets are from the
		// start of the file).
		var err error
		if base, err = u32(data, 12); err != nil {
			return nil, err
		}
	}
	n, err := u16(data, base+4)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		rec := base + 12 + 16*i
		if rec+16 > len(data) {
			return nil, errBadFont
		}
		tag := string(data[rec : rec+4])
		off, _ := u32(data, rec+8)
		length, _ := u32(data, rec+12)
		if off+length > len(data) || off < 0 || length < 0 {
			return nil, fmt.Errorf("%w: table %q out of range", errBadFont, tag)
		}
		f.tables[tag] = data[off : off+length]
	}
	for _, t := range []string{"head", "hhea", "maxp", "hmtx", "loca", "glyf", "cmap"} {
		if f.tables[t] == nil {
			return nil, fmt.Errorf("%w: no %s table", errBadFont, t)
		}
	}
	if len(f.tables["head"]) < 54 || len(f.tables["hhea"]) < 36 || len(f.tables["maxp"]) < 6 {
		return nil, fmt.Errorf("%w: short head, hhea or maxp", errBadFont)
	}
	head := f.tables["head"]
	if f.unitsPerEm, err = u16(head, 18); err != nil || f.unitsPerEm == 0 {
		return nil, errBadFont
	}
	for i := range f.bbox {
		f.bbox[i], _ = i16(head, 36+2*i)
	}
	locFmt, _ := i16(head, 50)
	f.locaLong = locFmt == 1
	hhea := f.tables["hhea"]
	f.ascent, _ = i16(hhea, 4)
	f.descent, _ = i16(hhea, 6)
	f.numHMetrics, _ = u16(hhea, 34)
	f.numGlyphs, _ = u16(f.tables["maxp"], 4)
	if f.numHMetrics == 0 || f.numHMetrics > f.numGlyphs || len(f.tables["hmtx"]) < 4*f.numHMetrics {
		return nil, fmt.Errorf("%w: bad hmtx", errBadFont)
	}
	f.capHeight = f.ascent * 7 / 10
	if os2 := f.tables["OS/2"]; len(os2) >= 90 {
		if v, _ := i16(os2, 88); v > 0 {
			f.capHeight = v
		}
	}
	if post := f.tables["post"]; len(post) >= 16 {
		v, _ := u32(post, 12)
		f.fixedPitch = v != 0
	}
	if err := f.parseCmap(); err != nil {
		return nil, err
	}
	f.hmtx = f.tables["hmtx"]
	return f, nil
}

// parseCmap reads the Unicode cmap (format 12 preferred, else format 4).
func (f *ttFont) parseCmap() error {
	cm := f.tables["cmap"]
	n, err := u16(cm, 2)
	if err != nil {
		return err
	}
	best, bestFmt := -1, 0
	for i := 0; i < n; i++ {
		pid, _ := u16(cm, 4+8*i)
		eid, _ := u16(cm, 6+8*i)
		off, err := u32(cm, 8+8*i)
		if err != nil {
			return err
		}
		format, err := u16(cm, off)
		if err != nil {
			continue
		}
		unicode := pid == 0 || (pid == 3 && (eid == 1 || eid == 10))
		if !unicode {
			continue
		}
		if format == 12 && bestFmt != 12 || format == 4 && bestFmt == 0 {
			best, bestFmt = off, format
		}
	}
	f.cmap = map[rune]uint16{}
	// A damaged table could describe billions of code points; a real font maps
	// at most every Unicode scalar once.
	budget := 2 * 0x110000
	spend := func(n int) error {
		budget -= n
		if budget < 0 {
			return fmt.Errorf("%w: cmap too large", errBadFont)
		}
		return nil
	}
	switch bestFmt {
	case 12:
		groups, err := u32(cm, best+12)
		if err != nil {
			return err
		}
		for g := 0; g < groups; g++ {
			base := best + 16 + 12*g
			start, err1 := u32(cm, base)
			end, err2 := u32(cm, base+4)
			gid, err3 := u32(cm, base+8)
			if err1 != nil || err2 != nil || err3 != nil {
				return errBadFont
			}
			if end < start || end > 0x10FFFF {
				continue
			}
			if err := spend(end - start + 1); err != nil {
				return err
			}
			for c := start; c <= end && c <= 0x10FFFF; c++ {
				if g := gid + c - start; g > 0 && g < f.numGlyphs {
					f.cmap[rune(c)] = uint16(g)
				}
			}
		}
	case 4:
		segX2, err := u16(cm, best+6)
		if err != nil {
			return err
		}
		ends := best + 14
		starts := ends + segX2 + 2
		deltas := starts + segX2
		ranges := deltas + segX2
		for s := 0; s < segX2/2; s++ {
			end, _ := u16(cm, ends+2*s)
			start, _ := u16(cm, starts+2*s)
			delta, _ := u16(cm, deltas+2*s)
			ro, err := u16(cm, ranges+2*s)
			if err != nil {
				return err
			}
			if end >= start {
				if err := spend(end - start + 1); err != nil {
					return err
				}
			}
			for c := start; c <= end && c != 0xFFFF; c++ {
				var g int
				if ro == 0 {
					g = (c + delta) & 0xFFFF
				} else {
					gi, err := u16(cm, ranges+2*s+ro+2*(c-start))
					if err != nil {
						continue
					}
					if gi != 0 {
						g = (gi + delta) & 0xFFFF
					}
				}
				if g > 0 && g < f.numGlyphs {
					f.cmap[rune(c)] = uint16(g)
				}
			}
		}
	default:
		return fmt.Errorf("%w: no Unicode cmap", errBadFont)
	}
	return nil
}

// glyph returns the glyph id of r and whether the font has it.
func (f *ttFont) glyph(r rune) (uint16, bool) {
	g, ok := f.cmap[r]
	return g, ok
}

// advance returns the advance width of a glyph in font units.
func (f *ttFont) advance(g uint16) int {
	i := min(int(g), f.numHMetrics-1)
	hmtx := f.hmtx
	if hmtx == nil {
		hmtx = f.tables["hmtx"]
	}
	v, _ := u16(hmtx, 4*i)
	return v
}

// glyphData returns the outline bytes of a glyph (empty for blank glyphs).
func (f *ttFont) glyphData(g int) []byte {
	loca, glyf := f.tables["loca"], f.tables["glyf"]
	var a, b int
	var err1, err2 error
	if f.locaLong {
		a, err1 = u32(loca, 4*g)
		b, err2 = u32(loca, 4*g+4)
	} else {
		a, err1 = u16(loca, 2*g)
		b, err2 = u16(loca, 2*g+2)
		a, b = 2*a, 2*b
	}
	if err1 != nil || err2 != nil || a > b || b > len(glyf) {
		return nil
	}
	return glyf[a:b]
}

// glyphSet numbers the glyphs of one font a document uses densely, in order of
// first use; the number is the PDF CID (CIDToGIDMap /Identity over the subset),
// so the embedded subset holds just these glyphs.
type glyphSet struct {
	ids   map[uint16]uint16 // font glyph id -> CID
	order []uint16          // CID -> font glyph id
	uni   map[uint16]rune   // CID -> the character it shows (for ToUnicode)
}

func newGlyphSet() *glyphSet {
	return &glyphSet{ids: map[uint16]uint16{0: 0}, order: []uint16{0}, uni: map[uint16]rune{}}
}

// cid returns the CID of glyph g, numbering it on first use; r < 0 means the
// glyph shows no character of its own (a composite's component).
func (s *glyphSet) cid(g uint16, r rune) uint16 {
	c, ok := s.ids[g]
	if !ok {
		c = uint16(len(s.order))
		s.ids[g] = c
		s.order = append(s.order, g)
	}
	if _, has := s.uni[c]; !has && r >= 0 && c != 0 {
		s.uni[c] = r
	}
	return c
}

func (s *glyphSet) used() bool { return len(s.order) > 1 }

// lsb returns the left side bearing bytes of glyph g.
func (f *ttFont) lsb(g int) []byte {
	src := f.tables["hmtx"]
	if g < f.numHMetrics {
		return src[4*g+2 : 4*g+4]
	}
	if o := 4*f.numHMetrics + 2*(g-f.numHMetrics); o+2 <= len(src) {
		return src[o : o+2]
	}
	return []byte{0, 0}
}

// remapComponents copies a composite glyph with its component glyph ids replaced
// by their CIDs (numbering new components as needed).
func remapComponents(gd []byte, s *glyphSet) []byte {
	if len(gd) < 10 {
		return gd
	}
	if nc, _ := i16(gd, 0); nc >= 0 {
		return gd
	}
	out := append([]byte(nil), gd...)
	off := 10
	for {
		flags, err1 := u16(out, off)
		gid, err2 := u16(out, off+2)
		if err1 != nil || err2 != nil {
			return out
		}
		binary.BigEndian.PutUint16(out[off+2:], s.cid(uint16(gid), -1))
		off += 4
		if flags&0x0001 != 0 {
			off += 4
		} else {
			off += 2
		}
		switch {
		case flags&0x0008 != 0:
			off += 2
		case flags&0x0040 != 0:
			off += 4
		case flags&0x0080 != 0:
			off += 8
		}
		if flags&0x0020 == 0 {
			return out
		}
	}
}

// subset returns a TrueType file holding the glyphs of s in CID order (glyph i of
// the subset is CID i), composite components included and renumbered.
func (f *ttFont) subset(s *glyphSet) []byte {
	var glyf []byte
	var loca []byte
	for i := 0; i < len(s.order); i++ { // s.order grows as components are found
		loca = binary.BigEndian.AppendUint32(loca, uint32(len(glyf)))
		gid := int(s.order[i])
		if gid >= f.numGlyphs {
			continue
		}
		glyf = append(glyf, remapComponents(f.glyphData(gid), s)...)
		for len(glyf)%4 != 0 {
			glyf = append(glyf, 0)
		}
	}
	loca = binary.BigEndian.AppendUint32(loca, uint32(len(glyf)))
	n := len(s.order)
	hmtx := make([]byte, 0, 4*n)
	for _, g := range s.order {
		hmtx = binary.BigEndian.AppendUint16(hmtx, uint16(f.advance(g)))
		hmtx = append(hmtx, f.lsb(int(g))...)
	}

	head := append([]byte(nil), f.tables["head"]...)
	binary.BigEndian.PutUint32(head[8:], 0)  // checkSumAdjustment, set by writeSFNT
	binary.BigEndian.PutUint16(head[50:], 1) // long loca
	hhea := append([]byte(nil), f.tables["hhea"]...)
	binary.BigEndian.PutUint16(hhea[34:], uint16(n))
	maxp := append([]byte(nil), f.tables["maxp"]...)
	binary.BigEndian.PutUint16(maxp[4:], uint16(n))

	tables := map[string][]byte{"head": head, "hhea": hhea, "maxp": maxp, "hmtx": hmtx, "loca": loca, "glyf": glyf}
	for _, t := range []string{"cvt ", "fpgm", "prep"} {
		if b := f.tables[t]; b != nil {
			tables[t] = b
		}
	}
	return writeSFNT(tables)
}

func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}

// writeSFNT assembles a TrueType file from tables (sorted by tag, 4-byte aligned,
// with checksums and the head checkSumAdjustment).
func writeSFNT(tables map[string][]byte) []byte {
	tags := make([]string, 0, len(tables))
	for t := range tables {
		tags = append(tags, t)
	}
	sort.Strings(tags)
	num := len(tags)
	es, sr := 0, 1
	for sr*2 <= num {
		sr *= 2
		es++
	}
	out := make([]byte, 12+16*num)
	binary.BigEndian.PutUint32(out[0:], 0x00010000)
	binary.BigEndian.PutUint16(out[4:], uint16(num))
	binary.BigEndian.PutUint16(out[6:], uint16(sr*16))
	binary.BigEndian.PutUint16(out[8:], uint16(es))
	binary.BigEndian.PutUint16(out[10:], uint16(num*16-sr*16))
	headOff := 0
	for i, t := range tags {
		b := tables[t]
		rec := 12 + 16*i
		copy(out[rec:], t)
		binary.BigEndian.PutUint32(out[rec+4:], checksum(b))
		binary.BigEndian.PutUint32(out[rec+8:], uint32(len(out)))
		binary.BigEndian.PutUint32(out[rec+12:], uint32(len(b)))
		if t == "head" {
			headOff = len(out)
		}
		out = append(out, b...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	binary.BigEndian.PutUint32(out[headOff+8:], 0xB1B0AFBA-checksum(out))
	return out
}
