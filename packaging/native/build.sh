#!/usr/bin/env bash
# Builds the operator as a native executable on this machine, without a container engine:
#
#   packaging/native/build.sh        # → operator/target/hco-operator-<version>-runner
#
# The native Maven profile first assembles the toolchain (toolchain.sh: registry packages and our
# own C support libraries and driver, cached), then Quarkus runs its native-image on the same
# inputs Dockerfile.native hands to the Mandrel builder. About 10 minutes and 5–9 GB of memory on
# 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -Pnative package -DskipTests -pl operator -am "$@"
# the executable; with -Dquarkus.native.sources-only=true, the sources native-image would compile
ls operator/target/hco-operator-*-runner 2>/dev/null || ls -d operator/target/native-sources
