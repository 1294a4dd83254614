package io.kubevirt.hco.e2e;

/** What the pod runner needs of the process it runs for a pod's container. */
interface PodProcess extends AutoCloseable {

    boolean alive();

    /** What the kubelet would report as the container's readiness. */
    boolean ready();

    @Override
    void close() throws InterruptedException;
}
