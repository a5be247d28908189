package io.tas.api;

import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Two nodes on one PostgreSQL database, for the tests of what one node's change does on the other. */
public abstract class TwoNodesTest {
    protected static TestServer a;
    protected static TestServer b;

    @BeforeAll
    protected static void startNodes() {
        // Rate limits off: the tests drive and poll one UID's rows many times on a clock that never moves.
        a = TestServer.start(Databases.Kind.POSTGRES, new MutableClock(System.currentTimeMillis()), false);
        b = TestServer.secondNode(a, false);
    }

    @AfterAll
    protected static void stopNodes() {
        if (b != null) b.close();
        if (a != null) a.close();
    }
}
