package toggles

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/precisiond/precisiond/internal/blob"
	"github.com/precisiond/precisiond/internal/s3test"
	"github.com/precisiond/precisiond/internal/s3test/s3store"
	"github.com/precisiond/precisiond/internal/testhttp"
	"github.com/precisiond/precisiond/tools"
)

func newReg(t testing.TB) *tools.Registry {
	t.Helper()
	return tools.NewRegistry(tools.Builtin(tools.Deps{}), tools.Options{})
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// backend opens fresh stores on one location: a directory, or a prefix of a
// real S3 server. Every call of open is another replica's handle.
type backend struct {
	name string
	open func() blob.Store
	// raw reads the toggle object's bytes as the store holds them (nil: absent).
	raw func() []byte
	// put writes the object's bytes behind the toggles' back.
	put func(data []byte)
}

// openDir opens a directory store, closed when the test ends.
func openDir(t testing.TB, dir string) blob.Store {
	t.Helper()
	s, err := blob.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func dirBackend(t *testing.T) backend {
	dir := t.TempDir()
	open := func() blob.Store { return openDir(t, dir) }
	return backend{name: "file", open: open,
		raw: func() []byte {
			b, err := os.ReadFile(filepath.Join(dir, FileName))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return b
		},
		put: func(data []byte) {
			if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}}
}

func s3Backend(t *testing.T, srv *s3test.Server) backend {
	open := s3store.Opener(t, srv)
	direct := open()
	return backend{name: "s3", open: open,
		raw: func() []byte {
			obj, err := direct.Get(ctxT(t), Key, blob.GetOptions{})
			if errors.Is(err, blob.ErrNotFound) {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			defer obj.Close()
			b, err := io.ReadAll(obj)
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		put: func(data []byte) {
			if _, err := direct.Put(ctxT(t), Key, data, blob.PutOptions{}); err != nil {
				t.Fatal(err)
			}
		}}
}

// onBoth runs f against a directory store and a real S3 server.
func onBoth(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run("file", func(t *testing.T) { f(t, dirBackend(t)) })
	t.Run("s3", func(t *testing.T) { f(t, s3Backend(t, s3test.Start(t))) })
}

func load(t *testing.T, b backend, reg Registry) *Store {
	t.Helper()
	s := New(b.open(), reg)
	if _, err := s.Load(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLoadMissingEnablesEverything(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		reg := newReg(t)
		s := New(b.open(), reg)
		if s.Loaded() {
			t.Fatal("loaded before Load")
		}
		unknown, err := s.Load(ctxT(t))
		if err != nil || len(unknown) != 0 || len(reg.Disabled()) != 0 || !s.Loaded() {
			t.Fatalf("unknown %v disabled %v err %v", unknown, reg.Disabled(), err)
		}
		if b.raw() != nil {
			t.Fatal("Load must not create the object")
		}
	})
}

func TestSetPersistsInReferenceFormat(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		reg := newReg(t)
		s := load(t, b, reg)
		ctx := ctxT(t)
		for _, name := range []string{"roman_numeral", "gcd_lcm", "hash_text"} {
			prev, ok, err := s.Set(ctx, name, false)
			if err != nil || !ok || !prev {
				t.Fatalf("Set(%s,false) = %v %v %v", name, prev, ok, err)
			}
		}
		if _, _, err := s.Set(ctx, "hash_text", true); err != nil {
			t.Fatal(err)
		}
		if got, want := string(b.raw()), `{"disabled":["gcd_lcm","roman_numeral"]}`; got != want {
			t.Fatalf("object = %s, want %s", got, want)
		}
		if reg.Enabled("gcd_lcm") || !reg.Enabled("hash_text") {
			t.Fatal("the registry disagrees with what was stored")
		}
		// A second replica loading the same store sees the same state.
		reg2 := newReg(t)
		load(t, b, reg2)
		if got, want := reg2.Disabled(), []string{"gcd_lcm", "roman_numeral"}; !slices.Equal(got, want) {
			t.Fatalf("loaded disabled = %v, want %v", got, want)
		}
	})
}

func TestSetUnknownAndNoop(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		s := load(t, b, newReg(t))
		ctx := ctxT(t)
		if _, ok, err := s.Set(ctx, "no_such_tool", false); ok || err != nil {
			t.Fatalf("unknown tool: ok=%v err=%v", ok, err)
		}
		if _, ok, _ := s.Toggle(ctx, "nope"); ok {
			t.Fatal("Toggle of an unknown tool reported ok")
		}
		prev, ok, err := s.Set(ctx, "gcd_lcm", true) // already enabled: no write
		if !prev || !ok || err != nil {
			t.Fatalf("noop: %v %v %v", prev, ok, err)
		}
		if b.raw() != nil {
			t.Fatal("a no-op toggle wrote the object")
		}
	})
}

