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
 * Reads an OCI image layout tarball back: its manifest, and the size a registry would transfer
 * (the compressed layers plus the config and manifest).
 */
final class OciTarball {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode manifest;

    private OciTarball(JsonNode manifest) {
        this.manifest = manifest;
    }

    static OciTarball read(Path tarball) throws IOException {
        // index.json and the manifest are small; the layers are skipped, not read
        Map<String, byte[]> small = new HashMap<>();
        try (InputStream in = Files.newInputStream(tarball); TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (entry.getSize() < 1 << 20) {
                    small.put(entry.getName(), tar.readAllBytes());
                }
            }
        }
        if (!small.containsKey("index.json")) {
            throw new IOException(tarball + " is not an OCI image layout (no index.json)");
        }
        String manifestDigest = JSON.readTree(small.get("index.json")).path("manifests").path(0).path("digest").asText();
        return new OciTarball(JSON.readTree(small.get("blobs/" + manifestDigest.replace(':', '/'))));
    }

    /** What a registry transfers for this image: compressed layers, config and manifest. */
    long compressedBytes() {
        long total = manifest.path("config").path("size").asLong();
        for (JsonNode layer : manifest.path("layers")) {
            total += layer.path("size").asLong();
        }
        return total + manifest.toString().length();
    }
}
