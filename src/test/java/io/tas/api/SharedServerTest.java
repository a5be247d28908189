package io.tas.api;

import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

/**
 * The common start of API tests that run once per database (annotate the subclass with @ParameterizedClass and
 * @EnumSource(Databases.Kind.class)): the shared server of that database, one second later than the previous test
 * (every rate-limit bucket refilled), and its admin API.
 */
abstract class SharedServerTest {
    @Parameter Databases.Kind kind;
    TestServer server;
    Admin admin;

    @BeforeEach
    void startOnSharedServer() {
        server = ServerPool.next(kind);
        admin = new Admin(server);
    }
}
