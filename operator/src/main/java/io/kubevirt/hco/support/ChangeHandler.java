package io.kubevirt.hco.support;

import java.util.function.Consumer;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/**
 * An informer's events for a watcher that only asks "what is it now": an addition and an update
 * both hand over the object as it is now; a deletion is its own case.
 */
public final class ChangeHandler<T> implements ResourceEventHandler<T> {

    private final Consumer<T> changed;
    private final Consumer<T> deleted;

    private ChangeHandler(Consumer<T> changed, Consumer<T> deleted) {
        this.changed = changed;
        this.deleted = deleted;
    }

    /** {@code changed} for an addition or an update, {@code deleted} for a deletion (final state possibly unknown). */
    public static <T> ChangeHandler<T> of(Consumer<T> changed, Consumer<T> deleted) {
        return new ChangeHandler<>(changed, deleted);
    }

    @Override
    public void onAdd(T object) {
        changed.accept(object);
    }

    @Override
    public void onUpdate(T before, T object) {
        changed.accept(object);
    }

    @Override
    public void onDelete(T object, boolean finalStateUnknown) {
        deleted.accept(object);
    }
}
