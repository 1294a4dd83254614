package io.kubevirt.hco.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JVM image's Java runtime: jlink of the building JDK with the modules the operator uses,
 * without debug symbols, man pages or headers. The list is fixed rather than computed: jdeps cannot
 * resolve the fast-jar's mix of modular and plain jars, and half of these modules are reached only
 * through services or reflection, which jdeps does not see. The e2e suite runs the operator on this
 * runtime (ContainerImageIT, RealOlmIT), so a missing module fails there.
 */
final class JavaRuntime {

    static final List<String> MODULES = List.of(
            "java.base", "java.logging", "java.management", "java.naming", "java.net.http", "java.sql", "java.xml",
            // java.beans (SnakeYAML's property introspection, behind Jackson's YAML and kubeconfig parsing)
            "java.desktop",
            "java.security.jgss", "java.security.sasl", "jdk.unsupported", "jdk.management", "jdk.net",
            // found through services: TLS curves, DNS for the JDK's resolver, the fast-jar's zip file system
            "jdk.crypto.ec", "jdk.naming.dns", "jdk.zipfs");

    private static final java.util.regex.Pattern DESKTOP_NATIVES = java.util.regex.Pattern
            .compile("lib(awt.*|jawt|splashscreen|fontmanager|jsound|lcms|mlib_image|javajpeg|freetype)\\.so");

    private JavaRuntime() {
    }

    static Path link(Path out) throws IOException, InterruptedException {
        String javaHome = System.getProperty("java.home");
        Path runtime = out.resolve("java-runtime");
        BuildHost.deleteRecursively(runtime);
        BuildHost.run(List.of(Path.of(javaHome, "bin", "jlink").toString(), "--add-modules", String.join(",", MODULES),
                "--strip-debug", "--no-man-pages", "--no-header-files", "--compress=2", "--output", runtime.toString()));
        // java.desktop is here for java.beans only: its native AWT, sound and font libraries are never
        // loaded by a headless JVM, and they would pull X11, ALSA and FreeType into the image
        try (var list = Files.list(runtime.resolve("lib"))) {
            for (Path lib : list.filter(p -> DESKTOP_NATIVES.matcher(p.getFileName().toString()).matches()).toList()) {
                Files.delete(lib);
            }
        }
        return runtime;
    }
}
