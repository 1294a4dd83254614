package io.kubevirt.hco.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An image the build made (operator/target/images, images.json), read back from its OCI tarball:
 * its configuration (entrypoint, env, user, working directory) and its root filesystem, unpacked
 * once per digest, layer by layer as a container runtime does (these images have no whiteouts:
 * each is built in one go FROM scratch).
 */
record ContainerImage(String kind, Path tarball, String digest, List<String> entrypoint, Map<String, String> env,
        String user, String workingDirectory, Map<String, String> labels, List<Integer> ports, long compressedBytes,
        List<String> layers) {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path IMAGES = Path.of("target/images");

    /** The image of {@code kind} (native, jvm, bundle) if this build made it. */
    static Optional<ContainerImage> built(String kind) throws IOException {
        Path index = IMAGES.resolve("images.json");
        if (!Files.isRegularFile(index)) {
            return Optional.empty();
        }
        JsonNode image = JSON.readTree(index.toFile()).path(kind);
        if (image.isMissingNode()) {
            return Optional.empty();
        }
        Path tarball = IMAGES.resolve(image.path("tarball").asText()).toAbsolutePath();
        JsonNode manifest = JSON.readTree(member(tarball, blob(image.path("digest").asText())));
        JsonNode config = JSON.readTree(member(tarball, blob(manifest.path("config").path("digest").asText())))
                .path("config");
        List<String> entrypoint = new ArrayList<>();
        config.path("Entrypoint").forEach(e -> entrypoint.add(e.asText()));
        Map<String, String> env = new LinkedHashMap<>();
        config.path("Env").forEach(e -> {
            String[] kv = e.asText().split("=", 2);
            env.put(kv[0], kv.length > 1 ? kv[1] : "");
        });
        Map<String, String> labels = new LinkedHashMap<>();
        config.path("Labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        List<Integer> ports = new ArrayList<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(p -> ports.add(Integer.parseInt(p.split("/")[0])));
        List<String> layers = new ArrayList<>();
        manifest.path("layers").forEach(l -> layers.add(l.path("digest").asText()));
        return Optional.of(new ContainerImage(kind, tarball, image.path("digest").asText(), entrypoint, env,
                config.path("User").asText(null), config.path("WorkingDir").asText("/"), labels, ports,
                image.path("compressedBytes").asLong(-1), List.copyOf(layers)));
    }

    /** The operator image the suite runs: the native one when the build made it, else the JVM one. */
    static ContainerImage operator() throws IOException {
        Optional<ContainerImage> image = built("native");
        if (image.isEmpty()) {
            image = built("jvm");
        }
        return image.orElseThrow(() -> new IOException("no operator image in " + IMAGES.toAbsolutePath()
                + ": the package phase builds it (BuildImages); was it skipped with -Dhco.images.skip?"));
    }

    /** The root filesystem: every layer unpacked in order into target/image-rootfs/<digest>. */
    Path rootfs() throws IOException, InterruptedException {
        synchronized (ContainerImage.class) {
            return unpack();
        }
    }

    private Path unpack() throws IOException, InterruptedException {
        Path root = Path.of("target/image-rootfs", digest.substring("sha256:".length(), 19)).toAbsolutePath();
        Path done = root.resolveSibling(root.getFileName() + ".unpacked");
        if (Files.exists(done)) {
            return root;
        }
        Files.createDirectories(root);
        for (String layer : layers) {
            run(List.of("sh", "-c", "tar -xOf \"$0\" \"$1\" | tar -xz --warning=no-unknown-keyword -C \"$2\"",
                    tarball.toString(), blob(layer), root.toString()));
        }
        // mount points a container runtime creates: /proc, /dev and the ServiceAccount's files
        for (String dir : List.of("proc", "dev", "var/run/secrets/kubernetes.io/serviceaccount")) {
            Files.createDirectories(root.resolve(dir));
        }
        Files.createFile(done);
        return root;
    }

    /** The user and group the entrypoint runs as ("1001:0"; a bare user means group 0). */
    String[] userAndGroup() {
        String u = user == null || user.isBlank() ? "0" : user;
        return u.contains(":") ? u.split(":", 2) : new String[] { u, "0" };
    }

    private static String blob(String digest) {
        return "blobs/" + digest.replace(':', '/');
    }

    private static byte[] member(Path tarball, String name) throws IOException {
        try {
            return run(List.of("tar", "-xOf", tarball.toString(), name));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static byte[] run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed with " + p.exitValue());
        }
        return out;
    }
}
