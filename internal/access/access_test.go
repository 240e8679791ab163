package access

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
)

func TestParse(t *testing.T) {
	h := Hash("secret-a")
	good := `{"tokens":[{"name":"a","sha256":"` + strings.ToUpper(h) + `","tools":["gcd_*","hash_text"],"rate_per_minute":5},{"name":"b.c@d-e","sha256":"` + Hash("b") + `"}]}`
	s, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Lookup("a")
	if a == nil || a.SHA256 != h || a.RatePerMinute != 5 || s.Len() != 2 {
		t.Fatalf("parsed %+v (len %d)", a, s.Len())
	}
	for tool, want := range map[string]bool{"gcd_lcm": true, "hash_text": true, "hash_text2": false, "base64_codec": false} {
		if a.Allows(tool) != want {
			t.Errorf("a.Allows(%s) = %v", tool, !want)
		}
	}
	if !s.Lookup("b.c@d-e").Allows("anything") {
		t.Error("a token without tools must allow every tool")
	}
	bad := map[string]string{
		"not json":          `{`,
		"no tokens":         `{}`,
		"unknown field":     `{"tokens":[],"x":1}`,
		"unknown in token":  `{"tokens":[{"name":"a","sha256":"` + h + `","token":"plain"}]}`,
		"short hash":        `{"tokens":[{"name":"a","sha256":"abcd"}]}`,
		"non-hex hash":      `{"tokens":[{"name":"a","sha256":"` + strings.Repeat("z", 64) + `"}]}`,
		"duplicate name":    `{"tokens":[{"name":"a","sha256":"` + h + `"},{"name":"a","sha256":"` + Hash("x") + `"}]}`,
		"duplicate hash":    `{"tokens":[{"name":"a","sha256":"` + h + `"},{"name":"b","sha256":"` + h + `"}]}`,
		"bad name":          `{"tokens":[{"name":"a b","sha256":"` + h + `"}]}`,
		"empty name":        `{"tokens":[{"name":"","sha256":"` + h + `"}]}`,
		"bad glob":          `{"tokens":[{"name":"a","sha256":"` + h + `","tools":["[x"]}]}`,
		"negative rate":     `{"tokens":[{"name":"a","sha256":"` + h + `","rate_per_minute":-1}]}`,
		"null entry":        `{"tokens":[null]}`,
		"trailing document": `{"tokens":[]} {}`,
	}
	for name, doc := range bad {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("%s: accepted %s", name, doc)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	secret, entry, err := NewSecret("ci")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, TokenPrefix) || len(secret) < 40 || entry.SHA256 != Hash(secret) {
		t.Fatalf("secret %q entry %+v", secret, entry)
	}
	s, err := Parse([]byte(`{"tokens":[{"name":"other","sha256":"` + Hash("x") + `"},{"name":"ci","sha256":"` + entry.SHA256 + `"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Authenticate(secret); got == nil || got.Name != "ci" {
		t.Fatalf("Authenticate = %v", got)
	}
	for _, wrong := range []string{"", secret + "x", secret[:len(secret)-1], entry.SHA256} {
		if got := s.Authenticate(wrong); got != nil {
			t.Errorf("%q authenticated as %s", wrong, got.Name)
		}
	}
	if _, _, err := NewSecret("bad name"); err == nil {
		t.Error("NewSecret accepted a bad name")
	}
	var nilSet *Set
	if nilSet.Authenticate(secret) != nil || nilSet.Lookup("ci") != nil {
		t.Error("a nil set authenticated")
	}
}

// TestLimiter drives the bucket with a frozen clock: 2 per minute allows 2 at
// once, then one more every 30 s.
func TestLimiter(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := NewLimiter(func() time.Time { return now })
	tok := &Token{Name: "t", RatePerMinute: 2}
	for i := range 2 {
		if ok, _ := l.Allow(tok); !ok {
			t.Fatalf("request %d refused", i+1)
		}
	}
	ok, wait := l.Allow(tok)
	if ok || wait != 30*time.Second {
		t.Fatalf("third request: ok=%v wait=%v, want refused for 30s", ok, wait)
	}
	now = now.Add(29 * time.Second)
	if ok, wait := l.Allow(tok); ok || wait != time.Second {
		t.Fatalf("after 29 s: ok=%v wait=%v", ok, wait)
	}
	now = now.Add(time.Second)
	if ok, _ := l.Allow(tok); !ok {
		t.Fatal("after 30 s the next request must pass")
	}
	if ok, _ := l.Allow(&Token{Name: "free"}); !ok {
		t.Fatal("rate 0 is unlimited")
	}
	// A changed rate starts a fresh bucket; Retain drops removed tokens.
	if ok, _ := l.Allow(&Token{Name: "t", RatePerMinute: 3}); !ok {
		t.Fatal("a new rate must start a full bucket")
	}
	s, _ := Parse([]byte(`{"tokens":[]}`))
	l.Retain(s)
	if len(l.buckets) != 0 {
		t.Fatalf("buckets after Retain: %v", l.buckets)
	}
}

func TestLimiterConcurrent(t *testing.T) {
	l := NewLimiter(func() time.Time { return time.Unix(0, 0) })
	tok := &Token{Name: "t", RatePerMinute: 50}
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 200 {
		wg.Go(func() {
			if ok, _ := l.Allow(tok); ok {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != 50 {
		t.Fatalf("%d of 200 allowed with a frozen clock, want exactly 50", allowed)
	}
}

func TestKeyringReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"tokens":[{"name":"a","sha256":"` + Hash("A") + `"}]}`)
	k, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := k.Reload(); changed || err != nil {
		t.Fatalf("unchanged file: changed=%v err=%v", changed, err)
	}
	write(`{"tokens":[{"name":"b","sha256":"` + Hash("B") + `"}]}`)
	if changed, err := k.Reload(); !changed || err != nil {
		t.Fatalf("changed file: changed=%v err=%v", changed, err)
	}
	if k.Set().Authenticate("A") != nil || k.Set().Authenticate("B") == nil {
		t.Fatal("the reload did not swap the tokens")
	}
	write(`{"tokens":[{"name":"broken"`)
	if _, err := k.Reload(); err == nil {
		t.Fatal("a broken file reloaded")
	}
	if k.Set().Authenticate("B") == nil {
		t.Fatal("a broken file must leave the current tokens in force")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing file opened")
	}
	if _, err := Open(t.TempDir()); err == nil {
		t.Fatal("a directory opened as a tokens file")
	}
}

func TestSigner(t *testing.T) {
	if _, err := NewSigner([]byte("short")); err == nil {
		t.Fatal("a 5-byte key was accepted")
	}
	now := time.Unix(2_000_000, 0)
	s, err := NewSigner([]byte("0123456789abcdef0123"))
	if err != nil {
		t.Fatal(err)
	}
	s.SetClock(func() time.Time { return now })
	name := "0123456789ab_report.md"
	q, err := url.ParseQuery(s.Query(name, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if q.Get("exp") != "2003600" {
		t.Fatalf("exp %s", q.Get("exp"))
	}
	if err := s.Check(name, q); err != nil {
		t.Fatalf("fresh link: %v", err)
	}
	if err := s.Check("0123456789ab_other.md", q); err != ErrBadSignature {
		t.Errorf("another file with the same signature: %v", err)
	}
	later := url.Values{"exp": {"2999999"}, "sig": q["sig"]}
	if err := s.Check(name, later); err != ErrBadSignature {
		t.Errorf("extended expiry: %v", err)
	}
	sig := []byte(q.Get("sig"))
	sig[3] ^= 1
	if err := s.Check(name, url.Values{"exp": q["exp"], "sig": {string(sig)}}); err != ErrBadSignature {
		t.Errorf("flipped signature: %v", err)
	}
	if err := s.Check(name, url.Values{"exp": q["exp"], "sig": {q.Get("sig"), q.Get("sig")}}); err != ErrBadSignature {
		t.Errorf("repeated sig: %v", err)
	}
	if err := s.Check(name, url.Values{}); err != ErrNoSignature {
		t.Errorf("no signature: %v", err)
	}
	other, _ := NewSigner([]byte("another key of 20 by"))
	if err := other.Check(name, q); err != ErrBadSignature {
		t.Errorf("another key: %v", err)
	}
	now = now.Add(time.Hour)
	if err := s.Check(name, q); err != ErrExpired {
		t.Errorf("expired link: %v", err)
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", KeyFileName)
	k1, err := LoadOrCreateKey(path)
	if err != nil || len(k1) != 32 {
		t.Fatalf("created %x, %v", k1, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v", st.Mode(), err)
	}
	k2, err := LoadOrCreateKey(path)
	if err != nil || string(k1) != string(k2) {
		t.Fatal("a second load gave another key")
	}
	if err := os.WriteFile(path, []byte("zz"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateKey(path); err == nil {
		t.Fatal("a corrupt key file loaded")
	}
}

func TestOwners(t *testing.T) {
	mem, err := NewOwners("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mem.Add("f1", "a"); err != nil || !mem.Owns("f1", "a") || mem.Owns("f1", "b") || mem.Owns("f2", "a") {
		t.Fatal("in-memory record")
	}

	path := filepath.Join(t.TempDir(), "sub", OwnersFileName)
	a, err := NewOwners(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewOwners(path) // another process on the same data directory
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"f1", "alice"}, {"f2", "bob"}, {"f1", "bob"}, {"f1", "alice"}} {
		if _, err := a.Add(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	if !b.Owns("f1", "alice") || !b.Owns("f2", "bob") || b.Owns("f2", "alice") {
		t.Fatal("the other process does not see the appended owners")
	}
	data, _ := os.ReadFile(path)
	if string(data) != "f1\talice\nf2\tbob\nf1\tbob\n" {
		t.Fatalf("file %q (a repeated pair must not be written again)", data)
	}
	// Garbage and a partial last line are skipped; the partial one is read
	// once it is complete.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString("no tab here\nbad/name\tx\nf3\tbad token\nf4\tcar")
	f.Close()
	c, err := NewOwners(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Owns("f1", "bob") || c.Owns("f4", "car") || c.Owns("bad/name", "x") || len(c.by) != 2 {
		t.Fatalf("reloaded %v", c.by)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString("ol\n")
	f.Close()
	if !c.Owns("f4", "carol") {
		t.Fatal("the completed line was not read")
	}
	// Prune keeps the live files only, in memory and in the file, and
	// later appends (from any process) still land in the live file.
	if err := c.Prune(func(file string) bool { return file != "f2" }); err != nil {
		t.Fatal(err)
	}
	if c.Owns("f2", "bob") || !c.Owns("f1", "alice") || !c.Owns("f4", "carol") {
		t.Fatalf("after Prune: %v", c.by)
	}
	if _, err := a.Add("f5", "alice"); err != nil {
		t.Fatal(err)
	}
	d, err := NewOwners(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Owns("f2", "bob") || !d.Owns("f5", "alice") || !d.Owns("f1", "bob") || !c.Owns("f5", "alice") {
		t.Fatalf("after Prune and an append: %v", d.by)
	}
	// The limit: Add reports when a prune is due.
	e, _ := NewOwners("")
	e.limit = 2
	due := false
	for i := range 3 {
		due, _ = e.Add(string(rune('a'+i)), "t")
	}
	if !due {
		t.Fatal("no prune due past the limit")
	}
}

// TestLoadOrCreateKeyIn: replicas racing on one store (a directory store
// here, as file:DIR) all end up with the one key the first of them wrote.
func TestLoadOrCreateKeyIn(t *testing.T) {
	dir := t.TempDir()
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		s, err := blob.OpenDir(dir) // one handle per replica
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		wg.Go(func() {
			k, err := LoadOrCreateKeyIn(context.Background(), s, KeyObject)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys {
		if len(k) != 32 || string(k) != string(keys[0]) {
			t.Fatalf("replicas got different keys: %x vs %x", k, keys[0])
		}
	}
	s, _ := blob.OpenDir(dir)
	defer s.Close()
	if _, err := s.Put(context.Background(), KeyObject, []byte("not hex"), blob.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateKeyIn(context.Background(), s, KeyObject); err == nil {
		t.Fatal("a corrupt key object loaded")
	}
}
