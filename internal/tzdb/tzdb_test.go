package tzdb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The contracts pin the release the binary embeds.
func TestContractsPinTheEmbeddedRelease(t *testing.T) {
	if !strings.HasPrefix(Source(), "debian tzdata "+Version()+"-") {
		t.Errorf("Source() = %q does not match Version() %q", Source(), Version())
	}
	for _, tool := range []string{"time_facts", "timezone_convert", "schedule_expand"} {
		raw, err := os.ReadFile("../../contracts/defs/" + tool + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			SourcePolicy map[string]string `json:"source_policy"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if got := c.SourcePolicy["version"]; got != Version() {
			t.Errorf("%s source_policy.version = %q, embedded release is %q", tool, got, Version())
		}
	}
}

func TestEveryZoneLoads(t *testing.T) {
	names := Names()
	if len(names) < 500 {
		t.Fatalf("only %d zones embedded", len(names))
	}
	for _, n := range names {
		if !ValidName(n) {
			t.Errorf("embedded zone %q fails ValidName", n)
		}
		if _, err := Load(n); err != nil {
			t.Errorf("Load(%q): %v", n, err)
		}
	}
}

func TestRefusedNames(t *testing.T) {
	for _, n := range []string{"", "../etc/passwd", "/usr/share/zoneinfo/UTC", "Europe/../../etc/passwd",
		"Europe/./Berlin", "Europe/Berlin/..", "localtime", "posixrules", "posix/Europe/Berlin", "right/UTC",
		"europe/berlin", "Mars/Olympus_Mons", "+VERSION", "Europe\\Berlin", "UTC\x00", strings.Repeat("A", 129)} {
		if _, err := Load(n); !errors.Is(err, ErrUnknownZone) {
			t.Errorf("Load(%q) = %v, want ErrUnknownZone", n, err)
		}
	}
}

func TestResolveBerlin(t *testing.T) {
	z, err := Load("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	wall := func(s string) int64 {
		tt, err := time.Parse("2006-01-02T15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return tt.Unix()
	}
	utc := func(s string) int64 { return wall(s) }
	if r := z.Resolve(wall("2026-03-29T02:30:00")); r.Kind != Gap {
		t.Errorf("spring gap: %+v", r)
	}
	r := z.Resolve(wall("2026-10-25T02:30:00"))
	if r.Kind != Ambiguous || r.Instants[0] != utc("2026-10-25T00:30:00") || r.Instants[1] != utc("2026-10-25T01:30:00") {
		t.Errorf("autumn fold: %+v", r)
	}
	if r := z.Resolve(wall("2026-07-29T14:00:00")); r.Kind != Unique || r.Instants[0] != utc("2026-07-29T12:00:00") {
		t.Errorf("summer: %+v", r)
	}
	if o, fold := z.At(utc("2026-10-25T01:30:00")); o.Seconds != 3600 || o.Abbrev != "CET" || o.IsDST || fold != 1 {
		t.Errorf("second pass: %+v fold %d", o, fold)
	}
}

// digest summarises what the package answers for many zones and instants.
func digest() string {
	h := sha256.New()
	for i, n := range Names() {
		z, err := Load(n)
		if err != nil {
			fmt.Fprintln(h, n, err)
			continue
		}
		for _, u := range []int64{-2208988800, 0, 1785326400, 1793000000 + int64(i)*7919, 4102444799} {
			o, fold := z.At(u)
			r := z.Resolve(u + int64(o.Seconds))
			fmt.Fprintln(h, n, u, o, fold, r)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// The answers do not depend on the host: a child process with TZ and ZONEINFO
// set to other zones, an empty directory or garbage computes the same digest.
// America/Havana in December 2026 is -04:00 in release 2026f; hosts with older
// data (this machine's /usr/share/zoneinfo is 2025b) say -05:00.
func TestHostIndependence(t *testing.T) {
	if os.Getenv("TZDB_CHILD") == "1" {
		fmt.Println("DIGEST", digest())
		z, _ := Load("America/Havana")
		o, _ := z.At(1796126400) // 2026-12-01T12:00:00Z
		fmt.Println("HAVANA", o.Seconds, o.Abbrev, o.IsDST)
		return
	}
	empty := t.TempDir()
	run := func(env ...string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHostIndependence$")
		cmd.Env = append(os.Environ(), append([]string{"TZDB_CHILD=1"}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child %v: %v\n%s", env, err, out)
		}
		return string(out)
	}
	base := run()
	if !strings.Contains(base, "HAVANA -14400 CDT true") {
		t.Errorf("America/Havana 2026-12-01: want -14400 CDT dst (tzdata 2026f), got\n%s", base)
	}
	for _, env := range [][]string{
		{"TZ=Pacific/Kiritimati", "ZONEINFO=" + empty},
		{"TZ=/etc/passwd", "ZONEINFO=/nonexistent"},
		{"TZ=", "ZONEINFO=" + os.Args[0]},
	} {
		if got := run(env...); lines(got) != lines(base) {
			t.Errorf("env %v changed the answers:\n%s\nvs\n%s", env, got, base)
		}
	}
}

func lines(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "DIGEST") || strings.HasPrefix(l, "HAVANA") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func BenchmarkLoadCached(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Load("Europe/Berlin"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	z, _ := Load("Australia/Lord_Howe")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		z.Resolve(4102444799 - int64(i%86400))
	}
}
