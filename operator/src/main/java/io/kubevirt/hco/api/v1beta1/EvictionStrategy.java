package io.kubevirt.hco.api.v1beta1;

/** KubeVirt's cluster-wide eviction strategy; unset means LiveMigrate on multi-node clusters, None on one node. */
public enum EvictionStrategy {
    None,
    LiveMigrate,
    LiveMigrateIfPossible,
    External
}
