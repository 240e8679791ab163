#!/usr/bin/env python3
"""Verify precisiond attestations with the `cryptography` package.

Usage: python3 verify_answer.py JWKS_FILE ANSWER_FILE...

JWKS_FILE is the service's key set (GET /.well-known/jwks.json). Each
ANSWER_FILE is an answer as the service returns it: a tool answer
{"structured_result": {...}, "attestation": "..."} or a plan run
{"plan_id": ..., "run_hash": ..., "attestation": "..."}. One line is printed
per answer: "OK FILE kid=KID iss=ISSUER" (ISSUER as a JSON string) or
"FAIL FILE REASON: DETAIL"; the exit status is 1 if any answer fails.
The attestation proves who signed the answer's hashes; recompute
result_hash too (precisiond verify does both).
"""
import base64
import json
import re
import sys
from datetime import datetime, timezone

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

RESULT_TYP = "precisiond-result+jws"
PLAN_RUN_TYP = "precisiond-plan-run+jws"
RESULT_FIELDS = ("tool", "contract_id", "contract_version", "contract_hash", "result_hash")
PLAN_RUN_FIELDS = ("plan_id", "run_hash")


class AttestationError(Exception):
    """A refused attestation; reason is the machine name precisiond uses."""

    def __init__(self, reason, detail):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def canonical(value):
    """precisiond's canonical JSON (README, The evidence envelope)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def q(value):
    """A value in an error message, as JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def b64url_decode(segment):
    """Strict base64url without padding: one encoding per byte string."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", segment) or len(segment) % 4 == 1:
        raise AttestationError("malformed", "not base64url")
    raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != segment:
        raise AttestationError("malformed", "non-canonical base64url")
    return raw


def parse_json(data, what):
    try:
        return json.loads(data)
    except ValueError as e:
        raise AttestationError("malformed", f"{what} is not JSON: {e}") from None


def verify_answer(answer, jwks, now):
    """Check answer["attestation"] against the answer and the key set at time
    now; return (kid, iss) or raise AttestationError."""
    if "structured_result" in answer:
        typ = RESULT_TYP
        want = {k: answer["structured_result"].get(k) for k in RESULT_FIELDS}
    else:
        typ = PLAN_RUN_TYP
        want = {k: answer.get(k) for k in PLAN_RUN_FIELDS}
    if not isinstance(answer.get("attestation"), str):
        raise AttestationError("malformed", "the answer has no attestation")
    segments = answer["attestation"].split(".")
    if len(segments) != 3:
        raise AttestationError("malformed", f"{len(segments)} segments, not 3")

    header_bytes = b64url_decode(segments[0])
    header = parse_json(header_bytes, "header")
    if not isinstance(header, dict):
        raise AttestationError("malformed", "header is not an object")
    if header.get("alg") != "EdDSA":
        raise AttestationError("unsupported_alg", f"alg {q(header.get('alg'))}")
    if "crit" in header:
        raise AttestationError("unsupported_crit", f"crit {q(header['crit'])}")
    if header.get("typ") != typ:
        raise AttestationError("wrong_typ", f"typ {q(header.get('typ'))}, want {typ}")
    if set(header) != {"alg", "kid", "typ"} or not isinstance(header["kid"], str) \
            or canonical(header) != header_bytes:
        raise AttestationError("malformed", "header is not canonical {alg, kid, typ}")
    payload = b64url_decode(segments[1])
    signature = b64url_decode(segments[2])
    if len(signature) != 64:
        raise AttestationError("malformed", "signature is not 64 bytes")

    key = next((k for k in jwks["keys"] if k.get("kid") == header["kid"]), None)
    if key is None:
        raise AttestationError("unknown_kid", f"kid {q(header['kid'])} is not published")
    public_key = Ed25519PublicKey.from_public_bytes(b64url_decode(key["x"]))
    try:
        public_key.verify(signature, f"{segments[0]}.{segments[1]}".encode("ascii"))
    except InvalidSignature:
        raise AttestationError("bad_signature", f"kid {key['kid']}") from None
    if "not_after" in key:
        not_after = datetime.strptime(key["not_after"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        if now > not_after:
            raise AttestationError("key_expired", f"kid {key['kid']} was published until {key['not_after']}")

    claims = parse_json(payload, "payload")
    if not isinstance(claims, dict) or set(claims) != set(want) | {"iss"} \
            or not all(isinstance(v, str) for v in claims.values()) or canonical(claims) != payload:
        raise AttestationError("malformed", "payload is not the canonical claims")
    for field, value in want.items():
        if claims[field] != value:
            raise AttestationError("payload_mismatch", f"signed {field} {q(claims[field])}, answer has {q(value)}")
    return key["kid"], claims["iss"]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as f:
        jwks = json.load(f)
    now = datetime.now(timezone.utc)
    failed = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            answer = json.load(f)
        try:
            kid, iss = verify_answer(answer, jwks, now)
            print(f"OK {path} kid={kid} iss={q(iss)}")
        except AttestationError as e:
            failed += 1
            print(f"FAIL {path} {e}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv)
