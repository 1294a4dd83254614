package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How an operator process is started: the packaged jar on this JVM, the native executable, or the
 * operator image's entrypoint in its own root filesystem ({@link ContainerRun}).
 * The e2e suite runs the jar; {@code -Dhco.e2e.native=<executable>} runs the same scenarios against
 * a native build (packaging/native/e2e.sh), {@code -Dhco.e2e.native-flags} its run-time flags;
 * {@code -Dhco.e2e.image=true} runs them from the operator image the build made.
 */
public record OperatorLaunch(String label, Path program, List<String> command, ContainerImage image) {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    /**
     * JVM flags of the operator processes: the tests favour a quick start (C1 only); the bench runs
     * the JVM as the image does, in the chart's memory limit (its {@code bench.jvm-flags}).
     */
    public static final String JVM_FLAGS = System.getProperty("hco.e2e.jvm-flags", "-Xmx256m -XX:TieredStopAtLevel=1");

    /** The native executable's flags: the heap limit the JVM runs with, nothing the JIT would need. */
    public static final String NATIVE_FLAGS = System.getProperty("hco.e2e.native-flags", "-Xmx256m");

    /** What the e2e scenarios start unless they say otherwise. */
    public static OperatorLaunch standard() {
        String executable = System.getProperty("hco.e2e.native", "");
        if (Boolean.getBoolean("hco.e2e.image")) {
            return fromImage();
        }
        return executable.isBlank() ? jvm(JVM_FLAGS) : nativeExecutable(Path.of(executable), NATIVE_FLAGS);
    }

    public static OperatorLaunch jvm(String flags) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(split(flags));
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString()));
        return new OperatorLaunch("JVM", JAR, command, null);
    }

    public static OperatorLaunch nativeExecutable(Path executable, String flags) {
        List<String> command = new ArrayList<>(List.of(executable.toAbsolutePath().toString()));
        command.addAll(split(flags));
        return new OperatorLaunch("native", executable, command, null);
    }

    /** The operator image the build made (native when built, else JVM), run as a container would run it. */
    public static OperatorLaunch fromImage() {
        try {
            return of(ContainerImage.operator());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Each operator image the build made (native, jvm), as a launch; empty when none was built. */
    public static Map<String, OperatorLaunch> builtImages() {
        Map<String, OperatorLaunch> launches = new java.util.LinkedHashMap<>();
        for (String kind : List.of("native", "jvm")) {
            try {
                ContainerImage.built(kind).ifPresent(image -> launches.put(kind, of(image)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return launches;
    }

    private static OperatorLaunch of(ContainerImage image) {
        return new OperatorLaunch("image:" + image.kind(), image.tarball(), image.entrypoint(), image);
    }

    /** The compressed size of the image this launch runs (what a registry transfers), in bytes; -1 if none. */
    public long imageCompressedBytes() {
        return image == null ? -1 : image.compressedBytes();
    }

    public boolean isNative() {
        return label.equals("native") || label.equals("image:native");
    }

    public boolean inContainer() {
        return image != null;
    }

    /** The flags after the program, for reports. */
    public String flags() {
        return String.join(" ", command.subList(1, command.size()));
    }

    void checkBuilt() throws IOException {
        if (!Files.isRegularFile(program)) {
            throw new IOException(program + " is missing: " + (inContainer() ? "the package phase builds it"
                    : isNative()
                    ? "build it with packaging/native/build.sh"
                    : "the e2e suite runs after `mvn package`"));
        }
    }

    private static List<String> split(String flags) {
        return flags.isBlank() ? List.of() : List.of(flags.trim().split("\\s+"));
    }
}
