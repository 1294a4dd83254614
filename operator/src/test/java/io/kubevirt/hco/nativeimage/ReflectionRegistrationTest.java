package io.kubevirt.hco.nativeimage;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.kubevirt.hco.api.v1beta1.HyperConverged;
import io.kubevirt.hco.core.GateExplanation;
import io.kubevirt.hco.explain.PublishedDecision;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** A class added to the API or to the explain model without native registration fails here, not in a native pod. */
class ReflectionRegistrationTest {

    private final Set<Class<?>> registered = Set.of(
            ReflectionRegistration.class.getAnnotation(RegisterForReflection.class).targets());

    @Test
    void everyApiClassIsRegistered() throws Exception {
        Path dir = Path.of(HyperConverged.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(HyperConverged.class.getPackageName().replace('.', '/'));
        Set<Class<?>> api = new HashSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString().replace(".class", "");
                api.add(Class.forName(HyperConverged.class.getPackageName() + "." + name));
            }
        }
        assertThat(api).hasSizeGreaterThan(10);
        assertThat(registered).containsAll(api);
    }

    /**
     * Both answers of the explain endpoint: the leader's own explanation and a standby's relay of the
     * published decision (missing in the native build until the native e2e run found it: a standby's
     * JSON answer was a 503 there).
     */
    @Test
    void everyTypeReachableFromTheExplainModelIsRegistered() throws URISyntaxException {
        Set<Class<?>> reachable = new HashSet<>();
        collect(GateExplanation.class, reachable);
        collect(PublishedDecision.class, reachable);
        assertThat(reachable).contains(GateExplanation.ComponentEvidence.class, PublishedDecision.Blocker.class);
        assertThat(registered).containsAll(reachable);
    }

    /** Our own types reachable through record components, including list elements. */
    private static void collect(Type type, Set<Class<?>> out) {
        if (type instanceof ParameterizedType p) {
            for (Type arg : p.getActualTypeArguments()) {
                collect(arg, out);
            }
            return;
        }
        if (!(type instanceof Class<?> c) || !c.getName().startsWith("io.kubevirt.hco") || !out.add(c)) {
            return;
        }
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                collect(rc.getGenericType(), out);
            }
        }
    }
}
