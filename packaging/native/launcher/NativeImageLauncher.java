import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * A small native-image driver: turns the arguments written for GraalVM's {@code native-image}
 * (Quarkus' {@code native-image.args}, and the {@code native-image.properties} and configuration
 * files that jars carry under {@code META-INF/native-image/}) into a start of the image builder
 * (module {@code org.graalvm.nativeimage.builder}) on this toolchain's JVMCI JDK.
 *
 * Only the driver options that Quarkus and its extensions write are translated; any other driver
 * option is refused by name, so that nothing is silently dropped. Builder options ({@code -H:},
 * {@code -R:}) pass through unchanged.
 *
 * Usage: native-image [options] [-jar app.jar | -cp path main.Class] [image-name]
 * Environment: HCO_NATIVE_VERBOSE=1 prints the builder's command line.
 */
public final class NativeImageLauncher {

    private static final String BUILDER_MAIN = "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner";
    private static final String COMPILER_MODULE = "jdk.graal.compiler";

    /** The JVM flags the builder needs, as GraalVM's own driver sets them. */
    private static final List<String> BUILDER_JVM_FLAGS = List.of(
            "-XX:+UseParallelGC", "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
            "-Dtruffle.TrustAllTruffleRuntimeProviders=true",
            "-Dtruffle.TruffleRuntime=com.oracle.truffle.api.impl.DefaultTruffleRuntime",
            "-Dgraalvm.ForcePolyglotInvalid=true", "-Dgraalvm.locatorDisabled=true", "-Dsubstratevm.HostLibC=glibc",
            "-Xss10m", "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
            "-Dorg.graalvm.nativeimage.imagecode=buildtime", "--add-modules=ALL-DEFAULT",
            "--enable-native-access=org.graalvm.nativeimage.builder");

    /** Configuration files a jar may carry, and the builder option that takes each as a resource. */
    private static final Map<String, String> CONFIGURATION_RESOURCES = Map.of(
            "reflect-config.json", "ReflectionConfigurationResources",
            "resource-config.json", "ResourceConfigurationResources",
            "jni-config.json", "JNIConfigurationResources",
            "proxy-config.json", "DynamicProxyConfigurationResources",
            "serialization-config.json", "SerializationConfigurationResources",
            "predefined-classes-config.json", "PredefinedClassesConfigurationResources",
            "reachability-metadata.json", "ReachabilityMetadataResources");

    private static final Set<String> UNSUPPORTED_MONITORING = Set.of("jcmd", "all");

    private final Path home;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> builderArgs = new ArrayList<>();
    private final List<Path> classpath = new ArrayList<>();
    private final List<Pattern[]> excludedConfig = new ArrayList<>();
    private String mainClass;
    /** [main class] [image name] with -cp; [image name] with -jar (its manifest names the main class). */
    private final List<String> positional = new ArrayList<>();
    private String imageName;
    private Path imageDir = Path.of("").toAbsolutePath();
    private boolean verbose = "1".equals(System.getenv("HCO_NATIVE_VERBOSE"));

