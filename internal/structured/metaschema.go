package structured

import (
	"embed"
	"strings"
	"sync"
)

// The draft 2020-12 metaschema, checked the way Draft202012Validator.check_schema
// checks a schema in the reference: the first error of a validation against it,
// with "format": "regex" asserted (Python's re must compile a pattern) and the
// URI formats not asserted (the reference's environment has no URI checker).
//
//go:embed metaschema/*.json
var metaFiles embed.FS

const metaBase = "https://json-schema.org/draft/2020-12/"

var (
	metaOnce sync.Once
	metaRoot *snode
)

// metaCompiler compiles the metaschema documents, resolving $ref within and
// between them and $dynamicRef "#meta" to the root (the outermost dynamic
// anchor of every check).
type metaCompiler struct {
	docs map[string]any
	memo map[string]*snode
}

func metaschema() *snode {
	metaOnce.Do(func() {
		mc := &metaCompiler{docs: map[string]any{}, memo: map[string]*snode{}}
		entries, err := metaFiles.ReadDir("metaschema")
		if err != nil {
			panic(err)
		}
		for _, e := range entries {
			data, err := metaFiles.ReadFile("metaschema/" + e.Name())
			if err != nil {
				panic(err)
			}
			v, _, f := ParseJSON(string(data), JSONOptions{Build: true, Python: true})
			if f != nil {
				panic("metaschema " + e.Name() + ": " + f.Message)
			}
			name := strings.TrimSuffix(e.Name(), ".json")
			url := metaBase + "meta/" + name
			if name == "schema" {
				url = metaBase + "schema"
			}
			mc.docs[url] = v
		}
		metaRoot = mc.at(metaBase+"schema", "")
	})
	return metaRoot
}

// at returns the compiled subschema at a JSON pointer of a document.
func (mc *metaCompiler) at(doc, ptr string) *snode {
	k := doc + "#" + ptr
	if n := mc.memo[k]; n != nil {
		return n
	}
	v := mc.docs[doc]
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" {
			continue
		}
		o, _ := v.(*Object)
		if o == nil {
			panic("metaschema pointer " + k)
		}
		v, _ = o.Get(tok)
	}
	c := &schemaCompiler{}
	c.resolve = func(n *snode, key, ref string) {
		target := mc.ref(doc, ref)
		if key == "$ref" {
			n.ref = target
		} else {
			n.dynamic = target
		}
	}
	o, ok := v.(*Object)
	if !ok {
		n := c.node(v)
		mc.memo[k] = n
		return n
	}
	n := &snode{obj: o}
	mc.memo[k] = n // before filling: references may lead back here
	c.fill(n)
	return n
}

func (mc *metaCompiler) ref(doc, ref string) *snode {
	path, frag, _ := strings.Cut(ref, "#")
	if frag == "meta" {
		return mc.at(metaBase+"schema", "")
	}
	if path != "" {
		doc = metaBase + path
	}
	return mc.at(doc, frag)
}
