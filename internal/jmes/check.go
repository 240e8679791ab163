package jmes

import "github.com/jmespath-community/go-jmespath/pkg/parsing"

// checkAST verifies the shape of every node the evaluator relies on, so that a
// malformed parse (the parser accepts a few odd forms, e.g. `let $x in $x` or a
// bare `a = b`) is a syntax error, not an evaluation failure.
func checkAST(n *parsing.ASTNode, inBindings bool) bool {
	kids := func(k int) bool { return len(n.Children) == k }
	ok := true
	switch n.NodeType {
	case parsing.ASTField, parsing.ASTVariable, parsing.ASTFunctionExpression:
		_, ok = n.Value.(string)
	case parsing.ASTKeyValPair:
		_, isStr := n.Value.(string)
		ok = isStr && kids(1)
	case parsing.ASTIndex:
		_, ok = n.Value.(int)
	case parsing.ASTSlice:
		parts, isSlice := n.Value.([]*int)
		ok = isSlice && len(parts) == 3
	case parsing.ASTComparator, parsing.ASTArithmeticExpression:
		_, isTok := n.Value.(parsing.TokType)
		ok = isTok && kids(2)
	case parsing.ASTArithmeticUnaryExpression:
		_, isTok := n.Value.(parsing.TokType)
		ok = isTok && kids(1)
	case parsing.ASTSubexpression, parsing.ASTIndexExpression, parsing.ASTProjection, parsing.ASTValueProjection,
		parsing.ASTOrExpression, parsing.ASTAndExpression:
		ok = kids(2)
	case parsing.ASTPipe:
		ok = len(n.Children) >= 1
	case parsing.ASTFilterProjection:
		ok = kids(3)
	case parsing.ASTFlatten, parsing.ASTExpRef, parsing.ASTNotExpression:
		ok = kids(1)
	case parsing.ASTLetExpression:
		ok = kids(2) && n.Children[0].NodeType == parsing.ASTBindings
	case parsing.ASTBindings:
		for i := range n.Children {
			b := &n.Children[i]
			if b.NodeType != parsing.ASTBinding || len(b.Children) != 2 || b.Children[0].NodeType != parsing.ASTVariable {
				return false
			}
		}
		inBindings = true
	case parsing.ASTBinding:
		ok = inBindings
	case parsing.ASTIdentity, parsing.ASTCurrentNode, parsing.ASTRootNode, parsing.ASTLiteral,
		parsing.ASTMultiSelectList, parsing.ASTMultiSelectHash:
	default:
		ok = false
	}
	if !ok {
		return false
	}
	for i := range n.Children {
		if !checkAST(&n.Children[i], inBindings && n.NodeType == parsing.ASTBindings) {
			return false
		}
	}
	if n.NodeType == parsing.ASTMultiSelectHash {
		for i := range n.Children {
			if n.Children[i].NodeType != parsing.ASTKeyValPair {
				return false
			}
		}
	}
	return true
}
