package structured

// The YAML 1.1 parser of the validation path: a recursive descent over the
// scanner's tokens that builds the node tree yaml.safe_load composes, and
// fails where PyYAML's parser and composer fail, with their problem text
// and mark. The reference refuses any anchor, alias or tag before loading,
// so the parser never meets one.

// ynKind is the kind of a YAML node.
type ynKind uint8

const (
	ynScalar ynKind = iota
	ynSeq
	ynMap
)

// ynode is a node of the composed document: a scalar's text and whether it
// was plain (only plain scalars are typed by the YAML 1.1 resolver), or a
// collection's children (a mapping's keys and values alternate), and the
// node's start mark.
type ynode struct {
	kind  ynKind
	plain bool
	value string
	mark  ymark
	kids  []*ynode
}

// id is the node's kind as PyYAML's constructor errors name it.
func (n *ynode) id() string {
	switch n.kind {
	case ynSeq:
		return "sequence"
	case ynMap:
		return "mapping"
	}
	return "scalar"
}

// errYAMLDepth is the composer going deeper than Python's recursion limit
// allows PyYAML.
type errYAMLDepth struct{}

// yparser holds the parsing state.
type yparser struct {
	toks     []ytoken
	i        int
	depth    int
	maxDepth int
	nodes    []ynode // allocated in blocks, never moved
	// first and firstPtrs hold the pooled first blocks of nodes and ptrs
	// until they are full.
	first, firstPtrs *yamlBuffers
	stack            []*ynode // the children of the collections being parsed
	ptrs             []*ynode // children lists, allocated in blocks
}

// push adds a child to the innermost collection being parsed.
func (p *yparser) push(kids ...*ynode) { p.stack = append(p.stack, kids...) }

// kids ends a collection whose children were pushed from stack offset at.
func (p *yparser) kids(at int) []*ynode {
	n := len(p.stack) - at
	if cap(p.ptrs)-len(p.ptrs) < n {
		if p.firstPtrs != nil {
			p.firstPtrs.ptrs = p.ptrs
			p.firstPtrs = nil
		}
		p.ptrs = make([]*ynode, 0, max(n, 1024))
	}
	out := p.ptrs[len(p.ptrs) : len(p.ptrs)+n : len(p.ptrs)+n]
	p.ptrs = p.ptrs[:len(p.ptrs)+n]
	copy(out, p.stack[at:])
	clear(p.stack[at:])
	p.stack = p.stack[:at]
	return out
}

// parseYAMLTokens composes the single document of a token stream, as
// yaml.safe_load does: nil for an empty stream; a parser error, "but found
// another document", or the depth refusal (tooDeep) otherwise.
func parseYAMLTokens(toks []ytoken, maxDepth int, buf *yamlBuffers) (doc *ynode, err *yamlSyntax, tooDeep bool) {
	if cap(buf.nodes) < len(toks) {
		buf.nodes = make([]ynode, 0, len(toks))
	}
	if cap(buf.ptrs) < len(toks) {
		buf.ptrs = make([]*ynode, 0, len(toks))
	}
	p := &yparser{toks: toks, maxDepth: maxDepth, nodes: buf.nodes[:0], ptrs: buf.ptrs[:0], first: buf, firstPtrs: buf}
	defer func() {
		if p.first != nil {
			p.first.nodes = p.nodes
		}
		if p.firstPtrs != nil {
			p.firstPtrs.ptrs = p.ptrs
		}
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *yamlSyntax:
				doc, err = nil, e
			case errYAMLDepth:
				doc, tooDeep = nil, true
			default:
				panic(r)
			}
		}
	}()
	p.i = 1 // the stream start
	if !p.at(ytDirective, ytDocStart, ytStreamEnd) {
		doc = p.node(true, false)
		p.docEnd()
	} else if _, ok := p.docStart(); ok {
		doc = p.docContent()
		p.docEnd()
	} else {
		return nil, nil, false
	}
	if m, ok := p.docStart(); ok {
		p.fail("but found another document", m)
	}
	return doc, nil, false
}

