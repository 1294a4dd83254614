#!/bin/sh
# Trains the class-data-sharing archive the JVM image starts with (-XX:SharedArchiveFile): one
# start of the operator with no cluster to talk to (every API call is refused at once), which loads
# what a real start loads up to its first requests, fails, and exits; on the way out the JVM writes
# every class it loaded to the archive. Train with the JVM that will use the archive: another JVM
# ignores it (and starts as it would without). The bench (bin/bench) measures starts with and
# without an archive trained by this script.
#   usage: train-appcds.sh <quarkus-run.jar> <archive>      (JAVA=... to choose the java binary)
set -eu
jar=${1:?usage: train-appcds.sh <quarkus-run.jar> <archive>}
archive=${2:?usage: train-appcds.sh <quarkus-run.jar> <archive>}
java=${JAVA:-java}
mkdir -p "$(dirname "$archive")"
rm -f "$archive"
limit=""
if command -v timeout >/dev/null 2>&1; then
    limit="timeout 300"
fi
# trained with the flags the image runs with (Dockerfile.jvm); the start fails on purpose (no API
# server), so its exit status says nothing; the archive does
env -u KUBECONFIG \
    QUARKUS_KUBERNETES_CLIENT_API_SERVER_URL=https://127.0.0.1:1 \
    QUARKUS_KUBERNETES_CLIENT_TOKEN=training \
    QUARKUS_KUBERNETES_CLIENT_REQUEST_RETRY_BACKOFF_LIMIT=0 \
    OPERATOR_VERSION=0.0.0-training OPERATOR_CONDITION_NAME=training \
    HCO_MANAGEMENT_PORT=0 HCO_HTTP_PORT=0 \
    $limit "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ArchiveClassesAtExit="$archive" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$jar" \
    >"$archive.log" 2>&1 || true
if [ ! -s "$archive" ]; then
    echo "train-appcds: no archive written; the training run's output is in $archive.log" >&2
    exit 1
fi
rm -f "$archive.log"
echo "train-appcds: wrote $archive ($(wc -c <"$archive") bytes)"
