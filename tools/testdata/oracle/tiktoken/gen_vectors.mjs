// Writes tools/testdata/token_count/oracle_tiktoken.json: token ids, counts and
// prefix_chars from js-tiktoken (pinned by package-lock.json), for seeded
// random texts and edge cases, for o200k_base and cl100k_base.
// Run: cd tools/testdata/oracle/tiktoken && npm ci && node gen_vectors.mjs
//
// Special tokens are plain text: encode(text, [], []) allows none and
// disallows none, so js-tiktoken neither emits a special id nor throws.
// Lone surrogates are not here: the service refuses a lone surrogate escape
// in the arguments (input_schema_invalid) before any tool runs.
// prefix_chars is the naive definition: the largest n whose first n code
// points encode in at most max_tokens tokens, trying every n.
import fs from "node:fs";
import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import cl100k from "js-tiktoken/ranks/cl100k_base";

const here = path.dirname(fileURLToPath(import.meta.url));
const outPath = path.resolve(here, "../../token_count/oracle_tiktoken.json");
const pkg = JSON.parse(fs.readFileSync(path.join(here, "node_modules/js-tiktoken/package.json")));
const enc = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
const encode = (name, text) => enc[name].encode(text, [], []);

function prefixChars(name, text, max) {
  const cps = Array.from(text);
  for (let n = cps.length; n >= 0; n--) {
    if (encode(name, cps.slice(0, n).join("")).length <= max) return n;
  }
  throw new Error("unreachable");
}

// mulberry32
let seed = 20261202;
function rnd() {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

const frags = [
  "hello", "Hello", "HELLO", "world", "World", " the", " The", "don't", "DON'T", "it's", "IT'S", "we're", "We'RE",
  "they've", "I'm", "I'M", "you'll", "YOU'LL", "he'd", "HE'D", "'s", "'S", "'t", "'re", "'Ve", "'m", "'lL", "'d", "'x",
  "'", "''", "McDonald", "iPhone", "camelCase", "snake_case", "kebab-case", "x", "A", "a",
  "0", "7", "42", "123", "1234", "12345", "1234567", "3.14159", "1,000,000", "٣٤٥", "²³", "Ⅻ", "½",
  " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "\r", " \n", "\n ", "  \n  ", "\u00a0", "\u3000", "\u2028", "\ufeff", "\u0085", "\u000b", "\u000c",
  ".", ",", "!", "?", "...", "!!", "?!", "-", "--", "—", "/", "//", "/\n/", "\\", "(", ")", "[", "]", "{", "}", "<", ">", "@", "#", "$", "%", "^", "&", "*", "_", "=", "+", "|", "~", "`", "\"", ";", ":",
  "<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|im_start|>",
  "https://example.com/a/b?c=d", "user@example.org", "C:\\path\\file.txt", "#include <stdio.h>", "func main() {", "    return x;", "\t\tif (a) {",
  "😀", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇩🇪", "❤️", "🧑🏿‍💻", "✊🏻", "©", "™", "∑", "∞", "→", "€", "£", "¥",
  "中文", "日本語のテキスト", "한국어", "漢字かなカナ", "。", "、", "「引用」",
  "العربية", "مرحبا بالعالم", "हिन्दी", "नमस्ते दुनिया", "ভাষা", "தமிழ்", "ไทย", "ລາວ", "עברית", "Ελληνικά", "Русский", "ПРИВЕТ", "Ärger", "ÄRGER", "straße", "Œuvre", "façade", "naïve",
  "ǅungla", "ǈ", "ʰʲ", "ᵃᵇ", "e\u0301", "E\u0301", "\u0301", "\u0301abc", "\u0345", "a\u0345", "\u20dd", "ﬁ", "Ａｂｃ", "１２３",
  // letters new in Unicode 16.0 / 17.0 (node's ICU knows them, Go 1.26's unicode 15.0 does not)
  "\u1c89\u1c8a", "\ua7cb\ua7cc", "\u{10d50}\u{10d70}", "\u{105c0}\u{105c1}", "\u{16d40}\u{16d41}", "\u{11b60}", "\u{16ea0}\u{16ebb}", "\u{1e6c0}",
  "\u{10d40}", "\u{1ccf0}", "\u{1fbf0}",
];
const alphabets = [
  "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", " \t\n\r", "'`\".,;:!?/\\-_()[]{}<>",
  "äöüßÄÖÜéèêÉ", "αβγΔΣΩ", "абвгдЖЗИ", "一二三四五六七八九十", "あいうえおアイウ", "ابتثجحخ", "कखगघङािीु्", "\u0300\u0301\u0308\u20dd",
];

function randomText() {
  const parts = [];
  const n = int(1, 25);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.55) parts.push(pick(frags));
    else if (r < 0.85) {
      const a = Array.from(pick(alphabets));
      let s = "";
      for (let k = int(1, 8); k > 0; k--) s += pick(a);
      parts.push(s);
    } else if (r < 0.95) {
      let cp;
      do { cp = rnd() < 0.7 ? int(0, 0x2fff) : int(0x3000, 0x10ffff); } while (cp >= 0xd800 && cp <= 0xdfff);
      parts.push(String.fromCodePoint(cp));
    } else parts.push(" ".repeat(int(2, 40)));
  }
  return parts.join("");
}

