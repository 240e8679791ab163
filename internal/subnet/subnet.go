// Package subnet computes the facts of an IPv4 or IPv6 network exactly as Python
// 3.11.7's ipaddress.ip_network(cidr, strict=False) does: the same accepted syntax
// (prefix lengths, IPv4 netmask and hostmask forms, IPv6 scope ids), the same
// string forms, the same host range rules (RFC 3021 /31 and RFC 6164 /127) and the
// same special-purpose tables for is_private and is_global. It never enumerates
// hosts: every fact is computed from the network and broadcast addresses.
package subnet

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// MaxInputLen bounds the accepted text; no valid network string comes near it.
const MaxInputLen = 256

// ParseError is returned for text that Python's ip_network would reject.
type ParseError struct {
	Input string
	Msg   string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%q does not appear to be an IPv4 or IPv6 network: %s", e.Input, e.Msg)
}

// Network is one parsed network: the masked network address, the prefix length and
// the scope id carried over from the input (IPv6 only; Python keeps it on the network
// address only when no host bits had to be cleared).
type Network struct {
	Version   int
	Addr      *big.Int // network address (host bits cleared)
	Given     *big.Int // the address as written
	Prefix    int
	Scope     string // "" when none
	HasScope  bool
	Bits      int // 32 or 128
	ScopeKept bool
}

// Facts are the computed properties; counts are exact big integers.
type Facts struct {
	Version       int
	Network       string
	CIDR          string
	PrefixLength  int
	Netmask       string
	Hostmask      string
	Broadcast     string // "" for IPv6
	FirstHost     string
	LastHost      string
	NumAddresses  *big.Int
	UsableHosts   *big.Int
	IsPrivate     bool
	IsGlobal      bool
	IsMulticast   bool
	IsLoopback    bool
	IsLinkLocal   bool
	IsUnspecified bool
}

// Parse reads a network in any form ip_network(strict=False) accepts from a str:
// "a.b.c.d", "a.b.c.d/len", "a.b.c.d/netmask", "a.b.c.d/hostmask", "v6", "v6/len",
// with an optional IPv6 "%scope". IPv4 is tried first, then IPv6, as Python does.
func Parse(s string) (*Network, error) {
	if len(s) > MaxInputLen {
		return nil, &ParseError{Input: s[:32] + "...", Msg: fmt.Sprintf("longer than %d bytes", MaxInputLen)}
	}
	parts := strings.Split(s, "/")
	if len(parts) > 2 {
		return nil, &ParseError{Input: s, Msg: "only one '/' permitted"}
	}
	addrText := parts[0]
	maskText := ""
	hasMask := len(parts) == 2
	if hasMask {
		maskText = parts[1]
	}
	n4, err4 := parseV4Network(addrText, maskText, hasMask)
	if err4 == nil {
		return n4, nil
	}
	n6, err6 := parseV6Network(addrText, maskText, hasMask)
	if err6 == nil {
		return n6, nil
	}
	// Report the more informative of the two failures: the IPv6 one when the text
	// looks like IPv6 (has a colon), else the IPv4 one.
	msg := err4.Error()
	if strings.Contains(addrText, ":") {
		msg = err6.Error()
	}
	return nil, &ParseError{Input: s, Msg: msg}
}

func parseV4Network(addrText, maskText string, hasMask bool) (*Network, error) {
	ip, err := parseV4(addrText)
	if err != nil {
		return nil, err
	}
	prefix := 32
	if hasMask {
		prefix, err = v4Prefix(maskText)
		if err != nil {
			return nil, err
		}
	}
	given := new(big.Int).SetUint64(uint64(ip))
	mask := uint32(0)
	if prefix > 0 {
		mask = ^uint32(0) << (32 - prefix)
	}
	return &Network{Version: 4, Bits: 32, Prefix: prefix, Given: given,
		Addr: new(big.Int).SetUint64(uint64(ip & mask))}, nil
}

func parseV6Network(addrText, maskText string, hasMask bool) (*Network, error) {
	addr, scope, hasScope, err := splitScope(addrText)
	if err != nil {
		return nil, err
	}
	ip, err := parseV6(addr)
	if err != nil {
		return nil, err
	}
	prefix := 128
	if hasMask {
		prefix, err = prefixFromDigits(maskText, 128)
		if err != nil {
			return nil, err
		}
	}
	netAddr := new(big.Int).And(ip, maskOf(prefix, 128))
	n := &Network{Version: 6, Bits: 128, Prefix: prefix, Given: ip, Addr: netAddr,
		Scope: scope, HasScope: hasScope}
	// Python replaces the network address (dropping the scope) only when host bits
	// were set.
	n.ScopeKept = hasScope && netAddr.Cmp(ip) == 0
	return n, nil
}

