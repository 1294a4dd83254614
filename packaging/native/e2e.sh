#!/usr/bin/env bash
# Runs the e2e scenarios that matter for the gate against the native executable, on a real
# kube-apiserver + etcd, exactly as the JVM suite runs them against the jar: fresh install, a
# silent component, an upgrade, an operator killed mid-upgrade, Initializing written first,
# leader hand-over, metrics while not ready; then quiet-cluster wake-ups, faults and bad input,
# the real component contracts, the conversion webhook (TLS) and the upstream API.
# HCO_NATIVE_SCENARIOS=A,B picks others.
#
#   packaging/native/e2e.sh                 # builds the executable first (build.sh)
#   HCO_NATIVE_EXECUTABLE=path packaging/native/e2e.sh    # uses that one
set -euo pipefail
cd "$(dirname "$0")/../.."
executable="${HCO_NATIVE_EXECUTABLE:-}"
if [ -z "$executable" ]; then
  packaging/native/build.sh
  executable=$(ls operator/target/hco-operator-*-runner | head -1)
fi
executable=$(cd "$(dirname "$executable")" && pwd)/$(basename "$executable")
mvn -B verify -pl operator -am -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="${HCO_NATIVE_SCENARIOS:-InstallAndUpgradeIT,GateSafetyIT,MetricsAccessIT,QuietClusterIT,FaultsAndInputIT,RealContractsIT,ConversionIT,UpstreamApiIT}" \
  -Dhco.e2e.native="$executable"
