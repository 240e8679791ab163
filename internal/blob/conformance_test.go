package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// replicas opens a fresh, empty store location and returns a function that
// opens one more independent Store on it (another replica: its own client or
// directory handle).
type replicas func(t *testing.T) (open func() Store)

// testConformance runs the behaviour every Store must have, on fresh locations.
func testConformance(t *testing.T, fresh replicas) {
	sub := func(name string, f func(t *testing.T, open func() Store)) {
		t.Run(name, func(t *testing.T) { f(t, fresh(t)) })
	}
	sub("RoundTrip", conformRoundTrip)
	sub("Missing", conformMissing)
	sub("InvalidKeys", conformInvalidKeys)
	sub("WriteOnce", conformWriteOnce)
	sub("ConditionalUpdate", conformConditionalUpdate)
	sub("ETag", conformETag)
	sub("Range", conformRange)
	sub("List", conformList)
	sub("Delete", conformDelete)
	sub("UpdateRace", conformUpdateRace)
	sub("CreateRace", conformCreateRace)
	sub("Janitors", conformJanitors)
	sub("ServeContent", conformServeContent)
	sub("Ping", conformPing)
}

func mustPut(t *testing.T, s Store, key string, data []byte, opts PutOptions) Info {
	t.Helper()
	info, err := s.Put(testCtx(t), key, data, opts)
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return info
}

func mustStat(t *testing.T, s Store, key string) Info {
	t.Helper()
	info, err := s.Stat(testCtx(t), key)
	if err != nil {
		t.Fatalf("stat %s: %v", key, err)
	}
	return info
}

// readAll reads an object through Get and checks the stream is what it claims.
func readAll(t *testing.T, s Store, key string, opts GetOptions) ([]byte, *Object) {
	t.Helper()
	obj, err := s.Get(testCtx(t), key, opts)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer obj.Close()
	data, err := io.ReadAll(obj)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	if int64(len(data)) != obj.Length {
		t.Fatalf("read %s: %d bytes, Length says %d", key, len(data), obj.Length)
	}
	return data, obj
}

func listKeys(t *testing.T, s Store, prefix string) []string {
	t.Helper()
	keys := []string{}
	if err := s.List(testCtx(t), prefix, func(i Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		t.Fatalf("list %q: %v", prefix, err)
	}
	return keys
}

func wantKind(t *testing.T, what string, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("%s: got error %v, want kind %v", what, err, kind)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: %T is not a *blob.Error", what, err)
	}
}

func conformRoundTrip(t *testing.T, open func() Store) {
	s := open()
	all := make([]byte, 256*3)
	for i := range all {
		all[i] = byte(i)
	}
	for _, c := range []struct {
		key  string
		data []byte
	}{
		{"downloads/0123456789ab_report.pdf", []byte("%PDF-1.7 not really")},
		{"state/toggles.json", []byte(`{"disabled":[]}`)},
		{"empty", nil},
		{"bytes/all", all},
	} {
		put := mustPut(t, s, c.key, c.data, PutOptions{})
		sum := sha256.Sum256(c.data)
		if put.Key != c.key || put.Size != int64(len(c.data)) || put.ETag == "" || put.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("put %s: %+v", c.key, put)
		}
		st := mustStat(t, s, c.key)
		if st.Key != c.key || st.Size != int64(len(c.data)) || st.ETag != put.ETag || st.ModTime.IsZero() || st.SHA256 != put.SHA256 {
			t.Errorf("stat %s: %+v after put %+v", c.key, st, put)
		}
		got, obj := readAll(t, s, c.key, GetOptions{})
		if !bytes.Equal(got, c.data) {
			t.Errorf("get %s: %q, want %q", c.key, got, c.data)
		}
		if obj.Info != st || obj.Offset != 0 || obj.Length != st.Size {
			t.Errorf("get %s: %+v, stat %+v", c.key, obj, st)
		}
		// Another replica sees the same object.
		if o := mustStat(t, open(), c.key); o != st {
			t.Errorf("stat %s on another replica: %+v, want %+v", c.key, o, st)
		}
	}
}