func splitScope(s string) (addr, scope string, has bool, err error) {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s, "", false, nil
	}
	addr, scope = s[:i], s[i+1:]
	if scope == "" || strings.Contains(scope, "%") {
		return "", "", false, fmt.Errorf("invalid IPv6 scope id")
	}
	return addr, scope, true, nil
}

func isASCIIDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func parseV4(s string) (uint32, error) {
	if s == "" {
		return 0, fmt.Errorf("address cannot be empty")
	}
	octets := strings.Split(s, ".")
	if len(octets) != 4 {
		return 0, fmt.Errorf("expected 4 octets in %q", s)
	}
	var ip uint32
	for _, o := range octets {
		if o == "" {
			return 0, fmt.Errorf("empty octet not permitted in %q", s)
		}
		if !isASCIIDigits(o) {
			return 0, fmt.Errorf("only decimal digits permitted in %q", o)
		}
		if len(o) > 3 {
			return 0, fmt.Errorf("at most 3 characters permitted in %q", o)
		}
		if o != "0" && o[0] == '0' {
			return 0, fmt.Errorf("leading zeros are not permitted in %q", o)
		}
		v, _ := strconv.Atoi(o)
		if v > 255 {
			return 0, fmt.Errorf("octet %d (> 255) not permitted", v)
		}
		ip = ip<<8 | uint32(v)
	}
	return ip, nil
}

// prefixFromDigits accepts ASCII decimal digits (leading zeros allowed, as Python's
// int() does) in [0, max].
func prefixFromDigits(s string, max int) (int, error) {
	if !isASCIIDigits(s) {
		return 0, fmt.Errorf("%q is not a valid netmask", s)
	}
	t := strings.TrimLeft(s, "0")
	if len(t) > 3 {
		return 0, fmt.Errorf("%q is not a valid netmask", s)
	}
	v := 0
	if t != "" {
		v, _ = strconv.Atoi(t)
	}
	if v > max {
		return 0, fmt.Errorf("%q is not a valid netmask", s)
	}
	return v, nil
}

func v4Prefix(s string) (int, error) {
	if p, err := prefixFromDigits(s, 32); err == nil {
		return p, nil
	}
	ip, err := parseV4(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a valid netmask", s)
	}
	if p, ok := prefixFromMaskInt(ip); ok {
		return p, nil
	}
	if p, ok := prefixFromMaskInt(^ip); ok {
		return p, nil
	}
	return 0, fmt.Errorf("%q is not a valid netmask", s)
}

// prefixFromMaskInt returns the prefix length of a contiguous netmask (ones then
// zeros); 0.0.0.0 is prefix 0.
func prefixFromMaskInt(m uint32) (int, bool) {
	tz := 32
	for i := 0; i < 32; i++ {
		if m&(1<<i) != 0 {
			tz = i
			break
		}
	}
	prefix := 32 - tz
	var ones uint32
	if prefix > 0 {
		ones = ^uint32(0) >> (32 - prefix)
	}
	if tz < 32 && m>>tz != ones {
		return 0, false
	}
	return prefix, true
}

func parseHextet(s string) (uint64, error) {
	if len(s) > 4 {
		return 0, fmt.Errorf("at most 4 characters permitted in %q", s)
	}
	if s == "" {
		return 0, fmt.Errorf("empty hextet")
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, fmt.Errorf("only hex digits permitted in %q", s)
		}
		v = v<<4 | uint64(d)
	}
	return v, nil
}

