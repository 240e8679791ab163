package subnet

import (
	"math/big"
	"strings"
	"testing"
)

func TestWholeSpaceIsInstant(t *testing.T) {
	for _, tc := range []struct{ in, num, usable, first, last string }{
		{"0.0.0.0/0", "4294967296", "4294967294", "0.0.0.1", "255.255.255.254"},
		{"::/0", "340282366920938463463374607431768211456", "340282366920938463463374607431768211455", "::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
	} {
		n, err := Parse(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		f := n.Compute()
		if got := f.NumAddresses.String(); got != tc.num {
			t.Errorf("%s num: got %s, want %s", tc.in, got, tc.num)
		}
		if got := f.UsableHosts.String(); got != tc.usable {
			t.Errorf("%s usable: got %s, want %s", tc.in, got, tc.usable)
		}
		if f.FirstHost != tc.first || f.LastHost != tc.last {
			t.Errorf("%s hosts: got %s-%s, want %s-%s", tc.in, f.FirstHost, f.LastHost, tc.first, tc.last)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, in := range []string{"010.0.0.1", "1.2.3.4/33", "1::2::3", "::/129", "1.2.3.4%eth0", "", strings.Repeat("1", 300)} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): got nil error, want one", in)
		}
	}
}

func TestFormatV6(t *testing.T) {
	for in, want := range map[string]string{
		"0:0:0:0:0:0:0:0": "::", "1:0:0:0:0:0:0:0": "1::", "0:0:0:0:0:0:0:1": "::1",
		"1:0:0:1:0:0:0:1": "1:0:0:1::1", "1:0:0:1:0:0:1:1": "1::1:0:0:1:1",
		"1:0:1:0:1:0:1:0": "1:0:1:0:1:0:1:0", "ABCD:0:0:0:0:0:0:EF": "abcd::ef",
	} {
		v, err := parseV6(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := FormatV6(v); got != want {
			t.Errorf("FormatV6(%s): got %s, want %s", in, got, want)
		}
	}
}

// FuzzParse: never panics; a parsed network's normalized CIDR parses back to the
// same network, and counts are consistent.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"192.168.1.0/24", "10.0.0.0/255.0.0.0", "10.0.0.0/0.255.255.255",
		"::/0", "0.0.0.0/0", "fe80::1%eth0/64", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8/127", "010.0.0.1",
		"1::2::3", "::1.2.3", "1.2.3.4/08", "", "/", "%", ":::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			return
		}
		facts := n.Compute()
		m, err := Parse(facts.CIDR)
		if err != nil {
			t.Fatalf("%q -> %q does not parse back: %v", s, facts.CIDR, err)
		}
		if m.Addr.Cmp(n.Addr) != 0 || m.Prefix != n.Prefix || m.Version != n.Version {
			t.Fatalf("%q -> %q round trip differs", s, facts.CIDR)
		}
		if facts.UsableHosts.Cmp(facts.NumAddresses) > 0 || facts.UsableHosts.Sign() <= 0 {
			t.Fatalf("%q: usable %s of %s", s, facts.UsableHosts, facts.NumAddresses)
		}
		want := new(big.Int).Lsh(big.NewInt(1), uint(n.Bits-n.Prefix))
		if facts.NumAddresses.Cmp(want) != 0 {
			t.Fatalf("%q: num %s", s, facts.NumAddresses)
		}
	})
}

func benchParse(b *testing.B, s string) {
	b.ReportAllocs()
	for b.Loop() {
		n, err := Parse(s)
		if err != nil {
			b.Fatal(err)
		}
		_ = n.Compute()
	}
}

func BenchmarkSubnetV4Small(b *testing.B) { benchParse(b, "192.168.1.77/24") }
func BenchmarkSubnetV6Large(b *testing.B) { benchParse(b, "2001:db8:85a3::8a2e:370:7334%eth0/0") }
