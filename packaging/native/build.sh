#!/usr/bin/env bash
# Builds the operator as a native executable with the toolchain this directory assembles from
# registry packages (toolchain.sh), on this machine, without a container engine:
#
#   packaging/native/build.sh        # → operator/target/hco-operator-<version>-runner
#
# Quarkus writes the native-image inputs (operator/target/native-sources: the runner jar, its libs
# and native-image.args, the same ones Dockerfile.native hands to the Mandrel builder); our driver
# turns them into a builder run. Takes about 10 minutes and 5 GB of memory on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
home=$(packaging/native/toolchain.sh)
mvn -B -q -Pnative package -DskipTests -Dquarkus.native.sources-only=true -pl operator -am
cd operator/target/native-sources
# native-image.args is a space-separated list, written for `native-image $(cat native-image.args)`
# shellcheck disable=SC2046
"$home/bin/native-image" $(cat native-image.args)
name=$(tr ' ' '\n' < native-image.args | grep -B1 -x -- '-jar' | head -1)
cp "$name" "../$name"
echo "native executable: operator/target/$name" >&2
