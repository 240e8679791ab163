#!/usr/bin/env python3
"""Side-by-side vectors for structured_validate: the reference sidecar's own
answers, through refrunner.py, to
tools/testdata/reference/structured_validate/vectors.json (README.md here says
how to run it: pyenv's python3, with the library versions the reference pins).

Also writes, for internal/structured's tests:
  internal/structured/testdata/xml_namechars.json
      the characters expat accepts at the start and inside an element name.
  internal/structured/testdata/py_repr.json
      repr() of floats, ints, strings, lists and dicts, with their JSON text.
  internal/structured/testdata/py_printable.json
      the code points str.isprintable() accepts (repr escapes the others).
  internal/structured/testdata/xml_expat.json
      XML well-formedness as pyexpat (namespace processing on, as
      ElementTree's XMLParser sets it) reports it: ok, or the expat error
      string, line and 0-based column in characters; plus the reference's
      defusedxml answer for the same text.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refrunner  # noqa: E402

REPO = refrunner.ROOT
OUT_XML = os.path.join(REPO, "internal", "structured", "testdata", "xml_expat.json")
refrunner.load()
VERSIONS = refrunner.versions()
for lib, want in (("jsonschema", "4.26.0"), ("PyYAML", "6.0.3"), ("defusedxml", "0.7.1")):
    if VERSIONS[lib] != want:
        sys.exit(f"{lib} {VERSIONS[lib]} is not the reference's pinned {want}")
vectors = refrunner.Vectors("structured_validate", "tools/testdata/reference/gen_structured.py")


def reference(args):
    return refrunner.invoke("structured_validate", args)


rng = random.Random(1414)


def add(name, args):
    vectors.add(args, name)


def js(name, payload, schema=None):
    args = {"format_name": "json", "payload": payload}
    if schema is not None:
        args["schema_json"] = schema if isinstance(schema, str) else json.dumps(schema)
    add("json/" + name, args)


# ---------------------------------------------------------------- JSON text
JSON_TEXTS = {
    "empty_object": "{}", "empty_array": "[]", "scalar_int": "1", "scalar_str": '"x"',
    "scalar_null": "null", "scalar_true": "true", "nested": '{"a":[1,2,3]}',
    "nested2": '{"a": {"b": {"c": [true, false, null]}}, "d": "e"}',
    "dup_keys": '{"a": 1, "a": [1, 2, 3]}', "dup_keys2": '{"a": [1, 2], "b": 1, "a": 2}',
    "nan": "[NaN, Infinity, -Infinity]", "huge_float": "[1e400, -1e400, 1e-400]",
    "big_int": "123456789012345678901234567890", "int_4300": "7" * 4300, "int_4301": "7" * 4301,
    "neg_zero": "-0", "exp": "[1E5, 1e+5, 1.5e-5, 0.0]",
    "bom": "\ufeff{}", "lone_surrogate": '["\\ud800", "\\udc00x", "\\ud83d\\ude00"]',
    "escapes": '"\\u00e9\\n\\t\\"\\\\\\/"', "unicode": '{"é": "ü", "日本": ["語"]}',
    "ws": " \t\n\r[ 1 ,\n 2 ] \n", "empty": "", "only_ws": "  \n ",
    "err_trailing_comma": "[1, 2,]", "err_trailing_comma_obj": '{"a": 1,}',
    "err_single_quote": "{'a': 1}", "err_unterminated": '{"a": "b', "err_unclosed": "[1, [2, 3]",
    "err_extra": "[1] [2]", "err_extra2": "1 2", "err_leading_zero": "01", "err_plus": "+1",
    "err_dot": "1.", "err_dot2": ".5", "err_exp": "1e", "err_hex": "0x10", "err_ctrl": '"a\tb"',
    "err_ctrl_nl": '"a\nb"', "err_bad_escape": '"\\x"', "err_bad_u": '"\\u12"', "err_bad_u2": '"\\u12G4"',
    "err_colon": '{"a" 1}', "err_key": "{a: 1}", "err_comma": '{"a": 1 "b": 2}',
    "err_array_comma": "[1 2]", "err_true": "tru", "err_nul": "nul", "err_word": "hello",
    "err_multiline": '{\n  "a": 1,\n  "b": [1, 2\n  "c": 3\n}', "err_after_unicode": '["ééé", x]',
    "err_lone_minus": "-", "err_minus_word": "-Infinityx", "err_nan_lower": "nan",
    "err_close": "]", "err_brace": "}", "err_colon_only": ":", "err_unterminated_esc": '"abc\\',
    "err_bom_mid": '[1, \ufeff2]', "err_line3": '\n\n   ?', "err_crlf": '[\r\n1,\r\n?]',
    "err_u_end": '"\\u', "err_surrogate_bad": '"\\ud800\\u12"', "err_obj_empty_key": '{"": }',
    "tabs": '\t{"a":\t1}\t', "deep_ok": "[" * 64 + "]" * 64, "deep_65": "[" * 65 + "]" * 65,
    "deep_obj_65": '{"a":' * 65 + "1" + "}" * 65, "deep_70_unclosed": "[" * 70,
    "deep_500": "[" * 500 + "]" * 500, "deep_500_error": "[" * 500 + "x" + "]" * 500,
    "deep_983": "[" * 983 + "]" * 983, "deep_3000": "[" * 3000 + "]" * 3000,
    "deep_obj_3000": '{"a":' * 3000 + "1" + "}" * 3000, "deep_3000_unclosed": "[" * 3000,
    "deep_scalar_64": "[" * 63 + "1" + "]" * 63, "deep_obj_64": '{"a":' * 63 + "1" + "}" * 63,
    "deep_obj_32": '{"a":' * 32 + "1" + "}" * 32, "deep_obj_33": '{"a":' * 33 + "1" + "}" * 33,
    "nodes_10000": "[" + ",".join(["0"] * 9999) + "]", "nodes_10001": "[" + ",".join(["0"] * 10000) + "]",
    "nodes_obj": "{" + ",".join(f'"k{i}":0' for i in range(4999)) + "}",
    "nodes_obj_over": "{" + ",".join(f'"k{i}":0' for i in range(5000)) + "}",
    "nodes_dup_keys": "{" + ",".join('"k":0' for _ in range(6000)) + "}",
    "nodes_and_depth": "[" * 70 + ",".join(["0"] * 11000) + "]" * 70,
    "size_65536": '"' + "a" * 65534 + '"', "size_multibyte": '"' + "é" * 32767 + '"',
    "size_multibyte_over": '"' + "é" * 32768 + '"',
}
for name, text in JSON_TEXTS.items():
    js(name, text)


def rand_json(depth=0):
    r = rng.random()
    if depth > 3 or r < 0.35:
        return rng.choice([0, 1, -7, 2.5, 1e20, "x", "é", "", True, False, None, 12345678901234567890, "a b"])
    if r < 0.7:
        return [rand_json(depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["a", "b", "c", "é", "a/b", "~"]): rand_json(depth + 1) for _ in range(rng.randint(0, 4))}


for i in range(40):
    text = json.dumps(rand_json(), ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1, 2]))
    js(f"random{i:02d}", text)
    cut = rng.randint(0, max(0, len(text) - 1))
    js(f"random{i:02d}_cut", text[:cut])
    pos = rng.randint(0, len(text))
    js(f"random{i:02d}_insert", text[:pos] + rng.choice(["]", "}", ",", ":", "'", "x", "\x01", '"', "\\", " "]) + text[pos:])

# ------------------------------------------------------------ JSON schemas
SCHEMA_CASES = [
    # (schema, [payloads])
    ({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}},
     ['{"a": 1}', '{"a": 1.0}', '{"a": 1.5}', '{"a": "1"}', '{}', '[]', '{"a": true}', '{"a": null}', '{"a": 1e400}']),
    ({"type": ["string", "null"]}, ['"x"', "null", "1", "[]", "{}", "true"]),
    ({"type": "number"}, ["1", "1.5", "true", "NaN", '"1"', "-Infinity"]),
    ({"enum": [1, "a", None, [1, 2], {"a": 1}]}, ["1", "1.0", "true", '"a"', "null", "[1, 2]", "[1.0, 2]", '{"a": 1}', '{"a": true}', "2"]),
    ({"enum": [True, False]}, ["1", "0", "true", "false"]),
    ({"const": {"a": [1, "x"]}}, ['{"a": [1, "x"]}', '{"a": [1.0, "x"]}', '{"a": [true, "x"]}', '{"a": [1]}']),
    ({"const": 0}, ["0", "0.0", "-0", "-0.0", "false", "1"]),
    ({"minimum": 1, "maximum": 10}, ["0", "1", "10", "11", "10.5", "-1e400", "1e400", '"x"']),
    ({"exclusiveMinimum": 1.5, "exclusiveMaximum": 2}, ["1.5", "2", "1.75", "1", "3"]),
    ({"minimum": 9007199254740992.0}, ["9007199254740991", "9007199254740993", "9007199254740992"]),
    ({"maximum": 0.1}, ["0.1", "0.10000000000000001", "0.1000000000000001", "1e-400"]),
    ({"multipleOf": 3}, ["9", "10", "9.0", "9.5", "0", "-6", "1e20", "123456789012345678901234567891"]),
    ({"multipleOf": 0.1}, ["0.3", "0.7", "1", "1e300", "12345678901234567890123456789012345678901234567890"]),
    ({"multipleOf": 0.01}, ["1.23", "1.234", "100"]),
    ({"multipleOf": 1e-300}, ["1e300", "1"]),
    ({"multipleOf": 2.5}, ["5", "7.5", "6"]),
    ({"minLength": 2, "maxLength": 3}, ['"a"', '"ab"', '"abcd"', '"éé"', '"\\ud83d\\ude00"', '"\\ud800"', "1"]),
    ({"minLength": 1}, ['""', '"a"']),
    ({"maxLength": 0}, ['""', '"a"']),
    ({"pattern": "^[a-z]+$"}, ['"abc"', '"ABC"', '"ab1"', '""', "1"]),
    ({"pattern": "b"}, ['"abc"', '"xyz"']),
    ({"pattern": "\\d{3}"}, ['"12"', '"123"', '"١٢٣"']),
    ({"pattern": "(?i)é"}, ['"É"', '"e"']),
    ({"minItems": 2, "maxItems": 3}, ["[]", "[1]", "[1, 2]", "[1, 2, 3, 4]", '"ab"']),
    ({"minItems": 1}, ["[]"]), ({"maxItems": 0}, ["[1]", "[]"]),
    ({"uniqueItems": True}, ["[1, 2]", "[1, 1]", "[1, 1.0]", "[1, true]", "[0, false]", "[[1], [1]]", '[{"a": 1}, {"a": 1}]',
                             '[{"a": 1}, {"a": 2}]', '["a", "a"]', "[null, null]", "[[1], [true]]", "[1, \"1\"]", "[]"]),
    ({"uniqueItems": False}, ["[1, 1]"]),
    ({"items": {"type": "string"}}, ['["a", 1, "b", 2]', "[]", '"x"']),
    ({"items": False}, ["[]", "[1]", "[1, 2]"]),
    ({"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False}, ['[1, "a"]', '[1, "a", 3]', '["a"]', '[1, "a", 3, 4]']),
    ({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}, ['[1, "a", "b"]', '[1, 2]', '["x"]']),
    ({"contains": {"type": "string"}}, ["[1, 2]", '[1, "a"]', "[]", '"x"']),
    ({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}, ['["a"]', '["a", "b"]', '["a", "b", "c", "d"]', "[1]"]),
    ({"contains": {"type": "string"}, "minContains": 0}, ["[]", "[1]"]),
    ({"minProperties": 1, "maxProperties": 2}, ["{}", '{"a": 1}', '{"a": 1, "b": 2, "c": 3}']),
    ({"maxProperties": 0}, ['{"a": 1}']),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": False}, ['{"a": "x"}', '{"a": "x", "b": 1}', '{"b": 1, "c": 2, "a": 1}']),
    ({"additionalProperties": {"type": "integer"}}, ['{"a": 1, "b": "x", "c": "y"}']),
    ({"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": False}, ['{"x1": 1, "y": 2}', '{"x1": "a"}', '{"y": 1, "z": 2}']),
    ({"patternProperties": {"^x": {}, "^y": {}}, "additionalProperties": False}, ['{"z": 1}', '{"z": 1, "w": 2}']),
    ({"propertyNames": {"maxLength": 2}}, ['{"ab": 1, "abc": 2}', '{"a": 1}']),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, ['{"A": 1, "b": 2, "C": 3}']),
    ({"dependentRequired": {"a": ["b", "c"]}}, ['{"a": 1}', '{"a": 1, "b": 2, "c": 3}', '{"b": 1}']),
    ({"dependentSchemas": {"a": {"required": ["b"]}}}, ['{"a": 1}', '{"a": 1, "b": 2}']),
    ({"allOf": [{"type": "integer"}, {"minimum": 5}]}, ["3", "7", '"x"']),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, ["1", '"x"', "1.5", "[]"]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}]}, ["1", "-1", "1.5", "-1.5", '"x"']),
    ({"oneOf": [{"type": "integer"}, {"minimum": 0}, {"maximum": 100}]}, ["1", "-1.5"]),
    ({"not": {"type": "integer"}}, ["1", '"x"']),
    ({"not": {}}, ["1"]), ({"not": {"enum": [1, 2]}}, ["1", "3"]),
    ({"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}}, ["-1", "1", '"x"', "[]"]),
    ({"if": {"type": "integer"}, "then": {"minimum": 0}}, ["-1", "[]"]),
    ({"then": {"minimum": 0}}, ["-1"]),
    ({"unevaluatedProperties": False, "properties": {"a": {}}}, ['{"a": 1}', '{"a": 1, "b": 2}', '{"c": 1, "b": 2}']),
    ({"unevaluatedProperties": {"type": "string"}}, ['{"a": 1, "b": "x", "c": 2}']),
    ({"unevaluatedProperties": {"allOf": [{"type": "string"}, {"minLength": 9}]}}, ['{"a": 1, "b": "x"}']),
    ({"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False}, ['{"a": 1, "b": 2}']),
    ({"anyOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]}, {"properties": {"b": {}}}], "unevaluatedProperties": False},
     ['{"a": 1, "b": 2}', '{"a": "x", "b": 2}', '{"a": "x", "c": 1}']),
    ({"if": {"properties": {"a": {"const": 1}}}, "then": {"properties": {"b": {}}}, "unevaluatedProperties": False},
     ['{"a": 1, "b": 2}', '{"a": 2, "b": 2}']),
    ({"unevaluatedItems": False, "prefixItems": [{}]}, ["[1]", "[1, 2, 3]"]),
    ({"unevaluatedItems": {"type": "string"}}, ['[1, "a", 2]']),
    ({"contains": {"type": "string"}, "unevaluatedItems": False}, ['["a", 1]', '["a", "b"]']),
    ({"items": {"type": "integer"}, "unevaluatedItems": False}, ['[1, "a"]']),
    ({"properties": {"a": True, "b": False}}, ['{"a": 1, "b": 2}', '{"a": 1}']),
    (True, ["1", "[]"]), (False, ["1"]), ({}, ["1"]),
    ({"format": "email"}, ['"not an email"']), ({"format": "date"}, ['"2024-13-45"']),
    ({"properties": {"a": {"properties": {"b": {"items": {"type": "integer"}}}}}}, ['{"a": {"b": [1, "x", 2, "y"]}}']),
    ({"properties": {"a/b": {"type": "integer"}, "~c": {"type": "integer"}, "": {"type": "integer"}}},
     ['{"a/b": "x", "~c": "y", "": "z"}']),
    ({"items": {"type": "integer"}}, ["[" + ",".join(['"x"'] * 60) + "]"]),
    ({"items": {"type": "integer", "minimum": 100}}, ["[" + ",".join(str(i) for i in range(120)) + "]"]),
    ({"type": "object", "properties": {str(i): {"type": "string"} for i in range(60)}},
     ["{" + ",".join(f'"{i}": {i}' for i in range(60)) + "}"]),
    ({"allOf": [{"type": "string"}] * 3 + [{"minimum": 5}]}, ["1"]),
    ({"anyOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}, ["1"]),
    ({"type": "string"}, ['{"k": [' + ",".join(['"' + "x" * 40 + '"'] * 10) + "]}"]),
    ({"required": ["a", "b", "c"], "properties": {"a": {"type": "string"}}}, ['{"a": 1}']),
    ({"maxLength": 2}, ['"' + "ab" * 200 + '"']),
    ({"enum": ["a" * 400]}, ['"b"']),
    ({"minimum": 1e308}, ["1e308", "1.7976931348623157e308", "-1e-320"]),
    ({"maximum": 12345678901234567890}, ["12345678901234567891", "1.2345678901234567e19", "1e19"]),
    ({"properties": {"n": {"type": "integer"}}}, ['{"n": 1e2}', '{"n": 100.0}', '{"n": 1.000000000000000000001}']),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "integer"}, ["1", '"x"']),
    ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"}, ['"x"']),
    ({"$id": "https://example.com/s", "$defs": {"x": {"type": "string"}}, "$comment": "c", "title": "t", "type": "integer"}, ['"x"']),
    ({"x-unknown": 1, "type": "integer"}, ['"x"']),
    ({"dependencies": {"a": ["b"]}}, ['{"a": 1}']),
    ({"minContains": 2}, ["[1]"]),
    ({"additionalItems": False, "items": [{}]}, ["[1, 2]"]),
    ({"properties": {"a": {"$dynamicRef": "#"}}}, ['{"a": 1}']),
    ({"$recursiveRef": "#"}, ["1"]),
]
for i, (schema, payloads) in enumerate(SCHEMA_CASES):
    for j, p in enumerate(payloads):
        js(f"schema{i:03d}_{j}", p, schema)

SCHEMA_ERRORS = {
    "type_foo": {"type": "foo"}, "type_list_dup": {"type": ["string", "string"]}, "type_list_bad": {"type": ["string", 1]},
    "minimum_str": {"minimum": "x"}, "minLength_neg": {"minLength": -1}, "minLength_float": {"minLength": 1.5},
    "minLength_float_int": {"minLength": 2.0}, "required_int": {"required": [1]}, "required_str": {"required": "a"},
    "required_dup": {"required": ["a", "a"]}, "pattern_bad": {"pattern": "("}, "pattern_pcre": {"pattern": "(?<x>a)"},
    "pattern_lookahead": {"pattern": "a(?=b)"}, "pattern_backref": {"pattern": "(a)\\1"},
    "pattern_props_bad": {"patternProperties": {"[": {}}}, "multipleOf_zero": {"multipleOf": 0},
    "multipleOf_neg": {"multipleOf": -1}, "properties_list": {"properties": []}, "properties_int": {"properties": {"a": 5}},
    "items_list": {"items": [{}]}, "items_int": {"items": 1}, "enum_empty": {"enum": []}, "enum_str": {"enum": "a"},
    "allOf_empty": {"allOf": []}, "anyOf_obj": {"anyOf": {}}, "not_int": {"not": 1},
    "nested_bad": {"properties": {"a": {"properties": {"b": {"type": 7}}}}}, "two_bad": {"minimum": "x", "type": "foo"},
    "two_bad_rev": {"type": "foo", "minimum": "x"}, "defs_bad": {"$defs": {"a": {"type": 1}}}, "schema_int": {"$schema": 5},
    "id_int": {"$id": 5}, "anchor_bad": {"$anchor": "1x"}, "comment_int": {"$comment": 5},
    "dependentRequired_bad": {"dependentRequired": {"a": [1]}}, "uniqueItems_str": {"uniqueItems": "yes"},
    "format_int": {"format": 1}, "contentMediaType_int": {"contentMediaType": 1}, "deprecated_str": {"deprecated": "no"},
    "definitions_bad": {"definitions": {"a": 1}}, "dependencies_bad": {"dependencies": {"a": 1}},
    "vocab_bad": {"$vocabulary": {"x": "y"}}, "maxContains_neg": {"maxContains": -1},
    "exclusiveMinimum_bool": {"exclusiveMinimum": True}, "examples_obj": {"examples": {}},
}
for name, schema in SCHEMA_ERRORS.items():
    js("schema_error_" + name, "1", schema)
for name, text in {
    "syntax": '{"type": "string"', "syntax2": "{'a': 1}", "array_root": "[]", "bool_root": "true", "null_root": "null",
    "str_root": '"x"', "ref": '{"$ref": "#"}', "ref_nested": '{"properties": {"a": {"items": {"$ref": "https://example.com"}}}}',
    "ref_in_const": '{"const": {"$ref": 1}}', "ref_as_property": '{"properties": {"$ref": {"type": "string"}}}',
    "empty": "", "too_large": '{"description": "' + "x" * 32800 + '"}', "nan": '{"maximum": NaN}',
    "infinity": '{"minimum": Infinity}', "dup_keys": '{"type": "string", "type": "integer"}', "bom": '\ufeff{}',
    "deep": '{"not":' * 100 + "{}" + "}" * 100, "deep_items": '{"items":' * 40 + "{}" + "}" * 40,
    "big_int": '{"minimum": ' + "9" * 5000 + "}",
}.items():
    js("schema_text_" + name, "[1]", text)
js("schema_with_bad_payload", "[1,", {"type": "array"})
js("schema_bad_with_bad_payload", "[1,", {"type": "foo"})
js("schema_ref_with_bad_payload", "[1,", '{"$ref": "#"}')
js("schema_deep_payload", "[" * 70 + "]" * 70, {"type": "array"})
js("schema_many_errors", json.dumps([{"id": str(i), "tags": [i, "x"]} for i in range(30)]),
   {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"id": {"type": "integer"}, "tags": {"items": {"type": "string"}}}}})
js("schema_issue13_small", "[" + ",".join(["0"] * 10) + "]", {"items": {"anyOf": [{"not": {}}] * 50}})

# Random small schemas against random instances: breadth for the keyword logic.
KEYWORDS = ["type", "minimum", "maximum", "exclusiveMinimum", "multipleOf", "minLength", "maxLength", "pattern",
            "enum", "const", "items", "prefixItems", "contains", "minItems", "uniqueItems", "properties", "required",
            "additionalProperties", "propertyNames", "minProperties", "anyOf", "oneOf", "allOf", "not", "if"]


def rand_schema(depth=0):
    if depth > 2 or rng.random() < 0.15:
        return rng.choice([True, False, {}])
    s = {}
    for kw in rng.sample(KEYWORDS, rng.randint(1, 3)):
        if kw == "type":
            s[kw] = rng.choice(["string", "integer", "number", "array", "object", "null", "boolean", ["string", "integer"]])
        elif kw in ("minimum", "maximum", "exclusiveMinimum"):
            s[kw] = rng.choice([0, 1, 2.5, -3, 100])
        elif kw == "multipleOf":
            s[kw] = rng.choice([2, 0.5, 3, 0.1])
        elif kw in ("minLength", "maxLength", "minItems", "minProperties"):
            s[kw] = rng.randint(0, 3)
        elif kw == "pattern":
            s[kw] = rng.choice(["^a", "b$", "[0-9]", "^$", "é"])
        elif kw == "enum":
            s[kw] = rng.sample([1, "a", None, True, [1], {"a": 1}, 2.5, "b"], rng.randint(1, 3))
        elif kw == "const":
            s[kw] = rng.choice([1, "a", None, [1], {"a": 1}])
        elif kw in ("items", "contains", "additionalProperties", "propertyNames", "not"):
            s[kw] = rand_schema(depth + 1)
        elif kw == "prefixItems":
            s[kw] = [rand_schema(depth + 1) for _ in range(rng.randint(1, 2))]
        elif kw == "uniqueItems":
            s[kw] = rng.choice([True, False])
        elif kw == "properties":
            s[kw] = {k: rand_schema(depth + 1) for k in rng.sample(["a", "b", "c"], rng.randint(1, 2))}
        elif kw == "required":
            s[kw] = rng.sample(["a", "b", "c"], rng.randint(1, 2))
        elif kw in ("anyOf", "oneOf", "allOf"):
            s[kw] = [rand_schema(depth + 1) for _ in range(rng.randint(1, 3))]
        elif kw == "if":
            s["if"] = rand_schema(depth + 1)
            s[rng.choice(["then", "else"])] = rand_schema(depth + 1)
    return s


for i in range(150):
    schema = rand_schema()
    if isinstance(schema, bool):
        schema = {"not": schema}
    js(f"random_schema{i:03d}", json.dumps(rand_json()), schema)

# ------------------------------------------------------------------- YAML
YAML = {
    "map": "a: 1\nb: [1, 2]\n", "seq": "- 1\n- two\n- {a: b}\n", "scalar": "hello", "empty": "", "comment_only": "# c\n",
    "null_doc": "~", "nested_seq": "- - - 1\n", "flow": "{a: [1, {b: c}], d: e}", "block_scalar": "a: |\n  x\n  y\nb: >\n  z\n",
    "quoted": "a: 'x ''y'''\nb: \"\\u00e9\\n\"\n", "multi_doc": "a: 1\n---\nb: 2\n", "doc_start": "---\na: 1\n",
    "doc_start_end": "---\na: 1\n...\n", "doc_end_only": "...\n", "after_end": "a: 1\n...\nb: 2\n",
    "anchor": "a: &x 1\nb: *x\n", "anchor_only": "a: &x 1\n", "alias_only": "b: *x\n", "tag": "a: !!str 1\n",
    "tag_local": "a: !foo 1\n", "tag_verbatim": "a: !<tag:yaml.org,2002:str> 1\n", "directive_yaml": "%YAML 1.1\n---\na: 1\n",
    "directive_tag": "%TAG !e! tag:example.com,2000:\n---\na: 1\n", "anchor_in_flow": "[&a 1, *a]",
    "anchor_then_scan_error": "a: &x 1\nb: `\n", "anchor_then_parse_error": "a: &x 1\nb: [1\n",
    "anchor_like_text": "a: 'x &y *z !w'\n", "amp_plain": "a: b&c\n", "star_plain": "a: b*c\n", "bang_plain": "a: b!c\n",
    "dup_keys": "a: 1\na: 2\n", "dup_keys_types": "1: a\n1.0: b\ntrue: c\n", "dup_null": "~: a\nnull: b\n: c\n",
    "dup_hex": "a: 0x1F\n0x1F: b\n31: c\n", "dup_octal": "010: a\n8: b\n", "dup_bool": "yes: 1\nTrue: 2\non: 3\n",
    "dup_str_int": "'1': a\n1: b\n", "dup_float": "1e3: a\n1000.0: b\n1_000: c\n", "dup_sexagesimal": "1:30: a\n90: b\n",
    "dup_nan": ".nan: a\n.NaN: b\n", "dup_inf": ".inf: a\n.Inf: b\n", "dup_dates": "2024-01-01: a\n2024-1-1 00:00:00: b\n",
    "merge": "<<: {a: 1}\nb: 2\n", "merge_list": "<<: [{a: 1}, {b: 2}]\nc: 3\n", "merge_override": "a: 0\n<<: {a: 1, b: 2}\n",
    "merge_scalar": "<<: 1\n", "merge_nested": "x:\n  <<: {a: 1}\n  b: 2\n", "merge_dup": "<<: {a: 1}\n<<: {b: 1}\n",
    "value_key": "=: 1\n", "value_value": "a: =\n", "complex_key": "? [a]\n: 1\n", "complex_map_key": "? {a: 1}\n: 1\n",
    "flow_key": "{[a]: 1}", "bad_month": "d: 2024-13-45\n", "bad_day": "d: 2023-02-29\n", "bad_hour": "t: 2024-01-01T25:00:00\n",
    "good_ts": "t: 2024-01-01T23:59:59.123456789Z\n", "ts_tz": "t: 2024-01-01 10:00:00 +05:30\n", "bad_tz": "t: 2024-01-01T10:00:00+25:00\n",
    "year0": "d: 0000-01-01\n", "int_4301": "a: " + "7" * 4301 + "\n", "int_hex_long": "a: 0x" + "f" * 5000 + "\n",
    "int_underscore": "a: 1_000_000\n", "float_forms": "a: [1.5, .5, 1e5, 1.0e+5, .inf, -.Inf, .nan, 1:30.5]\n",
    "bool_forms": "[yes, No, ON, off, y, n, True]", "tab_indent": "a:\n\t- 1\n", "tab_value": "a:\t1\n", "tab_in_quoted": "a: 'x\ty'\n",
    "tab_in_block": "a: |\n  x\ty\n", "tab_comment": "a: 1 #\tc\n", "mapping_in_value": "a: b: c\n", "bad_indent": "a:\n  b: 1\n c: 2\n",
    "unclosed_flow": "a: [1, 2\n", "extra_bracket": "a: [1, 2]]\n", "unclosed_quote": "a: 'x\n", "unclosed_dquote": 'a: "x\n',
    "bad_escape": 'a: "\\q"\n', "backtick": "a: `x`\n", "at_sign": "a: @x\n", "percent_mid": "a: 1\n%YAML 1.1\n",
    "flow_indicator_plain": "a: ,x\n", "brace_plain": "- }x\n", "colon_in_flow": "{a:1}", "seq_in_map_bad": "a: 1\n- b\n",
    "key_no_value": "a\nb: 1\n", "long_key": "a" * 1025 + ": 1\n", "unicode": "é: ü\n日本: [語]\n", "bom": "\ufeffa: 1\n",
    "crlf": "a: 1\r\nb: 2\r\n", "cr_only": "a: 1\rb: 2\r", "nul": "a: \x00\n", "ctrl": "a: \x07\n", "nel": "a: 1\x85b: 2\n",
    "explicit_key": "? a\n: 1\n", "empty_value": "a:\nb:\n", "indentless_seq": "a:\n- 1\n- 2\n",
    "deep_flow_64": "[" * 63 + "1" + "]" * 63, "deep_flow_65": "[" * 64 + "1" + "]" * 64, "deep_flow_70": "[" * 70 + "]" * 70,
    "deep_flow_map": "{a: " * 40 + "1" + "}" * 40, "deep_block": "".join(" " * i + "a:\n" for i in range(70)) + " " * 70 + "1\n",
    "deep_block_seq": "- " * 70 + "1\n", "deep_flow_300": "[" * 300 + "]" * 300, "deep_flow_600": "[" * 600 + "]" * 600,
    "deep_flow_600_unclosed": "[" * 600, "deep_block_seq_600": "- " * 600 + "1\n",
    "nodes_10000": "".join("- 0\n" for _ in range(9999)), "nodes_10001": "".join("- 0\n" for _ in range(10000)),
    "nodes_map": "".join(f"k{i}: 0\n" for i in range(4999)), "nodes_map_over": "".join(f"k{i}: 0\n" for i in range(5000)),
    "nodes_flow": "[" + ",".join(["0"] * 10000) + "]", "nodes_and_depth": "[" * 70 + ",".join(["0"] * 11000) + "]" * 70,
    "nodes_dup": "".join("k: 0\n" for _ in range(6000)),
}
for name, text in YAML.items():
    add("yaml/" + name, {"format_name": "yaml", "payload": text})


def to_yaml(v, indent=0):
    pad = " " * indent
    if isinstance(v, dict) and v:
        return "".join(f"{pad}{k}:" + ("\n" + to_yaml(x, indent + 2) if isinstance(x, (dict, list)) and x else " " + to_yaml(x, 0).strip() + "\n") for k, x in v.items())
    if isinstance(v, list) and v:
        return "".join(f"{pad}-" + ("\n" + to_yaml(x, indent + 2) if isinstance(x, (dict, list)) and x else " " + to_yaml(x, 0).strip() + "\n") for x in v)
    return pad + json.dumps(v, ensure_ascii=False) + "\n"


for i in range(40):
    text = to_yaml(rand_json())
    add(f"yaml/random{i:02d}", {"format_name": "yaml", "payload": text})
    pos = rng.randint(0, len(text))
    add(f"yaml/random{i:02d}_insert", {"format_name": "yaml", "payload": text[:pos] + rng.choice(["]", "}", ":", "'", "\t", "- ", "&", "*", "!", "%", "@", "`", "\n "]) + text[pos:]})

# -------------------------------------------------------------------- XML
XML = [
    '<a/>', '<a>text</a>', '<a x="1" y=\'2\'><b/><c>t</c></a>', '<a x="1"y="2"/>', '<a x="1" x="2"/>',
    '<?xml version="1.0"?><a/>', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>', '<?xml versio="1.0"?><a/>',
    '<?xml version="1.0" standalone="maybe"?><a/>', '<?xml version="1.0" standalone="yes" encoding="utf-8"?><a/>',
    '<?xml encoding="utf-8"?><a/>', '<?xml version="1.1"?><a/>', '<?xml version="2.0"?><a/>', '<?xml version=\'1.0\'?><a/>',
    '<?xml version="1.0" encoding="latin-1"?><a>é</a>', '<?xml version="1.0" encoding="utf-16"?><a/>',
    '<?xml version="1.0" encoding="bogus"?><a/>', '<?xml version="1.0" encoding=""?><a/>', '<?xml version="1.0"encoding="utf-8"?><a/>',
    '<?xml  version = "1.0" ?><a/>', '<?xml version="1.0" ?><a/>', '<?xml?><a/>', '<?xml version="1.0"', ' <?xml version="1.0"?><a/>',
    '\n<?xml version="1.0"?><a/>', '<a/><?xml version="1.0"?>', '<a><?xml version="1.0"?></a>', '<?XML version="1.0"?><a/>',
    '<?xml-stylesheet href="x"?><a/>', '<?pi data?><a/>', '<a><?pi?></a>', '<?pi?>', '<?xmlfoo?><a/>',
    '<a xmlns:xmlns="x"/>', '<a xmlns:p=""/>', '<a xmlns=""/>', '<a xmlns="urn:x"><b xmlns=""/></a>', '<p:a xmlns:p="urn:p"/>',
    '<p:a/>', '<a p:x="1"/>', '<a xmlns:p="urn:p" p:x="1" p:x="2"/>', '<a xmlns:p="urn:p" xmlns:q="urn:p" p:x="1" q:x="2"/>',
    '<a xmlns:xml="http://www.w3.org/XML/1998/namespace"/>', '<a xmlns:xml="urn:x"/>', '<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>',
    '<a xmlns:p="http://www.w3.org/2000/xmlns/"/>', '<a xmlns="http://www.w3.org/2000/xmlns/"/>', '<a xml:lang="en"/>', '<xml:a/>',
    '<a:b:c xmlns:a="urn:a"/>', '<:a/>', '<a:/>', '<a xmlns:="urn:x"/>', '<xmlns:a/>', '<a xmlns:p="urn:p"><p:b/></a><p:c/>',
    '<a>&#xD800;</a>', '<a>&#0;</a>', '<a>&#x110000;</a>', '<a>&#xFFFE;</a>', '<a>&#9;&#xA;&#65;</a>', '<a>&#x1F600;</a>',
    '<a>&#;</a>', '<a>&#x;</a>', '<a>&#12a;</a>', '<a>&lt;&gt;&amp;&quot;&apos;</a>', '<a>&foo;</a>', '<a>&amp</a>', '<a>& b</a>',
    '<a x="&foo;"/>', '<a x="&#0;"/>', '<a x="a<b"/>', '<a x="a>b"/>', '<a x="1\n2\t3"/>', "<a x='\"'/>",
    '<a>\x01</a>', '<a>\x0b</a>', '<a>\ufffe</a>', '<a>\uffff</a>', '<a>\U0001F600</a>', '<a>\ud7ff\ue000</a>', '<a\x01/>',
    '<a>]]></a>', '<a>]]</a>', '<a><![CDATA[x<y]]></a>', '<a><![CDATA[x</a>', '<![CDATA[x]]><a/>', '<a><![cdata[x]]></a>',
    '<a><!-- c --></a>', '<!-- c --><a/>', '<a/><!-- c -->', '<a><!-- a--b --></a>', '<a><!-- a ---></a>', '<a><!----></a>',
    '<a><!- c --></a>', '<a><!-- c </a>', '<!DOCTYPE a><a/>', '<!doctype a><a/>', '<!ENTITY x "y"><a/>', '<a><!ENTITY x "y"></a>',
    '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="x"/>', '<a>XInclude</a>', '<a href="xinclude"/>',
    '<a><!ELEMENT a ANY></a>', '<!ELEMENT a ANY><a/>', '<!ATTLIST a x CDATA #IMPLIED><a/>', '<a><!x></a>',
    '', ' ', '\n\n', 'text', '<a>', '<a></b>', '<a><b></a></b>', '</a>', '<a/></a>', '<a/><b/>', '<a/>text', '<a/> \n ',
    'text<a/>', '<a/>\n\n  <b/>', '<a>\n<b>\n</a>', '<a', '<a x', '<a x=', '<a x="1', '<a x="1"', '<a x=1/>', '<a x = "1" />',
    '<a =""/>', '<1a/>', '<a-b.c_d/>', '<-a/>', '<.a/>', '<é/>', '<a\u00b7b/>', '<a\u0300/>', '<\u0300a/>', '<a\u037e/>',
    '<日本/>', '<a\u2070/>', '<a\U00010000/>', '< a/>', '<a >x</a >', '<a></ a>', '<a/ >', '<a></a b>', '<a>x</a\n>',
    '\ufeff<a/>', '\ufeff\ufeff<a/>', '<a>\ufeff</a>', '<é>ééé<b/></é><c/>', '<a x="é" y="ü"/>', '<a>é\n\U0001F600é<b x=></a>',
    '<a>\r\n<b/>\r<c/>\n</a>', '<a>\r\n\r\n</a><b/>', '<a>\t</a>', '<a\tx="1"\ny="2"\r\n/>', '<a\u00a0x="1"/>',
    '<a>' * 64 + '</a>' * 64, '<a>' * 65 + '</a>' * 65, '<a>' * 3000 + '</a>' * 3000, '<a>' * 3000,
    '<r>' + '<a/>' * 9999 + '</r>', '<r>' + '<a/>' * 10000 + '</r>', '<r ' + ' '.join(f'a{i}="1"' for i in range(3000)) + '/>',
    '<r>' + '<a/>' * 12000 + '</r', '<a>' + '&lt;' * 5000 + '</a>', '<a>' + '&#65;' * 5000 + '</a>',
    '<a xmlns:p="urn:p"><b xmlns:p="urn:q"><p:c/></b><p:d/></a>', '<a xmlns:p="urn:p"><b><p:c xmlns:p=""/></b></a>',
    '<a><b xmlns:p="urn:p"/><p:c/></a>', '<a b:c="1" xmlns:b="urn:b"/>', '<a xmlns:b="urn:b" b:c="1" c="2"/>',
    '<a xmlns="urn:a" xmlns="urn:b"/>', '<a xmlns:p="urn:a" xmlns:p="urn:b"/>', '<a xmlns:p="1:2"/>', '<a xmlns="&lt;"/>',
    '<a x="1" xmlns:x="urn:x" x:y="2"/>', '<xmlns/>', '<a xmlns/>', '<a xmlns="urn:a"/>',
    '<?xml version="1.0"?>\n<!-- c -->\n<?pi x?>\n<a/>\n<!-- d -->\n<?pi y?>\n', '<?xml version="1.0"?><?xml version="1.0"?><a/>',
    '<a>&#x41;&#65;&#x00041;</a>', '<a>&#xd;&#x20;</a>', '<a x="&#x9;&#xA;&#xD;"/>', '<a>&#x10FFFF;</a>', '<a>&#xFFFF;</a>',
    '<a>&#99999999999999999999;</a>', '<a>&#-1;</a>', '<a>&lt</a>', '<a>&LT;</a>', '<a>&#X41;</a>',
    '<a><![CDATA[]]]]><![CDATA[>]]></a>', '<a><![CDATA[\x01]]></a>', '<a><!--\x01--></a>', '<a x="\x01"/>', '<?pi \x01?><a/>',
    '<a>\x7f\x80\x9f</a>', '<a>\ud7ff</a>', '<a>\ufdd0</a>',
]
for i, text in enumerate(XML):
    add(f"xml/case{i:03d}", {"format_name": "xml", "payload": text})

# -------------------------------------------------------------------- CSV
CSV = {
    "simple": ("a,b\n1,2\n", "comma"), "no_newline": ("a,b\n1,2", "comma"), "crlf": ("a,b\r\n1,2\r\n", "comma"),
    "cr": ("a,b\r1,2\r", "comma"), "mixed_eol": ("a,b\r\n1,2\r3,4\n", "comma"), "empty": ("", "comma"),
    "only_newline": ("\n", "comma"), "blank_lines": ("a,b\n\n1,2\n\n", "comma"), "leading_blank": ("\na,b\n", "comma"),
    "ragged": ("a,b,c\n1,2\n1,2,3,4\n", "comma"), "ragged_many": ("a,b\n" + "1\n" * 60, "comma"),
    "quoted": ('"a,b","c""d"\n"e\nf",g\n', "comma"), "quote_in_unquoted": ('a"b,c\n', "comma"),
    "quote_after_quoted": ('"a"b,c\n', "comma"), "quote_space_after": ('"a" ,b\n', "comma"), "unclosed_quote": ('a,"b\n', "comma"),
    "unclosed_quote_eof": ('a,"b', "comma"), "unclosed_quote_multiline": ('a,b\n1,"2\n3\n4\n', "comma"),
    "quote_then_eol": ('"a"\n', "comma"), "empty_quoted": ('"",""\n', "comma"), "quote_only": ('"', "comma"),
    "quote_quote_eof": ('""', "comma"), "triple_quote": ('"""",a\n', "comma"), "nul": ("a\x00b,c\n", "comma"),
    "semicolon": ("a;b\n1;2\n", "semicolon"), "semicolon_with_comma": ("a,b;c\n", "semicolon"), "tab": ("a\tb\n1\t2\n", "tab"),
    "tab_quote_error": ('"a"x\tb\n', "tab"), "pipe": ("a|b\n1|2\n", "pipe"), "pipe_quote_error": ('"a"x|b\n', "pipe"),
    "formula": ("a,b\n=1+2,-3\n", "comma"), "formula_all": ("=a,+b,-c,@d,e\n", "comma"), "formula_space": (" =a,\t+b, -1\n", "comma"),
    "formula_unicode_space": ("\u00a0=a,\u3000@b,\u2028-c\n", "comma"), "formula_quoted": ('"=a","@b"\n', "comma"),
    "formula_numbers": ("-1,+2,-1.5e3\n", "comma"), "spaces": (" a , b \n", "comma"), "unicode": ("é,ü\n日本,語\n", "comma"),
    "bom": ("\ufeffa,b\n", "comma"), "trailing_delim": ("a,b,\n1,2,\n", "comma"), "only_delims": (",,,\n", "comma"),
    "rows_1000": ("a\n" * 1000, "comma"), "rows_1001": ("a\n" * 1001, "comma"), "rows_1001_ragged": ("a,b\n1\n" + "a\n" * 999, "comma"),
    "rows_ragged_then_limit": ("a,b\n" + "1\n" * 1000, "comma"), "blank_rows_1001": ("\n" * 1001, "comma"),
    "cols_100": (",".join(["x"] * 100) + "\n", "comma"), "cols_101": (",".join(["x"] * 101) + "\n", "comma"),
    "cols_101_second": ("a\n" + ",".join(["x"] * 101) + "\n", "comma"), "field_8192": ("x" * 8192 + "\n", "comma"),
    "field_8193": ("x" * 8193 + "\n", "comma"), "field_8193_multibyte": ("é" * 8193 + "\n", "comma"),
    "field_quoted_8193": ('"' + "x" * 8193 + '"\n', "comma"), "ragged_then_error": ("a,b\n1\n\"x\"y,2\n", "comma"),
    "ragged_then_unclosed": ("a,b\n1\n\"x", "comma"), "first_row_empty": ("\na,b\n1\n", "comma"),
    "quoted_newline_rows": ('"a\nb\nc",d\ne,f\n', "comma"), "quoted_crlf": ('"a\r\nb",c\r\n', "comma"),
    "cr_in_quoted": ('"a\rb",c\n', "comma"), "delim_after_quote_eol": ('"a",\n', "comma"),
    "many_ragged_60": ("a,b,c\n" + "".join("1\n" if i % 2 else "1,2,3,4\n" for i in range(80)), "comma"),
    "quote_error_line": ("a\nb\nc\n\"d\"e\n", "comma"), "quote_error_after_multiline": ('"a\nb"x\n', "comma"),
    "escape_backslash": ('a\\,b\n', "comma"), "quoted_delim_tab": ('"a\tb"\tc\n', "tab"),
}
for name, (text, dialect) in CSV.items():
    add("csv/" + name, {"format_name": "csv", "payload": text, "csv_dialect": dialect})

