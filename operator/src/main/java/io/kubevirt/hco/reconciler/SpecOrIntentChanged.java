package io.kubevirt.hco.reconciler;

import java.util.Objects;

import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.kubevirt.hco.api.v1beta1.HyperConverged;

/**
 * Which updates of the HyperConverged wake the reconciler: a new spec (generation), and the
 * metadata that is input too — annotations (JSON patches, tuning values, deployOVS), finalizers,
 * deletion. Not the status: the operator's own status writes would wake it in a loop. The SDK's
 * generation-aware filtering alone would miss an annotation edit until the next periodic pass.
 */
public class SpecOrIntentChanged implements OnUpdateFilter<HyperConverged> {

    @Override
    public boolean accept(HyperConverged now, HyperConverged before) {
        var n = now.getMetadata();
        var b = before.getMetadata();
        return !Objects.equals(n.getGeneration(), b.getGeneration())
                || !Objects.equals(n.getAnnotations(), b.getAnnotations())
                || !Objects.equals(n.getFinalizers(), b.getFinalizers())
                || !Objects.equals(n.getDeletionTimestamp(), b.getDeletionTimestamp());
    }
}
