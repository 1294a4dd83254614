package io.kubevirt.hco.api.v1;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * v1beta1's liveMigrationConfig with v1's defaults (upstream lowered two in v1: 20 s per GiB, one
 * outbound migration per node). The field names are the same; only the schema's defaults differ.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LiveMigrationConfig {

    @Min(1)
    @Default("5")
    public Integer parallelMigrationsPerCluster;

    @Min(1)
    @Default("1")
    public Integer parallelOutboundMigrationsPerNode;

    @Pattern("^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$")
    public String bandwidthPerMigration;

    @Min(1)
    @Default("20")
    public Integer completionTimeoutPerGiB;

    @Min(1)
    @Default("150")
    public Integer progressTimeout;

    public String network;

    @Default("false")
    public Boolean allowAutoConverge;

    @Default("false")
    public Boolean allowPostCopy;
}
