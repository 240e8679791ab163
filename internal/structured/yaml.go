package structured

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// tabOutsideScalar reports a tab in token i's text outside a quoted scalar, a
// block scalar's content or a comment: PyYAML (the reference) refuses tabs
// everywhere else ("found character '\t' that cannot start any token"), where
// goccy reads them as spaces. A token's Origin carries the whitespace before it.
func tabOutsideScalar(toks token.Tokens, i int) bool {
	tk := toks[i]
	o := tk.Origin
	if !strings.Contains(o, "\t") {
		return false
	}
	switch tk.Type {
	case token.SingleQuoteType, token.DoubleQuoteType:
		if j := strings.IndexAny(o, "'\""); j >= 0 {
			o = o[:j]
		}
	case token.CommentType:
		if j := strings.IndexByte(o, '#'); j >= 0 {
			o = o[:j]
		}
	default:
		if i > 0 && (toks[i-1].Type == token.LiteralType || toks[i-1].Type == token.FoldedType) {
			return false
		}
	}
	return strings.Contains(o, "\t")
}

// firstNonSpace returns the first character of s after spaces and line
// breaks, or "".
func firstNonSpace(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if t == "" {
		return ""
	}
	return t[:1]
}

// adjacent reports whether b starts right after a's width on the same line.
func adjacent(a, b *token.Token, width int) bool {
	return a.Position != nil && b.Position != nil && a.Position.Line == b.Position.Line && b.Position.Column == a.Position.Column+width
}

// blockFrame is one open block collection in the token-level depth estimate.
type blockFrame struct {
	col int
	seq bool
}

