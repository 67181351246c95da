// Command warnings-oracle is clusterwire's differential oracle for the API
// server's IP and CIDR warnings (apimachinery GetWarningsForIP and
// GetWarningsForCIDR, as the networking strategies call them). It reads a
// JSON array of {"kind": "ip" | "cidr", "value": "..."} on stdin and writes a
// JSON array of the warning texts for each, with the field path "f".
//
// The rules are written here from their description (KEP-4858 and the
// apimachinery tests), on Go's own net and net/netip: Go's net prints every
// address and network, and net/netip decides what is "non-standard" and what
// the RFC 5952 text is. Three parts of the API server's toolchain are not in
// the Go this machine has (Debian's golang-go, Go 1.19), so they are spelled
// out below: k8s.io/utils' ParseIPSloppy and ParseCIDRSloppy (Go 1.16's
// parser, which reads IPv4 octets with leading zeros as decimal), and two
// rules newer net/netip has (Go 1.22+, the API server is built with 1.24):
// no leading zero in a prefix length, at most 4 hex digits in an IPv6 field.
//
//	go run ./scripts/warnings-oracle < values.json   (see scripts/warnings-golden.mjs)
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
)

type input struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

const path = "f"

// unzero drops leading zeros from each all-digit dotted octet, which is how
// Go 1.16's parser (and ParseIPSloppy) reads them.
func unzero(addr string) string {
	colon := strings.LastIndexByte(addr, ':')
	head, tail := addr[:colon+1], addr[colon+1:]
	if !strings.Contains(tail, ".") {
		return addr
	}
	parts := strings.Split(tail, ".")
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			p = strings.TrimLeft(p, "0")
			if p == "" {
				p = "0"
			}
		}
		parts[i] = p
	}
	return head + strings.Join(parts, ".")
}

// newerNetipRefuses: the two rules of Go 1.22+ net/netip that Go 1.19's lacks.
func newerNetipRefuses(addr, bits string) bool {
	if len(bits) > 1 && bits[0] == '0' {
		return true
	}
	for _, field := range strings.FieldsFunc(addr, func(r rune) bool { return r == ':' }) {
		if !strings.Contains(field, ".") && len(field) > 4 {
			return true
		}
	}
	return false
}

func ipWarnings(value string) []string {
	ip := net.ParseIP(unzero(value))
	if ip == nil || strings.Contains(value, "%") {
		return []string{}
	}
	addr, err := netip.ParseAddr(value)
	if err != nil || addr.Is4In6() || newerNetipRefuses(value, "") {
		return []string{fmt.Sprintf("%s: non-standard IP address %q will be considered invalid in a future Kubernetes release: use %q", path, value, ip.String())}
	}
	if addr.Is6() && addr.String() != value {
		return []string{fmt.Sprintf("%s: IPv6 address %q should be in RFC 5952 canonical format (%q)", path, value, addr.String())}
	}
	return []string{}
}

func cidrWarnings(value string) []string {
	slash := strings.IndexByte(value, '/')
	if slash < 0 || strings.Contains(value, "%") {
		return []string{}
	}
	addrText, bits := value[:slash], value[slash+1:]
	ip, ipnet, err := net.ParseCIDR(unzero(addrText) + "/" + bits)
	if err != nil {
		return []string{}
	}
	out := []string{}
	if !ip.Equal(ipnet.IP) {
		_, size := ipnet.Mask.Size()
		out = append(out, fmt.Sprintf("%s: CIDR value %q is ambiguous in this context (should be %q or %q?)", path, value, ipnet.String(), fmt.Sprintf("%s/%d", ip.String(), size)))
	}
	prefix, err := netip.ParsePrefix(value)
	if err != nil || prefix.Addr().Is4In6() || newerNetipRefuses(addrText, bits) {
		out = append(out, fmt.Sprintf("%s: non-standard CIDR value %q will be considered invalid in a future Kubernetes release: use %q", path, value, ipnet.String()))
	}
	if len(out) == 0 && prefix.Addr().Is6() && prefix.String() != value {
		out = append(out, fmt.Sprintf("%s: IPv6 CIDR value %q should be in RFC 5952 canonical format (%q)", path, value, prefix.String()))
	}
	return out
}

func main() {
	var inputs []input
	if err := json.NewDecoder(os.Stdin).Decode(&inputs); err != nil {
		fmt.Fprintln(os.Stderr, "warnings-oracle:", err)
		os.Exit(1)
	}
	answers := make([][]string, len(inputs))
	for i, in := range inputs {
		if in.Kind == "ip" {
			answers[i] = ipWarnings(in.Value)
		} else {
			answers[i] = cidrWarnings(in.Value)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(answers); err != nil {
		fmt.Fprintln(os.Stderr, "warnings-oracle:", err)
		os.Exit(1)
	}
}
