#!/usr/bin/env bash
# Generates the component CRDs the release ships from the components' own Go modules, with the
# generators the component projects use themselves (upstream HCO takes each CRD from its
# component's release, which makes them this way):
#   kubevirts.kubevirt.io      kubevirt's csv-generator --dumpCRDs (Go code: NewKubeVirtCrd)
#   networkaddonsconfigs...    cluster-network-addons-operator's manifest-templator --dump-crds (GetCrd)
#   cdis.cdi.kubevirt.io       controller-gen over containerized-data-importer-api's core types
#   ssps.ssp.kubevirt.io       controller-gen over ssp-operator/api's v1beta2 and v1beta3 types
# The module versions are the nearest that the Go module proxy serves here to upstream HCO v1.16.0's
# components (docs/testing.md, "Component contract"); ComponentCrdsIT compares every generated CRD
# with the v1.16.0 reference, field by field.
# Usage: crds.sh [OUT]  (default: the cache); prints the directory holding the four CRDs.
set -euo pipefail
KUBEVIRT_MODULE_VERSION="${KUBEVIRT_MODULE_VERSION:-v1.6.0}"          # v1.6.2's main module is refused
CNAO_MODULE_VERSION="${CNAO_MODULE_VERSION:-v0.100.0}"                # v0.100.2 is refused
CDI_API_VERSION="${CDI_API_VERSION:-v1.63.1}"
SSP_API_VERSION="${SSP_API_VERSION:-v0.24.1}"
CDI_CONTROLLER_GEN="${CDI_CONTROLLER_GEN:-v0.14.0}"                    # the version CDI v1.63.1's CRD names
SSP_CONTROLLER_GEN="${SSP_CONTROLLER_GEN:-v0.17.1}"                    # the version SSP v0.24.1's CRD names
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../../e2e/bin/go-modules.sh"

key=$(printf '%s ' "$KUBEVIRT_MODULE_VERSION" "$CNAO_MODULE_VERSION" "$CDI_API_VERSION" "$SSP_API_VERSION" \
  "$CDI_CONTROLLER_GEN" "$SSP_CONTROLLER_GEN" | cat - "$0" | sha256sum | cut -c1-12)
out="${1:-$CACHE/component-crds-$key}"
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi
mkdir -p "$out"

build_one kubevirt-csv-generator kubevirt.io/kubevirt "$KUBEVIRT_MODULE_VERSION" kubevirt.io/kubevirt/tools/csv-generator
build_one cnao-manifest-templator github.com/kubevirt/cluster-network-addons-operator "$CNAO_MODULE_VERSION" \
  github.com/kubevirt/cluster-network-addons-operator/tools/manifest-templator
# v0.14.0 pins golang.org/x/tools v0.16.1, which does not compile on Go >= 1.22: built with the
# x/tools that v0.17.1 pins. A tool built inside a wrapper module reports its version as (devel), so
# the CRD's controller-gen.kubebuilder.io/version annotation is set to the version built (below).
go_install_with controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen "$CDI_CONTROLLER_GEN" golang.org/x/tools@v0.29.0
go_install controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen "$SSP_CONTROLLER_GEN"

# the last YAML document of a stream whose kind is CustomResourceDefinition and whose name is $2
pick_crd() {
  python3 - "$1" "$2" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
crds = [d for d in docs if d.get("kind") == "CustomResourceDefinition" and d["metadata"]["name"] == sys.argv[2]]
if not crds:
    sys.exit(f"no CRD {sys.argv[2]} in {sys.argv[1]}")
print("---")
print(yaml.safe_dump(crds[-1], sort_keys=False, width=1 << 30), end="")
PY
}

work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT

"$CACHE/kubevirt-csv-generator-$KUBEVIRT_MODULE_VERSION/kubevirt-csv-generator" --namespace kubevirt-hyperconverged \
  --dumpCRDs --kubeVirtVersion "$KUBEVIRT_MODULE_VERSION" --operatorImageVersion "$KUBEVIRT_MODULE_VERSION" \
  --csvVersion "${KUBEVIRT_MODULE_VERSION#v}" >"$work/kubevirt.yaml"
pick_crd "$work/kubevirt.yaml" kubevirts.kubevirt.io >"$out/kubevirts.kubevirt.io.yaml"

: >"$work/empty.tmpl"
"$CACHE/cnao-manifest-templator-$CNAO_MODULE_VERSION/cnao-manifest-templator" --dump-crds --input-file "$work/empty.tmpl" \
  >"$work/cnao.yaml"
pick_crd "$work/cnao.yaml" networkaddonsconfigs.networkaddonsoperator.network.kubevirt.io \
  >"$out/networkaddonsconfigs.networkaddonsoperator.network.kubevirt.io.yaml"

# controller-gen loads the API packages with the go command: run it in a writable copy of the module
controller_gen() {
  local gen="$1" module="$2" version="$3" paths="$4" crd="$5" options="${6:-}"
  local dir
  dir=$(cd "$work" && go mod download -json "$module@$version" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
  local copy="$work/$(basename "$module")-$version"
  cp -r "$dir" "$copy" && chmod -R u+w "$copy"
  ( cd "$copy" && GOFLAGS=-mod=mod "$CACHE/controller-gen-$gen/controller-gen" "crd:crdVersions=v1$options" \
      paths="$paths" output:crd:dir="$copy/.crds" )
  pick_crd "$copy/.crds/$(ls "$copy/.crds" | grep "_${crd%%.*}.yaml$")" "$crd" \
    | sed "s|controller-gen.kubebuilder.io/version: (devel)|controller-gen.kubebuilder.io/version: $gen|" >"$out/$crd.yaml"
}
controller_gen "$CDI_CONTROLLER_GEN" kubevirt.io/containerized-data-importer-api "$CDI_API_VERSION" \
  ./pkg/apis/core/... cdis.cdi.kubevirt.io
# SSP's dataImportCronTemplates embed ObjectMeta, whose schema SSP generates (generateEmbeddedObjectMeta)
controller_gen "$SSP_CONTROLLER_GEN" kubevirt.io/ssp-operator/api "$SSP_API_VERSION" ./... ssps.ssp.kubevirt.io \
  ,generateEmbeddedObjectMeta=true

touch "$out/.complete"
log "component CRDs generated in $out"
echo "$out"