// yamlCheckTokens refuses anchors, aliases, tags and directives by token type,
// and estimates the nesting depth from flow brackets and block indentation so
// that a hostile nesting (the parser is quadratic in depth) is refused before
// parsing. The estimate bounds the depth from above closely; the exact depth is
// measured on the AST afterwards.
func yamlCheckTokens(toks token.Tokens, maxDepth int) *Finding {
	var stack []blockFrame
	flow := 0
	at := func(tk *token.Token) (*int, *int) {
		if tk.Position == nil {
			return nil, nil
		}
		return ptr(tk.Position.Line), ptr(tk.Position.Column)
	}
	push := func(col int, seq bool) {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			switch {
			case top.col > col:
				stack = stack[:len(stack)-1]
				continue
			case top.col == col && top.seq == seq:
				return
			case top.col == col && top.seq && !seq:
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		stack = append(stack, blockFrame{col: col, seq: seq})
	}
	// PyYAML (the reference) refuses "..." before any document and content
	// after "..." that does not start with "---"; goccy accepts both.
	started, ended := false, false
	for i, tk := range toks {
		if tabOutsideScalar(toks, i) {
			l, c := at(tk)
			return &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error: a tab is only allowed inside quoted or block scalars and comments", Line: l, Column: c}
		}
		if tk.Type == token.StringType {
			// Defence in depth: a plain scalar that starts with an anchor, alias
			// or tag indicator is refused like the token it should have been.
			switch firstNonSpace(tk.Origin) {
			case "!":
				l, c := at(tk)
				return &Finding{Code: CodeYAMLTagRefused, Message: "YAML tags are refused", Line: l, Column: c}
			case "&":
				l, c := at(tk)
				return &Finding{Code: CodeYAMLAnchorRefused, Message: "YAML anchors are refused", Line: l, Column: c}
			case "*":
				l, c := at(tk)
				return &Finding{Code: CodeYAMLAliasRefused, Message: "YAML aliases are refused", Line: l, Column: c}
			}
		}
		if tk.Type == token.StringType && strings.ContainsAny(firstNonSpace(tk.Origin), ",[]{}") {
			// A plain scalar cannot start with a flow indicator (PyYAML: "found
			// character that cannot start any token"); goccy reads it as text.
			l, c := at(tk)
			return &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error: a plain scalar cannot start with , [ ] { or }", Line: l, Column: c}
		}
		isEnd := tk.Type == token.DocumentEndType
		if isEnd && i+1 < len(toks) && adjacent(tk, toks[i+1], 3) {
			isEnd = false // "...]" is text to PyYAML, not a document end marker
		}
		switch {
		case tk.Type == token.CommentType:
		case isEnd:
			if !started {
				l, c := at(tk)
				return &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error: document end marker before any document", Line: l, Column: c}
			}
			ended = true
		case tk.Type == token.DocumentHeaderType:
			started, ended = true, false
		default:
			if ended {
				l, c := at(tk)
				return &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error: content after a document end marker needs ---", Line: l, Column: c}
			}
			started = true
		}
		switch tk.Type {
		case token.AnchorType:
			l, c := at(tk)
			return &Finding{Code: CodeYAMLAnchorRefused, Message: "YAML anchors are refused", Line: l, Column: c}
		case token.AliasType:
			l, c := at(tk)
			return &Finding{Code: CodeYAMLAliasRefused, Message: "YAML aliases are refused", Line: l, Column: c}
		case token.TagType:
			l, c := at(tk)
			return &Finding{Code: CodeYAMLTagRefused, Message: "YAML tags are refused", Line: l, Column: c}
		case token.DirectiveType:
			l, c := at(tk)
			return &Finding{Code: CodeYAMLDirective, Message: "YAML directives (%YAML, %TAG) are refused", Line: l, Column: c}
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			if flow > 0 {
				flow--
			}
		case token.SequenceEntryType, token.MappingKeyType:
			if flow == 0 && tk.Position != nil {
				push(tk.Position.Column, true)
			}
		case token.MappingValueType:
			if flow == 0 && tk.Prev != nil && tk.Prev.Position != nil {
				push(tk.Prev.Position.Column, false)
			}
		default:
			continue
		}
		if len(stack)+flow > 2*maxDepth {
			l, c := at(tk)
			return &Finding{Code: CodeDepthLimit, Message: "nesting deeper than " + strconv.Itoa(maxDepth) + " levels", Line: l, Column: c}
		}
	}
	return nil
}

type yamlWalker struct {
	ctx      context.Context
	maxDepth int
	maxNodes int
	stats    Stats
	err      error
	finding  *Finding
}

// nodePos returns a node's position; some goccy nodes (a DocumentNode without
// a "---") panic in GetToken, so it is guarded.
func nodePos(n ast.Node) (line, col *int) {
	if n == nil {
		return nil, nil
	}
	defer func() {
		if recover() != nil {
			line, col = nil, nil
		}
	}()
	if d, ok := n.(*ast.DocumentNode); ok {
		if d.Start != nil && d.Start.Position != nil {
			return ptr(d.Start.Position.Line), ptr(d.Start.Position.Column)
		}
		if d.Body == nil {
			return nil, nil
		}
		return nodePos(d.Body)
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return nil, nil
	}
	return ptr(tk.Position.Line), ptr(tk.Position.Column)
}

func (w *yamlWalker) walk(n ast.Node, depth int, path string) bool {
	w.stats.Nodes++
	if w.stats.Nodes > w.maxNodes {
		l, c := nodePos(n)
		w.finding = &Finding{Code: CodeNodeLimit, Message: "document has more than " + strconv.Itoa(w.maxNodes) + " values", Line: l, Column: c, Path: ptr(path)}
		return false
	}
	if w.stats.Nodes&1023 == 0 {
		if err := w.ctx.Err(); err != nil {
			w.err = err
			return false
		}
	}
	enter := func() bool {
		if depth+1 > w.maxDepth {
			l, c := nodePos(n)
			w.finding = &Finding{Code: CodeDepthLimit, Message: "nesting deeper than " + strconv.Itoa(w.maxDepth) + " levels", Line: l, Column: c, Path: ptr(path)}
			return false
		}
		if depth+1 > w.stats.Depth {
			w.stats.Depth = depth + 1
		}
		return true
	}
	switch x := n.(type) {
	case *ast.MappingNode:
		if !enter() {
			return false
		}
		for _, mv := range x.Values {
			if !w.walk(mv.Value, depth+1, path+"/"+EscapePointer(yamlKey(mv.Key))) {
				return false
			}
		}
	case *ast.MappingValueNode:
		// A single-pair mapping.
		if !enter() {
			return false
		}
		return w.walk(x.Value, depth+1, path+"/"+EscapePointer(yamlKey(x.Key)))
	case *ast.SequenceNode:
		if !enter() {
			return false
		}
		for i, v := range x.Values {
			if !w.walk(v, depth+1, path+"/"+strconv.Itoa(i)) {
				return false
			}
		}
	}
	return true
}

func yamlKey(k ast.MapKeyNode) string {
	if k == nil {
		return ""
	}
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return k.String()
}

// validateYAML checks one YAML document. Findings: yaml_anchor_refused,
// yaml_alias_refused, yaml_tag_refused, yaml_directive_refused (all from the
// lexer's tokens, before parsing), depth_limit, node_limit, yaml_syntax,
// yaml_multiple_documents.
func validateYAML(ctx context.Context, src string, lim Limits) (st Stats, f *Finding, err error) {
	// A panic inside the third-party lexer or parser on hostile input is a
	// syntax finding, never a crash.
	defer func() {
		if r := recover(); r != nil {
			st, f, err = Stats{}, &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error"}, nil
		}
	}()
	// goccy's lexer drops a tag (and any token) cut off by the end of input
	// ("a: !!str" without a final newline gives no Tag token), so the lexer
	// always sees a final line break; it changes neither validity nor counts.
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	toks := lexer.Tokenize(src)
	if tf := yamlCheckTokens(toks, lim.MaxDepth); tf != nil {
		return Stats{}, tf, nil
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, nil, err
	}
	file, perr := parseYAML(toks)
	if perr != nil {
		sf := &Finding{Code: CodeYAMLSyntax, Message: "YAML syntax error"}
		var se *yaml.SyntaxError
		if errors.As(perr, &se) && se.Token != nil && se.Token.Position != nil {
			sf.Line, sf.Column = ptr(se.Token.Position.Line), ptr(se.Token.Position.Column)
		}
		return Stats{}, sf, nil
	}
	docs := 0
	var body ast.Node
	for _, d := range file.Docs {
		if d == nil {
			continue
		}
		docs++
		if docs == 1 {
			body = d.Body
		} else {
			l, c := nodePos(d)
			return Stats{}, &Finding{Code: CodeYAMLMultiDoc, Message: "more than one YAML document", Line: l, Column: c}, nil
		}
	}
	w := &yamlWalker{ctx: ctx, maxDepth: lim.MaxDepth, maxNodes: lim.MaxNodes}
	if body == nil {
		// An empty document is one null, as yaml.safe_load says.
		return Stats{Nodes: 1}, nil, nil
	}
	if !w.walk(body, 0, "") {
		return Stats{}, w.finding, w.err
	}
	return w.stats, nil, nil
}

// parseYAML runs the parser with a recover: a panic in a third-party parser is
// a syntax finding, never a crash.
func parseYAML(toks token.Tokens) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, errors.New("yaml parser failed")
		}
	}()
	return parser.Parse(toks, 0, parser.AllowDuplicateMapKey())
}
