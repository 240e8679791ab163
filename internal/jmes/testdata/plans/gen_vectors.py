#!/usr/bin/env python3
"""Writes plan_dialect.json: JMESPath vectors for the Plans dialect (docs/plans.md).

The oracle is Python's jmespath (the reference for the standard functions)
with the reference implementation below of each function the Plans dialect
adds. Run with a python3 that has jmespath 1.x (pyenv 3.11 here):

    python3 internal/jmes/testdata/plans/gen_vectors.py
"""
import json
import os
import platform

import jmespath
from jmespath import functions


class InvalidValue(Exception):
    """The Go evaluator's invalid-value error."""


def substr(s, start, length=None):
    """Reference: the code points s[start:start+length] (all the rest
    without length); start and length are non-negative integers."""
    def as_int(v):
        if isinstance(v, float):
            if v != int(v):
                raise InvalidValue("not an integer")
            v = int(v)
        return v
    start = as_int(start)
    if start < 0:
        raise InvalidValue("negative start")
    if length is None:
        return s[start:]
    length = as_int(length)
    if length < 0:
        raise InvalidValue("negative length")
    return s[start:start + length]


class PlanFunctions(functions.Functions):
    """Python's jmespath functions plus substr, whose optional third
    argument a @signature cannot express (arity and types checked here,
    in the order of the standard functions: arity first)."""

    def call_function(self, function_name, resolved_args):
        if function_name != 'substr':
            return super().call_function(function_name, resolved_args)
        if not 2 <= len(resolved_args) <= 3:
            raise jmespath.exceptions.ArityError(3, len(resolved_args), 'substr')
        for arg, want in zip(resolved_args, ['string', 'number', 'number']):
            actual = self._type_name(arg)
            if actual != want:
                raise jmespath.exceptions.JMESPathTypeError('substr', arg, actual, [want])
        return substr(*resolved_args)

    @staticmethod
    def _type_name(v):
        if isinstance(v, bool):
            return 'boolean'
        if isinstance(v, (int, float)):
            return 'number'
        return {str: 'string', list: 'array', dict: 'object', type(None): 'null'}[type(v)]


OPTS = jmespath.Options(custom_functions=PlanFunctions())

DATA = {
    "params": {"when": "2026-12-24T18:00:00", "from": "Europe/Berlin", "n": 7, "words": ["a", "b", "c"]},
    "steps": {
        "conv": {"facts": {"target_datetime": "2026-12-25T02:00:00+09:00", "utc_instant": "2026-12-24T17:00:00Z"}},
        "m": {"facts": {"matches": [{"match": "2026-03-27", "start": 4}, {"match": "2027-01-01", "start": 40}], "count": 2}},
        "days": {"facts": {"count": 2, "items": [{"weekday_name": "Friday", "iso_week": 13}, {"weekday_name": "Friday", "iso_week": 53}]}},
    },
    "item": {"match": "2026-03-27", "start": 4},
    "u": "naïve ☃ 日本語",
}

EXPRESSIONS = [
    "substr(steps.conv.facts.target_datetime, `0`, `10`)",
    "substr(steps.conv.facts.target_datetime, `11`, `5`)",
    "substr(steps.conv.facts.target_datetime, `19`)",
    "substr(steps.conv.facts.target_datetime, `100`)",
    "substr(steps.conv.facts.target_datetime, `0`, `0`)",
    "substr(steps.conv.facts.target_datetime, `2.0`, `3.0`)",
    "substr(u, `2`, `5`)",
    "substr(u, `8`)",
    "substr('', `0`, `3`)",
    "substr(u, `-1`)",
    "substr(u, `0`, `-2`)",
    "substr(u, `1.5`)",
    "substr(`5`, `0`)",
    "substr(u, '1')",
    "substr(u)",
    "substr(u, `0`, `1`, `2`)",
    "steps.m.facts.matches[*].match",
    "steps.m.facts.matches[*].substr(match, `0`, `4`)",
    "steps.days.facts.items[*].weekday_name",
    "join(', ', steps.days.facts.items[*].weekday_name)",
    "join('-', params.words)",
    "to_string(params.n)",
    "to_string(steps.m.facts.count)",
    "to_number(substr(params.when, `0`, `4`))",
    "to_number(substr(params.when, `5`, `2`))",
    "to_number('x')",
    "{date: substr(steps.conv.facts.target_datetime, `0`, `10`), week: steps.days.facts.items[-1].iso_week}",
    "item.match",
    "length(steps.m.facts.matches)",
    "max_by(steps.m.facts.matches, &start).match",
    "steps.m.facts.matches[?start > `10`].match | [0]",
    "sum([params.n, steps.m.facts.count])",
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cases = []
    for expr in EXPRESSIONS:
        case = {"expression": expr}
        try:
            case["result"] = jmespath.search(expr, DATA, options=OPTS)
        except InvalidValue:
            case["error"] = "invalid-value"
        except jmespath.exceptions.ArityError:
            case["error"] = "invalid-arity"
        except jmespath.exceptions.VariadictArityError:
            case["error"] = "invalid-arity"
        except jmespath.exceptions.JMESPathTypeError:
            case["error"] = "invalid-type"
        except jmespath.exceptions.ParseError:
            case["error"] = "syntax"
        cases.append(case)
    doc = {"$comment": "written by gen_vectors.py (Python jmespath " + jmespath.__version__ + " + reference substr); do not edit",
           "generator": {"script": "internal/jmes/testdata/plans/gen_vectors.py", "python": platform.python_version(),
                         "jmespath": jmespath.__version__},
           "given": DATA, "cases": cases}
    with open(os.path.join(here, "plan_dialect.json"), "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
