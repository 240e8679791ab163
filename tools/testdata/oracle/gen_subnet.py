#!/usr/bin/env python3
"""Oracle for subnet_calc: Python's ipaddress.ip_network(cidr, strict=False).

Writes tools/testdata/subnet_calc/oracle_ipaddress.json. Run from the repository root:
    python3 tools/testdata/oracle/gen_subnet.py
The semantics pinned are those of the interpreter that runs this script (recorded in
the output as "python"); the checked-in vectors were made with CPython 3.11.7.
"""
import ipaddress
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from versions import write_json  # noqa: E402

LIMIT = 2 ** 53


def count(n):
    return n if n <= LIMIT else str(n)


def facts(cidr):
    net = ipaddress.ip_network(cidr, strict=False)
    v4 = net.version == 4
    n = net.num_addresses
    bits = 32 if v4 else 128
    # hosts() is a generator; never enumerate a large network. For small ones
    # enumerate and use that as the truth; for large ones take the ends and derive the
    # count the same way hosts() is defined (checked against enumeration below).
    if n <= 4096:
        hosts = list(net.hosts())
        first, last, usable = hosts[0], hosts[-1], len(hosts)
    else:
        it = net.hosts()
        first = next(it)
        last = net.broadcast_address - (1 if v4 else 0)
        usable = int(last) - int(first) + 1
    return {
        "version": net.version,
        "network": str(net.network_address),
        "cidr": str(net),
        "prefix_length": net.prefixlen,
        "netmask": str(net.netmask),
        "hostmask": str(net.hostmask),
        "broadcast": str(net.broadcast_address) if v4 else None,
        "first_host": str(first),
        "last_host": str(last),
        "num_addresses": count(n),
        "usable_hosts": count(usable),
        "is_private": net.is_private,
        "is_global": net.is_global,
        "is_multicast": net.is_multicast,
        "is_loopback": net.is_loopback,
        "is_link_local": net.is_link_local,
    }


FIXED = [
    # the spec's and the brief's examples
    "192.168.1.0/24", "10.0.0.0/8", "172.16.5.4/12", "0.0.0.0/0", "::/0",
    "10.0.0.0/255.0.0.0", "10.0.0.0/0.255.255.255", "10.0.0.0/0.0.0.0",
    "10.0.0.0/255.255.255.255", "192.168.1.77/255.255.255.192", "192.168.1.77/0.0.0.63",
    "192.168.1.1", "8.8.8.8", "8.8.8.8/32", "8.8.8.0/31", "8.8.8.1/31", "8.8.8.0/30",
    "2001:db8::/32", "2001:db8::1", "2001:db8::1/127", "2001:db8::/126", "2001:db8::/64",
    "::1", "::1/128", "::", "::/128", "fe80::1/64", "fe80::/10", "fe80::1%eth0",
    "fe80::1%eth0/64", "fe80::%1/128", "ff02::1", "ff00::/8", "ff00::/7", "fc00::/7",
    "fd12:3456:789a:1::/64", "::ffff:1.2.3.4", "::ffff:1.2.3.4/96", "::ffff:0:0/96",
    "::1.2.3.4", "64:ff9b::/96", "2002::/16", "2001::/23", "2001::/32", "2001:2::/48",
    "2001:10::/28", "100::/64", "1:2:3:4:5:6:7:8/64", "1:0:0:0:0:0:0:8", "1:0:0:1:0:0:0:8",
    "0:0:1:0:0:1:0:0", "abcd:ef01:2345:6789:abcd:ef01:2345:6789", "ABCD::EF01",
    "127.0.0.1", "127.0.0.0/8", "127.0.0.0/7", "169.254.1.1/16", "169.254.0.0/15",
    "224.0.0.1", "224.0.0.0/4", "224.0.0.0/3", "239.255.255.255/32", "240.0.0.0/4",
    "255.255.255.255", "255.255.255.255/31", "100.64.0.0/10", "100.64.0.0/11",
    "100.64.0.0/9", "192.0.0.0/29", "192.0.0.0/24", "192.0.0.170/31", "192.0.0.171",
    "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "0.0.0.0",
    "0.0.0.0/8", "1.1.1.1/0", "10.1.2.3/08", "10.1.2.3/000024", "::/0128", "::/00",
    "1.2.3.4/32", "1.2.3.4/31", "1.2.3.4/30", "1.2.3.4/1", "11.0.0.0/8",
    "172.15.255.255/32", "172.32.0.0/11", "9.255.255.255/32", "192.169.0.0/16",
    "2001:db8:85a3::8a2e:370:7334/64", "2606:4700:4700::1111/128", "2000::/3",
    "fe80::%eth0/10", "fe80::1%a%b", "::ffff:127.0.0.1/128", "::ffff:8.8.8.8/128",
    "::ffff:10.0.0.0/104",
    # rejected by Python
    "", "/", "/8", "1.2.3.4/", "1.2.3.4/33", "1.2.3.4/-1", "1.2.3.4/+8", "1.2.3.4/ 8",
    " 1.2.3.4", "1.2.3.4 ", "010.0.0.1", "1.2.3.04", "1.2.3.256", "1.2.3", "1.2.3.4.5",
    "1.2.3.4/24/8", "1..2.3", "1.2.3.4/255.255.0.255", "1.2.3.4/255.0.255.0",
    "10.0.0.0/ffff::", "::/129", "::/-0", "1::2::3", ":1::2", "1::2:", "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7", "12345::", "g::", "[::1]", "::1%", "fe80::1%eth0%x", "::1.2.3",
    "::1.2.3.04", "1:2:3:4:5:6:7:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "::ffff:1.2.3.4/255.0.0.0",
    "١.2.3.4", "1.2.3.4/٨", "0x1.2.3.4", "1.2.3.4/0x8", "localhost", "1.2.3.4/24 ",
    "::/64/", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1::3:4:5:6:7:8", "1:2:3:4:5:6:7:8::",
    ":::", "::::", "1:::2", "2001:db8::/32 ", "%eth0", "1.2.3.4%eth0",
]


