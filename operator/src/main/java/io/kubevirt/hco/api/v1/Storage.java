package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.kubevirt.hco.api.v1beta1.FilesystemOverhead;
import io.kubevirt.hco.api.v1beta1.StorageImportConfig;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class Storage {

    public String vmStateStorageClass;
    public String scratchSpaceStorageClass;
    public StorageImportConfig storageImport;
    public FilesystemOverhead filesystemOverhead;
    /** v1beta1's spec.resourceRequirements.storageWorkloads. */
    public ResourceRequirements workloadResourceRequirements;
    /** v1beta1's featureGates.persistentReservation. */
    public PersistentReservationConfiguration persistentReservationConfiguration;

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class PersistentReservationConfiguration {
        public Boolean enabled;
    }
}
