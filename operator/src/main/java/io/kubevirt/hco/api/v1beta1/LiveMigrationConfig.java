package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/** Upstream's liveMigrationConfig, copied onto KubeVirt's configuration.migrations. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.parallelOutboundMigrationsPerNode) || !has(self.parallelMigrationsPerCluster) "
        + "|| self.parallelOutboundMigrationsPerNode <= self.parallelMigrationsPerCluster",
        message = "parallelOutboundMigrationsPerNode cannot exceed parallelMigrationsPerCluster")
public class LiveMigrationConfig {

    @JsonPropertyDescription("How many migrations may run at once in the whole cluster.")
    @Min(1)
    @Default("5")
    public Integer parallelMigrationsPerCluster = 5;

    @JsonPropertyDescription("How many outbound migrations one node may run at once.")
    @Min(1)
    @Default("2")
    public Integer parallelOutboundMigrationsPerNode = 2;

    @JsonPropertyDescription("Bandwidth limit of each migration as a quantity of bytes per second (e.g. 2048Mi); unset means unlimited.")
    @Pattern("^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$")
    public String bandwidthPerMigration;

    @JsonPropertyDescription("Seconds per GiB of guest memory (and migrated disks) after which a migration is cancelled.")
    @Min(1)
    @Default("150")
    public Integer completionTimeoutPerGiB = 150;

    @JsonPropertyDescription("Seconds without progress after which a migration is cancelled.")
    @Min(1)
    @Default("150")
    public Integer progressTimeout = 150;

    @JsonPropertyDescription("A dedicated multus network (NetworkAttachmentDefinition name) for migrations.")
    public String network;

    @JsonPropertyDescription("Let the platform slow a VM down to make its migration converge.")
    @Default("false")
    public Boolean allowAutoConverge = false;

    @JsonPropertyDescription("Allow post-copy migration (may lose the VM if the network fails mid-way).")
    @Default("false")
    public Boolean allowPostCopy = false;
}