// parseV6 follows Python's IPv6 _ip_int_from_string step by step.
func parseV6(s string) (*big.Int, error) {
	if s == "" {
		return nil, fmt.Errorf("address cannot be empty")
	}
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return nil, fmt.Errorf("at least 3 parts expected in %q", s)
	}
	if strings.Contains(parts[len(parts)-1], ".") {
		v4, err := parseV4(parts[len(parts)-1])
		if err != nil {
			return nil, err
		}
		parts = append(parts[:len(parts)-1], strconv.FormatUint(uint64(v4>>16), 16), strconv.FormatUint(uint64(v4&0xffff), 16))
	}
	if len(parts) > 9 {
		return nil, fmt.Errorf("at most 8 colons permitted in %q", s)
	}
	skip := -1
	for i := 1; i < len(parts)-1; i++ {
		if parts[i] == "" {
			if skip >= 0 {
				return nil, fmt.Errorf("at most one '::' permitted in %q", s)
			}
			skip = i
		}
	}
	var hi, lo, skipped int
	if skip >= 0 {
		hi = skip
		lo = len(parts) - skip - 1
		if parts[0] == "" {
			hi--
			if hi != 0 {
				return nil, fmt.Errorf("leading ':' only permitted as part of '::' in %q", s)
			}
		}
		if parts[len(parts)-1] == "" {
			lo--
			if lo != 0 {
				return nil, fmt.Errorf("trailing ':' only permitted as part of '::' in %q", s)
			}
		}
		skipped = 8 - (hi + lo)
		if skipped < 1 {
			return nil, fmt.Errorf("expected at most 7 other parts with '::' in %q", s)
		}
	} else {
		if len(parts) != 8 {
			return nil, fmt.Errorf("exactly 8 parts expected without '::' in %q", s)
		}
		if parts[0] == "" {
			return nil, fmt.Errorf("leading ':' only permitted as part of '::' in %q", s)
		}
		if parts[len(parts)-1] == "" {
			return nil, fmt.Errorf("trailing ':' only permitted as part of '::' in %q", s)
		}
		hi = len(parts)
	}
	v := new(big.Int)
	for i := 0; i < hi; i++ {
		h, err := parseHextet(parts[i])
		if err != nil {
			return nil, err
		}
		v.Lsh(v, 16).Or(v, new(big.Int).SetUint64(h))
	}
	v.Lsh(v, uint(16*skipped))
	for i := len(parts) - lo; i < len(parts); i++ {
		h, err := parseHextet(parts[i])
		if err != nil {
			return nil, err
		}
		v.Lsh(v, 16).Or(v, new(big.Int).SetUint64(h))
	}
	return v, nil
}

func allOnes(bits int) *big.Int {
	one := big.NewInt(1)
	return new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one)
}

func maskOf(prefix, bits int) *big.Int {
	host := allOnes(bits - prefix)
	return new(big.Int).Xor(allOnes(bits), host)
}

// FormatV4 renders a 32-bit value in dotted-quad form.
func FormatV4(v *big.Int) string {
	x := v.Uint64()
	return fmt.Sprintf("%d.%d.%d.%d", x>>24&255, x>>16&255, x>>8&255, x&255)
}

// FormatV6 renders a 128-bit value as Python 3.11 does: lowercase hextets without
// leading zeros, the first longest run of two or more zero hextets shown as "::".
// IPv4-mapped addresses are not given a dotted tail (that came with Python 3.13).
func FormatV6(v *big.Int) string {
	var h [8]uint64
	t := new(big.Int).Set(v)
	mask := big.NewInt(0xffff)
	for i := 7; i >= 0; i-- {
		h[i] = new(big.Int).And(t, mask).Uint64()
		t.Rsh(t, 16)
	}
	bestStart, bestLen, start, run := -1, 0, -1, 0
	for i, x := range h {
		if x == 0 {
			run++
			if start < 0 {
				start = i
			}
			if run > bestLen {
				bestLen, bestStart = run, start
			}
		} else {
			run, start = 0, -1
		}
	}
	parts := make([]string, 0, 9)
	for i := 0; i < 8; i++ {
		if bestLen > 1 && i == bestStart {
			if i == 0 {
				parts = append(parts, "")
			}
			parts = append(parts, "")
			i += bestLen - 1
			if i == 7 {
				parts = append(parts, "")
			}
			continue
		}
		parts = append(parts, strconv.FormatUint(h[i], 16))
	}
	return strings.Join(parts, ":")
}

func (n *Network) format(v *big.Int) string {
	if n.Version == 4 {
		return FormatV4(v)
	}
	return FormatV6(v)
}

type block struct {
	addr   *big.Int
	prefix int
}

func mustBlock(s string) block {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return block{addr: n.Addr, prefix: n.Prefix}
}

func (b block) contains(v *big.Int, bits int) bool {
	return new(big.Int).And(v, maskOf(b.prefix, bits)).Cmp(b.addr) == 0
}

