package io.tas.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 24 item 9: every TAS_* setting is read in one place (Config.fromEnv, through Env), and a value a setting cannot
 * take stops the start with one clause naming the setting. Each case below was taken silently before: TAS_SANDBOX=true
 * meant off, a body cap of 2^31-1 bytes was accepted (its + 1 overflows), a negative conversion fee minted coins.
 */
class ConfigTest {
    private static Config.Invalid refused(Map<String, String> env) {
        try {
            Config.fromEnv(env);
        } catch (Config.Invalid e) {
            return e;
        }
        throw new AssertionError("accepted " + env);
    }

    @Test
    void onOffSettingsTakeOnOffTrueFalseAndNothingElse() {
        assertThat(Config.fromEnv(Map.of("TAS_SANDBOX", "true")).sandbox()).isTrue();
        assertThat(Config.fromEnv(Map.of("TAS_SANDBOX", "ON")).sandbox()).isTrue();
        assertThat(Config.fromEnv(Map.of("TAS_SANDBOX", "false")).sandbox()).isFalse();
        assertThat(Config.fromEnv(Map.of("TAS_CACHE", "false")).cacheEnabled()).isFalse();
        assertThat(Config.fromEnv(Map.of("TAS_RATE_LIMITS", "false")).rateLimitsEnabled()).isFalse();
        for (String name : List.of("TAS_SANDBOX", "TAS_CACHE", "TAS_RATE_LIMITS", "TAS_SIMULATED_EXECUTION", "TAS_PRICE_FEED")) {
            assertThat(refused(Map.of(name, "yes")).getMessage()).isEqualTo(name + " must be on or off (or true/false), not 'yes'");
        }
        assertThatThrownBy(() -> Config.onOffFlag("--cache", "flase")).hasMessage("--cache must be on or off (or true/false), not 'flase'");
    }

    @Test
    void numbersOutsideTheirRangeStopTheStartNamingTheSetting() {
        assertThat(refused(Map.of("TAS_MAX_BODY_BYTES", "2147483647")).getMessage()).isEqualTo("TAS_MAX_BODY_BYTES must be 1024..16777216, not 2147483647");
        assertThat(refused(Map.of("TAS_SEED_MAX_BYTES", "99999999999")).getMessage()).startsWith("TAS_SEED_MAX_BYTES must be 1024..");
        assertThat(refused(Map.of("TAS_PORT", "70000")).getMessage()).isEqualTo("TAS_PORT must be 0..65535, not 70000");
        assertThat(refused(Map.of("TAS_PORT", "eighty")).getMessage()).isEqualTo("TAS_PORT must be a whole number, not 'eighty'");
        assertThat(refused(Map.of("TAS_NODE_ID", "1024")).getMessage()).isEqualTo("TAS_NODE_ID must be 0..1023, not 1024");
        assertThat(refused(Map.of("TAS_DB_POOL_SIZE", "0")).getMessage()).isEqualTo("TAS_DB_POOL_SIZE must be 1..1000, not 0");
        assertThat(refused(Map.of("TAS_REDIS_TIMEOUT_MS", "0")).getMessage()).isEqualTo("TAS_REDIS_TIMEOUT_MS must be 1..60000 ms, got 0");
        assertThat(refused(Map.of("TAS_RATE_LIMIT_NODES", "0")).getMessage()).isEqualTo("TAS_RATE_LIMIT_NODES must be 1..1024, not 0");
    }

    @Test
    void moneySettingsCannotMintOrTakeCoins() {
        assertThat(refused(Map.of("TAS_CONVERT_FEE_RATE", "-0.01")).getMessage()).isEqualTo("TAS_CONVERT_FEE_RATE must be at least 0 and below 1, not -0.01");
        assertThat(refused(Map.of("TAS_CONVERT_FEE_RATE", "1")).getMessage()).isEqualTo("TAS_CONVERT_FEE_RATE must be at least 0 and below 1, not 1");
        assertThat(refused(Map.of("TAS_CONVERT_FEE_RATE", "2%")).getMessage()).isEqualTo("TAS_CONVERT_FEE_RATE must be a decimal number, not '2%'");
        assertThat(refused(Map.of("TAS_SMALL_ASSET_USDT", "0")).getMessage()).startsWith("TAS_SMALL_ASSET_USDT must be above 0");
        assertThat(refused(Map.of("TAS_DELTA_POSITION_THRESHOLD", "1.5")).getMessage()).startsWith("TAS_DELTA_POSITION_THRESHOLD must be at least 0 and at most 1");
        assertThat(refused(Map.of("TAS_PLATFORM_TOKEN", "bgb")).getMessage()).startsWith("TAS_PLATFORM_TOKEN must be a coin");
        Config c = Config.fromEnv(Map.of("TAS_CONVERT_FEE_RATE", "0", "TAS_PLATFORM_TOKEN", "BGB"));
        assertThat(c.features().convert().feeRate()).isEqualByComparingTo("0");
    }

    @Test
    void everyProblemIsNamedAtOnceAndUnknownNamesAreOnlyLogged() {
        Config.Invalid e = refused(Map.of("TAS_PORT", "x", "TAS_CACHE", "maybe", "TAS_DB_URL", "mysql://db"));
        assertThat(e.getMessage()).contains("TAS_PORT must be a whole number", "TAS_CACHE must be on or off", "TAS_DB_URL must be a jdbc:h2: or jdbc:postgresql: URL");
        // A typo is logged as unknown rather than refused: the launcher's own and the test harness's names are known.
        assertThat(Config.fromEnv(Map.of("TAS_REDIS_ULR", "redis://x", "TAS_JAVA_OPTS", "-Xmx1g")).redisUrl()).isNull();
        assertThat(new Env(Map.of("TAS_REDIS_ULR", "x", "TAS_JAVA_OPTS", "y", "PATH", "/bin")).unknown()).containsExactly("TAS_REDIS_ULR");
    }

    /**
     * The rule itself: no class but Config (and its reader Env) names a TAS_* variable of the service. Before, eleven
     * classes read their own (Health, SlowClients, RealityConfig, JobsConfig, ...).
     */
    @Test
    void everySettingIsReadInOnePlace() throws IOException {
        Pattern name = Pattern.compile("\"(TAS_[A-Z0-9_]+)\"");
        TreeSet<String> elsewhere = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.endsWith(Path.of("config", "Config.java")) || f.endsWith(Path.of("config", "Env.java"))) continue;
                Matcher m = name.matcher(Files.readString(f));
                while (m.find()) elsewhere.add(f.getFileName() + ": " + m.group(1));
            }
        }
        assertThat(elsewhere).isEmpty();
    }
}
