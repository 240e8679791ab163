#!/usr/bin/env python3
"""Oracle vectors for structured_validate.

Independent oracles: Python's json (syntax messages, line, column), PyYAML
(yaml.safe_load for validity and structure, yaml.scan for anchor/alias/tag
tokens and their positions), xml.parsers.expat (well-formedness, DOCTYPE,
undefined entities, XInclude elements), csv.reader (rows, fields), jsonschema
(Draft 2020-12 validity) and hashlib (payload_hash, schema_hash). Limits and
messages of limit findings follow the structured_validate contract.

Writes (run from the repository root):
  tools/testdata/structured_validate/oracle_full.json   golden cases, full facts
  internal/structured/testdata/oracle_partial.json      cases whose error
      positions/messages come from another parser: checked on valid, the first
      error code and details only.

  python3 tools/testdata/oracle/gen_structured.py
"""
import csv
import hashlib
import io
import json
import random
import re
import xml.parsers.expat

import jsonschema
import yaml

rng = random.Random(5150)
MAX_DEPTH, MAX_NODES = 64, 10000
MAX_ROWS, MAX_COLS, MAX_FIELD = 1000, 100, 8192
XINCLUDE = "http://www.w3.org/2001/XInclude"


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def line_col(s, pos):
    """Python json's line and column (1-based, code points) of offset pos."""
    line = s.count("\n", 0, pos) + 1
    nl = s.rfind("\n", 0, pos)
    return line, pos - nl if nl >= 0 else pos + 1


def stats(v, d=0):
    """(depth, nodes): container nesting and number of values. Objects are
    lists of (key, value) pairs (json object_pairs_hook) so that a repeated key
    counts every value written, as the contract defines nodes."""
    if isinstance(v, Pairs):
        depth, nodes = d + 1, 1
        for _, x in v:
            dd, n = stats(x, d + 1)
            depth, nodes = max(depth, dd), nodes + n
        return depth, nodes
    if isinstance(v, dict):
        depth, nodes = d + 1, 1
        for x in v.values():
            dd, n = stats(x, d + 1)
            depth, nodes = max(depth, dd), nodes + n
        return depth, nodes
    if isinstance(v, list):
        depth, nodes = d + 1, 1
        for x in v:
            dd, n = stats(x, d + 1)
            depth, nodes = max(depth, dd), nodes + n
        return depth, nodes
    return d, 1


class Pairs(list):
    pass


def yaml_stats(n, d=0):
    """(depth, nodes) of a composed YAML node (duplicate keys kept)."""
    if n is None:
        return 0, 1
    if isinstance(n, yaml.MappingNode):
        depth, nodes = d + 1, 1
        for _, x in n.value:
            dd, k = yaml_stats(x, d + 1)
            depth, nodes = max(depth, dd), nodes + k
        return depth, nodes
    if isinstance(n, yaml.SequenceNode):
        depth, nodes = d + 1, 1
        for x in n.value:
            dd, k = yaml_stats(x, d + 1)
            depth, nodes = max(depth, dd), nodes + k
        return depth, nodes
    return d, 1


def finding(code, message, line=None, column=None, path=None):
    return {"code": code, "message": message, "line": line, "column": column, "path": path}


def facts(fmt, payload, valid, errors, details, schema=None, warnings=None):
    return {"valid": valid, "format": fmt, "payload_hash": sha(payload),
            "schema_hash": sha(schema) if schema is not None else None,
            "errors": errors, "warnings": warnings or [], "details": details}


def zero(fmt):
    return {"rows": 0, "columns": 0} if fmt == "csv" else {"depth": 0, "nodes": 0}


# ---------------------------------------------------------------- values

WORDS = ["alpha", "beta", "gamma", "d\u00e9j\u00e0", "\u20ac", "x y", "", "true", "null", "1.5", "-", "=SUM(A1)"]


def rand_scalar():
    r = rng.random()
    if r < 0.25:
        return rng.randint(-10**6, 10**6)
    if r < 0.35:
        return rng.choice([0.5, -2.25, 1e-7, 3.0e20, 123.456])
    if r < 0.45:
        return rng.choice([True, False, None])
    if r < 0.5:
        return 10**rng.randint(18, 40) + rng.randint(0, 9)
    return rng.choice(WORDS)


