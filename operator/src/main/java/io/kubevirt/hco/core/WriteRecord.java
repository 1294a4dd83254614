package io.kubevirt.hco.core;

/**
 * What the API server answered to this operator's last write of a component spec: the
 * resourceVersion and generation of that write. A snapshot older than it cannot be trusted.
 */
public record WriteRecord(String resourceVersion, long generation) {
}