// Python 3.11.7 ipaddress tables (_IPv4Constants / _IPv6Constants).
var (
	v4Private = []block{
		mustBlock("0.0.0.0/8"), mustBlock("10.0.0.0/8"), mustBlock("127.0.0.0/8"),
		mustBlock("169.254.0.0/16"), mustBlock("172.16.0.0/12"), mustBlock("192.0.0.0/29"),
		mustBlock("192.0.0.170/31"), mustBlock("192.0.2.0/24"), mustBlock("192.168.0.0/16"),
		mustBlock("198.18.0.0/15"), mustBlock("198.51.100.0/24"), mustBlock("203.0.113.0/24"),
		mustBlock("240.0.0.0/4"), mustBlock("255.255.255.255/32"),
	}
	v4Shared    = mustBlock("100.64.0.0/10")
	v4Loopback  = mustBlock("127.0.0.0/8")
	v4LinkLocal = mustBlock("169.254.0.0/16")
	v4Multicast = mustBlock("224.0.0.0/4")
	v6Private   = []block{
		mustBlock("::1/128"), mustBlock("::/128"), mustBlock("::ffff:0:0/96"),
		mustBlock("100::/64"), mustBlock("2001::/23"), mustBlock("2001:2::/48"),
		mustBlock("2001:db8::/32"), mustBlock("2001:10::/28"), mustBlock("fc00::/7"),
		mustBlock("fe80::/10"),
	}
	v6LinkLocal = mustBlock("fe80::/10")
	v6Multicast = mustBlock("ff00::/8")
)

// Compute derives every fact from the network without enumerating hosts.
func (n *Network) Compute() *Facts {
	bits := n.Bits
	mask := maskOf(n.Prefix, bits)
	host := allOnes(bits - n.Prefix)
	netAddr := n.Addr
	bcast := new(big.Int).Or(netAddr, host)
	num := new(big.Int).Lsh(big.NewInt(1), uint(bits-n.Prefix))
	one := big.NewInt(1)

	netStr := n.format(netAddr)
	if n.ScopeKept {
		netStr += "%" + n.Scope
	}
	f := &Facts{
		Version:      n.Version,
		Network:      netStr,
		CIDR:         fmt.Sprintf("%s/%d", netStr, n.Prefix),
		PrefixLength: n.Prefix,
		Netmask:      n.format(mask),
		Hostmask:     n.format(host),
		NumAddresses: num,
	}
	if n.Version == 4 {
		f.Broadcast = FormatV4(bcast)
	}
	var first, last *big.Int
	switch {
	case n.Prefix == bits: // a single address: Python returns the address as given
		first, last = netAddr, netAddr
		f.UsableHosts = big.NewInt(1)
	case n.Prefix == bits-1: // RFC 3021 / RFC 6164 point-to-point: both addresses
		first, last = netAddr, bcast
		f.UsableHosts = big.NewInt(2)
	case n.Version == 4: // network and broadcast excluded
		first = new(big.Int).Add(netAddr, one)
		last = new(big.Int).Sub(bcast, one)
		f.UsableHosts = new(big.Int).Sub(num, big.NewInt(2))
	default: // IPv6: only the Subnet-Router anycast (network) address excluded
		first = new(big.Int).Add(netAddr, one)
		last = bcast
		f.UsableHosts = new(big.Int).Sub(num, one)
	}
	f.FirstHost = n.format(first)
	f.LastHost = n.format(last)
	if n.Prefix == bits && n.HasScope {
		// hosts() of a /128 is [IPv6Address(addr)] built from the text, scope included.
		f.FirstHost += "%" + n.Scope
		f.LastHost = f.FirstHost
	}

	both := func(b block) bool { return b.contains(netAddr, bits) && b.contains(bcast, bits) }
	private := v4Private
	if n.Version == 6 {
		private = v6Private
	}
	for _, b := range private {
		if both(b) {
			f.IsPrivate = true
			break
		}
	}
	if n.Version == 4 {
		f.IsGlobal = !both(v4Shared) && !f.IsPrivate
		f.IsMulticast = both(v4Multicast)
		f.IsLoopback = both(v4Loopback)
		f.IsLinkLocal = both(v4LinkLocal)
	} else {
		f.IsGlobal = !f.IsPrivate
		f.IsMulticast = both(v6Multicast)
		f.IsLoopback = netAddr.Cmp(one) == 0 && bcast.Cmp(one) == 0
		f.IsLinkLocal = both(v6LinkLocal)
	}
	f.IsUnspecified = netAddr.Sign() == 0 && bcast.Sign() == 0
	return f
}
