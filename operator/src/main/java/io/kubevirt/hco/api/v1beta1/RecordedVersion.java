package io.kubevirt.hco.api.v1beta1;

public class RecordedVersion {
    public String name;
    public String version;

    public RecordedVersion() {
    }

    public RecordedVersion(String name, String version) {
        this.name = name;
        this.version = version;
    }
}
