package io.tas.deploy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * D107: `mvn package` trains target/tas.aot on the built jar, the JVM accepts it, and `./tas` starts with the service's
 * own defaults (the serial collector unless TAS_JAVA_OPTS names one, a heap cap, the cache when it is at least as new as
 * the jar).
 */
class AotCacheIT {
    private static final Path AOT = Path.of("target/tas.aot");
    private static final Path JAR = Path.of("target/tas.jar");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @BeforeAll
    static void theBuildTrainedACache() {
        assumeFalse(Boolean.getBoolean("tas.aot.skip"), "built with -Dtas.aot.skip=true");
    }

    @Test
    void theJvmStartsFromTheCacheTheBuildTrained() throws Exception {
        assertThat(AOT).exists();
        assertThat(Files.getLastModifiedTime(AOT)).isGreaterThanOrEqualTo(Files.getLastModifiedTime(JAR));
        // AOTMode=on makes the JVM refuse to start when it cannot map or validate the cache (a foreign or stale jar).
        Run version = run(JAVA, "-XX:AOTMode=on", "-XX:AOTCache=" + AOT, "-jar", JAR.toString(), "--version");
        assertThat(version.exit()).as(version.out()).isZero();
        assertThat(version.out()).contains("tas 0.1.0").doesNotContain("[error]").doesNotContain("[warning]");
    }

    @Test
    void aForeignJarIsRefusedByTheCache() throws Exception {
        Path other = Path.of("target/tas-aot-other.jar"); // beside the jar, so its Class-Path (libs/) resolves
        try {
            Files.copy(JAR, other, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.setLastModifiedTime(other, FileTime.fromMillis(Files.getLastModifiedTime(JAR).toMillis() + 5_000));
            assertThat(run(JAVA, "-jar", other.toString(), "--version").exit()).as("the copy runs without the cache").isZero();
            Run refused = run(JAVA, "-XX:AOTMode=on", "-XX:AOTCache=" + AOT, "-jar", other.toString(), "--version");
            assertThat(refused.exit()).as("a cache trained on another jar must not be used: " + refused.out()).isNotZero();
        } finally {
            Files.deleteIfExists(other);
        }
    }

    @Test
    void theLauncherPassesItsDefaultsAndOnlyACurrentCache() throws Exception {
        Run current = run(Map.of(), "bash", "tas", "jvm-options");
        assertThat(current.exit()).isZero();
        assertThat(current.out().trim().split("\\s+"))
                .containsExactly("-XX:+UseSerialGC", "-Xmx384m", "-XX:AOTCache=target/tas.aot");
        // A collector named in TAS_JAVA_OPTS replaces the serial one (two would stop the JVM).
        Run g1 = run(Map.of("TAS_JAVA_OPTS", "-XX:+UseG1GC -Xmx2g"), "bash", "tas", "jvm-options");
        assertThat(g1.out().trim().split("\\s+")).containsExactly("-Xmx384m", "-XX:AOTCache=target/tas.aot");
        Run other = run(Map.of("TAS_JAVA_OPTS", "-XX:+UseLargePages -XX:+DisableExplicitGC"), "bash", "tas", "jvm-options");
        assertThat(other.out().trim().split("\\s+")).as("not a collector").startsWith("-XX:+UseSerialGC");

        FileTime trained = Files.getLastModifiedTime(AOT);
        try {
            Files.setLastModifiedTime(AOT, FileTime.fromMillis(Files.getLastModifiedTime(JAR).toMillis() - 60_000));
            Run stale = run(Map.of(), "bash", "tas", "jvm-options");
            assertThat(stale.out().trim().split("\\s+")).containsExactly("-XX:+UseSerialGC", "-Xmx384m");
        } finally {
            Files.setLastModifiedTime(AOT, trained);
        }
    }

    private record Run(int exit, String out) {}

    private static Run run(String... command) throws IOException, InterruptedException {
        return run(Map.of(), command);
    }

    /** Runs with TAS_JAVA_OPTS as given (unset unless in env), whatever the test JVM's environment holds. */
    private static Run run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true);
        pb.environment().remove("TAS_JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }
}
