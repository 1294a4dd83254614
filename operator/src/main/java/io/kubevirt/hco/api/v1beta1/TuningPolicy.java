package io.kubevirt.hco.api.v1beta1;

/**
 * How KubeVirt's client rate limits are set: {@code annotation} reads qps and burst from the
 * {@code hco.kubevirt.io/tuningPolicy} annotation, {@code highBurst} uses upstream's high-burst
 * profile. Unset keeps KubeVirt's own defaults.
 */
public enum TuningPolicy {
    annotation,
    highBurst
}