// TestForeignNamesSurviveWrites: a disabled tool this registry does not have
// (one outside its --tools allowlist, served by another replica) stays in the
// object across this replica's toggles and reloads, and does not count as a
// change.
func TestForeignNamesSurviveWrites(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		b.put([]byte(`{"disabled": ["hash_text", "gcd_lcm"]}`))
		list, err := tools.Select(tools.Builtin(tools.Deps{}), []string{"gcd_lcm", "date_*"})
		if err != nil {
			t.Fatal(err)
		}
		narrow := tools.NewRegistry(list, tools.Options{})
		s := New(b.open(), narrow)
		ctx := ctxT(t)
		if unknown, err := s.Load(ctx); err != nil || !slices.Equal(unknown, []string{"hash_text"}) {
			t.Fatalf("unknown %v, %v", unknown, err)
		}
		if _, _, err := s.Set(ctx, "date_add", false); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Set(ctx, "gcd_lcm", true); err != nil {
			t.Fatal(err)
		}
		if got, _ := Parse(b.raw()); !slices.Equal(got, []string{"date_add", "hash_text"}) {
			t.Fatalf("object holds %v after this replica's writes", got)
		}
		// Another replica adds a name of its own; this one reloads.
		b.put([]byte(`{"disabled": ["date_add", "hash_text", "json_query"]}`))
		if changed, _, err := s.Reload(ctx); err != nil || changed {
			t.Fatalf("a change of foreign names only: changed %v, %v", changed, err)
		}
		if _, _, err := s.Set(ctx, "gcd_lcm", false); err != nil {
			t.Fatal(err)
		}
		if got, _ := Parse(b.raw()); !slices.Equal(got, []string{"date_add", "gcd_lcm", "hash_text", "json_query"}) {
			t.Fatalf("object holds %v", got)
		}
	})
}

func TestLoadCorruptObjectIsAnError(t *testing.T) {
	b := dirBackend(t)
	for _, content := range []string{
		``, `{`, `[]`, `{"disabled":"gcd_lcm"}`, `{"disabled":[1]}`, `{"enabled":[]}`,
		`{"disabled":[],"x":1}`, `{"disabled":[]} {}`, `{"disabled":[""]}`, `{"disabled":null}`,
	} {
		b.put([]byte(content))
		if _, err := New(b.open(), newReg(t)).Load(ctxT(t)); err == nil || !strings.Contains(err.Error(), FileName) || errors.Is(err, blob.ErrUnavailable) {
			t.Errorf("content %q: err = %v, want an error naming the object", content, err)
		}
	}
}

