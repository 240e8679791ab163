package intent

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/precisiond/precisiond/contracts"
	"github.com/precisiond/precisiond/evidence"
)

// TestIntentDataOutsideContractHashes: the intent files change no contract
// hash. The eight tools of the reference's recogniser keep the hashes they
// had at 1a2485b, the commit before any intent data existed (read there with
// `precisiond tools --json`).
func TestIntentDataOutsideContractHashes(t *testing.T) {
	for tool, want := range map[string]string{
		"gcd_lcm":             "4a87bcd7931aeae18c639d0cd68e4ea83f54c049e317d941395fbc450e646014",
		"unit_convert":        "256038f2563c7957070c7ff150c960818b27b45c487a6445ee8cf6914cb54d96",
		"calendar_facts":      "71b132ffaf2df166f7103c72ca6cb18f2382ba5f3766087c3692387f45fbca99",
		"time_facts":          "dfbde143acb24684045cd9b1974c07fccf697db9b245d120380d8d09cd4b2ed9",
		"timezone_convert":    "983e6a33598fe49d1dbe03fef57952ebf5290507945e950aebcd681c74e51443",
		"decimal_finance":     "30d218364e8a78d5de3bcc896e595dcb3b0afd714e1b6ad969db34b7bb2226c2",
		"exact_probability":   "3635951d7adff91f1aaaccb5a977818684429bceb6d0d4b8b83777b22e4b3671",
		"structured_validate": "c83c8536264e164a8543a973af7d9353191fc79ba602dad21b125c168625183d",
	} {
		got, err := evidence.ContractHash(contracts.MustLoad(tool))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: contract_hash %s, want %s", tool, got, want)
		}
	}
	// Every tool has an intent contract, and every intent contract a tool.
	r := mustLoad(t)
	if got, want := len(r.Tools()), len(contracts.Names()); got != want {
		t.Errorf("%d intent contracts for %d tools", got, want)
	}
}

// TestRecognizerHash: the hash covers every rule file, so a changed rule
// changes it, and loading twice gives the same hash.
func TestRecognizerHash(t *testing.T) {
	a, b := mustLoad(t), mustLoad(t)
	if a.Hash() != b.Hash() || len(a.Hash()) != 64 {
		t.Fatalf("hashes %s and %s", a.Hash(), b.Hash())
	}
	files := fstest.MapFS{}
	entries, err := fs.ReadDir(contracts.IntentFiles(), "intents")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := fs.ReadFile(contracts.IntentFiles(), "intents/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "gcd_lcm.json" {
			data = bytes.Replace(data, []byte(`"ggt"`), []byte(`"ggT"`), 1)
		}
		files["intents/"+e.Name()] = &fstest.MapFile{Data: data}
	}
	c, err := LoadFS(files, "intents")
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash() == a.Hash() {
		t.Error("a changed trigger word left the recognizer hash unchanged")
	}
	delete(files, "intents/_common.json")
	if _, err := LoadFS(files, "intents"); err == nil {
		t.Error("a rule set without _common.json loaded")
	}
}

// TestLoadRefusesMalformedRules: a rule file with a mistake is refused with
// an error naming the file, never half loaded.
func TestLoadRefusesMalformedRules(t *testing.T) {
	common := []byte(`{"format":1,"version":"t","macros":{"int":"[+-]?\\d+","pre":"","post":"[ ?!.]*"}}`)
	good := `{"format":1,"tool":"gcd_lcm","triggers":["ggt"],"patterns":[{"id":"p","lang":"de","regex":"ggt (?P<a>{int}) (?P<b>{int})",
		"args":{"a":{"group":"a","type":"integer"},"b":{"group":"b","type":"integer"}}}],"answers":[{"en":"{gcd}","de":"{gcd}"}]}`
	if _, err := LoadFS(fstest.MapFS{"i/_common.json": {Data: common}, "i/gcd_lcm.json": {Data: []byte(good)}}, "i"); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	for name, bad := range map[string]string{
		"unknown field":    strings.Replace(good, `"triggers"`, `"trigger_words":[],"triggers"`, 1),
		"bad regex":        strings.Replace(good, `ggt (?P<a>`, `ggt ((?P<a>`, 1),
		"unknown macro":    strings.Replace(good, `{int}) (?P<b>`, `{integer}) (?P<b>`, 1),
		"unknown argument": strings.Replace(good, `"b":{"group":"b"`, `"c":{"group":"b"`, 1),
		"unknown group":    strings.Replace(good, `"b":{"group":"b"`, `"b":{"group":"x"`, 1),
		"unknown type":     strings.Replace(good, `"type":"integer"}}`, `"type":"int"}}`, 1),
		"two sources":      strings.Replace(good, `"b":{"group":"b","type":"integer"}`, `"b":{"group":"b","type":"integer","const":1}`, 1),
		"bad language":     strings.Replace(good, `"lang":"de"`, `"lang":"fr"`, 1),
		"no answer":        strings.Replace(good, `"answers":[{"en":"{gcd}","de":"{gcd}"}]`, `"answers":[]`, 1),
		"unknown tool":     strings.Replace(good, `"tool":"gcd_lcm"`, `"tool":"gcd_lcn"`, 1),
		"not JSON":         good[:40],
	} {
		_, err := LoadFS(fstest.MapFS{"i/_common.json": {Data: common}, "i/gcd_lcm.json": {Data: []byte(bad)}}, "i")
		if err == nil || !strings.Contains(err.Error(), "gcd_lcm.json") {
			t.Errorf("%s: err %v, want an error naming gcd_lcm.json", name, err)
		}
	}
}
