package io.kubevirt.hco.config;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** All runtime settings; see the README's configuration table. Environment variables map onto these keys. */
@ConfigMapping(prefix = "hco")
public interface OperatorSettings {

    /** The namespace the operator runs in; the HyperConverged singleton and namespaced component CRs live there. */
    String namespace();

    /** This operator's version (OPERATOR_VERSION, or upstream's HCO_KV_IO_VERSION). */
    @WithName("operator-version")
    Optional<String> operatorVersion();

    /** The OperatorCondition to write (OPERATOR_CONDITION_NAME, injected by OLM); absent means no OLM. */
    @WithName("operator-condition-name")
    Optional<String> operatorConditionName();

    Gate gate();

    Components components();

    interface Components {
        /**
         * The API server's field validation for component spec writes: Warn (a field the installed
         * CRD does not know is dropped, and logged) or Strict (the write is refused). Tests run Strict.
         */
        @WithDefault("Warn")
        String fieldValidation();

        /**
         * Write component specs with server-side apply (field manager hco-operator). Off only for
         * API servers without it: the in-process test server of the tests, the demo and dev mode,
         * where a whole-object update with the resourceVersion read is used instead.
         */
        @WithDefault("true")
        boolean serverSideApply();
    }

    @WithName("leader-election")
    LeaderElection leaderElection();

    Metrics metrics();

    /** Dev mode only ({@code mvn quarkus:dev}): the dev console's embedded stack. */
    Dev dev();

    interface Dev {
        /** Run the simulated component operators; the dev console's embedded cluster turns it on. */
        @WithDefault("false")
        boolean simulator();

        /** The release the simulated stack was installed with, so an upgrade from it is in progress. */
        @WithDefault("1.0.0")
        String previousVersion();

        /** Start the embedded Kubernetes API in dev mode (read at build time by the dev console). */
        @WithDefault("true")
        boolean embeddedCluster();
    }

    interface Metrics {
        /** Require a bearer token allowed to get /metrics (TokenReview + SubjectAccessReview). */
        @WithDefault("false")
        boolean auth();

        /** How long a token's verdict is reused. */
        @WithDefault("30s")
        Duration authCacheTtl();

        /**
         * The ServiceAccount Prometheus scrapes with (the chart and the CSV create it and grant it
         * get on /metrics). With auth on, the operator keeps its token Secret {@code <name>-token},
         * which the shipped ServiceMonitor names. Empty: none.
         */
        @WithDefault("hco-operator-metrics-scraper")
        String scraperServiceAccount();
    }

    interface LeaderElection {
        /** Build-time in effect: decides whether the Lease-based election bean exists at all. */
        @WithDefault("true")
        boolean enabled();

        @WithDefault("hco-operator-lock")
        String leaseName();

        /** How long a lease is valid without renewal: the longest a dead leader blocks a successor. */
        @WithDefault("137s")
        Duration leaseDuration();

        /** How long the leader keeps trying to renew before it gives up (and exits). */
        @WithDefault("107s")
        Duration renewDeadline();

        @WithDefault("26s")
        Duration retryPeriod();

        /**
         * The Deployment this pod belongs to (HCO_DEPLOYMENT_NAME) and the pod's
         * {@code pod-template-hash} label (HCO_POD_TEMPLATE_HASH, from the downward API): together
         * they say whether this pod is of the Deployment's current revision, so that during a
         * rollout the new revision leads. Absent (not in a Deployment): no handover.
         */
        Optional<String> deploymentName();

        Optional<String> podTemplateHash();

        /** How often a replica checks the rollout (and a current standby renews its announcement). */
        @WithDefault("5s")
        Duration handoverCheckInterval();
    }

    interface Gate {
        /** How long everything must hold before Upgradeable turns True. */
        @WithDefault("5s")
        Duration stabilizationWindow();

        /** operator-condition | readiness | auto */
        @WithDefault("auto")
        GateMode mode();

        /** How often the gate is re-checked while no HyperConverged exists (no reconcile runs then). */
        @WithDefault("10s")
        Duration idlePollInterval();

        /**
         * The longest time between two decisions (and OperatorCondition re-assertions) when no
         * event arrives: real component operators write only on change.
         */
        @WithDefault("60s")
        Duration reassertInterval();

        /** How soon a failed OperatorCondition write is retried. */
        @WithDefault("2s")
        Duration writeRetryInterval();
    }

    enum GateMode {
        OPERATOR_CONDITION,
        READINESS,
        AUTO;

        /** AUTO picks the OperatorCondition when OLM injected its name, else readiness. */
        public GateMode resolve(boolean operatorConditionNamed) {
            if (this != AUTO) {
                return this;
            }
            return operatorConditionNamed ? OPERATOR_CONDITION : READINESS;
        }
    }
}
