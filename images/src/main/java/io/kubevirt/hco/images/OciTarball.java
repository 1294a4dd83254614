package io.kubevirt.hco.images;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads an OCI image layout tarball back: its manifest and config, and the size a registry would
 * transfer (the compressed layers plus the config and manifest).
 */
public final class OciTarball {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, byte[]> smallBlobs;
    private final Map<String, Long> sizes;
    private final JsonNode manifest;

    private OciTarball(Map<String, byte[]> smallBlobs, Map<String, Long> sizes, JsonNode manifest) {
        this.smallBlobs = smallBlobs;
        this.sizes = sizes;
        this.manifest = manifest;
    }

    public static OciTarball read(Path tarball) throws IOException {
        Map<String, byte[]> small = new HashMap<>();
        Map<String, Long> sizes = new HashMap<>();
        try (InputStream in = Files.newInputStream(tarball); TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                sizes.put(entry.getName(), entry.getSize());
                if (entry.getSize() < 1 << 20) {
                    small.put(entry.getName(), tar.readAllBytes());
                }
            }
        }
        if (!small.containsKey("index.json")) {
            throw new IOException(tarball + " is not an OCI image layout (no index.json)");
        }
        String manifestDigest = JSON.readTree(small.get("index.json")).path("manifests").path(0).path("digest").asText();
        JsonNode manifest = JSON.readTree(small.get(blob(manifestDigest)));
        return new OciTarball(small, sizes, manifest);
    }

    static String blob(String digest) {
        return "blobs/" + digest.replace(':', '/');
    }

    public JsonNode manifest() {
        return manifest;
    }

    /** The image configuration's {@code config} object: Entrypoint, User, WorkingDir, ExposedPorts, Env, Labels. */
    public JsonNode config() throws IOException {
        return JSON.readTree(smallBlobs.get(blob(manifest.path("config").path("digest").asText()))).path("config");
    }

    /** What a registry transfers for this image: compressed layers, config and manifest. */
    public long compressedBytes() {
        long total = manifest.path("config").path("size").asLong();
        for (JsonNode layer : manifest.path("layers")) {
            total += layer.path("size").asLong();
        }
        return total + manifest.toString().length();
    }

    /** The layers' digests in order (the file names of their blobs in the tarball). */
    public java.util.List<String> layerDigests() {
        java.util.List<String> digests = new java.util.ArrayList<>();
        manifest.path("layers").forEach(l -> digests.add(l.path("digest").asText()));
        return digests;
    }

    public long size(String digest) {
        return sizes.getOrDefault(blob(digest), -1L);
    }
}
