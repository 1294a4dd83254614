package io.kubevirt.hco.dev;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.api.v1beta1.HyperConvergedStatus;
import io.kubevirt.hco.api.v1beta1.RecordedVersion;
import io.kubevirt.hco.components.ComponentCatalog;
import io.kubevirt.hco.config.OperatorSettings;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.devconsole.DevConsole;
import io.kubevirt.hco.gate.GateService;
import io.kubevirt.hco.gate.OperatorConditionWriter;
import io.kubevirt.hco.snapshot.StackSnapshots;
import io.kubevirt.hco.simulator.OlmObjects;
import io.kubevirt.hco.simulator.ComponentSimulator;
import io.kubevirt.hco.simulator.ComponentSimulator.Behaviour;
import io.kubevirt.hco.simulator.ComponentCrds;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Dev mode's stack, on the embedded cluster the dev console extension starts: what OLM would have
 * left after installing the previous release (an OperatorCondition, a HyperConverged that recorded
 * {@code hco.dev.previous-version}), and the simulated component operators, still running that
 * version. This process is the new release, so an upgrade is in progress from the first second; the
 * Dev UI card drives the simulator through it. The simulator's settings live in a ConfigMap, so a
 * live reload (a new process, as far as the cluster can tell) picks up where it was.
 */
@IfBuildProfile("dev")
@ApplicationScoped
public class DevStack implements DevConsole {

    private static final Logger LOG = Logger.getLogger(DevStack.class);
    static final String SETTINGS = "hco-dev-simulator";
    static final String ALL = "all";
    static final int TIMELINE_LIMIT = 200;

    /** What the card's buttons may ask of a simulated component operator. */
    enum Move {
        HEALTHY, SILENT, DEGRADED, PROGRESSING, GARBAGE,
        /** It now runs the release this operator expects, and reports healthy. */
        FINISH_UPGRADE,
        /** Everything back to the previous release, as recorded before this upgrade: walk it again. */
        REPLAY_UPGRADE
    }

    @Inject
    KubernetesClient client;

    @Inject
    OperatorSettings settings;

    @Inject
    GateService gate;

    @Inject
    io.kubevirt.hco.lifecycle.ProcessLifecycle lifecycle;

    @ConfigProperty(name = "quarkus.kubernetes-client.api-server-url")
    java.util.Optional<String> apiServer;

    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
    private final List<Map<String, Object>> timeline = new CopyOnWriteArrayList<>();
    private volatile String lastGate;
    private String previousVersion;
    private ComponentSimulator simulator;
    private Watch watch;

