package io.kubevirt.hco.images;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubevirt.hco.images.ImageRecipe.Entry;
import io.kubevirt.hco.images.ImageRecipe.Layer;

/**
 * The three images of a release: the native operator (production), the JVM operator, and the OLM
 * bundle. All FROM scratch: the base layer is the files the executable needs, from Debian's packages.
 */
public final class OperatorImages {

    /** Non-root, group 0: any UID works, as OpenShift assigns one (the chart's root filesystem is read-only). */
    public static final String USER = "1001:0";
    public static final String WORKDIR = "/work";
    /** The management port: health, metrics, the gate explanation, runbooks. */
    public static final int MANAGEMENT_PORT = 9000;
    public static final String NATIVE_EXECUTABLE = "/work/application";
    public static final String JAVA_HOME = "/opt/java";
    public static final String JVM_APP = "/deployments";
    /**
     * C1 only and the serial collector, in every JVM image (Dockerfile.jvm and its AppCDS training
     * too): the operator reconciles about once a second, so C2's compilations cost more CPU over its
     * life than its code saves, and a 30-60 MB heap needs no parallel collector threads (bin/bench,
     * 300 s churn, 2026-12-06: 8.1 CPU s and 241 MB RSS against 17.0 s and 278 MB with the JVM's
     * defaults).
     */
    public static final List<String> JIT_AND_GC_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /**
     * The JVM image's flags: a heap bounded by the container's memory, {@link #JIT_AND_GC_FLAGS}, and
     * JBoss log manager as the JDK logging manager (Quarkus' runner expects it).
     */
    public static final List<String> JVM_FLAGS = java.util.stream.Stream.of(List.of("-XX:MaxRAMPercentage=75"),
            JIT_AND_GC_FLAGS, List.of("-Djava.awt.headless=true",
                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager")).flatMap(List::stream).toList();

    private OperatorImages() {
    }

    public static ImageRecipe nativeImage(String version, String revision, Path base, Path executable) {
        return new ImageRecipe("hco-operator", List.of(NATIVE_EXECUTABLE), USER, WORKDIR, List.of(MANAGEMENT_PORT),
                Map.of(), labels(version, revision, "Installs the KubeVirt hyperconverged stack from one HyperConverged"
                        + " resource and tells OLM, failing closed, when it may be upgraded"),
                List.of(new Layer("base", List.of(new Entry(base, "/", false))),
                        new Layer("application", List.of(new Entry(executable, NATIVE_EXECUTABLE, true)))));
    }

    public static ImageRecipe jvmImage(String version, String revision, Path base, Path javaRuntime, Path quarkusApp) {
        List<String> entrypoint = new java.util.ArrayList<>(List.of(JAVA_HOME + "/bin/java"));
        entrypoint.addAll(JVM_FLAGS);
        entrypoint.addAll(List.of("-jar", JVM_APP + "/quarkus-run.jar"));
        return new ImageRecipe("hco-operator-jvm", entrypoint, USER, WORKDIR, List.of(MANAGEMENT_PORT),
                Map.of("JAVA_HOME", JAVA_HOME, "LANG", "C.UTF-8"),
                labels(version, revision, "Installs the KubeVirt hyperconverged stack from one HyperConverged"
                        + " resource and tells OLM, failing closed, when it may be upgraded (JVM build)"),
                // the fast-jar's parts, most stable first, so that a rebuild changes the last layers only
                List.of(new Layer("base", List.of(new Entry(base, "/", false))),
                        new Layer("java-runtime", List.of(new Entry(javaRuntime, JAVA_HOME, true))),
                        new Layer("libraries", List.of(new Entry(quarkusApp.resolve("lib"), JVM_APP + "/lib", false))),
                        new Layer("application", List.of(
                                new Entry(quarkusApp.resolve("quarkus-run.jar"), JVM_APP + "/quarkus-run.jar", false),
                                new Entry(quarkusApp.resolve("app"), JVM_APP + "/app", false),
                                new Entry(quarkusApp.resolve("quarkus"), JVM_APP + "/quarkus", false)))));
    }

    /** The bundle image: manifests/ and metadata/ with the labels OLM reads (as bundle.Dockerfile says). */
    public static ImageRecipe bundleImage(String version, String revision, Path bundle, Map<String, String> bundleLabels) {
        Map<String, String> labels = new LinkedHashMap<>(bundleLabels);
        labels.putAll(labels(version, revision, "The OLM bundle of hco-operator"));
        return new ImageRecipe("hco-operator-bundle", List.of(), null, null, List.of(), Map.of(), labels,
                List.of(new Layer("bundle", List.of(new Entry(bundle.resolve("manifests"), "/manifests", false),
                        new Entry(bundle.resolve("metadata"), "/metadata", false)))));
    }

    static Map<String, String> labels(String version, String revision, String description) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("org.opencontainers.image.title", "hco-operator");
        labels.put("org.opencontainers.image.description", description);
        labels.put("org.opencontainers.image.version", version);
        labels.put("org.opencontainers.image.revision", revision);
        labels.put("org.opencontainers.image.licenses", "Apache-2.0");
        labels.put("org.opencontainers.image.vendor", "hco-operator project");
        return labels;
    }
}
