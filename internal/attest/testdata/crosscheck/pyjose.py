#!/usr/bin/env python3
"""Cross-implementation vectors for internal/attest, with Python's `cryptography`.

  python3 pyjose.py sign     writes python_signed.json: keys, JWKS and
                             attestations made by Python (cryptography's Ed25519
                             and json.dumps), which attest's Go tests verify and
                             re-sign byte for byte.
  python3 pyjose.py verify   checks every case of go_signed.json (written by the
                             Go generator: go test ./internal/attest -run
                             TestGoSignedVectors -update-go-vectors) with
                             verify_answer.py and, if all agree, writes
                             go_signed.receipt.json holding the SHA-256 of the file
                             it checked and of verify_answer.py; the Go tests
                             refuse a receipt that does not match both files.
  python3 pyjose.py check    the same checks, without writing the receipt.

Run from this directory. Every output is deterministic (fixed seeds, fixed times).
"""
import base64
import hashlib
import hmac
import json
import os
import sys
from datetime import datetime, timezone

import cryptography
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from verify_answer import AttestationError, canonical, verify_answer

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = "%Y-%m-%dT%H:%M:%SZ"


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def versions():
    return {"python": sys.version.split()[0], "cryptography": cryptography.__version__}


def at(s):
    return datetime.strptime(s, TIME).replace(tzinfo=timezone.utc)


class Key:
    def __init__(self, seed):
        self.seed = seed
        self.private = Ed25519PrivateKey.from_private_bytes(seed)
        self.raw = self.private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.kid = hashlib.sha256(self.raw).hexdigest()[:16]
        self.pem = self.private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()).decode()

    def jwk(self, not_after=None):
        k = {"kty": "OKP", "crv": "Ed25519", "x": b64(self.raw), "kid": self.kid, "use": "sig", "alg": "EdDSA"}
        if not_after:
            k["not_after"] = not_after
        return k

    def sign(self, header, payload):
        """JWS compact serialization of header (dict or raw bytes) and payload bytes."""
        h = header if isinstance(header, bytes) else canonical(header)
        signing_input = f"{b64(h)}.{b64(payload)}"
        return f"{signing_input}.{b64(self.private.sign(signing_input.encode('ascii')))}"

    def attest(self, claims, typ):
        return self.sign({"alg": "EdDSA", "kid": self.kid, "typ": typ}, canonical(claims))


def seeded(name):
    return Key(hashlib.sha256(f"precisiond attest python vector key {name}".encode()).digest())


RESULT_TYP = "precisiond-result+jws"
PLAN_TYP = "precisiond-plan-run+jws"
ISS = "https://precisiond.example"


def result_answer(key, iss=ISS, facts=None):
    """A gcd_lcm-shaped answer; result_hash as README (The evidence envelope) defines it."""
    contract_hash = hashlib.sha256(b"an example contract").hexdigest()
    inp = {"a": 391, "b": 299, "operation": "both"}
    facts = facts or {"a": 391, "b": 299, "operation": "both", "gcd": 23, "lcm": 5083}
    sr = {"status": "completed", "tool": "gcd_lcm", "contract_id": "precisiond.gcd_lcm", "contract_version": "1.0.0",
          "contract_hash": contract_hash, "input_normalized": inp, "facts": facts,
          "result_hash": hashlib.sha256(canonical({"contract_hash": contract_hash, "input_normalized": inp,
                                                   "facts": facts})).hexdigest()}
    claims = {k: sr[k] for k in ("tool", "contract_id", "contract_version", "contract_hash", "result_hash")}
    claims["iss"] = iss
    return {"structured_result": sr, "attestation": key.attest(claims, RESULT_TYP) if key else None}, claims


