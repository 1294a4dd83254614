package io.kubevirt.hco.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The image build of a release, run by the operator module's package phase:
 * {@code BuildImages <repository root> <operator target dir> <version>}.
 * Builds what the build before it produced: the native image when a native executable is there
 * ({@code -Pnative}), the JVM image when the fast-jar is there, and always the bundle image, its
 * CSV pointing at the operator image by digest (the native one when built). Writes the OCI
 * tarballs and {@code images.json} (references, digests, sizes) under {@code target/images}, and
 * {@code helm-values.yaml}, which points the chart at the operator image by digest.
 */
public final class BuildImages {

    private BuildImages() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        Path target = Path.of(args[1]).toAbsolutePath().normalize();
        String version = args[2];
        Path out = Files.createDirectories(target.resolve("images"));
        String revision = revision(root);
        Path baseScript = root.resolve("packaging/image/base-rootfs.sh");
        Map<String, OciImageBuilder.Built> built = new LinkedHashMap<>();

        Path executable = nativeExecutable(target);
        if (executable != null) {
            Path base = baseRootfs(baseScript, out.resolve("base-native"), List.of(executable));
            built.put("native", OciImageBuilder.build(OperatorImages.nativeImage(version, revision, base, executable),
                    version, out.resolve("hco-operator-native.oci.tar")));
        }
        Path app = target.resolve("quarkus-app");
        if (Files.isRegularFile(app.resolve("quarkus-run.jar"))) {
            Path runtime = JavaRuntime.link(out);
            List<Path> elves = new ArrayList<>(List.of(runtime.resolve("bin/java")));
            try (Stream<Path> walk = Files.walk(runtime.resolve("lib"))) {
                walk.filter(p -> p.getFileName().toString().endsWith(".so")).sorted().forEach(elves::add);
            }
            Path base = baseRootfs(baseScript, out.resolve("base-jvm"), elves);
            built.put("jvm", OciImageBuilder.build(OperatorImages.jvmImage(version, revision, base, runtime, app),
                    version + "-jvm", out.resolve("hco-operator-jvm.oci.tar")));
        }
        OciImageBuilder.Built operator = built.containsKey("native") ? built.get("native") : built.get("jvm");
        if (operator != null) {
            String byDigest = operator.name() + "@" + operator.digest();
            Path bundle = BundleForImage.write(root.resolve("bundle"), out.resolve("bundle"), byDigest);
            built.put("bundle", OciImageBuilder.build(OperatorImages.bundleImage(version, revision, bundle,
                    BundleForImage.labels(bundle)), version, out.resolve("hco-operator-bundle.oci.tar")));
            Files.writeString(out.resolve("helm-values.yaml"), "# the chart at the image this build made, by digest:\n"
                    + "#   helm install ... -f " + out.resolve("helm-values.yaml") + "\nimage:\n  repository: "
                    + operator.name() + "\n  digest: " + operator.digest() + "\n");
        }
        writeIndex(out.resolve("images.json"), built);
        built.forEach((kind, b) -> System.out.printf("[images] %s: %s@%s (%s)%n", kind, b.name(), b.digest(),
                root.relativize(b.tarball())));
    }

    private static Path nativeExecutable(Path target) throws IOException {
        try (Stream<Path> list = Files.list(target)) {
            return list.filter(p -> p.getFileName().toString().endsWith("-runner") && Files.isExecutable(p)
                    && Files.isRegularFile(p)).findFirst().orElse(null);
        }
    }

    private static Path baseRootfs(Path script, Path out, List<Path> elves) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", script.toString(), out.toString()));
        elves.forEach(p -> command.add(p.toString()));
        BuildHost.run(command);
        return out;
    }

    private static String revision(Path root) {
        try {
            return BuildHost.run(List.of("git", "-C", root.toString(), "rev-parse", "HEAD")).trim();
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    private static void writeIndex(Path file, Map<String, OciImageBuilder.Built> built) throws IOException {
        Map<String, Object> index = new LinkedHashMap<>();
        for (var e : built.entrySet()) {
            OciImageBuilder.Built b = e.getValue();
            Map<String, Object> image = new LinkedHashMap<>();
            image.put("reference", b.reference());
            image.put("digest", b.digest());
            image.put("imageId", b.imageId());
            image.put("tarball", b.tarball().getFileName().toString());
            image.put("compressedBytes", OciTarball.read(b.tarball()).compressedBytes());
            index.put(e.getKey(), image);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), index);
    }
}