// The hash of the canonical .tiktoken text ("base64 rank\n" per token in
// rank order) of the ranks js-tiktoken ships.
function ranksSHA256(ranks) {
  const byRank = [];
  for (const line of ranks.bpe_ranks.split("\n").filter(Boolean)) {
    const [_, off, ...toks] = line.split(" ");
    toks.forEach((t, i) => { byRank[Number(off) + i] = t; });
  }
  return crypto.createHash("sha256").update(byRank.map((t, r) => `${t} ${r}\n`).join("")).digest("hex");
}
const sha = { o200k_base: ranksSHA256(o200k), cl100k_base: ranksSHA256(cl100k) };

// Cases in the golden form tools/golden_test.go runs through the tool:
// {name, args, facts}. opts: max (max_tokens), ids (return_ids), dflt (leave
// the encoding to its default).
const cases = [];
function add(name, encoding, text, max, opts = {}) {
  const ids = encode(encoding, text);
  const args = { text };
  if (!opts.dflt) args.encoding = encoding;
  const facts = { tokens: ids.length, encoding, ranks_sha256: sha[encoding], fits: null, prefix_chars: null, token_ids: null };
  if (max !== undefined) {
    args.max_tokens = max;
    facts.fits = ids.length <= max;
    facts.prefix_chars = prefixChars(encoding, text, max);
  }
  const wantIDs = opts.ids ?? ids.length <= 4096;
  if (wantIDs) {
    args.return_ids = true;
    if (ids.length <= 4096) facts.token_ids = ids;
  }
  cases.push({ name: `${encoding} ${name}`, args, facts });
}