def rand_key():
    return rng.choice(["a", "b", "id", "name", "list", "k%d" % rng.randint(0, 99), "\u00fcber", "with space"])


def rand_value(depth):
    r = rng.random()
    if depth <= 0 or r < 0.35:
        return rand_scalar()
    if r < 0.7:
        return {rand_key(): rand_value(depth - 1) for _ in range(rng.randint(0, 4))}
    return [rand_value(depth - 1) for _ in range(rng.randint(0, 4))]


def nested(depth):
    v = rng.choice([1, "x", None, {}, []])
    for _ in range(depth):
        v = [v] if rng.random() < 0.5 else {"k": v}
    return v


# ---------------------------------------------------------------- JSON

def json_case(payload, schema=None):
    """Full facts for a JSON payload, or None when our contract and Python
    legitimately differ (NaN/Infinity, which RFC 8259 forbids)."""
    try:
        v = json.loads(payload, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        counted = json.loads(payload, object_pairs_hook=Pairs)
    except json.JSONDecodeError as e:
        return facts("json", payload, False, [finding("json_syntax", "JSON syntax error: " + e.msg, e.lineno, e.colno)],
                     zero("json"), schema)
    except (ValueError, RecursionError):
        return None
    depth, nodes = stats(counted)
    if depth > MAX_DEPTH or nodes > MAX_NODES:
        return None  # limit findings are hand-checked below
    if schema is None:
        return facts("json", payload, True, [], {"depth": depth, "nodes": nodes})
    s = json.loads(schema)
    errs = list(jsonschema.Draft202012Validator(s).iter_errors(v))
    return ("schema", facts("json", payload, not errs, [], {"depth": depth, "nodes": nodes}, schema), bool(errs))


def mutate(text):
    """A random syntax-breaking edit."""
    if not text:
        return "{"
    i = rng.randrange(len(text) + 1)
    op = rng.random()
    if op < 0.3:
        return text[:i]
    if op < 0.6:
        return text[:i] + rng.choice([",", "]", "}", ":", "\"", "x", "\\", "\x01", "01", "-", "/"]) + text[i:]
    return text[:i] + text[i + 1:]


SCHEMAS = [
    '{"type": "object"}',
    '{"type": "array", "items": {"type": "integer"}}',
    '{"type": "object", "required": ["a"], "properties": {"a": {"type": "string", "minLength": 2}}}',
    '{"type": "object", "additionalProperties": false, "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}',
    '{"anyOf": [{"type": "string"}, {"type": "number", "minimum": 0}]}',
    '{"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true}',
    '{"enum": [1, "a", null, [1, 2]]}',
    '{"const": {"a": 1}}',
    '{"type": "object", "patternProperties": {"^k[0-9]+$": {"type": "number"}}}',
    '{"$defs": {"x": {"type": "string"}}, "type": ["object", "array", "null"]}',
    '{"not": {"type": "null"}}',
    '{"type": "integer", "multipleOf": 3}',
    '{"type": "object", "dependentRequired": {"a": ["b"]}}',
    '{"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false}',
    'true',
    'false',
    '{"if": {"type": "object", "required": ["a"]}, "then": {"required": ["b"]}, "else": {"type": ["array", "number", "string", "null"]}}',
    '{"type": "array", "contains": {"type": "string"}, "minContains": 1, "maxContains": 1}',
    '{"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}',
    '{"type": "object", "properties": {"a": {}}, "unevaluatedProperties": false}',
    '{"type": "array", "prefixItems": [{"type": "integer"}], "unevaluatedItems": {"type": "string"}}',
    '{"type": "object", "dependentSchemas": {"a": {"required": ["c"]}}}',
    '{"type": "number", "exclusiveMinimum": 1, "maximum": 5}',
    '{"type": "string", "format": "email"}',
    '{"type": ["integer", "string"], "minimum": 2, "minLength": 2}',
    '{"oneOf": [{"type": "integer"}, {"type": "number", "multipleOf": 0.5}]}',
    '{"allOf": [{"type": "object"}, {"minProperties": 1}, {"maxProperties": 2}]}',
    '{"type": "array", "items": {"type": "array", "items": {"type": "integer", "minimum": 0}}}',
    '{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"const": 1}}}}}',
    '{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/s", "type": "object"}',
]

SCHEMA_PAYLOADS = [
    '{}', '[]', '[1, 2, 3]', '[1, "2"]', '{"a": "xy"}', '{"a": "x"}', '{"a": 1}', '{"id": 1, "name": "n"}',
    '{"id": 1, "extra": 2}', '"str"', '-1', '5', '9', '1.0', '3.0', 'null', '[1, 1]', '[1, 2, 3, 4]', '{"a": 1, "b": 2}',
    '{"k1": 1, "k2": "x"}', '[1, "a"]', '[1, "a", 3]', '{"a": 1, "c": 2}', '[1, 2]', '{"a": {"b": 1}}',
    '{"a": 1, "b": 2}', '["x"]', '["x", "y"]', '[1, "x", "y"]', '{"abcd": 1}', '{"ab": 1, "c": 2}', '1.5', '2.5', '5',
    '"a@b.c"', '"not an email"', '[[1, 2], [3]]', '[[1, -2]]', '{"a": {"b": 2}}', '1', '"ab"', '0.5', '{"a": 1, "c": 1}',
]


# ---------------------------------------------------------------- YAML

def yaml_first_refused(text):
    """First anchor, alias, tag or directive token (PyYAML's scanner), or None."""
    try:
        for t in yaml.scan(text):
            name = type(t).__name__
            code = {"AnchorToken": ("yaml_anchor_refused", "YAML anchors are refused"),
                    "AliasToken": ("yaml_alias_refused", "YAML aliases are refused"),
                    "TagToken": ("yaml_tag_refused", "YAML tags are refused"),
                    "DirectiveToken": ("yaml_directive_refused", "YAML directives (%YAML, %TAG) are refused")}.get(name)
            if code:
                return finding(code[0], code[1], t.start_mark.line + 1, t.start_mark.column + 1)
    except yaml.YAMLError:
        return "scan_error"
    return None


def yaml_case(text):
    """("full", facts) | ("partial", summary) | None."""
    ref = yaml_first_refused(text)
    if isinstance(ref, dict):
        return "full", facts("yaml", text, False, [ref], zero("yaml"))
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return "partial", {"valid": False, "code": "yaml_syntax"}
    except (TypeError, RecursionError):
        return None
    if ref == "scan_error":
        return None
    if len(docs) > 1:
        return "partial", {"valid": False, "code": "yaml_multiple_documents"}
    depth, nodes = yaml_stats(yaml.compose(text))
    if depth > MAX_DEPTH or nodes > MAX_NODES:
        return None
    return "full", facts("yaml", text, True, [], {"depth": depth, "nodes": nodes})


YAML_SNIPPETS = [
    "a: 1\nb: [1, 2]\n", "- a\n- b\n- - c\n  - d\n", "key: value\nlist:\n  - 1\n  - two\n  - {x: 1}\n",
    "", "# only a comment\n", "plain scalar", "'quoted'", "a:\n  b:\n    c:\n      d: 1\n", "a: [1, [2, [3, [4]]]]",
    "a: &x 1\nb: *x\n", "a: !!str 1\n", "!custom x\n", "%YAML 1.1\n---\na: 1\n", "a: 1\n---\nb: 2\n",
    "a: [1, 2\n", "a: b: c\n", "- a\nb: 1\n", "a:\n- 1\n- 2\nb: 3\n", "? complex\n: value\n",
    "multi: |\n  line1\n  line2\nfolded: >\n  a\n  b\n", "dup: 1\ndup: 2\n", "{a: 1, b: {c: [x, y]}}",
    "[1, 2, 3]", "a: 'it''s'\nb: \"esc\\n\"\n", "x: 2001-12-14\ny: 0x1F\nz: .inf\n", "- - - - deep\n",
    "a: @bad\n", "a: `bad\n", "\ta: 1\n", "a: 1\n  b: 2\n", "key: [unclosed\n", "emoji: \U0001f600\n",
    "lol1: &a [x, x]\nlol2: &b [*a, *a]\nlol3: [*b, *b]\n",
    "key:value\n", "a: b\n  c\n", ": x\n", "- \n", "---\n", "...\n", "--- |\n  text\n", "\"unterminated\n",
    "a: 'b\n", "a: {b: 1, c: [1, 2, {d: e}]}\n", "? a\n", "a:\n  - 1\n  -\n", "<<: {x: 1}\n",
    "a: 1 # comment\n", "'a': \"b\"\n", "- a\n  - b\n", "a:\n\tb: 1\n", "a:    1\n", "a: 012\nb: 0o12\n",
    "null: ~\n", "- [a, {b: c}]\n- {d: [e]}\n", "a: >-\n  folded\n  text\n", "a: \"x\\ty\"\n", "[a, b\n",
    "{a: 1, a: 2}\n", "a:\n  b:\n  c: 1\n", "- - - - - x\n", "a: [\n  1,\n  2\n]\n", "a: b: c: d\n", "- a: 1\n  b: 2\n- c\n",
    "a: |\n  keep\n\nb: 1\n", "x: 'it''s'\n", "x: \"\\u00e9\"\n", "  a: 1\n  b: 2\n", "a:\n- b\n-  c\n", "[]\n", "{}\n",
    "a: [1, 2,]\n", "a: {b: }\n", "\"a\": 1\n", "a: 1\n...\n", "# c\n---\na: 1\n",
    "a: 1\n...\n...\n", "---\n...\n", "# c\n...\n", "a: 1\n...\nb: 2\n", "...\n---\na: 1\n", "--- a\n", "a: 1\n---\n",
    "a: !!s", "!x", "- !x", "a: *x", "a: &x", "a: b\tc\n", "a: 'b\tc'\n", "# c\td\na: 1\n", "a: |\n  x\ty\n", "}\n", ",a\n",
    "a:\tb\n", "[a,\tb]\n",
]


# ---------------------------------------------------------------- XML

XML_DECL = re.compile(r"""^\ufeff?<\?xml\s+version\s*=\s*(["'])([^"']*)\1(?:\s+encoding\s*=\s*(["'])([^"']*)\3)?""")


def xml_case(text):
    """("full", facts) | ("partial", summary). By the contract, XML 1.0 in
    UTF-8 only: other versions or encodings are xml_syntax findings (expat
    would accept them)."""
    m = XML_DECL.match(text)
    if m and (m.group(2) != "1.0" or (m.group(4) and m.group(4).lower() != "utf-8")):
        return "partial", {"valid": False, "code": "xml_syntax"}
    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    stack, st = [], {"depth": 0, "nodes": 0}
    found = []

    def pos():
        b = text.encode("utf-8")[: p.CurrentByteIndex].decode("utf-8")
        return line_col(text, len(b))

    def doctype(*a):
        if not found:
            here = len(text.encode("utf-8")[: p.CurrentByteIndex].decode("utf-8"))
            l, c = line_col(text, text.rfind("<!DOCTYPE", 0, here))
            found.append(finding("xml_dtd_refused", "DTDs and other <!...> declarations are refused", l, c,
                                 "/" + "/".join(stack) if stack else None))
        raise StopIteration

    def start(name, attrs):
        ns, _, local = name.rpartition(" ")
        if not _:
            local, ns = name, ""
        stack.append(local)
        st["depth"] = max(st["depth"], len(stack))
        if ns == XINCLUDE and not found:
            l, c = pos()
            found.append(finding("xinclude_refused", "XInclude elements are refused", l, c, "/" + "/".join(stack)))
            raise StopIteration
        st["nodes"] += 1 + len(attrs)

    def end(name):
        stack.pop()

    p.StartDoctypeDeclHandler = doctype
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.ordered_attributes = False
    try:
        p.Parse(text.encode("utf-8"), True)
    except StopIteration:
        return "full", facts("xml", text, False, found, zero("xml"))
    except xml.parsers.expat.ExpatError as e:
        if e.code == xml.parsers.expat.errors.codes[xml.parsers.expat.errors.XML_ERROR_UNDEFINED_ENTITY]:
            # In element content expat points at the reference's '&' (column
            # 0-based, in characters): a full case. In an attribute it points at
            # the start tag instead: checked on the code only.
            line_text = text.split("\n")[e.lineno - 1]
            if e.offset < len(line_text) and line_text[e.offset] == "&":
                return "full", facts("xml", text, False, [finding(
                    "xml_entity_refused", "entity references other than &lt; &gt; &amp; &quot; &apos; are refused",
                    e.lineno, e.offset + 1, "/" + "/".join(stack) if stack else None)], zero("xml"))
            return "partial", {"valid": False, "code": "xml_entity_refused"}
        return "partial", {"valid": False, "code": "xml_syntax"}
    if st["depth"] > MAX_DEPTH:
        return None
    return "full", facts("xml", text, True, [], dict(st))


XML_SNIPPETS = [
    "<a/>", "<a x=\"1\" y='2'><b>t</b><c/></a>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root>\n  <item id=\"1\">x</item>\n</root>\n",
    "<a xmlns=\"urn:x\" xmlns:p=\"urn:p\" p:attr=\"1\"><p:b/></a>", "<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;</a>",
    "<a><![CDATA[<not markup>]]></a>", "<a><!-- comment --><b/></a>", "<r>\u00fc\u00df\u20ac</r>",
    "<!DOCTYPE a><a/>", "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>",
    "<?xml version=\"1.0\"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<foo>&xxe;</foo>",
    "<?xml version=\"1.0\"?>\n<!DOCTYPE d [<!ENTITY % p SYSTEM \"http://evil.example/x.dtd\"> %p;]>\n<d/>",
    "<a>&ent;</a>", "<a b=\"&ent;\"/>", "<r>\n  <x>ab&e;</x></r>", "<a>\u00e9&x;</a>", "<a><b/>t&nbsp;</a>", "<a xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"/etc/passwd\"/></a>",
    "<r><x:include xmlns:x=\"http://www.w3.org/2001/XInclude\" href=\"a.xml\"/></r>",
    "<a><b></a>", "<a>", "", "text", "<a/><b/>", "<a/>trailing", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<1a/>",
    "<a><b/></b></a>", "<a>&#0;</a>", "<a>&#xZZ;</a>",
    "\ufeff<a/>", "<?xml version=\"1.1\"?><a/>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
    " <?xml version=\"1.0\"?><a/>", "<a>]]></a>", "<!-- c --><a/><!-- d -->", "<a/><?pi x?>", "<?pi x?><a/>",
    "<a>\x01</a>", "<a:b xmlns:a=\"urn:a\"/>", "<a:b/>", "<a xml:lang=\"en\"/>", "<a b=\"<\"/>", "<a b=\"x'y\"/>",
    "<a>\r\n</a>", "<_a-b.c/>", "<a\u00e9/>", "<a/>\n\n", "<?xml version=\"1.0\" standalone=\"yes\"?><a/>",
    "<a><!----></a>", "<a><!-- -- --></a>", "<?xml version='1.0'?>\n<a/>", "<a x='1'/ >", "<a></a >",
]


def rand_xml(depth):
    name = rng.choice(["a", "b", "item", "n\u00e4me", "x-y", "z.z"])
    attrs = "".join(' %s="%s"' % (k, rng.choice(["1", "v", "&amp;", "\u00e9"])) for k in rng.sample(["k", "id", "t"], rng.randint(0, 2)))
    if depth <= 0 or rng.random() < 0.3:
        body = rng.choice(["", "text", "1 &lt; 2", "<![CDATA[x]]>"])
    else:
        body = "".join(rand_xml(depth - 1) for _ in range(rng.randint(0, 3)))
    return "<%s%s>%s</%s>" % (name, attrs, body, name)


# ---------------------------------------------------------------- CSV

NUM = re.compile(r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
DIALECTS = {"comma": ",", "semicolon": ";", "tab": "\t", "pipe": "|"}


def csv_case(text, dialect):
    r = csv.reader(io.StringIO(text, newline=""), delimiter=DIALECTS[dialect])
    rows = cols = formula = 0
    prev_line = 0
    for row in r:
        start = prev_line + 1
        prev_line = r.line_num
        idx = rows
        rows += 1
        err = None
        if rows > MAX_ROWS:
            err = finding("csv_row_limit", "more than %d rows" % MAX_ROWS, start, None, "/%d" % idx)
        elif len(row) > MAX_COLS:
            err = finding("csv_column_limit", "a row has more than %d fields" % MAX_COLS, start, None, "/%d" % idx)
        else:
            for i, f in enumerate(row):
                if len(f) > MAX_FIELD:
                    err = finding("csv_field_too_long", "a field is longer than %d characters" % MAX_FIELD, start, None, "/%d/%d" % (idx, i))
                    break
                if f[:1] in ("=", "+", "-", "@") and not NUM.match(f):
                    formula += 1
        if err:
            return facts("csv", text, False, [err], zero("csv"))
        cols = max(cols, len(row))
    warnings = [{"code": "csv_formula_prefix", "count": formula}] if formula else []
    return facts("csv", text, True, [], {"rows": rows, "columns": cols}, warnings=warnings)


CSV_FIELDS = ["a", "b c", "1", "-2.5", "+3", "=1+2", "@SUM(A1)", "-", "+", "=", "\u00e9", "quote\"d", "multi\nline",
              "semi;colon", "pi|pe", "ta\tb", "com,ma", "", " sp ", "1e5", "-.5", "--1", "@"]


def rand_csv(dialect):
    d = DIALECTS[dialect]
    out = io.StringIO()
    w = csv.writer(out, delimiter=d, lineterminator=rng.choice(["\n", "\r\n"]))
    ncols = rng.randint(1, 6)
    for _ in range(rng.randint(0, 8)):
        w.writerow([rng.choice(CSV_FIELDS) for _ in range(ncols if rng.random() < 0.8 else rng.randint(1, 6))])
    s = out.getvalue()
    if rng.random() < 0.2 and s:
        s = s[:-1]  # no final newline
    return s


CSV_RAW = ["", "\n", "a,b\n\n\nc", "\"unterminated,x\n", "\"a\"b,c", "a\rb\r\nc", "x,\"\"\"q\"\"\"\n", "a,b\x00c\n",
           "\"a,b\"\"c\",d\n", "=cmd|' /C calc'!A0,2\n", "-1,+2,.5,1.,@x\n"]


# ---------------------------------------------------------------- main

def main():
    full, partial = [], []

    def add_full(name, args, f):
        full.append({"name": name, "args": args, "facts": f})

    # JSON: valid documents in several layouts, and mutations of them.
    for k in range(250):
        v = rand_value(rng.randint(0, 5))
        text = json.dumps(v, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, None, 1, 2]),
                          separators=rng.choice([None, (",", ":"), (", ", ": ")]))
        f = json_case(text)
        if f:
            add_full("json/valid%03d" % k, {"format_name": "json", "payload": text}, f)
        bad = mutate(text)
        f = json_case(bad)
        if f:
            add_full("json/mutated%03d" % k, {"format_name": "json", "payload": bad}, f)
    for k, text in enumerate(['', ' ', '\ufeff{}', '{"a":1}x', '[1,]', '{"a" 1}', '"\\x"', '"\\u12"', '"abc',
                              '["a\x01"]', '\n\n  x', '01', '-', '1.', '1e', '[-]', 'tru', '{1:2}', '"\\ud800"',
                              '"\\ud800\\udc00"', '"\\ud800\\u12"', '[1, 2]   \n', '1e400', '-0', '[[[[[]]]]]',
                              '{"a":{"a":{"a":{}}}}', '"\u2028"', '{"dup": 1, "dup": 2}']):
        f = json_case(text)
        if f:
            add_full("json/edge%02d" % k, {"format_name": "json", "payload": text}, f)
    for k, depth in enumerate([1, 10, 63, 64]):
        text = json.dumps(nested(depth))
        f = json_case(text)
        if f:
            add_full("json/nested%02d" % k, {"format_name": "json", "payload": text}, f)
    # JSON with schemas: valid cases carry full facts; violations are partial
    # (jsonschema and santhosh-tekuri/jsonschema describe them differently).
    for si, schema in enumerate(SCHEMAS):
        for pi, payload in enumerate(SCHEMA_PAYLOADS):
            r = json_case(payload, schema)
            if not r:
                continue
            _, f, has_errors = r
            args = {"format_name": "json", "payload": payload, "schema_json": schema}
            if has_errors:
                f["valid"] = False
                partial.append({"name": "schema%02d/payload%02d" % (si, pi), "args": args,
                                "valid": False, "code": "schema_violation", "details": f["details"]})
            else:
                add_full("schema%02d/payload%02d" % (si, pi), args, f)

    # YAML: snippets, plus dumps of random values in block and flow style.
    yaml_texts = list(YAML_SNIPPETS)
    for _ in range(150):
        v = rand_value(rng.randint(0, 4))
        yaml_texts.append(yaml.safe_dump(v, default_flow_style=rng.choice([False, True, None]), allow_unicode=rng.random() < 0.5))
    for k, text in enumerate(yaml_texts):
        r = yaml_case(text)
        if r is None:
            continue
        kind, f = r
        args = {"format_name": "yaml", "payload": text}
        if kind == "full":
            add_full("yaml/%03d" % k, args, f)
        else:
            partial.append(dict(name="yaml/%03d" % k, args=args, **f))

    # XML
    xml_texts = list(XML_SNIPPETS) + [rand_xml(rng.randint(0, 4)) for _ in range(120)]
    for k, text in enumerate(xml_texts):
        r = xml_case(text)
        if r is None:
            continue
        kind, f = r
        args = {"format_name": "xml", "payload": text}
        if kind == "full":
            add_full("xml/%03d" % k, args, f)
        else:
            partial.append(dict(name="xml/%03d" % k, args=args, **f))

    # CSV
    for k in range(150):
        dialect = rng.choice(list(DIALECTS))
        text = rand_csv(dialect)
        add_full("csv/%03d" % k, {"format_name": "csv", "payload": text, "csv_dialect": dialect}, csv_case(text, dialect))
    for k, text in enumerate(CSV_RAW):
        for dialect in ("comma", "semicolon"):
            add_full("csv/raw%02d_%s" % (k, dialect), {"format_name": "csv", "payload": text, "csv_dialect": dialect},
                     csv_case(text, dialect))

    # Hostile inputs, expected facts by the contract's rules.
    hostile = []
    deep = "[" * 30000 + "]" * 30000
    hostile.append(("json_nested_30000_deep", {"format_name": "json", "payload": deep},
                    facts("json", deep, False, [finding("depth_limit", "nesting deeper than 64 levels", 1, 65, "/0" * 64)], zero("json"))))
    wide = "[" + ",".join(["0"] * 10001) + "]"
    hostile.append(("json_10001_values", {"format_name": "json", "payload": wide},
                    facts("json", wide, False, [finding("node_limit", "document has more than 10000 values", 1, 20000, "/9999")], zero("json"))))
    multibyte = "\u00e9" * 40000
    multibyte = json.loads('"' + multibyte + '"')
    hostile.append(("payload_80000_bytes", {"format_name": "json", "payload": multibyte},
                    facts("json", multibyte, False, [finding("payload_too_large", "payload is 80000 UTF-8 bytes; the limit is 65536")], zero("json"))))
    rows = "a,b\n" * 1001
    hostile.append(("csv_1001_rows", {"format_name": "csv", "payload": rows, "csv_dialect": "comma"}, csv_case(rows, "comma")))
    field = "id,text\n1," + "x" * 9000 + "\n"
    hostile.append(("csv_9000_char_field", {"format_name": "csv", "payload": field, "csv_dialect": "comma"}, csv_case(field, "comma")))
    schema = '{"properties": {"a": {"$ref": "http://evil.example/s.json"}}}'
    hostile.append(("schema_with_ref", {"format_name": "json", "payload": '{"a": 1}', "schema_json": schema},
                    facts("json", '{"a": 1}', False, [finding("schema_ref_refused", "schema_json: $ref, $dynamicRef and $recursiveRef are refused (nothing is resolved)", None, None, "/properties/a/$ref")],
                          {"depth": 1, "nodes": 2}, schema)))
    laughs = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    hostile.append(("yaml_billion_laughs", {"format_name": "yaml", "payload": laughs}, yaml_case(laughs)[1]))
    tags = "cmd: !!python/object/apply:os.system [ls]\n"
    hostile.append(("yaml_python_tag", {"format_name": "yaml", "payload": tags}, yaml_case(tags)[1]))
    for name, args, f in hostile:
        add_full("hostile/" + name, args, f)
    ascii_big = "x" * 65537
    full.append({"name": "hostile/payload_65537_chars", "args": {"format_name": "json", "payload": ascii_big},
                 "error_code": "input_schema_invalid"})

    with open("tools/testdata/structured_validate/oracle_full.json", "w", encoding="utf-8") as fh:
        json.dump({"generator": "tools/testdata/oracle/gen_structured.py", "cases": full}, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    with open("internal/structured/testdata/oracle_partial.json", "w", encoding="utf-8") as fh:
        json.dump({"generator": "tools/testdata/oracle/gen_structured.py", "cases": partial}, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(len(full), "full cases,", len(partial), "partial cases")


if __name__ == "__main__":
    main()
