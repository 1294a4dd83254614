package io.kubevirt.hco.images;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What an image is, as data: its configuration (entrypoint, user, working directory, ports, env,
 * labels) and its layers, most stable first. Both routes to an image read from here or are checked
 * against it: the Jib build (OciImageBuilder) and Dockerfile.native (DockerfileRouteTest).
 */
public record ImageRecipe(String name, List<String> entrypoint, String user, String workingDirectory,
        List<Integer> ports, Map<String, String> env, Map<String, String> labels, List<Layer> layers) {

    /** One layer: the directories and files it adds, each at its path in the image. */
    public record Layer(String name, List<Entry> entries) {
    }

    /**
     * {@code source} (a file, or a directory copied with everything under it) at {@code target} in
     * the image; {@code executable} files get mode 755, the others 644 (directories 755).
     */
    public record Entry(Path source, String target, boolean executable) {
    }
}
