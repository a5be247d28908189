import io.helidon.webserver.WebServer;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The web server TAS runs on, doing nothing else: Helidon SE (the version in target/libs) answering every request with
 * the captured body, with TAS's listener options (TCP_NODELAY). bench/run's `helidon-baseline` target runs it as a
 * single-file program: `java -cp 'target/libs/*' bench/helidon/HelidonBaseline.java PORT BODY_FILE`. Set against raw
 * Netty it shows what the web server itself costs; set against TAS, what TAS's own work per request costs.
 */
public final class HelidonBaseline {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        byte[] body = Files.readAllBytes(Path.of(args[1]));
        WebServer.builder().host("127.0.0.1").port(port)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .routing(r -> r.any((req, res) -> {
                    res.header("Content-Type", "application/json");
                    res.send(body);
                }))
                .build().start();
        Thread.currentThread().join();
    }
}
