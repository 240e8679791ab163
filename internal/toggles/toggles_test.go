package toggles

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/precisiond/precisiond/tools"
)

func newReg(t *testing.T) *tools.Registry {
	t.Helper()
	return tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
}

func TestOpenMissingFileEnablesEverything(t *testing.T) {
	reg := newReg(t)
	s, unknown, err := Open(t.TempDir(), reg)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 0 || len(reg.Disabled()) != 0 {
		t.Fatalf("unknown %v disabled %v, want none", unknown, reg.Disabled())
	}
	if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
		t.Fatalf("Open must not create the file; stat: %v", err)
	}
}

func TestSetPersistsInReferenceFormat(t *testing.T) {
	dir := t.TempDir()
	reg := newReg(t)
	s, _, err := Open(dir, reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"roman_numeral", "gcd_lcm", "hash_text"} {
		prev, ok, err := s.Set(name, false)
		if err != nil || !ok || !prev {
			t.Fatalf("Set(%s,false) = %v %v %v", name, prev, ok, err)
		}
	}
	if _, _, err := s.Set("hash_text", true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, FileName))
	if want := `{"disabled":["gcd_lcm","roman_numeral"]}`; string(got) != want {
		t.Fatalf("file = %s, want %s", got, want)
	}
	// A second registry opening the same directory sees the same state.
	reg2 := newReg(t)
	if _, _, err := Open(dir, reg2); err != nil {
		t.Fatal(err)
	}
	if got, want := reg2.Disabled(), []string{"gcd_lcm", "roman_numeral"}; !slices.Equal(got, want) {
		t.Fatalf("reloaded disabled = %v, want %v", got, want)
	}
	if reg2.Enabled("gcd_lcm") || !reg2.Enabled("hash_text") {
		t.Fatal("reloaded Enabled disagrees with the file")
	}
	// No temp files left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the toggle file", len(entries))
	}
}

func TestSetUnknownAndNoop(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := Open(dir, newReg(t))
	if _, ok, err := s.Set("no_such_tool", false); ok || err != nil {
		t.Fatalf("unknown tool: ok=%v err=%v", ok, err)
	}
	prev, ok, err := s.Set("gcd_lcm", true) // already enabled: no write
	if !prev || !ok || err != nil {
		t.Fatalf("noop: %v %v %v", prev, ok, err)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
		t.Fatal("a no-op toggle wrote the file")
	}
}

func TestOpenUnknownNamesIgnored(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"disabled": ["gone_tool", "gcd_lcm"]}`), 0o644)
	reg := newReg(t)
	_, unknown, err := Open(dir, reg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(unknown, []string{"gone_tool"}) || !slices.Equal(reg.Disabled(), []string{"gcd_lcm"}) {
		t.Fatalf("unknown %v disabled %v", unknown, reg.Disabled())
	}
}

// TestForeignNamesSurviveWrites: a disabled tool this registry does not
// have (one outside its --tools allowlist, served by another process on the
// same data directory) stays in the file across this process's toggles and
// reloads, and does not count as a change.
func TestForeignNamesSurviveWrites(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"disabled": ["hash_text", "gcd_lcm"]}`), 0o644)
	list, err := tools.Select(tools.Builtin(tools.Deps{}), []string{"gcd_lcm", "date_*"})
	if err != nil {
		t.Fatal(err)
	}
	narrow := tools.NewRegistry(list, tools.Options{})
	s, unknown, err := Open(dir, narrow)
	if err != nil || !slices.Equal(unknown, []string{"hash_text"}) {
		t.Fatalf("unknown %v, %v", unknown, err)
	}
	if _, _, err := s.Set("date_add", false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Set("gcd_lcm", true); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, FileName))
	if got, _ := Parse(b); !slices.Equal(got, []string{"date_add", "hash_text"}) {
		t.Fatalf("file holds %v after this process's writes", got)
	}
	// Another process adds a name of its own; this one reloads.
	os.WriteFile(filepath.Join(dir, FileName), []byte(`{"disabled": ["date_add", "hash_text", "json_query"]}`), 0o644)
	if changed, _, err := s.Reload(); err != nil || changed {
		t.Fatalf("a change of foreign names only: changed %v, %v", changed, err)
	}
	if _, _, err := s.Set("gcd_lcm", false); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, FileName))
	if got, _ := Parse(b); !slices.Equal(got, []string{"date_add", "gcd_lcm", "hash_text", "json_query"}) {
		t.Fatalf("file holds %v", got)
	}
}

func TestOpenCorruptFileIsAnError(t *testing.T) {
	for _, content := range []string{
		``, `{`, `[]`, `{"disabled":"gcd_lcm"}`, `{"disabled":[1]}`, `{"enabled":[]}`,
		`{"disabled":[],"x":1}`, `{"disabled":[]} {}`, `{"disabled":[""]}`, `{"disabled":null}`,
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, FileName), []byte(content), 0o644)
		if _, _, err := Open(dir, newReg(t)); err == nil || !strings.Contains(err.Error(), FileName) {
			t.Errorf("content %q: err = %v, want an error naming the file", content, err)
		}
	}
}

