package io.kubevirt.hco.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.parallelOutboundMigrationsPerNode <= self.parallelMigrationsPerCluster",
        message = "parallelOutboundMigrationsPerNode cannot exceed parallelMigrationsPerCluster")
public class LiveMigrationConfig {

    @JsonPropertyDescription("How many migrations may run at once in the whole cluster.")
    @Min(1)
    @Max(1000)
    @Default("5")
    public Integer parallelMigrationsPerCluster = 5;

    @JsonPropertyDescription("How many outbound migrations one node may run at once.")
    @Min(1)
    @Max(100)
    @Default("2")
    public Integer parallelOutboundMigrationsPerNode = 2;

    @JsonPropertyDescription("Bandwidth limit of each migration as a quantity (e.g. 64Mi); 0 means unlimited.")
    @Pattern("^(0|[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?)$")
    @Default("0Mi")
    public String bandwidthPerMigration = "0Mi";

    @JsonPropertyDescription("Seconds per GiB of guest memory after which a migration is cancelled.")
    @Min(1)
    @Max(86400)
    @Default("150")
    public Integer completionTimeoutPerGiB = 150;

    @JsonPropertyDescription("Seconds without progress after which a migration is cancelled.")
    @Min(1)
    @Max(86400)
    @Default("150")
    public Integer progressTimeout = 150;

    @JsonPropertyDescription("Allow post-copy migration (may lose the VM if the network fails mid-way).")
    @Default("false")
    public Boolean allowPostCopy = false;
}
