package io.tas.api;

import io.tas.support.ServerPool;
import org.junit.jupiter.api.BeforeEach;

/**
 * As SharedServerTest, on the "engine" pool's server of the database: the tests that add instruments to trade on
 * (issue 25) use their own demo world, so the shared one's metadata rows stay exactly the demo's (MetadataApiTest).
 */
abstract class EngineServerTest extends SharedServerTest {
    @BeforeEach
    void startOnEngineServer() {
        server = ServerPool.next(kind, "engine");
        admin = new Admin(server);
    }
}