def sign_vectors():
    # RFC 8037 Appendix A.1 key and A.4 signature.
    rfc_seed = base64.urlsafe_b64decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A=")
    rfc = Key(rfc_seed)
    rfc_jws = rfc.sign(b'{"alg":"EdDSA"}', b"Example of Ed25519 signing")

    expired, retained, current, unpublished = (seeded(n) for n in ("expired", "retained", "current", "unpublished"))
    # The keyring's history: expired signed from 2025-12-01, retained from
    # 2026-01-01, current from 2026-02-20; retention 30 days.
    now = "2026-03-01T12:00:00Z"
    live = {"keys": [current.jwk(), retained.jwk("2026-03-22T00:00:00Z")]}
    stale = {"keys": [retained.jwk(), expired.jwk("2026-01-31T00:00:00Z")]}  # as fetched on 2026-01-15

    cases = []

    def case(name, answer, expect, kid=None, jwks="live", claims=None):
        c = {"name": name, "jwks": jwks, "answer": answer, "expect": expect}
        if kid:
            c["kid"] = kid
        if claims:
            c["claims"] = claims
        cases.append(c)

    ok, claims = result_answer(current)
    case("result signed by the current key", ok, "ok", current.kid, claims=claims)
    odd_iss = 'präzision "α" \\ ✓\t\x1f\u2028'
    a, c = result_answer(current, iss=odd_iss)
    case("issuer with quotes, escapes and non-ASCII", a, "ok", current.kid, claims=c)
    a, c = result_answer(retained)
    case("result signed by the retained key", a, "ok", retained.kid, claims=c)
    plan_claims = {"plan_id": hashlib.sha256(b"a plan").hexdigest(), "run_hash": hashlib.sha256(b"a run").hexdigest(),
                   "iss": ISS}
    plan = {"plan_id": plan_claims["plan_id"], "run_hash": plan_claims["run_hash"],
            "attestation": current.attest(plan_claims, PLAN_TYP)}
    case("plan run signed by the current key", plan, "ok", current.kid, claims=plan_claims)

    # A fact changed and result_hash recomputed over it: the hashes agree, the
    # attestation does not.
    forged, _ = result_answer(None, facts={"a": 391, "b": 299, "operation": "both", "gcd": 1, "lcm": 116909})
    forged["attestation"] = ok["attestation"]
    case("fact tampered, result_hash recomputed", forged, "payload_mismatch")
    h, p, s = ok["attestation"].split(".")
    other = result_answer(current, iss="https://other.example")[0]["attestation"].split(".")
    case("payload segment swapped", dict(ok, attestation=f"{h}.{other[1]}.{s}"), "bad_signature")
    flipped = s[:10] + ("A" if s[10] != "A" else "B") + s[11:]
    case("signature altered", dict(ok, attestation=f"{h}.{p}.{flipped}"), "bad_signature")
    none_header = b64(canonical({"alg": "none", "kid": current.kid, "typ": RESULT_TYP}))
    case("alg none", dict(ok, attestation=f"{none_header}.{p}."), "unsupported_alg")
    hs_header = b64(canonical({"alg": "HS256", "kid": current.kid, "typ": RESULT_TYP}))
    mac = hmac.new(current.raw, f"{hs_header}.{p}".encode(), hashlib.sha256).digest()
    case("alg HS256 keyed with the public key", dict(ok, attestation=f"{hs_header}.{p}.{b64(mac)}"), "unsupported_alg")
    swapped = b64(canonical({"alg": "EdDSA", "kid": retained.kid, "typ": RESULT_TYP}))
    case("kid swapped to another published key", dict(ok, attestation=f"{swapped}.{p}.{s}"), "bad_signature")
    a, _ = result_answer(unpublished)
    case("signed by an unpublished key", a, "unknown_kid")
    a, _ = result_answer(expired)
    case("signed by a key past retention, live key set", a, "unknown_kid")
    case("signed by a key past retention, stale key set", a, "key_expired", jwks="stale")
    case("plan-run attestation on a tool answer", dict(ok, attestation=plan["attestation"]), "wrong_typ")
    crit = current.sign({"alg": "EdDSA", "crit": ["exp"], "exp": 1, "kid": current.kid, "typ": RESULT_TYP},
                        canonical(claims))
    case("crit header", dict(ok, attestation=crit), "unsupported_crit")
    jku = current.sign({"alg": "EdDSA", "jku": "https://evil.example/jwks", "kid": current.kid, "typ": RESULT_TYP},
                       canonical(claims))
    case("extra header parameter", dict(ok, attestation=jku), "malformed")
    spaced = current.sign({"alg": "EdDSA", "kid": current.kid, "typ": RESULT_TYP},
                          json.dumps(claims, sort_keys=True).encode())
    case("payload not in canonical form", dict(ok, attestation=spaced), "malformed")
    case("five segments", dict(ok, attestation=ok["attestation"] + ".AA.AA"), "malformed")
    case("padded base64url", dict(ok, attestation=ok["attestation"] + "=="), "malformed")

    return {
        "generator": "internal/attest/testdata/crosscheck/pyjose.py sign",
        "versions": versions(),
        "rfc8037": {"seed": b64(rfc_seed), "x": b64(rfc.raw), "kid": rfc.kid, "pem": rfc.pem, "jws_a4": rfc_jws},
        "keys": {n: {"kid": k.kid, "x": b64(k.raw), "pem": k.pem}
                 for n, k in (("expired", expired), ("retained", retained), ("current", current),
                              ("unpublished", unpublished))},
        "keyring": {"expired_since": "2025-12-01T00:00:00Z", "retained_since": "2026-01-01T00:00:00Z",
                    "current_since": "2026-02-20T00:00:00Z", "retention_hours": 30 * 24,
                    "stale_fetched": "2026-01-15T00:00:00Z"},
        "now": now,
        "jwks": {"live": live, "stale": stale},
        "jwks_bytes": {"live": canonical(live).decode(), "stale": canonical(stale).decode()},
        "cases": cases,
    }