    /** Before the gate's own start-up (PLATFORM_BEFORE), so the operator finds what OLM would have left. */
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE - 100) StartupEvent event) {
        if (!settings.dev().simulator()) {
            return;
        }
        previousVersion = settings.dev().previousVersion();
        String ns = settings.namespace();
        ComponentCrds.install(client);
        String conditionName = settings.operatorConditionName().orElse(null);
        if (conditionName != null && operatorCondition(conditionName) == null) {
            OlmObjects.createOperatorCondition(client, ns, conditionName);
            record("OLM", "installed the CSV's OperatorCondition " + conditionName);
        }
        if (client.resources(HyperConverged.class).inNamespace(ns).withName(HyperConverged.SINGLETON_NAME).get() == null) {
            client.resource(previousRelease(ns)).create();
            record("cluster", "HyperConverged " + HyperConverged.SINGLETON_NAME + " installed by release "
                    + previousVersion + "; this process is release " + lifecycle.operatorVersion());
        }
        simulator = new ComponentSimulator(client, ns, previousVersion);
        restoreSettings();
        simulator.start(500);
        if (conditionName != null) {
            watch = client.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(ns)
                    .withName(conditionName).watch(new GateWatcher());
        }
        LOG.infof("Dev stack on %s: upgrade %s -> %s in progress; drive it from the Dev UI card 'Upgrade gate'",
                apiServer.orElse("?"), previousVersion, lifecycle.operatorVersion());
    }

    void stop(@Observes ShutdownEvent event) {
        if (watch != null) {
            watch.close();
        }
        if (simulator != null) {
            simulator.close();
        }
    }

    private HyperConverged previousRelease(String ns) {
        HyperConverged hco = new HyperConverged();
        hco.setMetadata(new ObjectMetaBuilder().withName(HyperConverged.SINGLETON_NAME).withNamespace(ns).build());
        HyperConvergedStatus status = new HyperConvergedStatus();
        status.versions.add(new RecordedVersion(StackSnapshots.OPERATOR_VERSION_RECORD, previousVersion));
        hco.setStatus(status);
        return hco;
    }

    @Override
    public Map<String, Object> state() {
        Map<String, Object> state = new LinkedHashMap<>();
        GateExplanation explanation = gate.explain();
        state.put("summary", explanation == null ? "starting"
                : "Upgradeable=" + (explanation.upgradeable() ? "True" : "False") + ": " + explanation.reason());
        state.put("gate", explanation == null ? null : json.convertValue(explanation, Map.class));
        state.put("operatorVersion", lifecycle.operatorVersion());
        state.put("previousVersion", previousVersion);
        state.put("apiServer", apiServer.orElse(null));
        List<Map<String, Object>> components = new ArrayList<>();
        if (simulator != null) {
            ComponentCatalog.ALL.forEach(d -> components.add(Map.of("name", d.name(),
                    "behaviour", simulator.behaviour(d.name()).name(), "runningVersion", simulator.runningVersion(d.name()),
                    "converged", simulator.converged(d.name(), lifecycle.operatorVersion()))));
        }
        state.put("components", components);
        state.put("actions", List.of(Move.values()).stream().map(a -> a.name().toLowerCase().replace('_', '-')).toList());
        List<Map<String, Object>> recent = new ArrayList<>(timeline);
        state.put("timeline", recent.subList(Math.max(0, recent.size() - TIMELINE_LIMIT), recent.size()));
        return state;
    }

    @Override
    public Map<String, Object> act(String component, String action) {
        if (simulator == null) {
            return Map.of("error", "the simulator is not running (hco.dev.simulator=false)");
        }
        Move a;
        try {
            a = Move.valueOf(String.valueOf(action).toUpperCase().replace('-', '_'));
        } catch (IllegalArgumentException e) {
            return error("unknown action '" + action + "'; known: " + state().get("actions"));
        }
        List<String> names = ComponentCatalog.ALL.stream().map(d -> d.name()).toList();
        List<String> targets = ALL.equals(component) || a == Move.REPLAY_UPGRADE ? names
                : names.contains(component) ? List.of(component) : null;
        if (targets == null) {
            return error("unknown component '" + component + "'; known: " + names + " or " + ALL);
        }
        for (String name : targets) {
            switch (a) {
                case FINISH_UPGRADE -> simulator.runVersion(name, lifecycle.operatorVersion()).behave(name, Behaviour.HEALTHY);
                case REPLAY_UPGRADE -> simulator.runVersion(name, previousVersion).behave(name, Behaviour.HEALTHY);
                default -> simulator.behave(name, Behaviour.valueOf(a.name()));
            }
        }
        if (a == Move.REPLAY_UPGRADE) {
            replayUpgrade();
        }
        saveSettings();
        record("you", a.name().toLowerCase().replace('_', ' ') + ": " + String.join(", ", targets));
        return state();
    }

    private Map<String, Object> error(String message) {
        Map<String, Object> state = state();
        state.put("error", message);
        return state;
    }

    /** The HyperConverged records the previous release again, as if this upgrade had not started. */
    private void replayUpgrade() {
        client.resources(HyperConverged.class).inNamespace(settings.namespace()).withName(HyperConverged.SINGLETON_NAME)
                .editStatus(hco -> {
                    hco.getStatus().versions.removeIf(v -> StackSnapshots.OPERATOR_VERSION_RECORD.equals(v.name));
                    hco.getStatus().versions.add(new RecordedVersion(StackSnapshots.OPERATOR_VERSION_RECORD, previousVersion));
                    return hco;
                });
    }

    private void saveSettings() {
        Map<String, String> data = new LinkedHashMap<>();
        ComponentCatalog.ALL.forEach(d -> {
            data.put(d.name() + ".behaviour", simulator.behaviour(d.name()).name());
            data.put(d.name() + ".version", simulator.runningVersion(d.name()));
        });
        ConfigMap cm = new ConfigMapBuilder().withNewMetadata().withName(SETTINGS).withNamespace(settings.namespace())
                .endMetadata().withData(data).build();
        client.configMaps().inNamespace(settings.namespace()).resource(cm).createOr(existing -> existing.update());
    }

    private void restoreSettings() {
        ConfigMap cm = client.configMaps().inNamespace(settings.namespace()).withName(SETTINGS).get();
        if (cm == null || cm.getData() == null) {
            return;
        }
        ComponentCatalog.ALL.forEach(d -> {
            String b = cm.getData().get(d.name() + ".behaviour");
            String v = cm.getData().get(d.name() + ".version");
            if (b != null) {
                simulator.behave(d.name(), Behaviour.valueOf(b));
            }
            if (v != null) {
                simulator.runVersion(d.name(), v);
            }
        });
        record("dev mode", "live reload: simulator settings restored from ConfigMap " + SETTINGS);
    }

    private GenericKubernetesResource operatorCondition(String name) {
        return client.genericKubernetesResources(OperatorConditionWriter.DEFINITION).inNamespace(settings.namespace())
                .withName(name).get();
    }

    private void record(String who, String what) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("at", Instant.now().toString());
        entry.put("who", who);
        entry.put("what", what);
        timeline.add(entry);
        if (timeline.size() > TIMELINE_LIMIT * 2) {
            timeline.subList(0, TIMELINE_LIMIT).clear();
        }
    }

    /** Every change of what OLM would read goes on the timeline. */
    private final class GateWatcher implements Watcher<GenericKubernetesResource> {
        @Override
        public void eventReceived(Action action, GenericKubernetesResource oc) {
            Map<String, Object> upgradeable = OlmObjects.upgradeableOf(oc, "spec");
            if (upgradeable == null) {
                return;
            }
            String now = upgradeable.get("status") + " " + upgradeable.get("reason");
            if (!now.equals(lastGate)) {
                lastGate = now;
                record("OperatorCondition", "Upgradeable=" + upgradeable.get("status") + " (" + upgradeable.get("reason")
                        + "): " + upgradeable.get("message"));
            }
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }
}