# Messages that share a long prefix (the instance's repr) and differ after
# 300 characters: the reference sorts full messages, then cuts them.
BIG = json.dumps({f"key{i:03d}": "v" * 20 for i in range(40)})
js("sort_long_prefix", BIG, {"allOf": [{"type": "string"}, {"type": "number"}, {"minProperties": 100},
                                       {"maxProperties": 1}, {"not": {}}, {"type": "array"}, {"const": 1}]})
js("sort_many_paths", json.dumps([[i] * 3 for i in range(40)]), {"items": {"items": {"type": "string"}, "maxItems": 2}})
js("surrogate_key_path", '{"\\ud800": 1}', {"additionalProperties": {"type": "string"}})
js("surrogate_key_message", '{"\\ud800": 1}', {"additionalProperties": False})
js("deep_schema_not_150", "1", '{"not":' * 150 + "{}" + "}" * 150)
js("deep_schema_props_120", '{"a": 1}', '{"properties":{"a":' * 120 + "{}" + "}}" * 120)
js("nan_multipleof_float", "NaN", {"multipleOf": 0.5})
js("inf_multipleof_float", "Infinity", {"multipleOf": 0.5})
js("inf_multipleof_int", "Infinity", {"multipleOf": 2})
js("huge_int_multipleof_float", "1" + "0" * 400, {"multipleOf": 0.5})
js("nan_enum", "NaN", '{"enum": [NaN]}')
js("nan_unique", "[NaN, NaN]", {"uniqueItems": True})
js("joined_pattern_error", '{"z": 1}', {"patternProperties": {"(?P<n>a)": {}, "(?P<n>b)": {}}, "additionalProperties": False})
js("joined_pattern_flags", '{"z": 1}', {"patternProperties": {"a": {}, "(?i)b": {}}, "additionalProperties": False})
js("subschema_draft7", '{"a": [1, 2]}', {"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}}})
js("subschema_2020", '{"a": 1}', {"properties": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}}})
js("two_invalid_subschemas", "1", {"properties": {"a": 5, "b": 6}})
js("unevaluated_nested", '{"a": {"b": 1, "c": 2}, "d": 3}',
   {"properties": {"a": {"properties": {"b": {}}, "unevaluatedProperties": False}}, "unevaluatedProperties": {"type": "string"}})
