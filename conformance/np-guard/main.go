// The np-guard netpol-analyzer command (k8snetpolicy: list, diff, eval) at the version go.mod
// pins, built by scripts/np-guard.mjs into .cache/np-guard/<version>/ as a peer and oracle for
// clusterwire's connectivity analysis. Nothing in the npm package needs it.
package main

import "github.com/np-guard/netpol-analyzer/pkg/cli"

func main() { cli.Execute() }