def random_cases(rng, k):
    out = []
    for _ in range(k):
        if rng.random() < 0.5:
            a = rng.getrandbits(32)
            p = rng.randint(0, 32)
            form = rng.random()
            s = str(ipaddress.IPv4Address(a))
            if form < 0.7:
                out.append(f"{s}/{p}")
            elif form < 0.85:
                out.append(f"{s}/{ipaddress.IPv4Network(f'0.0.0.0/{p}').netmask}")
            else:
                out.append(f"{s}/{ipaddress.IPv4Network(f'0.0.0.0/{p}').hostmask}")
        else:
            # bias towards special-purpose ranges so is_* flags get exercised
            base = rng.choice([None, "fe80::", "fc00::", "ff00::", "2001:db8::", "2001::",
                               "::ffff:0:0", "2002::", "100::"])
            a = rng.getrandbits(128)
            if base is not None:
                b = int(ipaddress.IPv6Address(base))
                a = b | (a & ((1 << rng.randint(8, 120)) - 1))
            p = rng.randint(0, 128)
            addr = ipaddress.IPv6Address(a)
            s = addr.exploded if rng.random() < 0.2 else str(addr)
            if rng.random() < 0.1:
                s = s.upper()
            out.append(f"{s}/{p}")
    return out


def main():
    rng = random.Random(20261130)
    inputs = FIXED + random_cases(rng, 260)
    cases = []
    for i, cidr in enumerate(inputs):
        name = f"{i:03d} {cidr!r}"
        try:
            f = facts(cidr)
        except ValueError:
            cases.append({"name": name, "args": {"cidr": cidr},
                          "error_code": "tool_execution_error", "reason": "invalid_cidr"})
            continue
        cases.append({"name": name, "args": {"cidr": cidr}, "facts": f})
    # self-check: the derived host range equals enumeration for small networks
    for p in range(20, 33):
        for a in ("10.1.2.3", "0.0.0.0", "255.255.255.255"):
            net = ipaddress.ip_network(f"{a}/{p}", strict=False)
            hosts = list(net.hosts())
            assert hosts[-1] == (net.broadcast_address - (0 if p >= 31 else 1)) or p == 32
    for p in range(116, 129):
        net = ipaddress.ip_network(f"2001:db8::77/{p}", strict=False)
        hosts = list(net.hosts())
        assert int(hosts[-1]) - int(hosts[0]) + 1 == len(hosts)
    out = {
        "generator": "tools/testdata/oracle/gen_subnet.py",
        "python": sys.version.split()[0],
        "cases": cases,
    }
    write_json(os.path.join(os.path.dirname(__file__), "..", "subnet_calc", "oracle_ipaddress.json"), out)


if __name__ == "__main__":
    main()
