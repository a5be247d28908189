package io.tas.ledger;

import io.tas.proof.Races;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.util.List;

/**
 * 64 clients race small-asset trades and debit adjustments on one account that holds just enough for K of each:
 * exactly K of each succeed, nothing goes negative, the ledger stays conserved (the race body: {@link Races#debits}).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RaceTest {
    @Parameter Databases.Kind kind;

    @Test
    void exactlyKOfEachSucceed() throws Exception {
        try (TestServer server = TestServer.start(kind, Clock.systemUTC(), false)) {
            io.tas.support.Proof.print(Races.debits(List.of(server), 64, 8).proof(kind + " 1 node"));
        }
    }
}
