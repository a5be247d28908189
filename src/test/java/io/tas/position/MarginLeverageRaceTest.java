package io.tas.position;

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
 * Issue 8: set-margin racing set-leverage on one isolated position, 32 clients at once: the ledger stays conserved and
 * the position consistent (the race body and what it checks: {@link Races#marginAgainstLeverage}).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class MarginLeverageRaceTest {
    @Parameter Databases.Kind kind;

    @Test
    void setMarginAndSetLeverageLeaveThePositionConsistent() throws Exception {
        try (TestServer server = TestServer.start(kind, Clock.systemUTC(), false)) {
            io.tas.support.Proof.print(Races.marginAgainstLeverage(List.of(server), 32).proof(kind + " 1 node"));
        }
    }
}