const edges = [
  ["empty", ""], ["space", " "], ["newline", "\n"], ["crlf", "\r\n"], ["mixed newlines", "a\r\nb\nc\rd\r\n\r\n  e\n\r"],
  ["endoftext", "<|endoftext|>"], ["endoftext in text", "Hello<|endoftext|>world <|endofprompt|> <|fim_prefix|>x"],
  ["contractions lower", "don't it's we're they've I'm you'll he'd"], ["contractions upper", "DON'T IT'S WE'RE THEY'VE I'M YOU'LL HE'D"],
  ["contractions mixed", "'S 'T 'Re 'rE 'vE 'Ll 'lL 'D 'M 's't're've'm'll'd"], ["lone apostrophes", "' '' ''' 'x 'r 'l"],
  ["digits", "1 12 123 1234 12345 123456 1234567 12345678901234567890"], ["digits mixed", "a1b22c333d4444 ٣٤٥٦ ²³⁴ ⅠⅡⅢⅣ"],
  ["emoji", "😀😃😄 👍👍🏻👍🏼👍🏽👍🏾👍🏿 ❤️‍🔥"], ["emoji zwj", "👨‍👩‍👧‍👦 👩‍💻 🏳️‍🌈 🏴‍☠️ 🧑🏽‍🤝‍🧑🏿"], ["flags", "🇩🇪🇫🇷🇯🇵🇺🇸"],
  ["cjk", "我们在北京学习中文。日本語を勉強しています。한국어도 배워요."], ["arabic", "مرحبا بالعالم، كيف حالك؟"], ["hindi", "नमस्ते दुनिया, आप कैसे हैं?"],
  ["whitespace run", " ".repeat(1000) + "x"], ["whitespace run end", "x" + " ".repeat(777)], ["tabs and spaces", "\t \t  \t\n\t\t\n   \n"],
  ["whitespace newline tail", "a" + " ".repeat(50) + "\n" + " ".repeat(50) + "b"], ["blank lines", "\n\n\n\n\n\n\n\n"],
  ["nbsp bom nel", "a\u00a0b\ufeffc\u0085d\u3000e\u2028f\u2029g"],
  ["slash chains", "a/b//c\n/\n//d .\n/x !/\r\n/"], ["code", "func main() {\n\tfmt.Println(\"hi\")\n}\n"], ["url", "https://www.example.com/path/to/page?query=1&x=y#frag"],
  ["marks", "e\u0301 \u0301 \u0301\u0301abc ABC\u0301def \u0345x a\u0345"], ["titlecase", "ǅungla ǈubljana ǋ ǲ ǅ"], ["modifier letters", "ʰʲʷ ᵃᵇᶜ aʰb Aʰ"],
  ["unicode 16 17 letters", "\u1c89\u1c8a \ua7cb\ua7cc\ua7cd \u{10d50}\u{10d70} \u{105c0} \u{16d40}\u{16d41} \u{11b60} \u{1e6c0}"],
  ["long word", "a".repeat(5000)], ["long mixed word", "supercalifragilisticexpialidocious".repeat(300)], ["long upper", "ABCDEFGHIJ".repeat(500)],
  ["long cjk", "漢字仮名交じり文".repeat(400)], ["long punct", "!@#$%^&*()".repeat(500)], ["long digits", "1234567890".repeat(300)],
];
for (const encoding of ["o200k_base", "cl100k_base"]) {
  for (const [name, text] of edges) add(name, encoding, text, undefined, { dflt: encoding === "o200k_base" });
}
// token_ids: only up to 4096 tokens; a count alone when return_ids is false
for (const encoding of ["o200k_base", "cl100k_base"]) {
  add("ids 4096", encoding, " x".repeat(4096), undefined, { ids: true });
  add("ids 4097", encoding, " x".repeat(4097), undefined, { ids: true });
  add("no ids", encoding, "Hello, world!", undefined, { ids: false });
  add("no ids budget", encoding, "Hello, world!", 2, { ids: false });
}
// prefix_chars: non-monotone counts and budgets around the count
const prefixEdges = [
  ["don't", "don't", 1], ["don'", "don'", 1], ["don't budget 2", "don't stop", 2], ["hello world", "hello world", 1],
  ["spaces then word", "     x", 1], ["spaces then word 2", "     x", 2], ["trailing spaces", "ab      ", 1], ["newlines", "a\n\n\nb", 2],
  ["emoji", "👨‍👩‍👧‍👦 family", 3], ["cjk", "我们在北京学习中文", 3], ["zero budget", "hello", 0], ["empty zero", "", 0],
  ["contractions", "I'M YOU'LL we're", 4], ["digits", "1234567", 2], ["long word", "a".repeat(300), 20], ["long spaces", " ".repeat(200) + "abc", 5],
  ["endoftext", "x<|endoftext|>y", 4],
];
for (const encoding of ["o200k_base", "cl100k_base"]) {
  for (const [name, text, max] of prefixEdges) add("prefix " + name, encoding, text, max);
}
// seeded random texts; every other one with a budget (texts of at most 300 code points)
for (let i = 0; i < 600; i++) {
  const encoding = i % 2 ? "cl100k_base" : "o200k_base";
  const text = randomText();
  if (i % 3 === 0 && Array.from(text).length <= 300) {
    const total = encode(encoding, text).length;
    add(`random ${i}`, encoding, text, int(0, total + 1));
  } else add(`random ${i}`, encoding, text);
}
// class mixes: short strings over one code point of each class the patterns
// tell apart (Lu, Ll, Lt, Lm, Lo, M, N, \s, \r\n, ' and contraction letters,
// punctuation, /), to drive the backtracking of o200k_base's case classes
const mix = ["A", "a", "\u01c5", "\u02b0", "\u4e2d", "\u0301", "\u20dd", "'", "s", "T", "r", "E", "l", "L", "d", "1", "\u0663", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "-", "/", ".", "\u00c4"];
for (let i = 0; i < 240; i++) {
  const encoding = i % 2 ? "cl100k_base" : "o200k_base";
  let text = "";
  for (let k = int(1, 12); k > 0; k--) text += pick(mix);
  if (i % 4 === 0) add(`class mix ${i}`, encoding, text, int(0, encode(encoding, text).length));
  else add(`class mix ${i}`, encoding, text);
}
// non-monotone prefix counts: random texts where some shorter prefix has more tokens
let found = 0;
for (let i = 0; found < 40 && i < 5000; i++) {
  const encoding = i % 2 ? "cl100k_base" : "o200k_base";
  const cps = Array.from(randomText()).slice(0, 60);
  const counts = cps.map((_, n) => encode(encoding, cps.slice(0, n + 1).join("")).length);
  for (let n = 1; n < counts.length; n++) {
    if (counts[n] < counts[n - 1]) {
      add(`non-monotone ${found}`, encoding, cps.join(""), counts[n]);
      found++;
      break;
    }
  }
}

fs.mkdirSync(path.dirname(outPath), { recursive: true });
const doc = {
  generator: { script: "tools/testdata/oracle/tiktoken/gen_vectors.mjs", node: process.versions.node, unicode: process.versions.unicode, "js-tiktoken": pkg.version },
  cases,
};
fs.writeFileSync(outPath, JSON.stringify(doc, null, 1) + "\n");
console.log(`wrote ${cases.length} cases to ${outPath}`);
