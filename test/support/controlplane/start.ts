// A real kube-apiserver and etcd on loopback for tests: startControlPlane() returns
// { url, token, caPem, kubeconfigPath, version, stop }. The implementation is plain JavaScript in
// scripts/controlplane.mjs, so `npm run apiserver` (scripts/apiserver.mjs) runs the very same code
// under Node without a TypeScript step. It never builds Go unless asked to (`build: true`): tests
// check controlPlaneBuilt() first and skip without the binaries.
export {
  apiRequest,
  binaryPaths,
  DEFAULT_VERSION,
  isBuilt as controlPlaneBuilt,
  startControlPlane,
  VERSIONS,
} from "../../../scripts/controlplane.mjs";
export type { ApiResponse, ControlPlane, StartOptions } from "../../../scripts/controlplane.mjs";