func conformMissing(t *testing.T, open func() Store) {
	s := open()
	ctx := testCtx(t)
	_, err := s.Stat(ctx, "no/such")
	wantKind(t, "stat", err, ErrNotFound)
	_, err = s.Get(ctx, "no/such", GetOptions{})
	wantKind(t, "get", err, ErrNotFound)
	_, err = s.Get(ctx, "no/such", GetOptions{Range: &Range{Offset: 1, Length: 1}})
	wantKind(t, "get range", err, ErrNotFound)
	if err := s.Delete(ctx, "no/such"); err != nil {
		t.Errorf("delete of a missing key: %v", err)
	}
	if keys := listKeys(t, s, "no/"); len(keys) != 0 {
		t.Errorf("list of an empty prefix: %q", keys)
	}
	// A key that is a "directory" of other keys is not an object.
	mustPut(t, s, "dir/file", []byte("x"), PutOptions{})
	_, err = s.Stat(ctx, "dir")
	wantKind(t, "stat of a key's parent", err, ErrNotFound)
	_, err = s.Stat(ctx, "dir/file/below")
	wantKind(t, "stat below an object", err, ErrNotFound)
}

func conformInvalidKeys(t *testing.T, open func() Store) {
	s := open()
	ctx := testCtx(t)
	for _, k := range []string{"", "/abs", "a//b", "a/", ".hidden", "a/.blob/locks/00", "..", "a/../b", "sp ace", "ümlaut", "a\\b", "%2e", strings.Repeat("a", MaxKeyLen+1)} {
		_, err := s.Put(ctx, k, []byte("x"), PutOptions{})
		wantKind(t, "put "+strconv.Quote(k), err, ErrInvalidKey)
		_, err = s.Get(ctx, k, GetOptions{})
		wantKind(t, "get "+strconv.Quote(k), err, ErrInvalidKey)
		_, err = s.Stat(ctx, k)
		wantKind(t, "stat "+strconv.Quote(k), err, ErrInvalidKey)
		wantKind(t, "delete "+strconv.Quote(k), s.Delete(ctx, k), ErrInvalidKey)
	}
	for _, p := range []string{"/", "a//", ".x", "a/../"} {
		wantKind(t, "list "+strconv.Quote(p), s.List(ctx, p, func(Info) error { return nil }), ErrInvalidKey)
	}
	if _, err := s.Put(ctx, "k", nil, PutOptions{IfMatch: "x", IfNoneMatch: true}); err == nil {
		t.Error("IfMatch with IfNoneMatch accepted")
	}
}

func conformWriteOnce(t *testing.T, open func() Store) {
	a, b := open(), open()
	ctx := testCtx(t)
	first := mustPut(t, a, "plans/p1.json", []byte(`{"v":1}`), PutOptions{IfNoneMatch: true})
	for _, s := range []Store{a, b} {
		_, err := s.Put(ctx, "plans/p1.json", []byte(`{"v":2}`), PutOptions{IfNoneMatch: true})
		wantKind(t, "second create", err, ErrPreconditionFailed)
	}
	got, obj := readAll(t, b, "plans/p1.json", GetOptions{})
	if string(got) != `{"v":1}` || obj.ETag != first.ETag {
		t.Errorf("after a refused create: %q etag %s, want the first write (etag %s)", got, obj.ETag, first.ETag)
	}
	// Deleted, the key is free again.
	if err := a.Delete(ctx, "plans/p1.json"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, b, "plans/p1.json", []byte(`{"v":3}`), PutOptions{IfNoneMatch: true})
}

