package io.tas.proof;

import io.tas.config.Config;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tas.support.ServerProcess.adminPost;
import static io.tas.support.ServerProcess.freePort;
import static io.tas.support.ServerProcess.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 9: secrets. A full run of the built service (a seed file with keys, keys created through the admin
 * API, signed calls, refused ones with a wrong passphrase and a wrong secret) under a master key of its own; then the
 * raw api_key table holds no secret or passphrase in plain text, Base64 or hex, and the run's whole log (stdout and
 * stderr) holds none of them, nor the master key or the admin token. The admin listener binds to loopback by default.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class SecretsIT {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The demo seed's keys: the seed file of this run gives each a fresh secret and passphrase. */
    private static final List<Credentials> SEEDED = List.of(Credentials.MAIN_RW, Credentials.MAIN_RO, Credentials.SUB, Credentials.CLASSIC);

    @Parameter Databases.Kind kind;

    @Test
    void secretsAreEncryptedAtRestAndNeverLogged(@TempDir Path dir) throws Exception {
        Databases.TestDb db = kind == Databases.Kind.POSTGRES ? Databases.create(kind) : null;
        String url = db != null ? db.url() : "jdbc:h2:file:" + dir.resolve("secrets").toAbsolutePath();
        String user = db != null ? db.user() : "sa";
        String masterKey = "secrets-it-master-" + random(24);
        Map<String, String> secrets = new LinkedHashMap<>(); // what it is -> the value that must appear nowhere
        secrets.put("master key", masterKey);
        secrets.put("admin token", TestServer.ADMIN_TOKEN);

        // A seed file with keys: the demo scenario with this run's own secrets and passphrases.
        String seed = Files.readString(Path.of("src/main/resources/seeds/demo.yaml"));
        List<Credentials> seeded = new ArrayList<>();
        for (Credentials c : SEEDED) {
            Credentials fresh = new Credentials(c.key(), "seed-secret-" + random(24), "SeedPass" + random(10));
            seed = seed.replace("secret: " + c.secret(), "secret: " + fresh.secret()).replace("passphrase: " + c.passphrase(), "passphrase: " + fresh.passphrase());
            seeded.add(fresh);
            secrets.put("seeded secret of " + c.key(), fresh.secret());
            secrets.put("seeded passphrase of " + c.key(), fresh.passphrase());
        }
        Path seedFile = dir.resolve("seed.yaml");
        Files.writeString(seedFile, seed);

        int port = freePort(), adminPort = freePort();
        Path log = dir.resolve("server.log");
        Process server = start(url, port, adminPort, log.toFile(), Map.of("TAS_MASTER_KEY", masterKey), "--seed", seedFile.toString());
        String base = "http://127.0.0.1:" + port, admin = "http://127.0.0.1:" + adminPort;
        int signedOk = 0, refused = 0;
        try {
            assertAdminOnLoopbackOnly(port, adminPort);
            for (Credentials c : seeded) {
                Reply r = new ApiClient(base, c, Clock.systemUTC()).get("/api/v3/account/settings");
                if (r.code().equals("00000")) signedOk++;
                else assertThat(r.status()).isLessThan(500); // a classic key on a unified row: refused, still no secret logged
            }
            // Keys created through the admin API: the secret is shown once, in the answer, and never again.
            for (int i = 0; i < 3; i++) {
                String passphrase = "AdminPass" + random(10);
                Reply key = adminPost(admin, "/admin/v1/keys", "{\"uid\":1000000001,\"passphrase\":\"" + passphrase
                        + "\",\"permType\":\"read-and-write\",\"permissions\":[\"uta_mgt\"]}");
                assertThat(key.code()).isEqualTo("00000");
                Credentials created = new Credentials(key.data().get("accessKey").asText(), key.data().get("secret").asText(), passphrase);
                secrets.put("admin-created secret " + created.key(), created.secret());
                secrets.put("admin-created passphrase " + created.key(), passphrase);
                assertThat(new ApiClient(base, created, Clock.systemUTC()).get("/api/v3/account/settings").code()).isEqualTo("00000");
                signedOk++;
                // Refused calls: a wrong passphrase, a signature made with a wrong secret.
                String wrongPassphrase = "WrongPass" + random(10), wrongSecret = "wrong-secret-" + random(24);
                secrets.put("wrong passphrase", wrongPassphrase);
                secrets.put("wrong secret", wrongSecret);
                assertThat(new ApiClient(base, created.withPassphrase(wrongPassphrase), Clock.systemUTC()).get("/api/v3/account/settings").code())
                        .isEqualTo("40012");
                assertThat(new ApiClient(base, created.withSecret(wrongSecret), Clock.systemUTC()).get("/api/v3/account/settings").code())
                        .isEqualTo("40009");
                refused += 2;
            }
        } finally {
            server.destroy(); // SIGTERM: a graceful stop, which also logs
            server.waitFor();
        }
        try {
            List<String> rows = rawApiKeyRows(url, user);
            assertThat(rows).hasSizeGreaterThanOrEqualTo(seeded.size() + 3);
            List<String> atRest = leaks(String.join("\n", rows), secrets, true);
            assertThat(atRest).as("secrets in the raw api_key table").isEmpty();
            String logText = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(logText).contains("listening on"); // the log is the run's
            List<String> logged = leaks(logText, secrets, false);
            assertThat(logged).as("secrets in the log").isEmpty();
            io.tas.support.Proof.figure("secrets (%s): %d secrets/passphrases/tokens checked; api_key table: %d rows, 0 in plain/Base64/hex; "
                            + "log of the run (%d lines, %d signed calls ok, %d refused): 0 hits; admin listener default host %s%n",
                    kind, secrets.size(), rows.size(), logText.lines().count(), signedOk, refused, Config.fromEnv(Map.of()).adminHost());
        } finally {
            if (db != null) db.close();
        }
    }

    /** The default admin host is loopback, and a default server's admin port is closed on this machine's other addresses. */
    private static void assertAdminOnLoopbackOnly(int port, int adminPort) throws IOException {
        assertThat(Config.fromEnv(Map.of()).adminHost()).isEqualTo("127.0.0.1");
        Optional<InetAddress> other = NetworkInterface.networkInterfaces().filter(n -> !isLoopback(n))
                .flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).findFirst();
        if (other.isEmpty()) {
            io.tas.support.Proof.print("secrets: this machine has only loopback addresses; the admin refusal on another address is not checked");
            return;
        }
        try (Socket api = new Socket()) {
            api.connect(new InetSocketAddress(other.get(), port), 2_000); // the API listens on every address
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(other.get(), adminPort), 2_000);
            throw new AssertionError("the admin port answered on " + other.get());
        } catch (ConnectException refused) {
            io.tas.support.Proof.print("secrets: admin port refused on " + other.get().getHostAddress() + ", API port open there");
        }
    }

    private static boolean isLoopback(NetworkInterface n) {
        try {
            return n.isLoopback() || !n.isUp();
        } catch (IOException e) {
            return true;
        }
    }

    /** Every column of every api_key row, as text. */
    private static List<String> rawApiKeyRows(String url, String user) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, user, ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select * from api_key")) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) row.append(md.getColumnName(i)).append('=').append(rs.getString(i)).append(' ');
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** The names of the secrets found in text: verbatim, and with encodings also as Base64 and hex of their bytes. */
    private static List<String> leaks(String text, Map<String, String> secrets, boolean encodings) {
        List<String> found = new ArrayList<>();
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        secrets.forEach((what, value) -> {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            if (text.contains(value)) found.add(what + " (plain)");
            if (encodings && (text.contains(Base64.getEncoder().withoutPadding().encodeToString(bytes))
                    || text.contains(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes)))) found.add(what + " (Base64)");
            if (encodings && lower.contains(HexFormat.of().formatHex(bytes))) found.add(what + " (hex)");
        });
        return found;
    }

    private static String random(int n) {
        String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) sb.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        return sb.toString();
    }
}
