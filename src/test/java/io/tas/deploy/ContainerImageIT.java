package io.tas.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tas.support.ApiClient;
import io.tas.support.ServerProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 11 item 6: target/tas-image.tar (jib:buildTar at package) is an OCI image of this build with its own Java
 * runtime (D91: scratch plus the jlink'd runtime of deploy/image/runtime.sh), deploy/compose.yaml runs that image,
 * and the image's entrypoint starts the service: its layers unpacked into a directory, run there under chroot as the
 * image's user, answer /health/live. Unpacking uses the host's tar, which keeps the layers' file modes.
 */
class ContainerImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path TAR = Path.of("target/tas-image.tar");
    @TempDir static Path work;
    private static Path layout;
    private static Path rootfs;
    private static JsonNode index;
    private static JsonNode manifest;
    private static JsonNode config;

    @BeforeAll
    static void unpack() throws Exception {
        assertThat(TAR).as("built by `mvn package` (jib:buildTar)").isRegularFile();
        layout = Files.createDirectories(work.resolve("layout"));
        rootfs = Files.createDirectories(work.resolve("rootfs"));
        run("tar", "xf", TAR.toString(), "-C", layout.toString());
        index = JSON.readTree(layout.resolve("index.json").toFile());
        manifest = blob(index.get("manifests").get(0).get("digest").asText());
        config = blob(manifest.get("config").get("digest").asText());
        for (JsonNode layer : manifest.get("layers")) {
            run("tar", "xzf", blobPath(layer.get("digest").asText()).toString(), "-C", rootfs.toString(), "--warning=no-unknown-keyword");
        }
    }

    private static Path blobPath(String digest) {
        return layout.resolve("blobs").resolve(digest.replace(':', '/'));
    }

    private static JsonNode blob(String digest) throws IOException { return JSON.readTree(blobPath(digest).toFile()); }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("%s: %s", String.join(" ", command), out).isZero();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Path inImage(String absolute) { return rootfs.resolve(absolute.substring(1)); }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void isAnOciImageOfThisBuildWithItsOwnRuntime() throws IOException {
        assertThat(JSON.readTree(layout.resolve("oci-layout").toFile()).get("imageLayoutVersion").asText()).isEqualTo("1.0.0");
        assertThat(index.get("mediaType").asText()).isEqualTo("application/vnd.oci.image.index.v1+json");
        assertThat(manifest.get("mediaType").asText()).isEqualTo("application/vnd.oci.image.manifest.v1+json");
        assertThat(manifest.get("config").get("mediaType").asText()).isEqualTo("application/vnd.oci.image.config.v1+json");
        manifest.get("layers").forEach(l -> assertThat(l.get("mediaType").asText()).isEqualTo("application/vnd.oci.image.layer.v1.tar+gzip"));
        assertThat(config.get("os").asText()).isEqualTo("linux");
        assertThat(config.get("architecture").asText()).isEqualTo("amd64");

        JsonNode c = config.get("config");
        List<String> entrypoint = strings(c.get("Entrypoint"));
        assertThat(entrypoint).startsWith("/opt/java/bin/java").endsWith("-cp", "@/app/jib-classpath-file", "io.tas.Main");
        assertThat(strings(c.get("Cmd"))).containsExactly("serve");
        assertThat(names(c.get("ExposedPorts"))).containsExactly("8080/tcp", "8081/tcp");
        assertThat(c.get("User").asText()).isEqualTo("65532:65532");

        // The entrypoint's java and the loader it names are executable; glibc is there for them.
        for (String exe : List.of("/opt/java/bin/java", "/lib64/ld-linux-x86-64.so.2")) {
            assertThat(Files.getPosixFilePermissions(inImage(exe))).as(exe).contains(PosixFilePermission.OTHERS_EXECUTE);
        }
        assertThat(inImage("/lib/x86_64-linux-gnu/libc.so.6")).isRegularFile();
        assertThat(Files.getPosixFilePermissions(inImage("/data"))).as("writable by the non-root user")
                .contains(PosixFilePermission.OTHERS_WRITE);
        // The jar of this build and every runtime dependency, and a classpath that names only files that are there.
        assertThat(Files.mismatch(inImage("/app/classpath/tas.jar"), Path.of("target/tas.jar"))).isEqualTo(-1L);
        assertThat(names(inImage("/app/libs"))).isEqualTo(names(Path.of("target/libs")));
        String classpath = Files.readString(inImage("/app/jib-classpath-file")).strip();
        for (String entry : classpath.split(":")) {
            if (entry.endsWith("/*")) assertThat(inImage(entry.substring(0, entry.length() - 2))).as(entry).isNotEmptyDirectory();
            else assertThat(inImage(entry)).as(entry).exists();
        }
        assertThat(classpath).startsWith("/app/classpath/*:"); // the jar above
    }

    private static List<String> names(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out.stream().sorted().toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void composeRunsTwoNodesOfThisImageBehindNginx() throws IOException {
        Map<String, Object> compose = new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(Path.of("deploy/compose.yaml")));
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        assertThat(services).containsOnlyKeys("postgres", "redis", "tas1", "tas2", "nginx");

        String built = JSON.readTree(new File("target/jib-image.json")).get("image").asText();
        assertThat(built).isEqualTo(index.get("manifests").get(0).get("annotations").get("org.opencontainers.image.ref.name").asText());
        for (String node : List.of("tas1", "tas2")) {
            Map<String, Object> s = services.get(node);
            assertThat(s.get("image")).as(node + " runs the image the pom builds").isEqualTo(built);
            Map<String, Object> env = (Map<String, Object>) s.get("environment");
            assertThat(env.get("TAS_DB_URL")).isEqualTo("jdbc:postgresql://postgres:5432/tas");
            assertThat(env.get("TAS_REDIS_URL")).isEqualTo("redis://redis:6379");
            assertThat(env).containsKeys("TAS_MASTER_KEY", "TAS_ADMIN_TOKEN", "TAS_DB_PASSWORD");
            assertThat((Map<String, Object>) s.get("depends_on")).containsOnlyKeys("postgres", "redis");
            assertThat(env.get("TAS_TRUSTED_PROXIES")).as("only nginx's fixed address is trusted").isEqualTo(nginxAddress(services));
        }
        // nginx takes the shipped config, whose upstream names the compose services (and which ProxyConformanceTest runs).
        assertThat((List<String>) services.get("nginx").get("volumes")).containsExactly("./nginx/tas.conf:/etc/nginx/conf.d/default.conf:ro");
        assertThat(Files.readString(Path.of("deploy/nginx/tas.conf"))).contains("server tas1:8080 ", "server tas2:8080 ", "listen 80;");
        assertThat((Map<String, Object>) compose.get("volumes")).containsKey("pgdata");
    }

    @SuppressWarnings("unchecked")
    private static String nginxAddress(Map<String, Map<String, Object>> services) {
        var networks = (Map<String, Map<String, Object>>) services.get("nginx").get("networks");
        return (String) networks.get("default").get("ipv4_address");
    }

    @Test
    void entrypointStartsTheServiceInAChroot() throws Exception {
        // Root is needed for chroot and for /proc (the loader finds the runtime's libraries through /proc/self/exe).
        assumeTrue("root".equals(System.getProperty("user.name")) && new File("/usr/sbin/chroot").canExecute(), "needs root and chroot");
        Path proc = Files.createDirectories(rootfs.resolve("proc"));
        Process mount = new ProcessBuilder("mount", "-t", "proc", "proc", proc.toString()).redirectErrorStream(true).start();
        assumeTrue(mount.waitFor() == 0, "mounting /proc: " + new String(mount.getInputStream().readAllBytes()));
        Process server = null;
        try {
            int port = ServerProcess.freePort();
            int adminPort = ServerProcess.freePort();
            JsonNode c = config.get("config");
            List<String> command = new ArrayList<>(List.of("/usr/sbin/chroot", "--userspec=" + c.get("User").asText(), rootfs.toString()));
            command.addAll(strings(c.get("Entrypoint")));
            command.addAll(strings(c.get("Cmd")));
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(work.resolve("server.log").toFile());
            pb.environment().clear();
            for (JsonNode e : c.get("Env")) pb.environment().put(e.asText().split("=", 2)[0], e.asText().split("=", 2)[1]);
            // The sandbox allows the demo secrets; the default database is H2 in the image's /data.
            pb.environment().putAll(Map.of("TAS_PORT", Integer.toString(port), "TAS_ADMIN_PORT", Integer.toString(adminPort), "TAS_SANDBOX", "on",
                    "TAS_SHUTDOWN_GRACE_MS", "1000"));
            server = pb.start();
            String live = null;
            for (int i = 0; i < 240 && live == null && server.isAlive(); i++) {
                try {
                    live = ApiClient.raw("http://127.0.0.1:" + port + "/health/live", "GET", "").raw();
                } catch (UncheckedIOException notYet) {
                    Thread.sleep(250);
                }
            }
            assertThat(live).as("server log: %s", Files.readString(work.resolve("server.log"))).isEqualTo("{\"status\":\"UP\"}");
            assertThat(ApiClient.raw("http://127.0.0.1:" + port + "/api/v2/public/time", "GET", "").code()).isEqualTo("00000");
            // Admin listens beyond loopback in the image (TAS_ADMIN_HOST=0.0.0.0), where a port can be published.
            assertThat(ApiClient.raw("http://127.0.0.1:" + adminPort + "/metrics", "GET", "").raw()).contains("tas_requests_total");
            // It wrote its database where the image lets the non-root user write.
            assertThat(inImage("/data/tas.mv.db")).isRegularFile();
        } finally {
            if (server != null) {
                server.destroy();
                if (!server.waitFor(30, TimeUnit.SECONDS)) server.destroyForcibly().waitFor();
            }
            new ProcessBuilder("umount", "-l", proc.toString()).start().waitFor();
        }
    }
}