func conformConditionalUpdate(t *testing.T, open func() Store) {
	a, b := open(), open()
	ctx := testCtx(t)
	v1 := mustPut(t, a, "state/toggles.json", []byte(`{"disabled":[]}`), PutOptions{IfNoneMatch: true})
	v2 := mustPut(t, b, "state/toggles.json", []byte(`{"disabled":["calculate"]}`), PutOptions{IfMatch: v1.ETag})
	if v2.ETag == v1.ETag {
		t.Fatalf("the ETag did not change with the content: %s", v2.ETag)
	}
	// A writer still holding v1 lost the race.
	_, err := a.Put(ctx, "state/toggles.json", []byte(`{"disabled":["hash_text"]}`), PutOptions{IfMatch: v1.ETag})
	wantKind(t, "stale IfMatch", err, ErrPreconditionFailed)
	got, _ := readAll(t, a, "state/toggles.json", GetOptions{})
	if string(got) != `{"disabled":["calculate"]}` {
		t.Errorf("content %q, want the winner's", got)
	}
	_, err = a.Put(ctx, "state/none.json", []byte(`{}`), PutOptions{IfMatch: v1.ETag})
	wantKind(t, "IfMatch on a missing key", err, ErrNotFound)
	if _, err := a.Stat(ctx, "state/none.json"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a refused IfMatch created the key: %v", err)
	}
}

func conformETag(t *testing.T, open func() Store) {
	s := open()
	put := mustPut(t, s, "e/obj", []byte("content one"), PutOptions{})
	var listed []Info
	_ = s.List(testCtx(t), "e/", func(i Info) error { listed = append(listed, i); return nil })
	for i := 0; i < 3; i++ {
		if st := mustStat(t, s, "e/obj"); st.ETag != put.ETag {
			t.Fatalf("stat %d: ETag %s, put said %s", i, st.ETag, put.ETag)
		}
		if _, obj := readAll(t, s, "e/obj", GetOptions{}); obj.ETag != put.ETag {
			t.Fatalf("get %d: ETag %s, put said %s", i, obj.ETag, put.ETag)
		}
	}
	if len(listed) != 1 || listed[0].ETag != "" && listed[0].ETag != put.ETag {
		t.Fatalf("list: %+v, put ETag %s", listed, put.ETag)
	}
	seen := map[string]bool{put.ETag: true}
	for _, c := range []string{"content two", "content one!", "Content one"} {
		p := mustPut(t, s, "e/obj", []byte(c), PutOptions{})
		if seen[p.ETag] {
			t.Fatalf("content %q got an ETag already used for other content: %s", c, p.ETag)
		}
		seen[p.ETag] = true
		if st := mustStat(t, s, "e/obj"); st.ETag != p.ETag {
			t.Fatalf("stat after put of %q: %s, put said %s", c, st.ETag, p.ETag)
		}
	}
}