func (p *yparser) fail(msg string, m ymark) { panic(&yamlSyntax{msg: msg, mark: m}) }

func (p *yparser) peek() *ytoken { return &p.toks[p.i] }

// at reports whether the next token is one of kinds.
func (p *yparser) at(kinds ...ytKind) bool {
	k := p.toks[p.i].kind
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

func (p *yparser) take() *ytoken {
	t := &p.toks[p.i]
	if t.kind != ytStreamEnd {
		p.i++
	}
	return t
}

func (p *yparser) newNode(kind ynKind, m ymark) *ynode {
	if len(p.nodes) == cap(p.nodes) {
		if p.first != nil {
			p.first.nodes = p.nodes
			p.first = nil
		}
		p.nodes = make([]ynode, 0, 256)
	}
	p.nodes = append(p.nodes, ynode{kind: kind, mark: m})
	return &p.nodes[len(p.nodes)-1]
}

// empty is the null scalar of an omitted node.
func (p *yparser) empty(m ymark) *ynode {
	n := p.newNode(ynScalar, m)
	n.plain = true
	return n
}

// docStart reads what precedes an explicit document: stray document ends,
// then directives and "---". ok is false at the stream end; m is the
// document's start (its first directive, or "---").
func (p *yparser) docStart() (m ymark, ok bool) {
	for p.at(ytDocEnd) {
		p.take()
	}
	if p.at(ytStreamEnd) {
		return ymark{}, false
	}
	m = p.peek().start
	version, handles := false, map[string]bool{}
	for p.at(ytDirective) {
		t := p.take()
		switch t.value {
		case "YAML":
			if version {
				p.fail("found duplicate YAML directive", t.start)
			}
			if t.dir.major != 1 {
				p.fail("found incompatible YAML document (version 1.* is required)", t.start)
			}
			version = true
		case "TAG":
			if handles[t.dir.handle] {
				p.fail("duplicate tag handle "+pyRepr(t.dir.handle), t.start)
			}
			handles[t.dir.handle] = true
		}
	}
	if !p.at(ytDocStart) {
		p.fail("expected '<document start>', but found "+pyRepr(ytNames[p.peek().kind]), p.peek().start)
	}
	p.take()
	return m, true
}

// docContent is an explicit document's node, null if it has none.
func (p *yparser) docContent() *ynode {
	if p.at(ytDirective, ytDocStart, ytDocEnd, ytStreamEnd) {
		return p.empty(p.peek().start)
	}
	return p.node(true, false)
}

func (p *yparser) docEnd() {
	if p.at(ytDocEnd) {
		p.take()
	}
}

// node parses one node: in block context a block collection may start, and
// where indentless is set, a sequence of "- " entries at the parent's
// indentation.
func (p *yparser) node(block, indentless bool) *ynode {
	t := p.peek()
	switch {
	case indentless && t.kind == ytBlockEntry:
		return p.indentlessSeq()
	case t.kind == ytScalar:
		p.take()
		n := p.newNode(ynScalar, t.start)
		n.plain, n.value = t.plain, t.value
		return n
	case t.kind == ytFlowSeqStart:
		return p.flowSeq()
	case t.kind == ytFlowMapStart:
		return p.flowMap()
	case block && t.kind == ytBlockSeqStart:
		return p.blockSeq()
	case block && t.kind == ytBlockMapStart:
		return p.blockMap()
	}
	p.fail("expected the node content, but found "+pyRepr(ytNames[t.kind]), t.start)
	return nil
}

// enter opens a collection, refusing what would exhaust PyYAML's recursion.
func (p *yparser) enter(kind ynKind, m ymark) *ynode {
	if p.depth++; p.depth > p.maxDepth {
		panic(errYAMLDepth{})
	}
	return p.newNode(kind, m)
}

// entry is a node after an indicator (t), or null where there is none.
func (p *yparser) entry(t *ytoken, block, indentless bool, none ...ytKind) *ynode {
	if p.at(none...) {
		return p.empty(t.end)
	}
	return p.node(block, indentless)
}

func (p *yparser) blockSeq() *ynode {
	n := p.enter(ynSeq, p.take().start)
	at := len(p.stack)
	for p.at(ytBlockEntry) {
		t := p.take()
		p.push(p.entry(t, true, false, ytBlockEntry, ytBlockEnd))
	}
	if !p.at(ytBlockEnd) {
		p.fail("expected <block end>, but found "+pyRepr(ytNames[p.peek().kind]), p.peek().start)
	}
	p.take()
	n.kids = p.kids(at)
	p.depth--
	return n
}

func (p *yparser) indentlessSeq() *ynode {
	n := p.enter(ynSeq, p.peek().start)
	at := len(p.stack)
	for p.at(ytBlockEntry) {
		t := p.take()
		p.push(p.entry(t, true, false, ytBlockEntry, ytKey, ytValue, ytBlockEnd))
	}
	n.kids = p.kids(at)
	p.depth--
	return n
}

func (p *yparser) blockMap() *ynode {
	n := p.enter(ynMap, p.take().start)
	at := len(p.stack)
	for p.at(ytKey) {
		t := p.take()
		k := p.entry(t, true, true, ytKey, ytValue, ytBlockEnd)
		var v *ynode
		if p.at(ytValue) {
			t := p.take()
			v = p.entry(t, true, true, ytKey, ytValue, ytBlockEnd)
		} else {
			v = p.empty(p.peek().start)
		}
		p.push(k, v)
	}
	if !p.at(ytBlockEnd) {
		p.fail("expected <block end>, but found "+pyRepr(ytNames[p.peek().kind]), p.peek().start)
	}
	p.take()
	n.kids = p.kids(at)
	p.depth--
	return n
}

// flowPair parses "? key : value" or "key: value" after the KEY token in a
// flow collection closed by end.
func (p *yparser) flowPair(end ytKind) (k, v *ynode) {
	t := p.take()
	k = p.entry(t, false, false, ytValue, ytFlowEntry, end)
	if p.at(ytValue) {
		t := p.take()
		v = p.entry(t, false, false, ytFlowEntry, end)
	} else {
		v = p.empty(p.peek().start)
	}
	return k, v
}

func (p *yparser) flowSeq() *ynode {
	n := p.enter(ynSeq, p.take().start)
	at := len(p.stack)
	for first := true; !p.at(ytFlowSeqEnd); first = false {
		if !first {
			if !p.at(ytFlowEntry) {
				p.fail("expected ',' or ']', but got "+pyRepr(ytNames[p.peek().kind]), p.peek().start)
			}
			p.take()
		}
		switch {
		case p.at(ytKey):
			// A single pair is a one-entry mapping.
			pair := p.enter(ynMap, p.peek().start)
			k, v := p.flowPair(ytFlowSeqEnd)
			pair.kids = []*ynode{k, v}
			p.depth--
			p.push(pair)
		case !p.at(ytFlowSeqEnd):
			p.push(p.node(false, false))
		}
	}
	p.take()
	n.kids = p.kids(at)
	p.depth--
	return n
}

func (p *yparser) flowMap() *ynode {
	n := p.enter(ynMap, p.take().start)
	at := len(p.stack)
	for first := true; !p.at(ytFlowMapEnd); first = false {
		if !first {
			if !p.at(ytFlowEntry) {
				p.fail("expected ',' or '}', but got "+pyRepr(ytNames[p.peek().kind]), p.peek().start)
			}
			p.take()
		}
		switch {
		case p.at(ytKey):
			k, v := p.flowPair(ytFlowMapEnd)
			p.push(k, v)
		case !p.at(ytFlowMapEnd):
			k := p.node(false, false)
			p.push(k, p.empty(p.peek().start))
		}
	}
	p.take()
	n.kids = p.kids(at)
	p.depth--
	return n
}
