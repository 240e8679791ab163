#!/usr/bin/env python3
"""Oracle for generate_file: expected facts computed from the spec, not from our code.

- md: the file is the Markdown content exactly as given (UTF-8), so its bytes,
  sha256 and content-addressed name follow from hashlib alone.
- csv: the first table's cells (written out here by hand from the Markdown) as
  RFC 4180 CSV via Python's csv module (QUOTE_MINIMAL, CRLF), after a UTF-8 BOM.
- csv formula cells: neutralized as OWASP recommends (a leading single quote
  for cells starting with = + - @ tab CR that are not plain numbers), with the
  warning csv_formula_neutralized.
- legacy KB text: Python's f"{n/1024:.1f}" as the reference prints it.

Writes tools/testdata/generate_file/oracle_cases.json (golden cases, args + facts)
and internal/filestore/testdata/oracle_kb.json (sizes -> KB strings).
Run: python3 tools/testdata/oracle/gen_generate_file.py
"""
import csv
import hashlib
import re
import io
import json
import os
import platform

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "generate_file")

MEDIA = {
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
}


def facts(data: bytes, base: str, fmt: str) -> dict:
    sha = hashlib.sha256(data).hexdigest()
    name = f"{sha[:12]}_{base}.{fmt}"
    return {
        "filename": name,
        "format": fmt,
        "bytes": len(data),
        "sha256": sha,
        "download_path": "/downloads/" + name,
        "media_type": MEDIA[fmt],
    }


def csv_bytes(rows) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")
    for r in rows:
        w.writerow(r)
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


cases = []

md1 = "# Bericht\n\nGrüße aus Köln: **fett** und *kursiv*.\n"
cases.append({"name": "md_default_filename", "args": {"content": md1, "format": "md"},
              "facts": facts(md1.encode(), "output", "md")})
cases.append({"name": "markdown_alias", "args": {"content": md1, "format": "markdown", "filename": "Bericht Q3"},
              "facts": facts(md1.encode(), "Bericht_Q3", "md")})
# Sanitizer: umlauts transliterated, '/' and spaces become '_', a trailing
# ".md" (the format's own extension) dropped, leading dots trimmed.
cases.append({"name": "md_sanitized_filename", "args": {"content": "x", "format": "md", "filename": "../Über uns/plan.md"},
              "facts": facts(b"x", "Ueber_uns_plan", "md")})
md_cjk = "中文 – 日本語 – 한국어\n"
cases.append({"name": "md_cjk_bytes", "args": {"content": md_cjk, "format": "md", "filename": "cjk"},
              "facts": facts(md_cjk.encode(), "cjk", "md")})
md_empty = ""
cases.append({"name": "md_empty", "args": {"content": md_empty, "format": "md", "filename": "empty"},
              "facts": facts(b"", "empty", "md")})

table = "# Umsatz\n\n| Region | Umsatz | Notiz |\n|---|---:|---|\n| Nord | 1234.5 | gut, \"sehr\" |\n| Süd | -42 | **fett** |\n\n| second | table |\n|---|---|\n| x | y |\n"
rows = [["Region", "Umsatz", "Notiz"], ["Nord", "1234.5", 'gut, "sehr"'], ["Süd", "-42", "fett"]]
cases.append({"name": "csv_first_table", "args": {"content": table, "format": "csv", "filename": "umsatz.csv"},
              "facts": facts(csv_bytes(rows), "umsatz", "csv")})
table2 = "| a | b |\n|---|---|\n| 1 | 2 |\n"
cases.append({"name": "csv_minimal", "args": {"content": table2, "format": "csv", "filename": "t"},
              "facts": facts(csv_bytes([["a", "b"], ["1", "2"]]), "t", "csv")})

# CSV injection (OWASP): a cell starting with =, +, -, @, tab or carriage
# return that is not a plain (signed) decimal number is written behind a
# single quote, and the call warns csv_formula_neutralized.
PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def neutralize(cell):
    if cell and cell[0] in "=+-@\t\r" and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


formula = "| Name | Formel | Wert |\n|---|---|---|\n| =1+2 | @SUM(A1:A9) | -42 |\n| +cmd | -2+3 | +5 |\n| x | =HYPERLINK(\"http://x\") | 1e5 |\n"
formula_rows = [["Name", "Formel", "Wert"], ["=1+2", "@SUM(A1:A9)", "-42"], ["+cmd", "-2+3", "+5"], ["x", '=HYPERLINK("http://x")', "1e5"]]
cases.append({"name": "csv_formula_neutralized", "args": {"content": formula, "format": "csv", "filename": "formeln"},
              "facts": facts(csv_bytes([[neutralize(c) for c in r] for r in formula_rows]), "formeln", "csv"),
              "warnings": ["csv_formula_neutralized"]})
cases.append({"name": "csv_plain_numbers_untouched", "args": {"content": table2.replace("1 | 2", "-1 | +2.5"), "format": "csv", "filename": "t"},
              "facts": facts(csv_bytes([["a", "b"], ["-1", "+2.5"]]), "t", "csv"), "warnings": []})

# Errors (from the spec / contract): no table for csv and xlsx; unknown format
# rejected by the schema.
cases.append({"name": "csv_without_table", "args": {"content": "# no table here\n", "format": "csv"},
              "error_code": "tool_execution_error", "reason": "no_table"})
cases.append({"name": "xlsx_without_table", "args": {"content": "just text", "format": "xlsx"},
              "error_code": "tool_execution_error", "reason": "no_table"})
cases.append({"name": "unknown_format", "args": {"content": "x", "format": "exe"},
              "error_code": "input_schema_invalid"})
cases.append({"name": "missing_content", "args": {"format": "md"},
              "error_code": "input_schema_invalid"})

with open(os.path.join(OUT, "oracle_cases.json"), "w", encoding="utf-8") as f:
    json.dump({"generator": {"script": "tools/testdata/oracle/gen_generate_file.py", "python": platform.python_version()},
               "cases": cases}, f, ensure_ascii=False, indent=1)
    f.write("\n")

sizes = [0, 1, 51, 52, 102, 103, 256, 512, 768, 1023, 1024, 1075, 1076, 1126, 1127, 1280,
         2355, 2356, 10240, 10291, 10292, 65536, 99999, 1048576, 1048575, 5242880, 123456789]
sizes += [int(51.2 * k) for k in range(1, 200, 2)]
kb = [{"bytes": n, "kb": f"{n/1024:.1f}"} for n in sorted(set(sizes))]
KB_OUT = os.path.join(HERE, "..", "..", "..", "internal", "filestore", "testdata")
with open(os.path.join(KB_OUT, "oracle_kb.json"), "w", encoding="utf-8") as f:
    json.dump({"generator": {"script": "tools/testdata/oracle/gen_generate_file.py", "python": platform.python_version()},
               "cases": kb}, f, indent=1)
    f.write("\n")
print(len(cases), "cases,", len(kb), "kb vectors")