func conformRange(t *testing.T, open func() Store) {
	s := open()
	ctx := testCtx(t)
	data := make([]byte, 1000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	put := mustPut(t, s, "r/obj", data, PutOptions{})
	for _, c := range []struct {
		r        Range
		off, len int64
	}{
		{Range{0, 1}, 0, 1},
		{Range{10, 100}, 10, 100},
		{Range{990, 100}, 990, 10}, // cut at the end
		{Range{500, -1}, 500, 500},
		{Range{0, -1}, 0, 1000},
		{Range{999, 1}, 999, 1},
	} {
		got, obj := readAll(t, s, "r/obj", GetOptions{Range: &c.r})
		if obj.Offset != c.off || obj.Length != c.len || obj.Size != 1000 || obj.ETag != put.ETag {
			t.Errorf("range %+v: offset %d length %d size %d etag %s", c.r, obj.Offset, obj.Length, obj.Size, obj.ETag)
		}
		if !bytes.Equal(got, data[c.off:c.off+c.len]) {
			t.Errorf("range %+v: wrong bytes", c.r)
		}
	}
	for _, r := range []Range{{1000, 1}, {1000, -1}, {5000, 10}, {-1, 5}, {3, 0}} {
		_, err := s.Get(ctx, "r/obj", GetOptions{Range: &r})
		wantKind(t, fmt.Sprintf("range %+v", r), err, ErrInvalidRange)
	}
	// Conditions.
	_, err := s.Get(ctx, "r/obj", GetOptions{IfNoneMatch: put.ETag})
	wantKind(t, "IfNoneMatch current", err, ErrNotModified)
	if got, _ := readAll(t, s, "r/obj", GetOptions{IfNoneMatch: "0000", Range: &Range{0, 3}}); !bytes.Equal(got, data[:3]) {
		t.Error("IfNoneMatch with another ETag did not read")
	}
	_, err = s.Get(ctx, "r/obj", GetOptions{IfMatch: "0000"})
	wantKind(t, "IfMatch other", err, ErrPreconditionFailed)
	if got, _ := readAll(t, s, "r/obj", GetOptions{IfMatch: put.ETag, Range: &Range{997, -1}}); !bytes.Equal(got, data[997:]) {
		t.Error("IfMatch current did not read")
	}
}

func conformList(t *testing.T, open func() Store) {
	s := open()
	sizes := map[string]int{"a/1": 1, "a/2": 22, "a/b/3": 333, "a-c": 4, "ab": 5, "b": 6}
	for k, n := range sizes {
		mustPut(t, s, k, bytes.Repeat([]byte("x"), n), PutOptions{})
	}
	for _, c := range []struct {
		prefix string
		want   []string
	}{
		{"", []string{"a-c", "a/1", "a/2", "a/b/3", "ab", "b"}},
		{"a/", []string{"a/1", "a/2", "a/b/3"}},
		{"a", []string{"a-c", "a/1", "a/2", "a/b/3", "ab"}},
		{"a/b", []string{"a/b/3"}},
		{"a/b/", []string{"a/b/3"}},
		{"b", []string{"b"}},
		{"zzz/", []string{}},
		{"a/1/", []string{}},
	} {
		if got := listKeys(t, s, c.prefix); !slices.Equal(got, c.want) {
			t.Errorf("list %q: %q, want %q", c.prefix, got, c.want)
		}
	}
	var infos []Info
	_ = s.List(testCtx(t), "a/", func(i Info) error { infos = append(infos, i); return nil })
	for _, i := range infos {
		if i.Size != int64(sizes[i.Key]) || i.ModTime.IsZero() {
			t.Errorf("list entry %+v", i)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := s.List(testCtx(t), "", func(Info) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("a callback error: List returned %v after %d calls", err, n)
	}
}

func conformDelete(t *testing.T, open func() Store) {
	a, b := open(), open()
	ctx := testCtx(t)
	mustPut(t, a, "d/x", []byte("x"), PutOptions{})
	mustPut(t, a, "d/y", []byte("y"), PutOptions{})
	if err := b.Delete(ctx, "d/x"); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, "d/x"); err != nil {
		t.Fatalf("deleting an object another replica deleted: %v", err)
	}
	_, err := a.Stat(ctx, "d/x")
	wantKind(t, "stat after delete", err, ErrNotFound)
	if got := listKeys(t, a, "d/"); !slices.Equal(got, []string{"d/y"}) {
		t.Errorf("list after delete: %q", got)
	}
	if err := a.Delete(ctx, "d"); err != nil {
		t.Errorf("delete of a key's parent: %v", err)
	}
	if got := listKeys(t, a, "d/"); !slices.Equal(got, []string{"d/y"}) {
		t.Errorf("list after deleting the parent key: %q", got)
	}
}

// increment is one read-modify-write of a decimal counter, retried until its
// conditional write wins. It returns how many attempts lost.
func increment(ctx context.Context, s Store, key string) (lost int, err error) {
	for {
		var etag string
		n := 0
		obj, err := s.Get(ctx, key, GetOptions{})
		switch {
		case errors.Is(err, ErrNotFound):
		case err != nil:
			return lost, err
		default:
			data, err := io.ReadAll(obj)
			_ = obj.Close()
			if err != nil {
				return lost, err
			}
			if n, err = strconv.Atoi(string(data)); err != nil {
				return lost, fmt.Errorf("counter %q: %w", data, err)
			}
			etag = obj.ETag
		}
		opts := PutOptions{IfMatch: etag, IfNoneMatch: etag == ""}
		_, err = s.Put(ctx, key, []byte(strconv.Itoa(n+1)), opts)
		if errors.Is(err, ErrPreconditionFailed) || errors.Is(err, ErrNotFound) {
			lost++
			continue
		}
		return lost, err
	}
}

// conformUpdateRace: writers on two replicas increment one counter with
// conditional writes; no increment may be lost.
func conformUpdateRace(t *testing.T, open func() Store) {
	const writersPerReplica, rounds = 3, 8
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 2*writersPerReplica)
	var mu sync.Mutex
	lost := 0
	for _, s := range []Store{open(), open()} {
		for w := 0; w < writersPerReplica; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := 0; r < rounds; r++ {
					l, err := increment(ctx, s, "race/counter")
					mu.Lock()
					lost += l
					mu.Unlock()
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, _ := readAll(t, open(), "race/counter", GetOptions{})
	if want := strconv.Itoa(2 * writersPerReplica * rounds); string(got) != want {
		t.Fatalf("counter %s, want %s: updates were lost", got, want)
	}
	t.Logf("%d increments, %d lost attempts retried", 2*writersPerReplica*rounds, lost)
}

// conformCreateRace: many writers create one key with IfNoneMatch; exactly one
// wins and its content is what is stored.
func conformCreateRace(t *testing.T, open func() Store) {
	const keys, writers = 4, 6
	ctx := testCtx(t)
	stores := []Store{open(), open()}
	for k := 0; k < keys; k++ {
		key := "keys/signing-" + itoa(k)
		var wg sync.WaitGroup
		results := make([]error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, results[w] = stores[w%2].Put(ctx, key, []byte("writer "+itoa(w)), PutOptions{IfNoneMatch: true})
			}()
		}
		wg.Wait()
		winner := -1
		for w, err := range results {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("%s: writers %d and %d both created it", key, winner, w)
			case err == nil:
				winner = w
			case !errors.Is(err, ErrPreconditionFailed):
				t.Fatalf("%s: writer %d: %v", key, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("%s: nobody won", key)
		}
		if got, _ := readAll(t, stores[1], key, GetOptions{}); string(got) != "writer "+itoa(winner) {
			t.Fatalf("%s holds %q, the winner was %d", key, got, winner)
		}
	}
}

// conformJanitors: two janitors expire one prefix at once; old objects go, the
// fresh one and objects outside the prefix stay, neither janitor errs.
func conformJanitors(t *testing.T, open func() Store) {
	a, b := open(), open()
	ctx := testCtx(t)
	var old []string
	var newest time.Time
	for i := 0; i < 12; i++ {
		key := "exp/old-" + itoa(i)
		mustPut(t, a, key, []byte(key), PutOptions{})
		old = append(old, key)
		if m := mustStat(t, a, key).ModTime; m.After(newest) {
			newest = m
		}
	}
	mustPut(t, a, "keep/old", []byte("outside the prefix"), PutOptions{})
	// The store's clock (S3: whole seconds) must move past the old objects.
	var fresh Info
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		mustPut(t, a, "exp/fresh", []byte("fresh"), PutOptions{})
		if fresh = mustStat(t, a, "exp/fresh"); fresh.ModTime.After(newest) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store's clock did not pass %v", newest)
		}
	}
	var wg sync.WaitGroup
	stats := make([]ExpireStats, 2)
	errs := make([]error, 2)
	for i, s := range []Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stats[i], errs[i] = Expire(ctx, s, "exp/", fresh.ModTime)
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("janitor %d: %v", i, errs[i])
		}
		if stats[i].Deleted+stats[i].Skipped > len(old) {
			t.Errorf("janitor %d: %+v for %d old objects", i, stats[i], len(old))
		}
	}
	if stats[0].Deleted+stats[1].Deleted < len(old) {
		t.Errorf("janitors deleted %d+%d of %d old objects", stats[0].Deleted, stats[1].Deleted, len(old))
	}
	if got := listKeys(t, b, "exp/"); !slices.Equal(got, []string{"exp/fresh"}) {
		t.Errorf("after the janitors: %q, want only exp/fresh", got)
	}
	if got := listKeys(t, b, "keep/"); !slices.Equal(got, []string{"keep/old"}) {
		t.Errorf("outside the prefix: %q", got)
	}
	// A third pass finds nothing to do.
	st, err := Expire(ctx, b, "exp/", fresh.ModTime)
	if err != nil || st.Deleted != 0 || st.Scanned != 1 {
		t.Errorf("third pass: %+v, %v", st, err)
	}
}

