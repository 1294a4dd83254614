package io.kubevirt.hco;

import java.nio.file.Path;

/**
 * Files of the repository outside this module (chart, bundle, alert rules, runbooks, e2e scripts):
 * tests run in operator/, the build passes the repository root as {@code repository.root}.
 */
public final class Repo {

    public static final Path ROOT = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();

    private Repo() {
    }

    public static Path path(String relative) {
        return ROOT.resolve(relative);
    }
}