js("subschema_draft7_semantics", '{"a": [1]}',
   {"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "string"}]}}})
# 50 findings of 300-character messages and paths: over the reference's
# max_result_chars (32768), so the reference answers tool_result_too_large.
js("result_too_large", json.dumps({f"{i:02d}" + "k" * 288: "v" * 290 for i in range(60)}),
   {"additionalProperties": {"type": "integer"}})
add("xml/ns_separator_uri", {"format_name": "xml", "payload": '<a xmlns:p="a}b"/>'})
add("xml/ns_separator_default", {"format_name": "xml", "payload": '<a xmlns="a}b"/>'})
add("xml/decl_name_slash", {"format_name": "xml", "payload": "<!a/>"})

# ----------------------------------------------------------------- examples
# The contract's examples, so that their facts are the reference's.
add("example/json_schema", {"format_name": "json", "payload": '{"a": 1}',
                            "schema_json": '{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}'})
add("example/json_schema_error", {"format_name": "json", "payload": '{"a": "1"}',
                                  "schema_json": '{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}'})
add("example/json_syntax", {"format_name": "json", "payload": "[1, [2, 3]"})
add("example/csv_ragged_formula", {"format_name": "csv", "payload": "a,b\n=1+2,-3\n4\n", "csv_dialect": "comma"})
add("example/yaml_anchor", {"format_name": "yaml", "payload": "a: &x 1\nb: *x\n"})
add("example/xml_attributes", {"format_name": "xml", "payload": '<a x="1"y="2"/>'})

# ---------------------------------------------------------------- arguments
add("args/csv_no_dialect", {"format_name": "csv", "payload": "a,b\n"})
add("args/csv_null_dialect", {"format_name": "csv", "payload": "a,b\n", "csv_dialect": None})
add("args/yaml_schema", {"format_name": "yaml", "payload": "a: 1", "schema_json": "{}"})
add("args/xml_schema", {"format_name": "xml", "payload": "<a/>", "schema_json": "{}"})
add("args/csv_schema", {"format_name": "csv", "payload": "a", "schema_json": "{}", "csv_dialect": "comma"})
add("args/json_null_schema", {"format_name": "json", "payload": "1", "schema_json": None})
add("args/json_dialect", {"format_name": "json", "payload": "1", "csv_dialect": "comma"})
add("args/payload_bytes_over", {"format_name": "yaml", "payload": "é" * 32769})
add("args/payload_bytes_over_csv_nodialect", {"format_name": "csv", "payload": "é" * 32769})
add("args/payload_bytes_over_schema_yaml", {"format_name": "yaml", "payload": "é" * 32769, "schema_json": "{}"})
add("args/schema_bytes_over", {"format_name": "json", "payload": "1", "schema_json": '"' + "é" * 16400 + '"'})
add("args/schema_bytes_over_bad_payload", {"format_name": "json", "payload": "[", "schema_json": '"' + "é" * 16400 + '"'})
add("args/unknown_format", {"format_name": "toml", "payload": "a = 1"})
add("args/payload_chars_over", {"format_name": "json", "payload": "1" * 65537})


# ---------------------------------------------------------- expat vectors
def expat_case(text):
    """pyexpat with namespace processing, as ElementTree's XMLParser runs it."""
    import pyexpat
    p = pyexpat.ParserCreate(None, "}")
    p.buffer_text = 1
    p.ordered_attributes = 1
    p.StartElementHandler = lambda *a: None
    p.DefaultHandlerExpand = lambda *a: None
    try:
        p.Parse(text, True)
        out = {"ok": True}
    except pyexpat.ExpatError as e:
        out = {"ok": False, "error": pyexpat.ErrorString(e.code), "line": e.lineno, "column": e.offset}
    ref = reference({"format_name": "xml", "payload": text})
    out["reference"] = ref
    return out


xml_vectors = []
for text in XML:
    lowered = text.casefold()
    if any(t in lowered for t in ("<!doctype", "<!entity", "<xi:include", "xinclude")):
        continue
    v = {"xml": text}
    v.update(expat_case(text))
    xml_vectors.append(v)
# Single-character probes at three places: every ASCII character and a
# selection of non-ASCII ones, in a name, in content and in an attribute value.
PROBES = [chr(c) for c in range(0x80)] + ["\u00a0", "\u00b7", "\u0300", "\u037e", "\u2028", "\u200c", "\u3000", "\ud7ff",
                                          "\ue000", "\ufdd0", "\ufffd", "\ufffe", "\uffff", "\U00010000", "\U000effff"]
for ch in PROBES:
    for tmpl in ("<a{}b/>", "<a>{}</a>", '<a x="{}"/>', "<{}a/>", "<a>&#{};</a>", "<?xml version=\"1.0\"{}?><a/>"):
        if tmpl == "<a>&#{};</a>":
            if not ch.isascii():
                continue
        text = tmpl.format(ch)
        v = {"xml": text}
        v.update(expat_case(text))
        xml_vectors.append(v)
# Tokens outside the root element (the prolog and the epilog): names with and
# without a colon where expat reads a prefixed name or a name token, names cut
# off by the end, and the characters that end or spoil such a token, each alone,
# before and after a root element, with and without space.
OUTSIDE = ['a', 'a:', 'a:b', ':', ':a', 'a::b', 'a:b:c', '1', '1:a', 'a:1', 'a+', 'a:b+', 'a:+', '1+', 'a*', 'a:?',
           '-a', '.a', '\u00e9:b', 'a:\u00e9', '"x"', 'a b', 'a:b c', 'a:-', 'a:.', '::', 'a:<', ':+', 'a:b)', 'a:b>',
           'a|', 'a:%', 'p:x xmlns:p="urn:p" !:attr="\u00e9">']
for tok in OUTSIDE:
    for text in (tok, tok + '<r/>', '<r/>' + tok, tok + ' <r/>', '<r/> ' + tok, '<r/>' + tok + ' ', tok + '\n<r/>'):
        v = {"xml": text}
        v.update(expat_case(text))
        xml_vectors.append(v)
for n in [0, 9, 10, 13, 31, 32, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0x110000]:
    for text in (f"<a>&#{n};</a>", f"<a>&#x{n:X};</a>", f'<a x="&#x{n:x};"/>'):
        v = {"xml": text}
        v.update(expat_case(text))
        xml_vectors.append(v)



def expat_ok(text):
    import pyexpat
    p = pyexpat.ParserCreate(None, "}")
    try:
        p.Parse(text, True)
        return True
    except pyexpat.ExpatError:
        return False


def bmp_ranges(pred):
    """Inclusive [lo, hi] ranges of BMP code points (surrogates excluded) where pred holds."""
    out, start = [], None
    for c in range(0x10001):
        v = c < 0x10000 and not 0xD800 <= c <= 0xDFFF and pred(chr(c))
        if v and start is None:
            start = c
        if not v and start is not None:
            out.append([start, c - 1])
            start = None
    return out


# Which characters expat takes as the first and as a later character of an
# element name (namespace processing on, so ':' is neither; whitespace after
# the name is valid XML and excluded here).
NAME_CHARS = {
    "start": bmp_ranges(lambda ch: expat_ok("<" + ch + "/>")),
    "name": bmp_ranges(lambda ch: ch not in " \t\r\n" and expat_ok("<a" + ch + "/>")),
}
# str.isprintable() of every code point (Python's repr escapes the others).
PRINTABLE = []
_start = None
for _c in range(0x110001):
    _v = _c < 0x110000 and chr(_c).isprintable()
    if _v and _start is None:
        _start = _c
    if not _v and _start is not None:
        PRINTABLE.append([_start, _c - 1])
        _start = None

# repr() of values that appear in jsonschema messages.
REPR_VALUES = [0.1, 1e16, 1e15, 123456789.0, 1e-05, 0.0001, -0.0, 1.5e300, 5e-324, 2.5, 100.0, 1e22, 1.7976931348623157e308,
               float("inf"), float("-inf"), float("nan"), 12345678901234567890, -7, True, None, "", "a'b", 'a"b', "a'\"b",
               "\\", "\t\n\r\x00\x1f\x7f\x80\xa0\xad", "\u2028\u200b\ufeff\uffff", "\U0001F600\U000E0001\U0010FFFF",
               "\ud800x", "é日本", [1, "a", [None, {}]], {"k": [1.0, False], "é": {}}]
for _i in range(200):
    REPR_VALUES.append(rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30))
    REPR_VALUES.append(rng.getrandbits(64) / 2 ** rng.randint(0, 80))
REPR_CASES = [{"json": json.dumps(v, allow_nan=True), "repr": repr(v)} for v in REPR_VALUES]

header = {"generator": "tools/testdata/reference/gen_structured.py", "source": "moe-sovereign server.py structured_validate via execute_tool (Apache-2.0)", "versions": VERSIONS}
vectors.write()
with open(OUT_XML, "w", encoding="utf-8") as f:
    json.dump(dict(header, cases=xml_vectors), f, ensure_ascii=False, indent=0)
    f.write("\n")
with open(os.path.join(REPO, "internal", "structured", "testdata", "xml_namechars.json"), "w", encoding="utf-8") as f:
    json.dump(dict(header, **NAME_CHARS), f)
    f.write("\n")
with open(os.path.join(REPO, "internal", "structured", "testdata", "py_repr.json"), "w", encoding="utf-8") as f:
    json.dump(dict(header, cases=REPR_CASES), f, ensure_ascii=False, indent=0)
    f.write("\n")
with open(os.path.join(REPO, "internal", "structured", "testdata", "py_printable.json"), "w", encoding="utf-8") as f:
    json.dump(dict(header, ranges=PRINTABLE), f)
    f.write("\n")
print(f"{len(xml_vectors)} expat cases")
