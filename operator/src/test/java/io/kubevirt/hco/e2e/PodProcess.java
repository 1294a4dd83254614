package io.kubevirt.hco.e2e;

/** What the pod runner needs of the process it runs for a pod's container. */
interface PodProcess extends AutoCloseable {

    boolean alive();

    /** What the kubelet would report as the container's readiness. */
    boolean ready();

    /** The exit code once the process ended, else null (a Job's pod succeeds or fails by it). */
    default Integer exitCode() {
        return null;
    }

    @Override
    void close() throws InterruptedException;
}
