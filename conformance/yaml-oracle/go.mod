// clusterwire's YAML oracle, against the YAML code kube-apiserver and kubectl
// v1.35.4 link: the versions k8s.io/kubernetes v1.35.4's go.mod requires.
// v1.37.2.mod pins v1.37.2's (build with -modfile=v1.37.2.mod).
module clusterwire.local/conformance/yaml-oracle

go 1.25.0

godebug default=go1.25

require (
	go.yaml.in/yaml/v2 v2.4.3
	k8s.io/apimachinery v0.35.4
	sigs.k8s.io/yaml v1.6.0
)

require sigs.k8s.io/json v0.0.0-20250730193827-2d320260d730 // indirect
