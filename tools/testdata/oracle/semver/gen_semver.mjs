// Oracle of version_compare's semver scheme: npm semver, pinned by
// package-lock.json in this folder (npm ci, then run by gen_version.py).
// Reads a JSON array of {"args": {...}} from stdin and writes, for each,
// {"facts": {...}} or {"reason": "invalid_version" | "invalid_constraint"}
// exactly as semver's defaults answer: valid() for a version, new Range()
// for a constraint, compare() for precedence, Range.test() for satisfies.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'

const require = createRequire(import.meta.url)
const semver = require('semver')
const pkg = require('semver/package.json')

const parse = (v) => {
  const s = semver.valid(v)
  if (s === null) throw { reason: 'invalid_version' }
  return s
}

const answer = (a) => {
  switch (a.operation) {
    case 'compare': {
      const an = parse(a.a)
      const bn = parse(a.b)
      return { result: semver.compare(a.a, a.b), a_normalized: an, b_normalized: bn }
    }
    case 'sort': {
      a.versions.forEach(parse)
      // Array.prototype.sort is stable; compare ignores build metadata.
      return { sorted: [...a.versions].sort((x, y) => semver.compare(x, y)) }
    }
    case 'max': {
      a.versions.forEach(parse)
      let best = a.versions[0]
      for (const v of a.versions.slice(1)) if (semver.compare(v, best) > 0) best = v
      return { max: best }
    }
    case 'satisfies': {
      parse(a.version)
      let r
      try { r = new semver.Range(a.constraint) } catch (e) { throw { reason: 'invalid_constraint' } }
      return { satisfied: r.test(a.version) }
    }
  }
  throw new Error('unknown operation ' + a.operation)
}

const cases = JSON.parse(readFileSync(0, 'utf8'))
const out = cases.map((c) => {
  try {
    return { facts: answer(c.args) }
  } catch (e) {
    if (e && e.reason) return { reason: e.reason }
    throw e
  }
})
process.stdout.write(JSON.stringify({ node: process.version, semver: pkg.version, results: out }))
