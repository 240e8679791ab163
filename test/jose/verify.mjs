// Verify precisiond attestations with the jose library.
//
// Usage: node verify.mjs JWKS_FILE ANSWER_FILE...
//
// JWKS_FILE is the service's key set (GET /.well-known/jwks.json). Each
// ANSWER_FILE is an answer as the service returns it: a tool answer
// {"structured_result": {...}, "attestation": "..."} or a plan run
// {"plan_id": ..., "run_hash": ..., "attestation": "..."}. One line is printed
// per answer: "OK FILE kid=KID iss=ISSUER" (ISSUER as a JSON string) or
// "FAIL FILE REASON: DETAIL"; the exit status is 1 if any answer fails.
// The attestation proves who signed the answer's hashes; recompute
// result_hash too (precisiond verify does both).
import { readFileSync } from 'node:fs';
import { compactVerify, createLocalJWKSet } from 'jose';

const RESULT_TYP = 'precisiond-result+jws';
const PLAN_RUN_TYP = 'precisiond-plan-run+jws';
const RESULT_FIELDS = ['tool', 'contract_id', 'contract_version', 'contract_hash', 'result_hash'];
const PLAN_RUN_FIELDS = ['plan_id', 'run_hash'];

class AttestationError extends Error {
  constructor(reason, detail) {
    super(`${reason}: ${detail}`);
    this.reason = reason;
  }
}

// precisiond's canonical JSON of a flat object of strings (README, The evidence envelope):
// keys sorted, no whitespace; JSON.stringify escapes strings as Python does.
function canonical(object) {
  const sorted = Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify(sorted);
}

// Strict base64url without padding: one encoding per byte string.
function b64urlDecode(segment) {
  const bytes = Buffer.from(segment, 'base64url');
  if (!/^[A-Za-z0-9_-]*$/.test(segment) || bytes.toString('base64url') !== segment) {
    throw new AttestationError('malformed', 'not base64url');
  }
  return bytes;
}

function parseJSON(bytes, what) {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new AttestationError('malformed', `${what} is not JSON: ${e.message}`);
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// Check answer.attestation against the answer and the key set at time now;
// return {kid, iss} or throw AttestationError.
async function verifyAnswer(answer, jwks, now) {
  const typ = 'structured_result' in answer ? RESULT_TYP : PLAN_RUN_TYP;
  const source = typ === RESULT_TYP ? answer.structured_result : answer;
  const want = Object.fromEntries((typ === RESULT_TYP ? RESULT_FIELDS : PLAN_RUN_FIELDS).map((k) => [k, source?.[k]]));
  const jws = answer.attestation;
  if (typeof jws !== 'string') throw new AttestationError('malformed', 'the answer has no attestation');
  const segments = jws.split('.');
  if (segments.length !== 3) throw new AttestationError('malformed', `${segments.length} segments, not 3`);

  const headerBytes = b64urlDecode(segments[0]);
  const header = parseJSON(headerBytes, 'header');
  if (!isObject(header)) throw new AttestationError('malformed', 'header is not an object');
  if (header.alg !== 'EdDSA') throw new AttestationError('unsupported_alg', `alg ${JSON.stringify(header.alg)}`);
  if ('crit' in header) throw new AttestationError('unsupported_crit', `crit ${JSON.stringify(header.crit)}`);
  if (header.typ !== typ) throw new AttestationError('wrong_typ', `typ ${JSON.stringify(header.typ)}, want ${typ}`);
  if (Object.keys(header).length !== 3 || typeof header.kid !== 'string' || canonical(header) !== headerBytes.toString('utf8')) {
    throw new AttestationError('malformed', 'header is not canonical {alg, kid, typ}');
  }
  const payload = b64urlDecode(segments[1]);
  if (b64urlDecode(segments[2]).length !== 64) throw new AttestationError('malformed', 'signature is not 64 bytes');

  const key = jwks.keys.find((k) => k.kid === header.kid);
  if (!key) throw new AttestationError('unknown_kid', `kid ${JSON.stringify(header.kid)} is not published`);
  try {
    await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
  } catch (e) {
    if (e.code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw new AttestationError('bad_signature', `kid ${key.kid}`);
    throw new AttestationError('malformed', `${e.code}: ${e.message}`);
  }
  if (key.not_after !== undefined && now > new Date(key.not_after)) {
    throw new AttestationError('key_expired', `kid ${key.kid} was published until ${key.not_after}`);
  }

  const claims = parseJSON(payload, 'payload');
  const names = [...Object.keys(want), 'iss'].sort();
  if (!isObject(claims) || Object.keys(claims).sort().join() !== names.join() ||
      !Object.values(claims).every((v) => typeof v === 'string') || canonical(claims) !== payload.toString('utf8')) {
    throw new AttestationError('malformed', 'payload is not the canonical claims');
  }
  for (const [field, value] of Object.entries(want)) {
    if (claims[field] !== value) {
      throw new AttestationError('payload_mismatch', `signed ${field} ${JSON.stringify(claims[field])}, answer has ${JSON.stringify(value)}`);
    }
  }
  return { kid: key.kid, iss: claims.iss };
}

async function main([jwksFile, ...answerFiles]) {
  if (!jwksFile || answerFiles.length === 0) {
    console.error('usage: node verify.mjs JWKS_FILE ANSWER_FILE...');
    process.exit(2);
  }
  const jwks = JSON.parse(readFileSync(jwksFile, 'utf8'));
  let failed = 0;
  for (const file of answerFiles) {
    const answer = JSON.parse(readFileSync(file, 'utf8'));
    try {
      const { kid, iss } = await verifyAnswer(answer, jwks, new Date());
      console.log(`OK ${file} kid=${kid} iss=${JSON.stringify(iss)}`);
    } catch (e) {
      if (!(e instanceof AttestationError)) throw e;
      failed++;
      console.log(`FAIL ${file} ${e.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}

await main(process.argv.slice(2));
