#!/usr/bin/env bash
# Functions shared by the scripts that build Go tools from their modules (sourced, not run):
# build.sh (the e2e binaries) and packaging/components/crds.sh (the component CRD generators).
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
    elif module == "kubevirt.io/kubevirt":
        # kubevirt's staging modules (kubevirt.io/api, kubevirt.io/client-go) are published with the
        # release's version; a vendored third-party copy (v1.5's github.com/golang/glog) is published
        # upstream at the version kubevirt requires
        required = {r["Path"]: r["Version"] for r in mod.get("Require") or []}
        if old.startswith("kubevirt.io/"):
            print(f"{old}={old}@{version}")
        elif old in required and not required[old].startswith("v0.0.0-0001"):
            print(f"{old}={old}@{required[old]}")
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
  for f in "$@"; do cp -r $dir/$f "$out"/; done
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


# go_install_with NAME PACKAGE VERSION MODULE@VERSION...: like go_install, with some of the tool's
# dependencies raised to the versions given (a tool whose pinned dependency no longer compiles with
# this Go: controller-gen v0.14.0's golang.org/x/tools v0.16.1 fails on Go >= 1.22)
go_install_with() {
  local name="$1" pkg="$2" version="$3"; shift 3
  local out="$CACHE/$name-$version/$name"
  if [ -x "$out" ]; then log "$name $version cached at $out"; return; fi
  local start=$(date +%s)
  log "building $name $version with $*"
  local work="$CACHE/.work/$name-$version"
  mkdir -p "$(dirname "$out")"
  ( mkdir -p "$work" && cd "$work" && rm -f go.mod go.sum
    go mod init hco-operator-tool-wrapper >/dev/null 2>&1
    go get "$pkg@$version" "$@"
    go build -trimpath -ldflags='-s -w' -o "$out.tmp" "$pkg"
    mv "$out.tmp" "$out" )
  log "built $name $version in $(( $(date +%s) - start )) s"
}
