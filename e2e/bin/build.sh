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
# the real component operators (RealComponentsIT): the versions nearest upstream HCO v1.16.0's that
# the Go module proxy serves (kubevirt v1.6.2's main module and CNAO v0.100.2 are refused), and KWOK,
# which plays the nodes and the operand pods they deploy
KUBEVIRT_VERSION="${KUBEVIRT_VERSION:-v1.6.0}"
# the release before it, for an upgrade of the real virt-operator under a held gate (v1.5.0 builds the
# same way; its go.mod also replaces github.com/golang/glog with a staging copy)
KUBEVIRT_PREVIOUS_VERSION="${KUBEVIRT_PREVIOUS_VERSION:-v1.5.0}"
CNAO_VERSION="${CNAO_VERSION:-v0.100.0}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
# cert-manager's Certificate and Issuer CRDs: on Kubernetes, cluster-network-addons-operator renders
# kubevirt-ipam-controller's certificate as cert-manager objects and degrades without those APIs
CERT_MANAGER_VERSION="${CERT_MANAGER_VERSION:-v1.18.2}"
# wrapper_module, build_one, module_files, bundle_validator, go_install, CACHE
source "$(dirname "${BASH_SOURCE[0]}")/go-modules.sh"

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
# the server of the same module and version: scrapes the operator and evaluates the shipped rules (PrometheusIT)
go_install prometheus github.com/prometheus/prometheus/cmd/prometheus "$PROMETHEUS_VERSION"
go_install helm helm.sh/helm/v4/cmd/helm "$HELM_VERSION"                                # chart lint/template
# prometheus-operator's monitoring CRDs: the chart's and the bundle's monitors and rules meet their real schemas
module_files prometheus-operator-crds github.com/prometheus-operator/prometheus-operator "$PROMETHEUS_OPERATOR_VERSION" \
  example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml \
  example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml \
  example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml
bundle_validator
build_one virt-operator kubevirt.io/kubevirt "$KUBEVIRT_VERSION" kubevirt.io/kubevirt/cmd/virt-operator
build_one virt-operator kubevirt.io/kubevirt "$KUBEVIRT_PREVIOUS_VERSION" kubevirt.io/kubevirt/cmd/virt-operator
build_one cnao-manager github.com/kubevirt/cluster-network-addons-operator "$CNAO_VERSION" \
  github.com/kubevirt/cluster-network-addons-operator/cmd/manager
# the manager renders its operands from templates under ./data (its working directory)
module_files cnao-data github.com/kubevirt/cluster-network-addons-operator "$CNAO_VERSION" data
go_install kwok sigs.k8s.io/kwok/cmd/kwok "$KWOK_VERSION"
module_files cert-manager-crds github.com/cert-manager/cert-manager "$CERT_MANAGER_VERSION" \
  deploy/crds/crd-certificates.yaml deploy/crds/crd-issuers.yaml
# its default stages (node ready + lease heartbeat, pod ready/complete/delete), read from its module
module_files kwok-stages sigs.k8s.io/kwok "$KWOK_VERSION" kustomize/stage/node/fast/node-initialize.yaml \
  kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml 'kustomize/stage/pod/fast/pod-*.yaml'
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
prometheus=$CACHE/prometheus-$PROMETHEUS_VERSION/prometheus
helm=$CACHE/helm-$HELM_VERSION/helm
helm.version=$HELM_VERSION
etcd.version=$ETCD_VERSION
kube-apiserver.version=$K8S_VERSION
olm-api.version=$OLM_API_VERSION
prometheus-operator-crds=$CACHE/prometheus-operator-crds-$PROMETHEUS_OPERATOR_VERSION
bundle-validate=$BUNDLE_VALIDATE
virt-operator=$CACHE/virt-operator-$KUBEVIRT_VERSION/virt-operator
virt-operator.version=$KUBEVIRT_VERSION
virt-operator.previous=$CACHE/virt-operator-$KUBEVIRT_PREVIOUS_VERSION/virt-operator
virt-operator.previous.version=$KUBEVIRT_PREVIOUS_VERSION
cnao-manager=$CACHE/cnao-manager-$CNAO_VERSION/cnao-manager
cnao-manager.version=$CNAO_VERSION
cnao-data=$CACHE/cnao-data-$CNAO_VERSION/data
kwok=$CACHE/kwok-$KWOK_VERSION/kwok
kwok-stages=$CACHE/kwok-stages-$KWOK_VERSION
cert-manager-crds=$CACHE/cert-manager-crds-$CERT_MANAGER_VERSION
PROPS
echo "$CACHE/current.properties"
