package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/precisiond/precisiond/internal/subnet"
)

type subnetInput struct {
	CIDR string `json:"cidr"`
}

type subnetFacts struct {
	Version      int     `json:"version"`
	Network      string  `json:"network"`
	CIDR         string  `json:"cidr"`
	PrefixLength int     `json:"prefix_length"`
	Netmask      string  `json:"netmask"`
	Hostmask     string  `json:"hostmask"`
	Broadcast    *string `json:"broadcast"`
	FirstHost    string  `json:"first_host"`
	LastHost     string  `json:"last_host"`
	NumAddresses any     `json:"num_addresses"`
	UsableHosts  any     `json:"usable_hosts"`
	IsPrivate    bool    `json:"is_private"`
	IsGlobal     bool    `json:"is_global"`
	IsMulticast  bool    `json:"is_multicast"`
	IsLoopback   bool    `json:"is_loopback"`
	IsLinkLocal  bool    `json:"is_link_local"`
}

// maxExactJSON is 2^53: counts above it are strings so that no JSON client loses
// precision.
var maxExactJSON = new(big.Int).Lsh(big.NewInt(1), 53)

func jsonCount(n *big.Int) any {
	if n.Cmp(maxExactJSON) <= 0 {
		return json.Number(n.String())
	}
	return n.String()
}

// subnetCalc is the upgraded subnet_calc tool (README, Tools), semantics of Python's
// ipaddress.ip_network(strict=False); see internal/subnet.
func subnetCalc() Tool {
	return Define(Def[subnetInput, subnetFacts]{
		Name: "subnet_calc",
		Run: func(_ context.Context, in subnetInput) (subnetFacts, []Warning, error) {
			n, err := subnet.Parse(in.CIDR)
			if err != nil {
				return subnetFacts{}, nil, Fail("invalid_cidr", "%s", err.Error())
			}
			f := n.Compute()
			out := subnetFacts{
				Version: f.Version, Network: f.Network, CIDR: f.CIDR, PrefixLength: f.PrefixLength,
				Netmask: f.Netmask, Hostmask: f.Hostmask, FirstHost: f.FirstHost, LastHost: f.LastHost,
				NumAddresses: jsonCount(f.NumAddresses), UsableHosts: jsonCount(f.UsableHosts),
				IsPrivate: f.IsPrivate, IsGlobal: f.IsGlobal, IsMulticast: f.IsMulticast,
				IsLoopback: f.IsLoopback, IsLinkLocal: f.IsLinkLocal,
			}
			if f.Version == 4 {
				b := f.Broadcast
				out.Broadcast = &b
			}
			return out, nil, nil
		},
		Legacy: func(_ subnetInput, f subnetFacts) string {
			s := fmt.Sprintf("Network %s (IPv%d): netmask %s, hostmask %s", f.CIDR, f.Version, f.Netmask, f.Hostmask)
			if f.Broadcast != nil {
				s += ", broadcast " + *f.Broadcast
			}
			return s + fmt.Sprintf(", hosts %s - %s (%v usable of %v addresses)", f.FirstHost, f.LastHost, f.UsableHosts, f.NumAddresses)
		},
	})
}