    private NativeImageLauncher(Path home) {
        this.home = home;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("java.home"));
        NativeImageLauncher launcher = new NativeImageLauncher(home);
        try {
            if (args.length == 1 && args[0].equals("--version")) {
                System.out.println(launcher.version());
                return;
            }
            launcher.parse(expandArgFiles(List.of(args)), "command line");
            launcher.readJarConfiguration();
            System.exit(launcher.runBuilder());
        } catch (UsageException e) {
            System.err.println("native-image: " + e.getMessage());
            System.exit(2);
        }
    }

    /** In the shape GraalVM's driver prints, which build tools (Quarkus' GraalVM.Version) parse. */
    private String version() throws IOException {
        String jdk = Runtime.version().toString();
        return "native-image " + builderVersion() + " (hco-operator toolchain)\n"
                + "GraalVM Runtime Environment " + vendorVersion() + " (build " + jdk + ")\n"
                + "Substrate VM " + vendorVersion() + " (build " + jdk + ", serial gc)";
    }

    /**
     * "GraalVM CE <builder version>+<JDK build>", the form a GraalVM JDK reports as
     * org.graalvm.vendorversion (the builder jars are GraalVM CE's; the JDK is this one).
     */
    private String vendorVersion() throws IOException {
        return "GraalVM CE " + builderVersion() + "+" + Runtime.version().build().orElse(0);
    }

    private String builderVersion() throws IOException {
        return Files.readString(home.resolve("lib/svm/builder/VERSION")).strip();
    }

    private static List<String> expandArgFiles(List<String> args) throws IOException {
        List<String> expanded = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("@") && arg.length() > 1) {
                expanded.addAll(expandArgFiles(tokenize(Files.readString(Path.of(arg.substring(1))))));
            } else {
                expanded.add(arg);
            }
        }
        return expanded;
    }

    /** Splits on whitespace; a backslash escapes the next character (driver argument files and properties). */
    private static List<String> tokenize(String text) {
        List<String> tokens = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inToken = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                current.append(text.charAt(++i));
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(current.toString());
                    current.setLength(0);
                    inToken = false;
                }
            } else {
                current.append(c);
                inToken = true;
            }
        }
        if (inToken) {
            tokens.add(current.toString());
        }
        return tokens;
    }

    private void parse(List<String> args, String origin) throws IOException {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : null;
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            switch (name) {
                case "-jar" -> addJar(Path.of(next(args, ++i, arg)));
                case "-cp", "-classpath", "--class-path" -> addClasspath(value != null ? value : next(args, ++i, arg));
                case "-o" -> setOutput(next(args, ++i, arg));
                case "--exclude-config" -> excludedConfig.add(new Pattern[] {
                        Pattern.compile(next(args, ++i, arg)), Pattern.compile(next(args, ++i, arg))});
                case "--features" -> builderArgs.add("-H:Features=" + required(value, arg));
                case "--initialize-at-build-time" -> classInitialization(value, ":build_time");
                case "--initialize-at-run-time" -> classInitialization(required(value, arg), ":run_time");
                case "--link-at-build-time" -> builderArgs.add("-H:LinkAtBuildTime=" + (value == null ? "" : value));
                case "--enable-url-protocols" -> builderArgs.add("-H:EnableURLProtocols=" + required(value, arg));
                case "--enable-http" -> builderArgs.add("-H:EnableURLProtocols=http");
                case "--enable-https" -> builderArgs.add("-H:EnableURLProtocols=https");
                case "--enable-monitoring" -> enableMonitoring(value);
                // module options hold for the image and for the builder's JVM, which runs the image's
                // class initializers (as the GraalVM driver's "launcher options" do)
                case "--enable-native-access" -> moduleOption("EnableNativeAccess", name, required(value, arg));
                case "--add-exports" -> moduleOption("AddExports", name, required(value, arg));
                case "--add-opens" -> moduleOption("AddOpens", name, required(value, arg));
                case "--add-reads" -> moduleOption("AddReads", name, required(value, arg));
                case "--trace-class-initialization" -> builderArgs.add("-H:TraceClassInitialization=" + required(value, arg));
                case "--trace-object-instantiation" -> builderArgs.add("-H:TraceObjectInstantiation=" + required(value, arg));
                case "--report-unsupported-elements-at-runtime" -> builderArgs.add("-H:+ReportUnsupportedElementsAtRuntime");
                case "--static" -> builderArgs.add("-H:+StaticExecutable");
                case "-g" -> builderArgs.add("-H:GenerateDebugInfo=2");
                case "-march" -> builderArgs.add("-H:MicroArchitecture=" + required(value, arg));
                case "--verbose" -> verbose = true;
                // no fallback image exists here: the builder either makes the executable or fails
                case "--no-fallback", "--allow-incomplete-classpath" -> { }
                default -> parseOther(arg, origin);
            }
        }
    }

    private void parseOther(String arg, String origin) {
        if (arg.startsWith("-J")) {
            jvmArgs.add(arg.substring(2));
        } else if (arg.startsWith("-H:") || arg.startsWith("-R:")) {
            builderArgs.add(arg);
        } else if (arg.startsWith("-D")) {
            jvmArgs.add(arg);
        } else if (arg.startsWith("-O") && arg.length() > 2) {
            builderArgs.add("-H:Optimize=" + arg.substring(2));
        } else if (arg.startsWith("-")) {
            throw new UsageException("option " + arg + " (from " + origin + ") is not supported by this driver; "
                    + "builder options (-H:...) pass through, see packaging/native/README.md");
        } else if (positional.size() < 2) {
            positional.add(arg);
        } else {
            throw new UsageException("unexpected argument " + arg + " (from " + origin + ")");
        }
    }

    private void moduleOption(String builderOption, String jvmOption, String value) {
        builderArgs.add("-H:" + builderOption + "=" + value);
        jvmArgs.add(jvmOption + "=" + value);
    }

    private void enableMonitoring(String value) {
        String features = value == null ? "<deprecated-default>" : value;
        for (String feature : features.split(",")) {
            if (UNSUPPORTED_MONITORING.contains(feature)) {
                throw new UsageException("--enable-monitoring=" + feature + " needs the attach listener, "
                        + "which this toolchain's C support library does not implement");
            }
        }
        builderArgs.add("-H:EnableMonitoringFeatures=" + features);
    }

    private void classInitialization(String value, String suffix) {
        if (value == null || value.isEmpty()) {
            builderArgs.add("-H:ClassInitialization=" + suffix);
            return;
        }
        builderArgs.add("-H:ClassInitialization=" + Stream.of(value.split(","))
                .map(name -> name + suffix).collect(Collectors.joining(",")));
    }

    private static String next(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(index);
    }

    private static String required(String value, String option) {
        if (value == null) {
            throw new UsageException(option + " needs a value (" + option + "=...)");
        }
        return value;
    }

    private void setOutput(String output) {
        Path path = Path.of(output).toAbsolutePath();
        imageDir = path.getParent();
        imageName = path.getFileName().toString();
    }

    private void addClasspath(String value) {
        for (String entry : value.split(":")) {
            if (!entry.isEmpty()) {
                classpath.add(Path.of(entry).toAbsolutePath());
            }
        }
    }

    /** The jar, the jars its manifest's Class-Path names (relative to it), and its Main-Class. */
    private void addJar(Path jar) throws IOException {
        Path absolute = jar.toAbsolutePath();
        classpath.add(absolute);
        try (JarFile file = new JarFile(absolute.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null) {
                return;
            }
            String entries = manifest.getMainAttributes().getValue("Class-Path");
            if (entries != null) {
                for (String entry : entries.trim().split("\\s+")) {
                    classpath.add(absolute.getParent().resolve(entry).normalize());
                }
            }
            if (mainClass == null) {
                mainClass = manifest.getMainAttributes().getValue("Main-Class");
            }
        }
    }

    /**
     * What each classpath jar contributes under META-INF/native-image/: its native-image.properties
     * (Args for the builder, JavaArgs for its JVM) and its configuration files, minus what
     * --exclude-config names.
     */
    private void readJarConfiguration() throws IOException {
        for (Path entry : List.copyOf(classpath)) {
            if (!Files.isRegularFile(entry)) {
                continue;
            }
            try (JarFile jar = new JarFile(entry.toFile())) {
                for (Enumeration<? extends ZipEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    ZipEntry zip = e.nextElement();
                    String name = zip.getName();
                    if (zip.isDirectory() || !name.startsWith("META-INF/native-image/") || excluded(entry, name)) {
                        continue;
                    }
                    String file = name.substring(name.lastIndexOf('/') + 1);
                    if (file.equals("native-image.properties")) {
                        readProperties(jar, zip, entry);
                    } else if (CONFIGURATION_RESOURCES.containsKey(file)) {
                        builderArgs.add("-H:" + CONFIGURATION_RESOURCES.get(file) + "=" + name);
                    }
                }
            }
        }
    }

    private boolean excluded(Path jar, String resource) {
        for (Pattern[] pair : excludedConfig) {
            if (pair[0].matcher(jar.toString()).find() && pair[1].matcher("/" + resource).matches()) {
                return true;
            }
        }
        return false;
    }

    private void readProperties(JarFile jar, ZipEntry entry, Path jarPath) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = jar.getInputStream(entry)) {
            properties.load(in);
        }
        String origin = jarPath.getFileName() + "!/" + entry.getName();
        String dir = "jar:" + jarPath.toUri() + "!/" + entry.getName().substring(0, entry.getName().lastIndexOf('/'));
        String args = properties.getProperty("Args");
        if (args != null) {
            parse(tokenize(args.replace("${.}", dir)), origin);
        }
        String javaArgs = properties.getProperty("JavaArgs");
        if (javaArgs != null) {
            jvmArgs.addAll(tokenize(javaArgs.replace("${.}", dir)));
        }
    }

    private int runBuilder() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>(positional);
        if (mainClass == null && !names.isEmpty()) {
            mainClass = names.remove(0);
        }
        if (imageName == null && !names.isEmpty()) {
            imageName = names.remove(0);
        }
        if (!names.isEmpty()) {
            throw new UsageException("unexpected argument " + names.get(0));
        }
        if (mainClass == null) {
            throw new UsageException("no main class: give -jar with a Main-Class manifest or -cp <path> <main class>");
        }
        if (imageName == null) {
            imageName = mainClass.substring(mainClass.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        }
        Path builderDir = home.resolve("lib/svm/builder");
        List<Path> builderJars;
        try (Stream<Path> jars = Files.list(builderDir)) {
            builderJars = jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        Set<String> builderModules = new TreeSet<>();
        List<String> upgradePath = new ArrayList<>();
        List<String> modulePath = new ArrayList<>();
        for (Path jar : builderJars) {
            Set<ModuleReference> refs = ModuleFinder.of(jar).findAll();
            for (ModuleReference ref : refs) {
                builderModules.add(ref.descriptor().name());
                (ref.descriptor().name().equals(COMPILER_MODULE) ? upgradePath : modulePath).add(jar.toString());
            }
        }

        List<String> jvm = new ArrayList<>(BUILDER_JVM_FLAGS);
        // what a GraalVM JDK reports, and what frameworks (Quarkus' GraalVM.Version) read while the image is built
        jvm.add("-Dorg.graalvm.vendorversion=" + vendorVersion());
        jvm.add("-XX:MaxRAMPercentage=80");
        jvm.addAll(concealedPackageExports(String.join(",", builderModules)));
        jvm.addAll(jvmArgs);
        jvm.add("--upgrade-module-path");
        jvm.add(String.join(":", upgradePath));
        jvm.add("--module-path");
        jvm.add(String.join(":", modulePath));
        jvm.add("--module");
        jvm.add(BUILDER_MAIN);

        String clibraries = home.resolve("lib/svm/clibraries").toString();
        List<String> builder = new ArrayList<>();
        builder.add("-imagecp");
        builder.add(classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
        builder.add("-H:Path=" + imageDir);
        builder.add("-H:Name=" + imageName);
        builder.add("-H:Class=" + mainClass);
        builder.add("-H:ImageBuildID=" + UUID.randomUUID());
        builder.add("-H:CLibraryPath=" + String.join(",", clibraries + "/linux-amd64/glibc", clibraries + "/linux-amd64", clibraries));
        builder.addAll(new LinkedHashSet<>(builderArgs));

        Path argFile = Files.createTempFile("native-image-", ".args");
        try {
            Files.write(argFile, Stream.concat(jvm.stream(), builder.stream()).map(NativeImageLauncher::quote).toList());
            List<String> command = List.of(home.resolve("bin/java").toString(), "@" + argFile);
            if (verbose) {
                System.err.println("native-image: " + command + "\n" + Files.readString(argFile));
            }
            Process process = new ProcessBuilder(command).inheritIO().start();
            return process.waitFor();
        } finally {
            Files.deleteIfExists(argFile);
        }
    }

    /** Every package of every resolved system module, exported to the builder's modules (they reach into JDK internals). */
    private static List<String> concealedPackageExports(String targets) {
        List<String> exports = new ArrayList<>();
        Set<String> resolved = ModuleLayer.boot().modules().stream().map(Module::getName).collect(Collectors.toSet());
        resolved.add("jdk.internal.vm.ci"); // resolved in the builder's JVM by -XX:+EnableJVMCI
        for (ModuleReference ref : ModuleFinder.ofSystem().findAll()) {
            String module = ref.descriptor().name();
            if (!resolved.contains(module)) {
                continue; // not in the builder's boot layer either: exporting it would only warn
            }
            for (String pkg : new TreeSet<>(ref.descriptor().packages())) {
                exports.add("--add-exports=" + module + "/" + pkg + "=" + targets);
            }
        }
        return exports;
    }

    /** java's @argfile syntax: quote anything with whitespace, quotes or backslashes. */
    private static String quote(String arg) {
        if (arg.chars().noneMatch(c -> Character.isWhitespace(c) || c == '"' || c == '\'' || c == '\\' || c == '#')) {
            return arg;
        }
        return "\"" + arg.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }
}