// TestWriteFailureChangesNothing: a toggle the store refuses (a directory in
// the object's place) is store_unavailable and leaves the registry as it was.
func TestWriteFailureChangesNothing(t *testing.T) {
	dir := t.TempDir()
	bs := openDir(t, dir)
	reg := newReg(t)
	s := New(bs, reg)
	if _, err := s.Load(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Set(ctxT(t), "gcd_lcm", false)
	wantNotStored(t, reg, "Set", err, tools.ReasonStoreRefused)
}

// wantNotStored fails unless err (of op on gcd_lcm) is store_unavailable with
// reason, and gcd_lcm is still enabled: the registry never takes a state the
// store did not.
func wantNotStored(t *testing.T, reg *tools.Registry, op string, err error, reason string) {
	t.Helper()
	var te *tools.Error
	if !errors.As(err, &te) || te.Code != tools.CodeStoreUnavailable || te.Reason != reason {
		t.Fatalf("%s: %v, want store_unavailable %s", op, err, reason)
	}
	if !reg.Enabled("gcd_lcm") {
		t.Fatalf("%s: the registry took a state the store did not", op)
	}
}

// TestUnreachableStore: with the store not answering, Load says so (the
// service starts anyway, every tool enabled, not Loaded), a toggle is
// store_unavailable and changes nothing.
func TestUnreachableStore(t *testing.T) {
	env := map[string]string{"AWS_ENDPOINT_URL": "http://" + testhttp.RefusedAddr(t), "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"}
	bs, err := blob.Open(blob.Location{Kind: "s3", Bucket: "fleet"}, blob.Options{Getenv: func(k string) string { return env[k] },
		Timeouts: blob.Timeouts{Op: time.Second, Dial: time.Second, IO: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	reg := newReg(t)
	s := New(bs, reg)
	if _, err := s.Load(ctxT(t)); !errors.Is(err, blob.ErrUnavailable) || s.Loaded() {
		t.Fatalf("Load: %v (loaded %v), want ErrUnavailable", err, s.Loaded())
	}
	_, _, err = s.Toggle(ctxT(t), "gcd_lcm")
	wantNotStored(t, reg, "Toggle", err, tools.ReasonStoreNotAnswering)
}

func TestReloadFollowsAnotherReplica(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		regA, regB := newReg(t), newReg(t)
		a, rb := load(t, b, regA), load(t, b, regB)
		ctx := ctxT(t)
		if _, _, err := a.Set(ctx, "calculate", false); err != nil {
			t.Fatal(err)
		}
		changed, _, err := rb.Reload(ctx)
		if err != nil || !changed || regB.Enabled("calculate") {
			t.Fatalf("Reload: changed=%v err=%v enabled=%v", changed, err, regB.Enabled("calculate"))
		}
		if changed, _, _ = rb.Reload(ctx); changed {
			t.Fatal("second Reload reported a change")
		}
		if _, _, err := a.Toggle(ctx, "calculate"); err != nil {
			t.Fatal(err)
		}
		if changed, _, err := rb.Reload(ctx); err != nil || !changed || !regB.Enabled("calculate") {
			t.Fatalf("Reload after Toggle: changed=%v err=%v enabled=%v", changed, err, regB.Enabled("calculate"))
		}
	})
}

// TestTwoReplicasRaceNoLostUpdate is the race of two admins on two replicas:
// two toggle stores, each with its own store client and registry, write the
// one object at once. Every Set lands (each replica disables its own half of
// the tools), and the toggles of one tool from both sides all count (an odd
// total leaves it disabled): no update is lost, on either kind of store.
func TestTwoReplicasRaceNoLostUpdate(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		regA, regB := newReg(t), newReg(t)
		replicas := []*Store{load(t, b, regA), load(t, b, regB)}
		names := regA.Names()
		var mine [2][]string
		for i, n := range names {
			if n != "gcd_lcm" && i < 16 {
				mine[i%2] = append(mine[i%2], n)
			}
		}
		const toggles = 7 // per replica: 14 in all, plus one more below
		ctx := ctxT(t)
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for r, s := range replicas {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for _, n := range mine[r] {
					if _, _, err := s.Set(ctx, n, false); err != nil {
						errs <- err
					}
				}
			}()
			go func() {
				defer wg.Done()
				for range toggles {
					if _, _, err := s.Toggle(ctx, "gcd_lcm"); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if _, _, err := replicas[0].Toggle(ctx, "gcd_lcm"); err != nil {
			t.Fatal(err)
		}
		want := slices.Concat(mine[0], mine[1], []string{"gcd_lcm"})
		slices.Sort(want)
		got, err := Parse(b.raw())
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("the object holds %v (%v), want %v: an update was lost", got, err, want)
		}
		for _, s := range replicas {
			if _, _, err := s.Reload(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(regA.Disabled(), want) || !slices.Equal(regB.Disabled(), want) {
			t.Fatalf("replicas disagree: %v / %v, want %v", regA.Disabled(), regB.Disabled(), want)
		}
	})
}

// TestConcurrentSetLastStateWins: whatever order concurrent changes through
// one replica run in, the object ends up equal to the registry's state.
func TestConcurrentSetLastStateWins(t *testing.T) {
	b := dirBackend(t)
	reg := newReg(t)
	s := load(t, b, reg)
	names := reg.Names()
	ctx := ctxT(t)
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := s.Set(ctx, names[i%len(names)], i%3 == 0); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, want := string(b.raw()), string(Encode(reg.Disabled())); got != want {
		t.Fatalf("object %s, registry %s", got, want)
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
	s := New(openDir(b, b.TempDir()), newReg(b))
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := s.Set(ctx, "gcd_lcm", i%2 == 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReloadUnchanged is the cost of one poll that finds nothing new
// (a conditional read answered "not modified").
func BenchmarkReloadUnchanged(b *testing.B) {
	s := New(openDir(b, b.TempDir()), newReg(b))
	ctx := context.Background()
	if _, _, err := s.Set(ctx, "gcd_lcm", false); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if changed, _, err := s.Reload(ctx); err != nil || changed {
			b.Fatal(changed, err)
		}
	}
}
