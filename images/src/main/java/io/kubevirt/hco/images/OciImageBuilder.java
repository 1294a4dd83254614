package io.kubevirt.hco.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainer;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.google.cloud.tools.jib.api.buildplan.Platform;
import com.google.cloud.tools.jib.api.buildplan.Port;

/**
 * Builds an {@link ImageRecipe} into an OCI image tarball with Jib: no daemon, no registry, no base
 * image to pull (FROM scratch). Reproducible: Jib stamps every file with the same time, so the same
 * inputs give the same digest.
 */
public final class OciImageBuilder {

    /** What was built: where, the manifest digest (what a registry would serve) and the image ID. */
    public record Built(String name, Path tarball, String reference, String digest, String imageId) {
    }

    private OciImageBuilder() {
    }

    public static Built build(ImageRecipe recipe, String tag, Path out) throws Exception {
        JibContainerBuilder builder = Jib.fromScratch().setFormat(ImageFormat.OCI)
                .setPlatforms(Set.of(new Platform("amd64", "linux")))
                .setCreationTime(Instant.EPOCH)
                .setLabels(recipe.labels())
                .setEnvironment(recipe.env());
        if (!recipe.entrypoint().isEmpty()) {
            builder.setEntrypoint(recipe.entrypoint());
        }
        if (recipe.user() != null) {
            builder.setUser(recipe.user());
        }
        if (recipe.workingDirectory() != null) {
            builder.setWorkingDirectory(AbsoluteUnixPath.get(recipe.workingDirectory()));
        }
        Set<Port> ports = new HashSet<>();
        recipe.ports().forEach(p -> ports.add(Port.tcp(p)));
        builder.setExposedPorts(ports);
        for (ImageRecipe.Layer layer : recipe.layers()) {
            FileEntriesLayer.Builder files = FileEntriesLayer.builder().setName(layer.name());
            for (ImageRecipe.Entry entry : layer.entries()) {
                add(files, entry.source(), AbsoluteUnixPath.get(entry.target()), entry.executable());
            }
            builder.addFileEntriesLayer(files.build());
        }
        Files.createDirectories(out.getParent());
        ImageReference reference = ImageReference.parse(recipe.name() + ":" + tag);
        JibContainer container = builder.containerize(Containerizer.to(TarImage.at(out).named(reference))
                .setAlwaysCacheBaseImage(false));
        return new Built(recipe.name(), out, reference.toString(), container.getDigest().toString(),
                container.getImageId().toString());
    }

    /** A file, or a directory with everything under it, keeping the executable bit of what has it. */
    private static void add(FileEntriesLayer.Builder files, Path source, AbsoluteUnixPath target, boolean executable)
            throws IOException {
        if (!Files.isDirectory(source)) {
            files.addEntry(source, target, mode(source, executable));
            return;
        }
        List<Path> all;
        try (Stream<Path> walk = Files.walk(source)) {
            all = walk.sorted().toList();
        }
        for (Path path : all) {
            String relative = source.relativize(path).toString();
            AbsoluteUnixPath at = relative.isEmpty() ? target : target.resolve(relative.replace('\\', '/'));
            if (at.toString().equals("/")) {
                continue;
            }
            files.addEntry(path, at, Files.isDirectory(path) ? directoryMode(path) : mode(path, executable));
        }
    }

    private static FilePermissions mode(Path file, boolean executable) throws IOException {
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        return executable || permissions.contains(PosixFilePermission.OWNER_EXECUTE) ? FilePermissions.fromOctalString("755")
                : FilePermissions.fromOctalString("644");
    }

    /** 755, but a world-writable directory keeps its mode (/tmp: 1777 is written as 777 by Jib's octal). */
    private static FilePermissions directoryMode(Path dir) throws IOException {
        return Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_WRITE)
                ? FilePermissions.fromOctalString("777") : FilePermissions.fromOctalString("755");
    }
}