// conformServeContent: http.ServeContent answers full, ranged, multi-range and
// conditional requests from a ReadSeeker.
func conformServeContent(t *testing.T, open func() Store) {
	s := open()
	data := []byte(strings.Repeat("0123456789", 50))
	mustPut(t, s, "dl/file.txt", data, PutOptions{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, err := s.Stat(r.Context(), "dl/file.txt")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		rs := NewReadSeeker(r.Context(), s, info)
		defer rs.Close()
		w.Header().Set("ETag", `"`+info.ETag+`"`)
		http.ServeContent(w, r, "file.txt", time.Time{}, rs)
	}))
	defer srv.Close()
	get := func(h map[string]string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL, nil)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	resp, body := get(nil)
	if resp.StatusCode != 200 || !bytes.Equal(body, data) {
		t.Errorf("full: %d, %d bytes", resp.StatusCode, len(body))
	}
	etag := resp.Header.Get("ETag")
	resp, body = get(map[string]string{"Range": "bytes=495-"})
	if resp.StatusCode != 206 || string(body) != "56789" || resp.Header.Get("Content-Range") != "bytes 495-499/500" {
		t.Errorf("range: %d %q %q", resp.StatusCode, body, resp.Header.Get("Content-Range"))
	}
	resp, body = get(map[string]string{"Range": "bytes=0-1,10-12"})
	_, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var parts []string
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		b, _ := io.ReadAll(p)
		parts = append(parts, string(b))
	}
	if resp.StatusCode != 206 || !slices.Equal(parts, []string{"01", "012"}) {
		t.Errorf("multi-range: %d %q", resp.StatusCode, parts)
	}
	if resp, _ = get(map[string]string{"If-None-Match": etag}); resp.StatusCode != 304 {
		t.Errorf("If-None-Match: %d", resp.StatusCode)
	}
	if resp, _ = get(map[string]string{"Range": "bytes=600-"}); resp.StatusCode != 416 {
		t.Errorf("range past the end: %d", resp.StatusCode)
	}
	// A ReadSeeker pinned to a replaced version refuses to mix versions.
	info := mustStat(t, s, "dl/file.txt")
	mustPut(t, s, "dl/file.txt", []byte(strings.Repeat("x", 500)), PutOptions{})
	rs := NewReadSeeker(testCtx(t), s, info)
	defer rs.Close()
	_, err := io.ReadAll(rs)
	wantKind(t, "read of a replaced version", err, ErrPreconditionFailed)
}

func conformPing(t *testing.T, open func() Store) {
	s := open()
	h := s.Ping(testCtx(t))
	if !h.OK || h.Kind != s.Kind() || h.Reason != "" || h.Err != nil {
		t.Fatalf("ping: %+v", h)
	}
}
