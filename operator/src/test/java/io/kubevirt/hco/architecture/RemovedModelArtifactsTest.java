package io.kubevirt.hco.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The fabric8 model artifacts that application.properties leaves out of the application
 * ({@code quarkus.class-loading.removed-artifacts}) are not there at run time, JVM or native: a class
 * of the operator that refers to one of their classes would fail with NoClassDefFoundError only when
 * that path runs. Read from the compiled classes' constant pools, where every class a class refers
 * to is named.
 */
class RemovedModelArtifactsTest {

    static final Path PROPERTIES = Path.of("src/main/resources/application.properties");
    static final Path CLASSES = Path.of("target/classes");
    static final Pattern MODEL_CLASS = Pattern.compile("io/fabric8/kubernetes/api/model/((?:[a-z0-9]+/)+)[A-Za-z0-9_$]+");

    @Test
    void theOperatorRefersToNoClassOfARemovedModelArtifact() throws IOException {
        Set<String> removed = removedPackages();
        // the list is read and covers what it says: the Gateway API's classes are among those left out
        assertThat(removed).contains("io/fabric8/kubernetes/api/model/gatewayapi/v1/", "io/fabric8/kubernetes/api/model/policy/v1/");

        List<String> references = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASSES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                for (String ref : references(Files.readAllBytes(f), removed)) {
                    references.add(CLASSES.relativize(f) + " → " + ref);
                }
            }
        }
        assertThat(references).as("references to classes of removed model artifacts").isEmpty();
    }

    @Test
    void aReferenceInAConstantPoolIsFound() {
        byte[] classBytes = "\u0001\u0000\u0028Lio/fabric8/kubernetes/api/model/batch/v1/Job;\u0007io/fabric8/kubernetes/api/model/Pod"
                .getBytes(StandardCharsets.ISO_8859_1);
        assertThat(references(classBytes, Set.of("io/fabric8/kubernetes/api/model/batch/v1/")))
                .containsExactly("io/fabric8/kubernetes/api/model/batch/v1/Job");
    }

    static List<String> references(byte[] classBytes, Set<String> removedPackages) {
        List<String> found = new ArrayList<>();
        Matcher m = MODEL_CLASS.matcher(new String(classBytes, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            if (removedPackages.contains("io/fabric8/kubernetes/api/model/" + m.group(1))) {
                found.add(m.group());
            }
        }
        return found;
    }

    /** The packages (internal names, ending in /) of the classes in the removed artifacts' jars on this classpath. */
    static Set<String> removedPackages() throws IOException {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(PROPERTIES)) {
            properties.load(in);
        }
        String list = properties.getProperty("quarkus.class-loading.removed-artifacts", "");
        Set<String> packages = new TreeSet<>();
        for (String artifact : Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList()) {
            String[] ga = artifact.split(":");
            URL pom = RemovedModelArtifactsTest.class.getClassLoader()
                    .getResource("META-INF/maven/" + ga[0] + "/" + ga[1] + "/pom.properties");
            assertThat(pom).as(artifact + " on the test classpath").isNotNull();
            JarURLConnection jar = (JarURLConnection) pom.openConnection();
            jar.setUseCaches(false);
            try (JarFile file = jar.getJarFile()) {
                for (var entry : Collections.list(file.entries())) {
                    String name = entry.getName();
                    if (name.endsWith(".class") && name.startsWith("io/fabric8/kubernetes/api/model/")) {
                        packages.add(name.substring(0, name.lastIndexOf('/') + 1));
                    }
                }
            }
        }
        return packages;
    }
}