def check_vectors(vec):
    """Run verify_answer over every case; return the list of disagreements."""
    bad = []
    now = at(vec["now"])
    for name, jwks in vec["jwks"].items():
        for k in jwks["keys"]:
            raw = base64.urlsafe_b64decode(k["x"] + "=" * (-len(k["x"]) % 4))
            if hashlib.sha256(raw).hexdigest()[:16] != k["kid"]:
                bad.append(f"{name} key set: kid {k['kid']} is not SHA-256(x)[:16]")
    for c in vec["cases"]:
        try:
            kid, _ = verify_answer(c["answer"], vec["jwks"][c["jwks"]], now)
            got = "ok"
        except AttestationError as e:
            got, kid = e.reason, None
        if got != c["expect"] or (got == "ok" and kid != c.get("kid")):
            bad.append(f"{c['name']}: got {got} kid={kid}, want {c['expect']} kid={c.get('kid')}")
    return bad


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "sign":
        vec = sign_vectors()
        bad = check_vectors(vec)  # Python must agree with itself first.
        if bad:
            sys.exit("python_signed.json: " + "; ".join(bad))
        with open(os.path.join(HERE, "python_signed.json"), "w", encoding="utf-8") as f:
            json.dump(vec, f, ensure_ascii=False, indent=1, sort_keys=True)
            f.write("\n")
        print(f"python_signed.json: {len(vec['cases'])} cases")
        return
    if mode not in ("verify", "check"):
        sys.exit(__doc__)
    path = os.path.join(HERE, "go_signed.json")
    with open(path, "rb") as f:
        data = f.read()
    vec = json.loads(data)
    bad = check_vectors(vec)
    for b in bad:
        print("DISAGREE", b)
    if bad:
        sys.exit(1)
    print(f"go_signed.json: all {len(vec['cases'])} cases agree")
    if mode == "verify":
        with open(os.path.join(HERE, "verify_answer.py"), "rb") as f:
            verifier = hashlib.sha256(f.read()).hexdigest()
        receipt = {"checked": "go_signed.json", "sha256": hashlib.sha256(data).hexdigest(),
                   "verifier_sha256": verifier,
                   "cases": len(vec["cases"]), "by": "pyjose.py verify (verify_answer.py)", "versions": versions()}
        with open(os.path.join(HERE, "go_signed.receipt.json"), "w", encoding="utf-8") as f:
            json.dump(receipt, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