func TestSetWriteFailureRollsBack(t *testing.T) {
	dir := t.TempDir()
	reg := newReg(t)
	s, _, _ := Open(dir, reg)
	// A directory where the file should be makes the rename fail.
	if err := os.Mkdir(s.Path(), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Set("gcd_lcm", false); err == nil {
		t.Fatal("Set succeeded although the file cannot be written")
	}
	if !reg.Enabled("gcd_lcm") {
		t.Fatal("registry kept a state that was not persisted")
	}
}

func TestReloadFollowsAnotherWriter(t *testing.T) {
	dir := t.TempDir()
	regA, regB := newReg(t), newReg(t)
	a, _, _ := Open(dir, regA)
	b, _, _ := Open(dir, regB)
	if _, _, err := a.Set("calculate", false); err != nil {
		t.Fatal(err)
	}
	changed, _, err := b.Reload()
	if err != nil || !changed || regB.Enabled("calculate") {
		t.Fatalf("Reload: changed=%v err=%v enabled=%v", changed, err, regB.Enabled("calculate"))
	}
	changed, _, _ = b.Reload()
	if changed {
		t.Fatal("second Reload reported a change")
	}
	// A toggle through a applies at b's next Reload.
	if _, _, err := a.Toggle("calculate"); err != nil {
		t.Fatal(err)
	}
	if changed, _, err := b.Reload(); err != nil || !changed || !regB.Enabled("calculate") {
		t.Fatalf("Reload after Toggle: changed=%v err=%v enabled=%v", changed, err, regB.Enabled("calculate"))
	}
}

// TestConcurrentTogglesAllPersist: n concurrent toggles through the store all
// take effect, and the file holds the final state.
func TestConcurrentTogglesAllPersist(t *testing.T) {
	dir := t.TempDir()
	reg := newReg(t)
	s, _, _ := Open(dir, reg)
	var wg sync.WaitGroup
	for range 7 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok, err := s.Toggle("gcd_lcm"); !ok || err != nil {
				t.Errorf("Toggle: ok=%v err=%v", ok, err)
			}
		}()
	}
	wg.Wait()
	if reg.Enabled("gcd_lcm") {
		t.Fatal("7 toggles left the tool enabled")
	}
	other := newReg(t)
	if _, _, err := Open(dir, other); err != nil || other.Enabled("gcd_lcm") {
		t.Fatalf("the file does not hold the final state: err=%v enabled=%v", err, other.Enabled("gcd_lcm"))
	}
	if _, ok, _ := s.Toggle("nope"); ok {
		t.Fatal("Toggle of an unknown tool reported ok")
	}
}

// TestConcurrentSetLastStateWins: whatever order concurrent toggles run in, the
// file ends up equal to the registry's final state.
func TestConcurrentSetLastStateWins(t *testing.T) {
	dir := t.TempDir()
	reg := newReg(t)
	s, _, _ := Open(dir, reg)
	names := reg.Names()
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.Set(names[i%len(names)], i%3 == 0); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, _ := os.ReadFile(s.Path())
	if want := Encode(reg.Disabled()); string(got) != string(want) {
		t.Fatalf("file %s, registry %s", got, want)
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	for _, names := range [][]string{nil, {"b", "a", "b"}, {"x"}} {
		got, err := Parse(Encode(names))
		want := slices.Compact(slices.Sorted(slices.Values(names)))
		if err != nil || !slices.Equal(got, want) || (len(want) == 0 && len(got) != 0) {
			t.Fatalf("round trip %v: %v %v", names, got, err)
		}
	}
	if string(Encode(nil)) != `{"disabled":[]}` {
		t.Fatalf("Encode(nil) = %s", Encode(nil))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"disabled":["a","b"]}`))
	f.Add([]byte(`{"disabled": []}`))
	f.Add([]byte(`{"disabled":[1]}`))
	f.Add([]byte(`nul`))
	f.Fuzz(func(t *testing.T, data []byte) {
		names, err := Parse(data)
		if err != nil {
			return
		}
		again, err := Parse(Encode(names))
		if err != nil || !slices.Equal(again, names) {
			t.Fatalf("round trip %q: %v %v", names, again, err)
		}
	})
}

func BenchmarkSet(b *testing.B) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	s, _, err := Open(b.TempDir(), reg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := s.Set("gcd_lcm", i%2 == 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReloadUnchanged(b *testing.B) {
	reg := tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
	dir := b.TempDir()
	s, _, _ := Open(dir, reg)
	s.Set("gcd_lcm", false)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Reload(); err != nil {
			b.Fatal(err)
		}
	}
}
