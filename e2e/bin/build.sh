#!/usr/bin/env bash
# Builds kube-apiserver and etcd from their Go modules (Go module proxy only) and
# caches them under ~/.cache/hco-operator/e2e-bin/<component>-<version>/.
# A wrapper module is needed because k8s.io/kubernetes and etcd's server module
# replace their sibling modules with relative paths, which `go install pkg@v` refuses.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-v1.34.4}"
OLM_API_VERSION="${OLM_API_VERSION:-v0.36.0}"
# OLM's olm-operator (cmd/olm); its go.mod requires operator-framework/api v0.36.0 (the CRDs above)
# and carries no replace lines at this version (build_one would repeat them if it did)
OLM_VERSION="${OLM_VERSION:-v0.38.0}"
PROMETHEUS_VERSION="${PROMETHEUS_VERSION:-v0.316.0}"
HELM_VERSION="${HELM_VERSION:-v4.3.2}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
PROMETHEUS_OPERATOR_VERSION="${PROMETHEUS_OPERATOR_VERSION:-v0.85.0}"
CACHE="${HCO_E2E_CACHE:-$HOME/.cache/hco-operator/e2e-bin}"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
export CGO_ENABLED=0

log() { printf '[e2e-build] %s\n' "$*" >&2; }

# wrapper_module DIR MODULE VERSION: a go.mod requiring MODULE@VERSION and
# re-pointing each of its relative replaces at the published module of the same version line.
wrapper_module() {
  local dir="$1" module="$2" version="$3"
  mkdir -p "$dir"
  cd "$dir"
  rm -f go.mod go.sum
  go mod init hco-operator-e2e-wrapper >/dev/null 2>&1
  go mod edit -require="$module@$version"
  go mod download "$module@$version"
  local modfile
  modfile=$(go mod download -json "$module@$version" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  # Copy the upstream go version / toolchain and every require, then map local replaces.
  local upstream_go
  upstream_go=$(go mod edit -json "$modfile" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("Go",""))')
  [ -n "$upstream_go" ] && go mod edit -go="$upstream_go"
  go mod edit -json "$modfile" >upstream-mod.json
  python3 - "$module" "$version" >replaces.txt <<'PY'
import json, sys
mod = json.load(open("upstream-mod.json"))
module, version = sys.argv[1], sys.argv[2]
for r in mod.get("Replace") or []:
    old = r["Old"]["Path"]; new = r["New"]
    if new.get("Version"):
        print(f"{old}={new['Path']}@{new['Version']}")
        continue
    # relative path: a staging/sibling module published on its own
    if module == "k8s.io/kubernetes":
        # v1.34.4 -> v0.34.4
        print(f"{old}={old}@v0{version[2:]}")
    elif old.startswith(module.split("/server/")[0] + "/") and old.endswith("/v3"):
        # etcd's sibling modules (api/v3, client/v3, pkg/v3 ...) share its version
        print(f"{old}={old}@{version}")
PY
  while IFS= read -r line; do go mod edit -replace="$line"; done <replaces.txt
}

build_one() {
  local name="$1" module="$2" version="$3" pkg="$4"
  local out="$CACHE/$name-$version/$name"
  local ldflags='-s -w'
  if [ "$module" = k8s.io/kubernetes ]; then
    # stamp the version a release build has: without it the apiserver reports v0.0.0, and clients
    # that check it (OLM's minKubeVersion) refuse the cluster
    local minor="${version#v1.}"; minor="${minor%%.*}"
    ldflags="$ldflags -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1"
    ldflags="$ldflags -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
    local stamped="Kubernetes $version" asked="--version"
    if [ "$name" = kubectl ]; then stamped="Client Version: $version"; asked="version --client"; fi
    if [ -x "$out" ] && ! "$out" $asked 2>/dev/null | grep -qx "$stamped"; then
      log "$name $version cached without its version stamp: rebuilding"; rm -f "$out"
    fi
  fi
  if [ -x "$out" ]; then log "$name $version cached at $out"; return; fi
  local start=$(date +%s)
  log "building $name $version (first build takes many minutes)"
  local work="$CACHE/.work/$name-$version"
  ( wrapper_module "$work" "$module" "$version"
    cd "$work"
    go get "$pkg@$version"
    mkdir -p "$(dirname "$out")"
    go build -trimpath -ldflags="$ldflags" -o "$out.tmp" "$pkg"
    mv "$out.tmp" "$out" )
  log "built $name $version in $(( $(date +%s) - start )) s"
}

# module_files NAME MODULE VERSION FILE...: copies files (paths inside the module) from a Go module
# into the cache; used for CRDs that other projects publish in their modules
module_files() {
  local name="$1" module="$2" version="$3"; shift 3
  local out="$CACHE/$name-$version"
  if [ -f "$out/.complete" ]; then return; fi
  local dir
  dir=$(cd "$(mktemp -d)" && go mod download -json "$module@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  mkdir -p "$out"
  for f in "$@"; do cp $dir/$f "$out"/; done
  chmod -R u+w "$out"
  touch "$out/.complete"
  log "copied $name $version"
}

# our bundle validator (e2e/bin/bundle-validate), linked against operator-framework/api; cached by source hash
bundle_validator() {
  local src
  src="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bundle-validate"
  local hash
  hash=$(cat "$src/main.go" "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-12)
  local out="$CACHE/bundle-validate-$hash/bundle-validate"
  BUNDLE_VALIDATE="$out"
  if [ -x "$out" ]; then log "bundle-validate cached at $out"; return; fi
  local start=$(date +%s)
  mkdir -p "$(dirname "$out")"
  ( cd "$src" && go build -trimpath -ldflags='-s -w' -o "$out.tmp" . && mv "$out.tmp" "$out" )
  log "built bundle-validate in $(( $(date +%s) - start )) s"
}

# tools whose modules carry no relative replaces: a plain go install works
# go_install NAME PACKAGE VERSION
go_install() {
  local name="$1" pkg="$2" version="$3"
  local out="$CACHE/$name-$version/$name"
  if [ -x "$out" ]; then log "$name $version cached at $out"; return; fi
  local start=$(date +%s)
  log "building $name $version"
  mkdir -p "$(dirname "$out")"
  GOBIN="$(dirname "$out")" go install "$pkg@$version"
  log "built $name $version in $(( $(date +%s) - start )) s"
}

build_one etcd go.etcd.io/etcd/server/v3 "$ETCD_VERSION" go.etcd.io/etcd/server/v3
build_one kube-apiserver k8s.io/kubernetes "$K8S_VERSION" k8s.io/kubernetes/cmd/kube-apiserver
# Deployments -> ReplicaSets -> Pods as in a cluster, for OLM's install strategy (RealOlmIT)
build_one kube-controller-manager k8s.io/kubernetes "$K8S_VERSION" k8s.io/kubernetes/cmd/kube-controller-manager
# the runbooks' commands are run as written (RunbookCommandsIT)
build_one kubectl k8s.io/kubernetes "$K8S_VERSION" k8s.io/kubernetes/cmd/kubectl
build_one olm github.com/operator-framework/operator-lifecycle-manager "$OLM_VERSION" \
  github.com/operator-framework/operator-lifecycle-manager/cmd/olm
# OLM's own CRDs (OperatorCondition, ClusterServiceVersion, ...)
module_files olm-api github.com/operator-framework/api "$OLM_API_VERSION" 'crds/operators.coreos.com_*.yaml'
go_install promtool github.com/prometheus/prometheus/cmd/promtool "$PROMETHEUS_VERSION"   # alert rule tests
go_install helm helm.sh/helm/v4/cmd/helm "$HELM_VERSION"                                # chart lint/template
# prometheus-operator's monitoring CRDs: the chart's and the bundle's monitors and rules meet their real schemas
module_files prometheus-operator-crds github.com/prometheus-operator/prometheus-operator "$PROMETHEUS_OPERATOR_VERSION" \
  example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml \
  example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml \
  example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml
bundle_validator
# machine-readable result for the test harness
cat > "$CACHE/current.properties" <<PROPS
etcd=$CACHE/etcd-$ETCD_VERSION/etcd
kube-apiserver=$CACHE/kube-apiserver-$K8S_VERSION/kube-apiserver
kube-controller-manager=$CACHE/kube-controller-manager-$K8S_VERSION/kube-controller-manager
kubectl=$CACHE/kubectl-$K8S_VERSION/kubectl
olm=$CACHE/olm-$OLM_VERSION/olm
olm.version=$OLM_VERSION
olm-crds=$CACHE/olm-api-$OLM_API_VERSION
promtool=$CACHE/promtool-$PROMETHEUS_VERSION/promtool
promtool.version=$PROMETHEUS_VERSION
helm=$CACHE/helm-$HELM_VERSION/helm
helm.version=$HELM_VERSION
etcd.version=$ETCD_VERSION
kube-apiserver.version=$K8S_VERSION
olm-api.version=$OLM_API_VERSION
prometheus-operator-crds=$CACHE/prometheus-operator-crds-$PROMETHEUS_OPERATOR_VERSION
bundle-validate=$BUNDLE_VALIDATE
PROPS
echo "$CACHE/current.properties"
