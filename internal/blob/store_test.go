package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestMain doubles as the helper process of the two-process race: run with
// BLOB_HELPER_STORE set, the test binary increments a counter in that store
// instead of running tests.
func TestMain(m *testing.M) {
	if loc := os.Getenv("BLOB_HELPER_STORE"); loc != "" {
		os.Exit(helperIncrement(loc))
	}
	if dir := os.Getenv("BLOB_HELPER_BLOCKED_WRITER"); dir != "" {
		os.Exit(blockedWriter(dir))
	}
	os.Exit(m.Run())
}

// helperIncrement runs BLOB_HELPER_WRITERS goroutines doing BLOB_HELPER_ROUNDS
// increments each of BLOB_HELPER_KEY.
func helperIncrement(locStr string) int {
	loc, err := ParseLocation(locStr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := Open(loc, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	writers, _ := strconv.Atoi(os.Getenv("BLOB_HELPER_WRITERS"))
	rounds, _ := strconv.Atoi(os.Getenv("BLOB_HELPER_ROUNDS"))
	key := os.Getenv("BLOB_HELPER_KEY")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		go func() {
			for r := 0; r < rounds; r++ {
				if _, err := increment(ctx, s, key); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	code := 0
	for w := 0; w < writers; w++ {
		if err := <-errs; err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	return code
}

// raceProcesses: two helper processes (each with several goroutines) and this
// process increment one counter in the store at loc; none is lost.
func raceProcesses(t *testing.T, loc Location, env map[string]string, s Store) {
	const procs, writers, rounds = 2, 3, 6
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "BLOB_HELPER_STORE="+loc.String(), "BLOB_HELPER_KEY=proc/counter",
			"BLOB_HELPER_WRITERS="+itoa(writers), "BLOB_HELPER_ROUNDS="+itoa(rounds))
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	ctx := testCtx(t)
	for r := 0; r < rounds; r++ {
		if _, err := increment(ctx, s, "proc/counter"); err != nil {
			t.Error(err)
			break
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper %d: %v\n%s", i, err, outs[i])
		}
	}
	got, _ := readAll(t, s, "proc/counter", GetOptions{})
	if want := strconv.Itoa(procs*writers*rounds + rounds); string(got) != want {
		t.Fatalf("counter %s, want %s: updates were lost across processes", got, want)
	}
}

func TestDirConformance(t *testing.T) {
	testConformance(t, func(t *testing.T) func() Store {
		dir := filepath.Join(t.TempDir(), "store")
		return func() Store { return openDir(t, dir) }
	})
}

func TestS3Conformance(t *testing.T) {
	v := startVersity(t)
	testConformance(t, func(t *testing.T) func() Store {
		loc := v.location()
		return func() Store { return v.open(t, loc, Timeouts{}) }
	})
}

func TestDirTwoProcessRace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := openDir(t, dir)
	raceProcesses(t, Location{Kind: "file", Dir: dir}, nil, s)
}

func TestS3TwoProcessRace(t *testing.T) {
	v := startVersity(t)
	loc := v.location()
	raceProcesses(t, loc, v.env(), v.open(t, loc, Timeouts{}))
}

// TestS3Unreachable: a store whose server is not listening reports
// ErrUnavailable from every operation and Ping says store_unavailable.
func TestS3Unreachable(t *testing.T) {
	v := startVersity(t)
	loc := v.location()
	s := v.open(t, loc, shortTimeouts)
	mustPut(t, s, "x", []byte("x"), PutOptions{})
	v.stop()
	assertUnavailable(t, s)
}

// TestS3ClosedPort: nothing ever listened on the endpoint's port.
func TestS3ClosedPort(t *testing.T) {
	env := map[string]string{
		"AWS_ENDPOINT_URL":      "http://" + closedAddr(t),
		"AWS_ACCESS_KEY_ID":     versityAccess,
		"AWS_SECRET_ACCESS_KEY": versitySecret,
	}
	s, err := Open(Location{Kind: "s3", Bucket: versityBucket}, Options{Getenv: func(k string) string { return env[k] }, Timeouts: shortTimeouts})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	assertUnavailable(t, s)
}

func assertUnavailable(t *testing.T, s Store) {
	t.Helper()
	ctx := testCtx(t)
	_, err := s.Stat(ctx, "x")
	wantKind(t, "stat", err, ErrUnavailable)
	_, err = s.Get(ctx, "x", GetOptions{})
	wantKind(t, "get", err, ErrUnavailable)
	_, err = s.Put(ctx, "y", []byte("y"), PutOptions{IfNoneMatch: true})
	wantKind(t, "put", err, ErrUnavailable)
	wantKind(t, "delete", s.Delete(ctx, "x"), ErrUnavailable)
	wantKind(t, "list", s.List(ctx, "", func(Info) error { return nil }), ErrUnavailable)
	_, err = Expire(ctx, s, "", time.Now())
	wantKind(t, "expire", err, ErrUnavailable)
	if h := s.Ping(ctx); h.OK || h.Reason != "store_unavailable" || !errors.Is(h.Err, ErrUnavailable) {
		t.Errorf("ping: %+v", h)
	}
}

// TestS3Paused: a server that accepts connections but never answers (SIGSTOP)
// makes every operation fail with ErrUnavailable once the client's timeouts
// pass, instead of hanging; after SIGCONT the same store works again.
func TestS3Paused(t *testing.T) {
	v := startVersity(t)
	loc := v.location()
	s := v.open(t, loc, shortTimeouts)
	mustPut(t, s, "x", []byte("x"), PutOptions{})
	v.pause(t)
	assertUnavailable(t, s)
	v.resume(t)
	// The requests sent during the pause may still run now (a timed-out write's
	// outcome is unknown); a new key shows the store works again.
	mustPut(t, s, "after", []byte("after"), PutOptions{})
	if got, _ := readAll(t, s, "after", GetOptions{}); string(got) != "after" {
		t.Fatalf("after SIGCONT: %q", got)
	}
	if h := s.Ping(testCtx(t)); !h.OK {
		t.Fatalf("ping after SIGCONT: %+v", h)
	}
}

// TestS3PausedMidStream: a server that stops sending in the middle of an object
// fails the read with ErrUnavailable (the connection's progress timeout).
func TestS3PausedMidStream(t *testing.T) {
	v := startVersity(t)
	loc := v.location()
	s := v.open(t, loc, shortTimeouts)
	// Larger than what the loopback socket buffers can hold in flight.
	data := bytes.Repeat([]byte("0123456789abcdef"), 2<<20) // 32 MiB
	mustPut(t, s, "big", data, PutOptions{})
	obj, err := s.Get(testCtx(t), "big", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	head := make([]byte, 1<<16)
	if _, err := io.ReadFull(obj, head); err != nil {
		t.Fatal(err)
	}
	v.pause(t)
	defer v.resume(t)
	n, err := io.Copy(io.Discard, obj)
	wantKind(t, "read after the pause", err, ErrUnavailable)
	if int64(len(head))+n >= int64(len(data)) {
		t.Fatalf("read all %d bytes although the server was paused", len(data))
	}
}

// TestDirLockDeadline: a writer that cannot get the key's lock before its
// deadline (another process holds it) gets ErrUnavailable, not a hang.
func TestDirLockDeadline(t *testing.T) {
	dir := t.TempDir()
	s := openDir(t, dir)
	other := openDir(t, dir)
	unlock, err := other.lock(context.Background(), "state/toggles.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = s.Put(ctx, "state/toggles.json", []byte("{}"), PutOptions{})
	wantKind(t, "put while locked", err, ErrUnavailable)
	unlock()
	mustPut(t, s, "state/toggles.json", []byte("{}"), PutOptions{})
}

// TestDirETagFromContent: the ETag is the content's SHA-256 whether or not the
// cached record is there, and a file edited in place by hand (same size, new
// mtime) gets a new ETag.
func TestDirETagFromContent(t *testing.T) {
	dir := t.TempDir()
	s := openDir(t, dir)
	put := mustPut(t, s, "state/toggles.json", []byte(`{"disabled":["a"]}`), PutOptions{})
	// sha256 of {"disabled":["a"]}, computed with `printf %s '{"disabled":["a"]}' | sha256sum`.
	const want = "b4bad5ef3ccac060720c2d0ef19270c20ab3f72aed9ebbd2b6cdc7355f016dc4"
	if put.ETag != want {
		t.Fatalf("ETag %s, want the content's SHA-256 %s", put.ETag, want)
	}
	path := filepath.Join(dir, "state", "toggles.json")
	if err := unix.Removexattr(path, etagXattr); err != nil && !errors.Is(err, unix.ENODATA) && !errors.Is(err, unix.ENOTSUP) {
		t.Fatal(err)
	}
	if st := mustStat(t, s, "state/toggles.json"); st.ETag != put.ETag {
		t.Fatalf("without the cached record: %s, put said %s", st.ETag, put.ETag)
	}
	put = mustPut(t, s, "state/toggles.json", []byte(`{"disabled":["a"]}`), PutOptions{})
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("b"), 14); err != nil { // {"disabled":["b"]}
		t.Fatal(err)
	}
	_ = f.Close()
	future := time.Now().Add(time.Hour) // a clock tick that surely differs
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	edited := mustPut(t, s, "other", []byte(`{"disabled":["b"]}`), PutOptions{})
	if st := mustStat(t, s, "state/toggles.json"); st.ETag == put.ETag || st.ETag != edited.ETag {
		t.Fatalf("after an edit in place: %s (was %s, the new content's is %s)", st.ETag, put.ETag, edited.ETag)
	}
	_, err = s.Put(testCtx(t), "state/toggles.json", []byte("{}"), PutOptions{IfMatch: put.ETag})
	wantKind(t, "IfMatch with the ETag before the edit", err, ErrPreconditionFailed)
}

// TestDirStaysInside: symbolic links never lead a directory store out of its
// directory, and its own files are not objects.
func TestDirStaysInside(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := openDir(t, dir)
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "file")); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	for _, k := range []string{"link/secret", "file"} {
		if obj, err := s.Get(ctx, k, GetOptions{}); err == nil {
			data, _ := io.ReadAll(obj)
			obj.Close()
			t.Errorf("get %s served %q from outside the store", k, data)
		}
		if _, err := s.Put(ctx, k+"x", []byte("x"), PutOptions{}); err == nil && k == "link/secret" {
			t.Errorf("put through a symlink to outside succeeded")
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "secretx")); err == nil {
		t.Error("a write landed outside the store")
	}
	if keys := listKeys(t, s, ""); strings.Join(keys, ",") != "filex" {
		t.Errorf("list: %q (symlinks and the store's own files are not objects)", keys)
	}
}

// TestDirOrphanTemporaries: a temporary file whose writer holds its lock
// stays; one nobody holds (a writer that died) is removed at the next open and
// counted; an empty one is given a minute (its writer may not have locked it
// yet).
func TestDirOrphanTemporaries(t *testing.T) {
	dir := t.TempDir()
	_ = openDir(t, dir) // creates the store's directories
	live, dead, empty, oldEmpty := filepath.Join(dir, dirTmp, "live"), filepath.Join(dir, dirTmp, "dead"),
		filepath.Join(dir, dirTmp, "empty"), filepath.Join(dir, dirTmp, "old-empty")
	for _, p := range []string{live, dead} {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{empty, oldEmpty} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * orphanGrace)
	if err := os.Chtimes(oldEmpty, past, past); err != nil {
		t.Fatal(err)
	}
	writer, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if err := unix.Flock(int(writer.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	s := openDir(t, dir)
	if n := s.TempFilesRemoved(); n != 2 {
		t.Errorf("TempFilesRemoved = %d, want 2 (dead, old-empty)", n)
	}
	for p, want := range map[string]bool{live: true, dead: false, empty: true, oldEmpty: false} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	// Once the writer is gone its file is an orphan too.
	writer.Close()
	if n, err := s.RemoveOrphanTemps(); err != nil || n != 1 || s.TempFilesRemoved() != 3 {
		t.Errorf("after the writer died: removed %d (%v), total %d", n, err, s.TempFilesRemoved())
	}
	// Skipping the clean-up at open (a worker process) leaves orphans alone.
	if err := os.WriteFile(dead, []byte("partial"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Location{Kind: "file", Dir: dir}, Options{SkipTempCleanup: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := os.Stat(dead); err != nil {
		t.Errorf("SkipTempCleanup removed an orphan: %v", err)
	}
}

// TestDirKilledWriter: a process killed in the middle of a Put leaves its
// temporary file locked until it dies; afterwards the file is an orphan that
// the next open removes, and the object never appears.
func TestDirKilledWriter(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "BLOB_HELPER_BLOCKED_WRITER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := io.ReadFull(out, buf); err != nil || string(buf[:n]) != "written\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("the writer did not reach the middle of its write: %q %v", buf[:n], err)
	}
	if s := openDir(t, dir); s.TempFilesRemoved() != 0 {
		t.Fatal("a live writer's temporary file was removed")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	s := openDir(t, dir)
	if n := s.TempFilesRemoved(); n != 1 {
		t.Fatalf("TempFilesRemoved = %d after the writer was killed, want 1", n)
	}
	if _, err := s.Stat(testCtx(t), "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the unfinished object: %v", err)
	}
}

// blockedWriter is the helper process of TestDirKilledWriter: it writes a
// temporary file as Put does, says so, and waits to be killed.
func blockedWriter(dir string) int {
	s, err := openDirStore(dir, false)
	if err != nil {
		return 2
	}
	if _, _, _, err := s.writeTmp([]byte("content the writer never finished"), "", true); err != nil {
		return 3
	}
	os.Stdout.WriteString("written\n")
	select {}
}

// TestDirPingReadOnly: a directory that refuses new files is not healthy.
func TestDirPingReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		// root writes into a read-only directory anyway; use a file in place
		// of the temporary directory instead.
		dir := t.TempDir()
		s := openDir(t, dir)
		if err := os.RemoveAll(filepath.Join(dir, dirTmp)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dirTmp), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if h := s.Ping(testCtx(t)); h.OK || h.Reason != "store_error" || h.Kind != "file" {
			t.Fatalf("ping: %+v", h)
		}
		return
	}
	dir := t.TempDir()
	s := openDir(t, dir)
	if err := os.Chmod(filepath.Join(dir, dirTmp), 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(dir, dirTmp), 0o700)
	if h := s.Ping(testCtx(t)); h.OK || h.Reason != "store_error" {
		t.Fatalf("ping: %+v", h)
	}
}

// TestTrim: trimming a prefix to a size deletes the oldest objects first, never
// the one to keep, nothing outside the prefix, and nothing when it fits.
func TestTrim(t *testing.T) {
	dir := t.TempDir()
	s := openDir(t, dir)
	base := time.Now().Add(-time.Hour)
	for i, k := range []string{"dl/c", "dl/a", "dl/b", "dl/d"} {
		mustPut(t, s, k, bytes.Repeat([]byte("x"), 100), PutOptions{})
		mt := base.Add(time.Duration(i) * time.Minute) // c oldest, then a, b, d
		if err := os.Chtimes(filepath.Join(dir, k), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	mustPut(t, s, "plans/p", bytes.Repeat([]byte("p"), 1000), PutOptions{})
	ctx := testCtx(t)
	if st, err := Trim(ctx, s, "dl/", 400, ""); err != nil || st.Deleted != 0 || st.Bytes != 400 {
		t.Fatalf("a prefix that fits: %+v %v", st, err)
	}
	st, err := Trim(ctx, s, "dl/", 250, "dl/c")
	if err != nil || st.Deleted != 2 || st.Bytes != 200 || st.Scanned != 4 || st.Objects != 2 {
		t.Fatalf("trim to 250: %+v %v", st, err)
	}
	if got := listKeys(t, s, ""); strings.Join(got, ",") != "dl/c,dl/d,plans/p" {
		t.Errorf("after the trim: %q (a and b are the oldest besides the kept c)", got)
	}
}

// TestS3Misconfigured: a missing bucket or wrong credentials are errors of no
// kind ("everything else": not a lost race, not a missing object, not an
// outage), and Ping calls them store_error.
func TestS3Misconfigured(t *testing.T) {
	v := startVersity(t)
	env := v.env()
	for name, c := range map[string]struct {
		bucket, secret string
	}{
		"missing bucket": {"no-such-bucket", versitySecret},
		"wrong secret":   {versityBucket, "not-the-secret"},
	} {
		env["AWS_SECRET_ACCESS_KEY"] = c.secret
		s, err := Open(Location{Kind: "s3", Bucket: c.bucket}, Options{Getenv: func(k string) string { return env[k] }, Timeouts: shortTimeouts})
		if err != nil {
			t.Fatal(err)
		}
		ctx := testCtx(t)
		if h := s.Ping(ctx); h.OK || h.Reason != "store_error" || h.Err == nil {
			t.Errorf("%s: ping %+v", name, h)
		}
		_, err = s.Put(ctx, "k", []byte("x"), PutOptions{IfNoneMatch: true})
		var e *Error
		if err == nil || !errors.As(err, &e) || e.Kind != nil {
			t.Errorf("%s: put: %v (kind %v)", name, err, e)
		}
		if name == "missing bucket" && !strings.Contains(err.Error(), `bucket "no-such-bucket" does not exist`) {
			t.Errorf("%s: %v does not name the bucket", name, err)
		}
		if strings.Contains(fmt.Sprint(err), "not-the-secret") {
			t.Errorf("%s: the secret leaked: %v", name, err)
		}
		_ = s.Close()
	}
}

// openDir opens a directory store closed when the test ends.
func openDir(t *testing.T, dir string) *DirStore {
	t.Helper()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
